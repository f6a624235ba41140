#pragma once

// Internal building block of the data-file readers: RFC 4180 records of a delimited text file
// and delimiter detection. Not a public API.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/line_reader.h"
#include "core/data/schema.h"

namespace pfa::detail {

/// One record (row) of a data file, as text fields.
struct Record {
    std::vector<std::string> fields;  ///< only the first `count` are valid (strings are reused)
    std::vector<long> fieldLine;      ///< physical line where each field starts
    std::size_t count = 0;            ///< number of fields
    long line = 0;                    ///< physical line where the record starts
};

/// True for the spaces and tabs that trimming removes (never the delimiter itself).
inline bool isTrimmable(char c, char delimiter) {
    return (c == ' ' || c == '\t') && c != delimiter;
}

/// True for an empty line, or (with `trim`) one of only trimmable characters.
bool isBlankLine(std::string_view line, bool trim, char delimiter);

/// True when `prefix` is non-empty and `line` starts with it.
bool isCommentLine(std::string_view line, const std::string& prefix);

/// Picks the delimiter among , ; tab | from the first records of `head` (blank and comment
/// lines skipped, quotes respected): the candidate present in the first record whose count
/// agrees with the first record's in most records. ',' when there is nothing to go on;
/// DataFileError when none of them occurs in the first record.
char detectDelimiter(std::string_view head, bool headIsAll, const Schema& schema,
                     const std::string& file);

/// Splits the lines of a LineReader into RFC 4180 records (quoted fields may hold delimiters,
/// doubled quotes and line breaks), skipping blank and comment lines.
class RecordParser {
public:
    RecordParser(LineReader& lines, char delimiter, const Schema& schema);

    /// Column names for error messages (may be null while reading the header).
    void setNames(const std::vector<std::string>* names) { m_names = names; }

    /// When set, a quoted field left open at the end of the input ends the input instead of
    /// raising an error (for a preview of a file prefix that may cut a record in half).
    void setTolerateCutAtEnd(bool tolerate) { m_tolerateCut = tolerate; }

    /// Reads the next record; false at the end of the input.
    bool next(Record& r);

    /// The name of column `index` for messages ("column N" when unknown).
    std::string name(std::size_t index) const;

private:
    LineReader& m_lines;
    char m_delim;
    bool m_trim;
    std::string m_comment;
    const std::vector<std::string>* m_names = nullptr;
    bool m_tolerateCut = false;
};

}  // namespace pfa::detail
