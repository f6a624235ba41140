#include "core/data/delimited_parser.h"

#include <algorithm>
#include <array>

#include "core/data/text_cells.h"
#include "core/util/error.h"

namespace pfa::detail {

namespace {

// Delimiter detection looks at no more records than this.
constexpr std::size_t kMaxDetectRecords = 50;

}  // namespace

bool isBlankLine(std::string_view line, bool trim, char delimiter) {
    if (line.empty()) return true;
    if (!trim) return false;
    return std::all_of(line.begin(), line.end(), [&](char c) { return isTrimmable(c, delimiter); });
}

bool isCommentLine(std::string_view line, const std::string& prefix) {
    return !prefix.empty() && line.substr(0, prefix.size()) == prefix;
}

/// Picks the delimiter among , ; tab | from the first records of `head`: the candidate
/// present in the first record whose count agrees with the first record's in most records.
char detectDelimiter(std::string_view head, bool headIsAll, const Schema& schema,
                     const std::string& file) {
    static constexpr std::array<char, 4> kCandidates = {',', ';', '\t', '|'};
    std::vector<std::array<std::size_t, 4>> counts;
    std::array<std::size_t, 4> current{};
    bool inQuotes = false;
    bool fieldStart = true;  // only a quote at the start of a field opens a quoted field
    std::size_t lineStart = 0;
    bool recordStart = true;
    bool skipLine = false;
    for (std::size_t i = 0; i <= head.size() && counts.size() < kMaxDetectRecords; ++i) {
        const bool atEnd = i == head.size();
        if (recordStart) {
            // Decide whether this physical line is blank or a comment.
            std::size_t e = head.find_first_of("\r\n", lineStart);
            if (e == std::string_view::npos) e = head.size();
            const std::string_view line = head.substr(lineStart, e - lineStart);
            skipLine = isBlankLine(line, schema.trimWhitespace, 0) ||
                       isCommentLine(line, schema.commentPrefix);
            recordStart = false;
        }
        const char c = atEnd ? '\n' : head[i];
        if (inQuotes) {
            if (c == '"') {
                if (i + 1 < head.size() && head[i + 1] == '"')
                    ++i;  // a doubled quote stays inside
                else
                    inQuotes = false;
            }
            continue;
        }
        if (c == '\n' || c == '\r') {
            if (!skipLine && (!atEnd || headIsAll)) counts.push_back(current);
            current = {};
            lineStart = i + 1;
            recordStart = true;
            fieldStart = true;
            continue;
        }
        if (c == '"' && fieldStart) {
            inQuotes = true;
            continue;
        }
        bool isCandidate = false;
        for (std::size_t k = 0; k < kCandidates.size(); ++k) {
            if (c != kCandidates[k]) continue;
            isCandidate = true;
            if (!skipLine) ++current[k];
        }
        // Spaces may precede an opening quote; anything else ends the field start.
        if (isCandidate)
            fieldStart = true;
        else if (c != ' ' && c != '\t')
            fieldStart = false;
    }
    // Nothing to go on (only comments, or one enormous line): fall back to ',' and let the
    // parser report what is really wrong (no data rows, ragged rows, ...).
    if (counts.empty()) return ',';
    int best = -1;
    std::size_t bestAgree = 0, bestCount = 0;
    for (int k = 0; k < 4; ++k) {
        const std::size_t first = counts[0][static_cast<std::size_t>(k)];
        if (first == 0) continue;
        const auto agree = static_cast<std::size_t>(
            std::count_if(counts.begin(), counts.end(),
                          [&](const auto& c) { return c[static_cast<std::size_t>(k)] == first; }));
        if (best < 0 || agree > bestAgree || (agree == bestAgree && first > bestCount)) {
            best = k;
            bestAgree = agree;
            bestCount = first;
        }
    }
    if (best < 0)
        throw DataFileError(file, 0, "",
                            "cannot detect the delimiter: none of ',', ';', tab or '|' occurs in "
                            "the first line; set Schema.delimiter explicitly");
    return kCandidates[static_cast<std::size_t>(best)];
}

RecordParser::RecordParser(LineReader& lines, char delimiter, const Schema& schema)
    : m_lines(lines),
      m_delim(delimiter),
      m_trim(schema.trimWhitespace),
      m_comment(schema.commentPrefix) {}

bool RecordParser::next(Record& r) {
    std::string_view line;
    for (;;) {
        if (!m_lines.next(line)) return false;
        if (isBlankLine(line, m_trim, m_delim) || isCommentLine(line, m_comment)) continue;
        break;
    }
    r.line = m_lines.line();
    r.count = 0;
    std::size_t i = 0;
    for (;;) {  // one iteration per field
        if (r.count == r.fields.size()) {
            r.fields.emplace_back();
            r.fieldLine.push_back(0);
        }
        std::string& f = r.fields[r.count];
        f.clear();
        r.fieldLine[r.count] = m_lines.line();
        if (m_trim)
            while (i < line.size() && isTrimmable(line[i], m_delim)) ++i;
        if (i < line.size() && line[i] == '"') {
            ++i;
            const long openLine = m_lines.line();
            for (;;) {
                const std::size_t q = line.find('"', i);
                if (q == std::string_view::npos) {
                    f.append(line.substr(i));
                    f.push_back('\n');  // the field continues on the next line
                    if (!m_lines.next(line)) {
                        if (m_tolerateCut) return false;
                        throw DataFileError(m_lines.file(), openLine, name(r.count),
                                            "unterminated quoted field: the quote opened on "
                                            "this line is never closed");
                    }
                    i = 0;
                    continue;
                }
                f.append(line.substr(i, q - i));
                if (q + 1 < line.size() && line[q + 1] == '"') {
                    f.push_back('"');
                    i = q + 2;
                    continue;
                }
                i = q + 1;
                break;
            }
            while (i < line.size() && isTrimmable(line[i], m_delim)) ++i;
            if (i < line.size() && line[i] != m_delim)
                throw DataFileError(m_lines.file(), m_lines.line(), name(r.count),
                                    "unexpected text after a closing quote (" +
                                        quoteCell(line.substr(i, 20)) +
                                        "); a quote inside a quoted field must be doubled");
        } else {
            std::size_t e = line.find(m_delim, i);
            if (e == std::string_view::npos) e = line.size();
            std::size_t end = e;
            if (m_trim)
                while (end > i && isTrimmable(line[end - 1], m_delim)) --end;
            f.append(line.substr(i, end - i));
            i = e;
        }
        ++r.count;
        if (i < line.size()) {  // at a delimiter: another field follows (maybe empty)
            ++i;
            continue;
        }
        return true;
    }
}

std::string RecordParser::name(std::size_t index) const {
    if (m_names && index < m_names->size()) return (*m_names)[index];
    return "column " + std::to_string(index + 1);
}

}  // namespace pfa::detail
