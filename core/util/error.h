#pragma once

#include <stdexcept>
#include <string>

namespace pfa {

/// Raised for invalid user input: a bad configuration value, a malformed data file, an
/// impossible privacy budget. The message is complete and meant to be shown to the user as is.
class InputError : public std::runtime_error {
public:
    explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

/// Raised for a malformed data file; the message names file, line and column.
class DataFileError : public InputError {
public:
    DataFileError(const std::string& file, long line, const std::string& column,
                  const std::string& problem)
        : InputError(format(file, line, column, problem)),
          m_file(file),
          m_line(line),
          m_column(column) {}

    const std::string& file() const { return m_file; }
    /// 1-based physical line number, or 0 when the problem is not tied to one line.
    long line() const { return m_line; }
    /// Column name (or "column N"), or empty when not tied to one column.
    const std::string& column() const { return m_column; }

private:
    static std::string format(const std::string& file, long line, const std::string& column,
                              const std::string& problem) {
        // Built with append(): GCC 12 reports a false -Wrestrict for `"literal" + string`.
        std::string where = file;
        if (line > 0) where.append(":").append(std::to_string(line));
        if (!column.empty()) where.append(" (column '").append(column).append("')");
        return where.append(": ").append(problem);
    }

    std::string m_file;
    long m_line;
    std::string m_column;
};

}  // namespace pfa
