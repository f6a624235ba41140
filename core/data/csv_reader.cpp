#include "core/data/csv_reader.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <set>
#include <system_error>
#include <unordered_map>
#include <utility>

namespace pfa {

namespace {

// Binary check and delimiter detection look at this many leading bytes.
constexpr std::size_t kSniffBytes = std::size_t{64} * 1024;
// Read granularity; the buffer only grows beyond it for longer lines.
constexpr std::size_t kChunkBytes = std::size_t{256} * 1024;
// Records between progress callbacks.
constexpr std::size_t kProgressEvery = 4096;
constexpr std::size_t kMaxGroups = 64;
constexpr std::size_t kMaxDetectRecords = 50;

std::string quoteValue(std::string_view s) {
    // Keep messages readable even when a cell is huge.
    constexpr std::size_t kMax = 60;
    std::string out = "'";
    if (s.size() > kMax) {
        out.append(s.substr(0, kMax));
        out += "...";
    } else {
        out.append(s);
    }
    return out + "'";
}

std::string delimiterName(char c) {
    if (c == '\t') return "tab";
    if (c == ' ') return "space";
    return std::string("'") + c + "'";
}

std::string joinQuoted(const std::vector<std::string>& items, std::size_t maxItems) {
    std::string out;
    for (std::size_t i = 0; i < items.size() && i < maxItems; ++i) {
        if (i) out += ", ";
        out += quoteValue(items[i]);
    }
    if (items.size() > maxItems) out += ", ... (" + std::to_string(items.size()) + " in all)";
    return out;
}

// ---------------------------------------------------------------------------------------
// Byte sources: a file read in chunks, or a string_view.

class ByteSource {
public:
    virtual ~ByteSource() = default;
    /// Reads up to n bytes; returns 0 at the end.
    virtual std::size_t read(char* dst, std::size_t n) = 0;
};

class FileSource : public ByteSource {
public:
    explicit FileSource(const std::string& path)
        : m_path(path), m_file(std::fopen(path.c_str(), "rb")) {
        if (!m_file)
            throw DataFileError(
                path, 0, "",
                "cannot be opened for reading (" + std::string(std::strerror(errno)) + ")");
    }
    ~FileSource() override {
        if (m_file) std::fclose(m_file);
    }
    FileSource(const FileSource&) = delete;
    FileSource& operator=(const FileSource&) = delete;

    std::size_t read(char* dst, std::size_t n) override {
        const std::size_t got = std::fread(dst, 1, n, m_file);
        if (got < n && std::ferror(m_file))
            throw DataFileError(m_path, 0, "",
                                "read error (" + std::string(std::strerror(errno)) + ")");
        return got;
    }

private:
    std::string m_path;
    std::FILE* m_file;
};

class TextSource : public ByteSource {
public:
    explicit TextSource(std::string_view text) : m_text(text) {}
    std::size_t read(char* dst, std::size_t n) override {
        const std::size_t k = std::min(n, m_text.size() - m_pos);
        std::memcpy(dst, m_text.data() + m_pos, k);
        m_pos += k;
        return k;
    }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
};

// ---------------------------------------------------------------------------------------
// Text sniffing: reject binary files early with a clear message.

/// Offset of the first invalid UTF-8 byte, or npos. A sequence cut off by the end of the
/// window is accepted when more data follows.
std::size_t invalidUtf8Offset(std::string_view s, bool moreFollows) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned c = p[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t len;
        std::uint32_t cp;
        if ((c & 0xE0) == 0xC0) {
            len = 2, cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3, cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            len = 4, cp = c & 0x07;
        } else {
            return i;
        }
        if (i + len > n) return moreFollows ? std::string_view::npos : i;
        for (std::size_t k = 1; k < len; ++k) {
            if ((p[i + k] & 0xC0) != 0x80) return i;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        const bool overlong =
            (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
        if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
        i += len;
    }
    return std::string_view::npos;
}

long lineOfOffset(std::string_view s, std::size_t offset) {
    return 1 + static_cast<long>(std::count(s.begin(), s.begin() + offset, '\n'));
}

// ---------------------------------------------------------------------------------------
// LineReader: physical lines (LF, CRLF or CR) from a byte source, streamed in chunks.

class LineReader {
public:
    LineReader(ByteSource& source, std::string file) : m_source(source), m_file(std::move(file)) {
        m_buf.resize(kChunkBytes);
        while (m_end < kSniffBytes && !m_eof) fillOnce();
        if (m_end >= 3 && std::memcmp(m_buf.data(), "\xEF\xBB\xBF", 3) == 0) m_begin = 3;
        checkLooksLikeText();
    }

    /// The first bytes of the file (BOM removed), before any line is read.
    std::string_view head() const { return {m_buf.data() + m_begin, m_end - m_begin}; }
    /// True when head() is the whole file.
    bool headIsAll() const { return m_eof; }

    /// Next physical line without its terminator; valid until the next call.
    bool next(std::string_view& line) {
        std::size_t scan = m_begin;
        for (;;) {
            const char* b = m_buf.data();
            std::size_t p = scan;
            while (p < m_end && b[p] != '\n' && b[p] != '\r' && b[p] != '\0') ++p;
            if (p < m_end && b[p] == '\0')
                throw DataFileError(m_file, m_line + 1, "",
                                    "contains a NUL byte; it does not look like a text file");
            if (p < m_end) {
                std::size_t term = 1;
                if (b[p] == '\r') {
                    if (p + 1 == m_end && !m_eof) {  // CR at the chunk end: is it CRLF?
                        scan = p;
                        more(scan);
                        continue;
                    }
                    if (p + 1 < m_end && b[p + 1] == '\n') term = 2;
                }
                line = std::string_view(b + m_begin, p - m_begin);
                m_consumed += p + term - m_begin;
                m_begin = p + term;
                ++m_line;
                return true;
            }
            if (!m_eof) {
                scan = p;
                more(scan);
                continue;
            }
            if (m_begin < m_end) {  // last line without a terminator
                line = std::string_view(b + m_begin, m_end - m_begin);
                m_consumed += m_end - m_begin;
                m_begin = m_end;
                ++m_line;
                return true;
            }
            return false;
        }
    }

    /// 1-based number of the line last returned by next().
    long line() const { return m_line; }
    /// Bytes consumed so far (for progress).
    std::uint64_t consumed() const { return m_consumed; }
    const std::string& file() const { return m_file; }

private:
    void fillOnce() {
        if (m_end == m_buf.size()) m_buf.resize(m_buf.size() * 2);
        const std::size_t got = m_source.read(m_buf.data() + m_end, m_buf.size() - m_end);
        if (got == 0) m_eof = true;
        m_end += got;
    }

    // Makes room (compacting or growing) and reads more; `scan` is kept relative to the data.
    void more(std::size_t& scan) {
        if (m_begin > 0) {
            std::memmove(m_buf.data(), m_buf.data() + m_begin, m_end - m_begin);
            scan -= m_begin;
            m_end -= m_begin;
            m_begin = 0;
        }
        fillOnce();
    }

    void checkLooksLikeText() const {
        const std::string_view h = head();
        if (m_begin == 0 && h.size() >= 2 &&
            ((h[0] == '\xFF' && h[1] == '\xFE') || (h[0] == '\xFE' && h[1] == '\xFF')))
            throw DataFileError(m_file, 0, "",
                                "is UTF-16 encoded; it does not look like a UTF-8 text file "
                                "(save it as UTF-8)");
        const std::size_t nul = h.find('\0');
        if (nul != std::string_view::npos)
            throw DataFileError(m_file, lineOfOffset(h, nul), "",
                                "contains a NUL byte at byte " + std::to_string(nul + m_begin) +
                                    "; it does not look like a text file");
        const std::size_t bad = invalidUtf8Offset(h, !m_eof);
        if (bad != std::string_view::npos)
            throw DataFileError(m_file, lineOfOffset(h, bad), "",
                                "invalid UTF-8 at byte " + std::to_string(bad + m_begin) +
                                    "; it does not look like a text file (save it as UTF-8)");
    }

    ByteSource& m_source;
    std::string m_file;
    std::vector<char> m_buf;
    std::size_t m_begin = 0;
    std::size_t m_end = 0;
    bool m_eof = false;
    long m_line = 0;
    std::uint64_t m_consumed = 0;
};

// ---------------------------------------------------------------------------------------
// Small text helpers.

bool isTrimmable(char c, char delimiter) { return (c == ' ' || c == '\t') && c != delimiter; }

bool isBlankLine(std::string_view line, bool trim, char delimiter) {
    if (line.empty()) return true;
    if (!trim) return false;
    return std::all_of(line.begin(), line.end(), [&](char c) { return isTrimmable(c, delimiter); });
}

bool isCommentLine(std::string_view line, const std::string& prefix) {
    return !prefix.empty() && line.substr(0, prefix.size()) == prefix;
}

enum class NumberParse { Ok, NotANumber, NotFinite };

/// Parses a whole cell as a finite number (surrounding spaces and a leading '+' allowed).
NumberParse parseNumber(std::string_view s, double& out) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    if (!s.empty() && s.front() == '+') {
        s.remove_prefix(1);
        if (s.empty() || s.front() == '-' || s.front() == '+') return NumberParse::NotANumber;
    }
    if (s.empty()) return NumberParse::NotANumber;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (ptr != s.data() + s.size()) return NumberParse::NotANumber;
    if (ec == std::errc::result_out_of_range) return NumberParse::NotFinite;  // e.g. 1e999
    if (ec != std::errc()) return NumberParse::NotANumber;
    return std::isfinite(out) ? NumberParse::Ok : NumberParse::NotFinite;  // inf, nan
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

// ---------------------------------------------------------------------------------------
// RecordParser: RFC 4180 records (fields may span lines when quoted).

struct Record {
    std::vector<std::string> fields;  // only the first `count` are valid (strings are reused)
    std::vector<long> fieldLine;      // physical line where each field starts
    std::size_t count = 0;
    long line = 0;  // physical line where the record starts
};

class RecordParser {
public:
    RecordParser(LineReader& lines, char delimiter, const Schema& schema)
        : m_lines(lines),
          m_delim(delimiter),
          m_trim(schema.trimWhitespace),
          m_comment(schema.commentPrefix) {}

    /// Column names for error messages (may be null while reading the header).
    void setNames(const std::vector<std::string>* names) { m_names = names; }

    bool next(Record& r) {
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
                        if (!m_lines.next(line))
                            throw DataFileError(m_lines.file(), openLine, name(r.count),
                                                "unterminated quoted field: the quote opened on "
                                                "this line is never closed");
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
                                            quoteValue(line.substr(i, 20)) +
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

    std::string name(std::size_t index) const {
        if (m_names && index < m_names->size()) return (*m_names)[index];
        return "column " + std::to_string(index + 1);
    }

private:
    LineReader& m_lines;
    char m_delim;
    bool m_trim;
    std::string m_comment;
    const std::vector<std::string>* m_names = nullptr;
};

// ---------------------------------------------------------------------------------------
// TableBuilder: turns records into typed columns.

enum class Use { Ignore, Target, Sensitive, UserId, Feature };

struct ColumnPlan {
    Use use = Use::Ignore;
    int index = -1;  // feature or sensitive index
};

struct FeatureState {
    std::string name;
    ColumnRole role = ColumnRole::Auto;  // Numeric, Categorical or Auto
    const std::vector<std::string>* declared = nullptr;
    std::unordered_map<std::string, int> levelIndex;  // declared, or collected (unsorted codes)
    std::vector<int> codes;
    std::vector<double> numeric;
    bool numericSoFar = true;  // Auto: every value so far was a finite number
};

/// Interns `value` in `index` (codes in order of first appearance).
int intern(std::unordered_map<std::string, int>& index, const std::string& value) {
    return index.try_emplace(value, static_cast<int>(index.size())).first->second;
}

/// Sorts the interned strings; returns them and rewrites `codes` to the sorted order.
std::vector<std::string> sortInterned(const std::unordered_map<std::string, int>& index,
                                      std::vector<int>& codes) {
    std::vector<std::pair<std::string, int>> entries(index.begin(), index.end());
    std::sort(entries.begin(), entries.end());
    std::vector<int> remap(entries.size());
    std::vector<std::string> sorted;
    sorted.reserve(entries.size());
    for (std::size_t k = 0; k < entries.size(); ++k) {
        remap[static_cast<std::size_t>(entries[k].second)] = static_cast<int>(k);
        sorted.push_back(std::move(entries[k].first));
    }
    for (int& c : codes) c = remap[static_cast<std::size_t>(c)];
    return sorted;
}

class TableBuilder {
public:
    TableBuilder(const Schema& schema, std::string sourcesName)
        : m_schema(schema), m_sources(std::move(sourcesName)) {}

    bool hasColumns() const { return !m_names.empty(); }
    const std::vector<std::string>& names() const { return m_names; }

    /// Fixes the columns (from the first file's header or the schema) and plans their use.
    void setColumns(std::vector<std::string> names, const std::string& file, long headerLine) {
        m_names = std::move(names);
        auto find = [&](const std::string& col, const std::string& field) -> std::size_t {
            const auto it = std::find(m_names.begin(), m_names.end(), col);
            if (it == m_names.end())
                throw DataFileError(file, headerLine, col,
                                    "unknown column named in Schema." + field +
                                        "; the file's columns are: " + joinQuoted(m_names, 30));
            return static_cast<std::size_t>(it - m_names.begin());
        };
        m_plan.assign(m_names.size(), ColumnPlan{});
        m_targetColumn = find(m_schema.target, "target");
        m_plan[m_targetColumn] = {Use::Target, 0};
        for (std::size_t s = 0; s < m_schema.sensitive.size(); ++s) {
            const std::size_t c = find(m_schema.sensitive[s], "sensitive");
            m_plan[c] = {Use::Sensitive, static_cast<int>(s)};
            m_sensitiveColumns.push_back(c);
        }
        m_labelCache.resize(m_schema.sensitive.size());
        for (std::size_t s = 0; s < m_schema.sensitive.size(); ++s)
            m_description += (s ? " & " : "") + m_schema.sensitive[s];
        m_sensitiveLabelsSeen.resize(m_schema.sensitive.size());
        if (m_schema.userId) m_plan[find(*m_schema.userId, "userId")] = {Use::UserId, 0};
        for (const auto& entry : m_schema.columns) find(entry.first, "columns");
        for (std::size_t c = 0; c < m_names.size(); ++c) {
            if (m_plan[c].use != Use::Ignore) continue;  // target, sensitive or user id
            const auto it = m_schema.columns.find(m_names[c]);
            if (it != m_schema.columns.end() && it->second.role == ColumnRole::Ignore) continue;
            FeatureState fs;
            fs.name = m_names[c];
            if (it != m_schema.columns.end()) {
                fs.role = it->second.role;
                if (!it->second.levels.empty()) {
                    fs.declared = &it->second.levels;
                    for (const auto& level : it->second.levels) intern(fs.levelIndex, level);
                }
            }
            m_plan[c] = {Use::Feature, static_cast<int>(m_features.size())};
            m_features.push_back(std::move(fs));
        }
    }

    void beginFile(const std::string& file) {
        m_file = file;
        m_stats.push_back({});
        m_stats.back().file = file;
    }
    FileReadStats& fileStats() { return m_stats.back(); }

    void addRecord(const Record& r) {
        FileReadStats& st = m_stats.back();
        ++st.records;
        if (r.count != m_names.size()) {
            std::string problem = "expected " + std::to_string(m_names.size()) + " fields, found " +
                                  std::to_string(r.count);
            if (r.count == 1)
                problem += " (is the delimiter right? it is " + delimiterName(st.delimiter) + ")";
            throw DataFileError(m_file, r.line, "", problem);
        }
        // Missing values first, so that a dropped row leaves no trace in any column.
        for (std::size_t c = 0; c < r.count; ++c) {
            if (m_plan[c].use == Use::Ignore || !isMissing(r.fields[c])) continue;
            if (m_schema.missingPolicy == MissingPolicy::DropRow) {
                ++st.droppedMissing;
                return;
            }
            throw DataFileError(
                m_file, r.fieldLine[c], m_names[c],
                "missing value (" +
                    (r.fields[c].empty() ? std::string("empty cell") : quoteValue(r.fields[c])) +
                    ") and Schema.missingPolicy is Error");
        }
        addTarget(r.fields[m_targetColumn]);
        addGroup(r);
        for (std::size_t c = 0; c < r.count; ++c) {
            const ColumnPlan& p = m_plan[c];
            if (p.use == Use::Feature)
                addFeatureValue(m_features[static_cast<std::size_t>(p.index)], r.fields[c],
                                r.fieldLine[c]);
            else if (p.use == Use::UserId)
                m_userIds.push_back(intern(m_userIndex, r.fields[c]));
        }
        ++m_rows;
        ++st.kept;
    }

    TabularData finish(std::string name) {
        if (m_rows == 0) {
            std::size_t dropped = 0;
            for (const auto& s : m_stats) dropped += s.droppedMissing;
            throw DataFileError(
                m_sources, 0, "",
                "no data rows left: all " + std::to_string(dropped) +
                    " records have a missing value" +
                    (m_schema.missingToken.empty()
                         ? std::string(" (empty cell)")
                         : " (empty or " + quoteValue(m_schema.missingToken) + ")") +
                    " and were dropped");
        }
        TabularData out;
        out.name = std::move(name);

        // Target.
        if (!m_schema.positiveValues.empty()) {
            const auto positives =
                static_cast<std::size_t>(std::count(m_label.begin(), m_label.end(), 1));
            const std::string pos = positiveName();
            if (positives == 0 || positives == m_rows)
                throw DataFileError(
                    m_sources, 0, m_schema.target,
                    "the target has only one class after filtering: " +
                        (positives == 0 ? "no row has the positive value " +
                                              joinQuoted(m_schema.positiveValues, 10)
                                        : "every row has the positive value " +
                                              joinQuoted(m_schema.positiveValues, 10)));
            out.classNames = {
                m_schema.negativeClassName.empty() ? negativeName() : m_schema.negativeClassName,
                m_schema.positiveClassName.empty() ? pos : m_schema.positiveClassName};
        } else {
            out.classNames = sortInterned(m_classIndex, m_label);
            if (out.classNames.size() < 2)
                throw DataFileError(m_sources, 0, m_schema.target,
                                    "the target has only one class after filtering (" +
                                        quoteValue(out.classNames.front()) + ")");
        }
        out.label = std::move(m_label);

        // Sensitive groups.
        for (std::size_t s = 0; s < m_sensitiveLabelsSeen.size(); ++s) {
            if (m_sensitiveLabelsSeen[s].size() < 2)
                throw DataFileError(m_sources, 0, m_schema.sensitive[s],
                                    "the sensitive column has only one group (" +
                                        quoteValue(*m_sensitiveLabelsSeen[s].begin()) +
                                        ") after filtering; fairness needs at least two");
        }
        out.groupNames = sortInterned(m_groupIndex, m_group);
        out.group = std::move(m_group);
        out.sensitiveDescription = m_description;

        if (m_schema.userId) out.userId = std::move(m_userIds);

        // Features.
        for (FeatureState& fs : m_features) {
            FeatureColumn col;
            col.name = fs.name;
            const bool numeric =
                fs.role == ColumnRole::Numeric || (fs.role == ColumnRole::Auto && fs.numericSoFar);
            if (numeric) {
                col.kind = FeatureKind::Numeric;
                col.numeric = std::move(fs.numeric);
            } else if (fs.declared) {
                col.kind = FeatureKind::Categorical;
                col.levels = *fs.declared;
                col.levelsDeclared = true;
                col.codes = std::move(fs.codes);
            } else {
                col.kind = FeatureKind::Categorical;
                col.levels = sortInterned(fs.levelIndex, fs.codes);
                col.codes = std::move(fs.codes);
            }
            fs = FeatureState{};  // release the dictionary now
            out.features.push_back(std::move(col));
        }
        return out;
    }

    std::vector<FileReadStats> stats() const { return m_stats; }

private:
    bool isMissing(const std::string& v) const {
        return v.empty() || (!m_schema.missingToken.empty() && v == m_schema.missingToken);
    }

    std::string positiveName() const {
        std::string s;
        for (std::size_t k = 0; k < m_schema.positiveValues.size(); ++k)
            s += (k ? " or " : "") + m_schema.positiveValues[k];
        return s;
    }
    std::string negativeName() const {
        return m_schema.positiveValues.size() == 1 ? "not " + positiveName()
                                                   : "not (" + positiveName() + ")";
    }

    void addTarget(const std::string& raw) {
        std::string_view v = raw;
        for (const auto& suffix : m_schema.targetStripSuffixes) {
            if (v.size() > suffix.size() && v.substr(v.size() - suffix.size()) == suffix) {
                v.remove_suffix(suffix.size());
                break;
            }
        }
        if (!m_schema.positiveValues.empty()) {
            const bool positive =
                std::find(m_schema.positiveValues.begin(), m_schema.positiveValues.end(), v) !=
                m_schema.positiveValues.end();
            m_label.push_back(positive ? 1 : 0);
        } else {
            m_scratch.assign(v);
            m_label.push_back(intern(m_classIndex, m_scratch));
        }
    }

    const std::string& sensitiveLabel(std::size_t s, const std::string& raw) {
        auto& cache = m_labelCache[s];
        const auto it = cache.find(raw);
        if (it != cache.end()) return it->second;
        const auto& labels = m_schema.sensitiveValueLabels;
        std::string label = raw;
        if (auto q = labels.find(m_schema.sensitive[s] + "=" + raw); q != labels.end())
            label = q->second;
        else if (auto p = labels.find(raw); p != labels.end())
            label = p->second;
        return cache.emplace(raw, std::move(label)).first->second;
    }

    void addGroup(const Record& r) {
        m_scratch.clear();
        for (std::size_t s = 0; s < m_sensitiveColumns.size(); ++s) {
            const std::string& label = sensitiveLabel(s, r.fields[m_sensitiveColumns[s]]);
            if (m_sensitiveLabelsSeen[s].size() < 2) m_sensitiveLabelsSeen[s].insert(label);
            if (s) m_scratch += " & ";
            m_scratch += label;
        }
        const auto it = m_groupIndex.find(m_scratch);
        if (it != m_groupIndex.end()) {
            m_group.push_back(it->second);
            return;
        }
        if (m_groupIndex.size() == kMaxGroups)
            throw DataFileError(m_file, r.line, m_description,
                                "more than " + std::to_string(kMaxGroups) +
                                    " sensitive groups (the next one is " + quoteValue(m_scratch) +
                                    "); choose a sensitive attribute with fewer values or "
                                    "merge values with Schema.sensitiveValueLabels");
        m_group.push_back(intern(m_groupIndex, m_scratch));
    }

    void addFeatureValue(FeatureState& fs, const std::string& v, long line) {
        switch (fs.role) {
            case ColumnRole::Numeric: {
                double x = 0;
                const NumberParse result = parseNumber(v, x);
                if (result != NumberParse::Ok)
                    throw DataFileError(
                        m_file, line, fs.name,
                        "value " + quoteValue(v) +
                            (result == NumberParse::NotFinite ? " is not a finite number"
                                                              : " is not a number") +
                            " (the column is declared numeric)");
                fs.numeric.push_back(x);
                break;
            }
            case ColumnRole::Categorical:
                if (fs.declared) {
                    const auto it = fs.levelIndex.find(v);
                    if (it == fs.levelIndex.end())
                        throw DataFileError(
                            m_file, line, fs.name,
                            "unknown value " + quoteValue(v) + " (not one of the " +
                                std::to_string(fs.declared->size()) +
                                " declared levels: " + joinQuoted(*fs.declared, 12) + ")");
                    fs.codes.push_back(it->second);
                } else {
                    fs.codes.push_back(intern(fs.levelIndex, v));
                }
                break;
            default: {  // Auto: keep numbers while every value is one, and the codes always
                if (fs.numericSoFar) {
                    double x = 0;
                    if (parseNumber(v, x) == NumberParse::Ok) {
                        fs.numeric.push_back(x);
                    } else {
                        fs.numericSoFar = false;
                        std::vector<double>().swap(fs.numeric);
                    }
                }
                fs.codes.push_back(intern(fs.levelIndex, v));
                break;
            }
        }
    }

    const Schema& m_schema;
    std::string m_sources;  // all inputs, for errors not tied to one file
    std::string m_file;     // current input
    std::vector<std::string> m_names;
    std::vector<ColumnPlan> m_plan;
    std::size_t m_targetColumn = 0;
    std::vector<std::size_t> m_sensitiveColumns;
    std::string m_description;  // "race & sex"
    std::vector<FeatureState> m_features;
    std::vector<int> m_label;
    std::unordered_map<std::string, int> m_classIndex;
    std::vector<int> m_group;
    std::unordered_map<std::string, int> m_groupIndex;
    std::vector<std::unordered_map<std::string, std::string>> m_labelCache;
    std::vector<std::set<std::string>> m_sensitiveLabelsSeen;  // up to 2 per column suffice
    std::vector<int> m_userIds;
    std::unordered_map<std::string, int> m_userIndex;
    std::vector<FileReadStats> m_stats;
    std::string m_scratch;
    std::size_t m_rows = 0;
};

// ---------------------------------------------------------------------------------------
// Driver.

struct Input {
    std::string name;
    std::string path;        // empty for in-memory text
    std::string_view text;   // in-memory text
    std::uint64_t size = 0;  // bytes, for progress
};

/// Removes duplicate header names the way pandas does ("x", "x.1", ...) and names empty
/// ones "column N", so that every column can be addressed by a unique name.
std::vector<std::string> uniqueNames(const std::vector<std::string>& raw) {
    std::vector<std::string> out;
    std::set<std::string> used(raw.begin(), raw.end());
    std::set<std::string> taken;
    for (std::size_t i = 0; i < raw.size(); ++i) {
        std::string n = raw[i].empty() ? "column " + std::to_string(i + 1) : raw[i];
        if (taken.count(n)) {
            for (int k = 1;; ++k) {
                std::string candidate = n + "." + std::to_string(k);
                if (!taken.count(candidate) && !used.count(candidate)) {
                    n = std::move(candidate);
                    break;
                }
            }
        }
        taken.insert(n);
        out.push_back(std::move(n));
    }
    return out;
}

void readOne(const Input& in, ByteSource& source, const Schema& schema, TableBuilder& builder,
             const ReadOptions& options, std::uint64_t bytesBefore, std::uint64_t bytesTotal,
             std::size_t& recordsSinceProgress) {
    builder.beginFile(in.name);
    LineReader lines(source, in.name);
    if (lines.headIsAll() && lines.head().empty())
        throw DataFileError(in.name, 0, "", "the file is empty");
    const char delim = schema.delimiter != 0
                           ? schema.delimiter
                           : detectDelimiter(lines.head(), lines.headIsAll(), schema, in.name);
    builder.fileStats().delimiter = delim;
    RecordParser parser(lines, delim, schema);
    Record rec;

    if (schema.hasHeader) {
        if (!parser.next(rec))
            throw DataFileError(in.name, 0, "",
                                "the file has no header and no data (only blank or comment lines)");
        std::vector<std::string> raw(rec.fields.begin(),
                                     rec.fields.begin() + static_cast<std::ptrdiff_t>(rec.count));
        if (!schema.columnNames.empty() && raw != schema.columnNames) {
            for (std::size_t i = 0; i < std::max(raw.size(), schema.columnNames.size()); ++i) {
                if (i < raw.size() && i < schema.columnNames.size() &&
                    raw[i] == schema.columnNames[i])
                    continue;
                throw DataFileError(
                    in.name, rec.line, "column " + std::to_string(i + 1),
                    "the header does not match Schema.columnNames: " +
                        (i < raw.size() ? "found " + quoteValue(raw[i]) : "found no column") +
                        ", expected " +
                        (i < schema.columnNames.size() ? quoteValue(schema.columnNames[i])
                                                       : "no column") +
                        " (" + std::to_string(raw.size()) + " vs " +
                        std::to_string(schema.columnNames.size()) + " columns)");
            }
        }
        std::vector<std::string> names = uniqueNames(raw);
        if (!builder.hasColumns()) {
            builder.setColumns(std::move(names), in.name, rec.line);
        } else if (names != builder.names()) {
            const auto& first = builder.names();
            std::size_t i = 0;
            while (i < names.size() && i < first.size() && names[i] == first[i]) ++i;
            throw DataFileError(in.name, rec.line, "column " + std::to_string(i + 1),
                                "the header differs from the first file's: found " +
                                    (i < names.size() ? quoteValue(names[i]) : "no column") +
                                    ", expected " +
                                    (i < first.size() ? quoteValue(first[i]) : "no column"));
        }
    } else if (!builder.hasColumns()) {
        builder.setColumns(schema.columnNames, in.name, 0);
    }
    parser.setNames(&builder.names());

    bool any = false;
    while (parser.next(rec)) {
        any = true;
        builder.addRecord(rec);
        if (options.progress && ++recordsSinceProgress >= kProgressEvery) {
            recordsSinceProgress = 0;
            const double f =
                bytesTotal ? double(bytesBefore + lines.consumed()) / double(bytesTotal) : 0.0;
            if (options.progress(std::min(1.0, f))) throw ReadCancelled();
        }
    }
    if (!any)
        throw DataFileError(in.name, 0, "",
                            schema.hasHeader
                                ? "the file has a header but no data rows"
                                : "the file has no data rows (only blank or comment lines)");
}

TabularData readInputs(const std::vector<Input>& inputs, const Schema& schema,
                       const ReadOptions& options) {
    schema.validate();
    if (inputs.empty()) throw InputError("no data file given");

    std::string sources;
    std::uint64_t total = 0;
    for (const Input& in : inputs) {
        sources += (sources.empty() ? "" : " + ") + in.name;
        total += in.size;
    }

    TableBuilder builder(schema, sources);
    std::uint64_t before = 0;
    std::size_t sinceProgress = 0;
    for (const Input& in : inputs) {
        std::unique_ptr<ByteSource> source;
        if (in.path.empty())
            source = std::make_unique<TextSource>(in.text);
        else
            source = std::make_unique<FileSource>(in.path);
        readOne(in, *source, schema, builder, options, before, total, sinceProgress);
        before += in.size;
    }

    std::string name = schema.name;
    if (name.empty()) name = std::filesystem::path(inputs.front().name).stem().string();
    TabularData out = builder.finish(std::move(name));
    if (options.stats) options.stats->files = builder.stats();
    if (options.progress && options.progress(1.0)) throw ReadCancelled();
    return out;
}

Input fileInput(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) throw DataFileError(path, 0, "", "file not found");
    if (fs::is_directory(st)) throw DataFileError(path, 0, "", "is a directory, not a data file");
    Input in;
    in.name = path;
    in.path = path;
    const auto size = fs::file_size(path, ec);
    in.size = ec ? 0 : static_cast<std::uint64_t>(size);
    return in;
}

}  // namespace

TabularData readDelimitedFile(const std::string& path, const Schema& schema,
                              const ReadOptions& options) {
    return readDelimitedFiles({path}, schema, options);
}

TabularData readDelimitedFiles(const std::vector<std::string>& paths, const Schema& schema,
                               const ReadOptions& options) {
    schema.validate();
    std::vector<Input> inputs;
    // Check every file up front: a missing second file should not cost a full parse first.
    inputs.reserve(paths.size());
    for (const auto& p : paths) inputs.push_back(fileInput(p));
    return readInputs(inputs, schema, options);
}

TabularData readDelimitedText(std::string_view text, std::string sourceName, const Schema& schema,
                              const ReadOptions& options) {
    Input in;
    in.name = std::move(sourceName);
    in.text = text;
    in.size = text.size();
    return readInputs({in}, schema, options);
}

}  // namespace pfa
