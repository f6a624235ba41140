#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace pfa::cli {

/// A bad command line; main() prints the one-line reason and exits with status 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// `--name value`, `--name=value` and bare `--flag` options of one subcommand.
class Arguments {
public:
    /// Parses argv[first..]; `valued` lists options that take a value, `flags` those that
    /// do not. Anything else is a UsageError.
    Arguments(int argc, char** argv, int first, const std::set<std::string>& valued,
              const std::set<std::string>& flags);

    bool has(const std::string& name) const { return m_values.count(name) > 0; }
    std::string text(const std::string& name, const std::string& fallback = "") const;
    double number(const std::string& name, double fallback) const;
    long integer(const std::string& name, long fallback) const;
    /// Comma-separated numbers and log:FROM:TO:COUNT / lin:FROM:TO:COUNT generators
    /// (parseNumberList in core/util/number_list.h); "inf" allowed when `allowInfinity`.
    std::vector<double> numberList(const std::string& name, const std::vector<double>& fallback,
                                   bool allowInfinity) const;
    /// "A-B" (inclusive range) or a comma-separated list of non-negative integers.
    std::vector<std::uint64_t> seedList(const std::string& name,
                                        const std::vector<std::uint64_t>& fallback) const;

    static double parseNumber(const std::string& option, const std::string& text,
                              bool allowInfinity);

private:
    std::map<std::string, std::string> m_values;
};

}  // namespace pfa::cli
