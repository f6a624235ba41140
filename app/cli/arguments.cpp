#include "app/cli/arguments.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/util/error.h"
#include "core/util/number_list.h"

namespace pfa::cli {

Arguments::Arguments(int argc, char** argv, int first, const std::set<std::string>& valued,
                     const std::set<std::string>& flags) {
    for (int i = first; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg.rfind("--", 0) != 0) throw UsageError("unexpected argument '" + arg + "'");
        std::string name = arg.substr(2);
        std::string value;
        bool hasInlineValue = false;
        if (const auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
            hasInlineValue = true;
        }
        if (flags.count(name)) {
            if (hasInlineValue) throw UsageError("option --" + name + " takes no value");
            m_values.insert_or_assign(name, std::string(1, '1'));
            continue;
        }
        if (!valued.count(name)) throw UsageError("unknown option --" + name);
        if (!hasInlineValue) {
            if (i + 1 >= argc) throw UsageError("option --" + name + " needs a value");
            value = argv[++i];
        }
        if (m_values.count(name)) throw UsageError("option --" + name + " given twice");
        m_values[name] = value;
    }
}

std::string Arguments::text(const std::string& name, const std::string& fallback) const {
    const auto it = m_values.find(name);
    return it == m_values.end() ? fallback : it->second;
}

double Arguments::parseNumber(const std::string& option, const std::string& text,
                              bool allowInfinity) {
    if (allowInfinity && (text == "inf" || text == "Inf" || text == "INF" || text == "∞")) {
        return std::numeric_limits<double>::infinity();
    }
    errno = 0;
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE ||
        !std::isfinite(value)) {
        throw UsageError("--" + option + ": '" + text + "' is not a " +
                         (allowInfinity ? "number or inf" : "finite number"));
    }
    return value;
}

double Arguments::number(const std::string& name, double fallback) const {
    return has(name) ? parseNumber(name, text(name), false) : fallback;
}

long Arguments::integer(const std::string& name, long fallback) const {
    if (!has(name)) return fallback;
    const std::string value = text(name);
    errno = 0;
    char* end = nullptr;
    const long parsed = std::strtol(value.c_str(), &end, 10);
    if (value.empty() || end != value.c_str() + value.size() || errno == ERANGE) {
        throw UsageError("--" + name + ": '" + value + "' is not an integer");
    }
    return parsed;
}

std::vector<double> Arguments::numberList(const std::string& name,
                                          const std::vector<double>& fallback,
                                          bool allowInfinity) const {
    if (!has(name)) return fallback;
    try {
        return parseNumberList(text(name), allowInfinity);
    } catch (const InputError& error) {
        throw UsageError("--" + name + ": " + error.what());
    }
}

std::vector<std::uint64_t> Arguments::seedList(const std::string& name,
                                               const std::vector<std::uint64_t>& fallback) const {
    if (!has(name)) return fallback;
    const std::string value = text(name);
    auto parseSeed = [&](const std::string& item) -> std::uint64_t {
        if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos ||
            item.size() > 19) {
            throw UsageError("--" + name + ": '" + item + "' is not a non-negative integer seed");
        }
        return std::stoull(item);
    };
    std::vector<std::uint64_t> seeds;
    if (const auto dash = value.find('-');
        dash != std::string::npos && value.find(',') == std::string::npos) {
        const std::uint64_t from = parseSeed(value.substr(0, dash));
        const std::uint64_t to = parseSeed(value.substr(dash + 1));
        if (to < from) throw UsageError("--" + name + ": range '" + value + "' is empty");
        if (to - from > 100000)
            throw UsageError("--" + name + ": range '" + value + "' is too large");
        for (std::uint64_t s = from; s <= to; ++s) seeds.push_back(s);
        return seeds;
    }
    std::size_t start = 0;
    while (start <= value.size()) {
        const std::size_t comma = value.find(',', start);
        seeds.push_back(parseSeed(
            value.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return seeds;
}

}  // namespace pfa::cli
