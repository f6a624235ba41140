#pragma once

// Internal building block of the data-file readers: the header and the data lines of a Weka
// ARFF file (dense format). Not a public API; see arff_reader.h for the format as supported.

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/data/delimited_parser.h"
#include "core/data/line_reader.h"

namespace pfa::detail {

/// The supported attribute types.
enum class ArffType {
    Numeric,  ///< numeric, real or integer
    Nominal,  ///< {a, b, 'c d'}: the declared values, in header order
    String,   ///< free text
};

/// One `@attribute` line.
struct ArffAttribute {
    std::string name;
    ArffType type = ArffType::Numeric;
    std::vector<std::string> levels;  ///< Nominal only: the declared values, in order
    long line = 0;                    ///< physical line of the declaration
};

/// The header of an ARFF file (everything before the data rows).
struct ArffHeader {
    std::string relation;  ///< the @relation name
    std::vector<ArffAttribute> attributes;
    long dataLine = 0;  ///< physical line of "@data"
};

/// True when the first line of `head` that is neither blank nor a '%' comment starts with
/// "@relation" (in any letter case): how a file is recognised as ARFF by its content.
bool looksLikeArff(std::string_view head);

/// Reads the header from `lines` up to and including the "@data" line. Raises DataFileError
/// (file, line and, where it applies, attribute) for anything it does not support or
/// understand: no @relation first, date/relational/unknown types, an unterminated quote or
/// value list, a duplicate attribute or value, no attribute, no @data.
ArffHeader readArffHeader(LineReader& lines);

/// Splits the data lines that follow the header into records: comma-separated values, single
/// or double quotes (with backslash escapes), '%' comments, blank lines skipped. An unquoted
/// '?' (the ARFF missing value) becomes an empty (missing) field. Nominal values must be among
/// the declared ones (`missingToken` excepted). Sparse rows ("{0 x, 3 y}") and instance
/// weights raise DataFileError, as do rows with the wrong number of values.
class ArffRecordReader {
public:
    /// `lines` must be positioned after readArffHeader(); `header` must outlive the reader.
    ArffRecordReader(LineReader& lines, const ArffHeader& header, std::string missingToken);

    /// Reads the next data record; false at the end of the input.
    bool next(Record& r);

private:
    LineReader& m_lines;
    const ArffHeader& m_header;
    std::string m_missingToken;
    std::vector<std::unordered_set<std::string>> m_levelSets;  // per nominal attribute
};

}  // namespace pfa::detail
