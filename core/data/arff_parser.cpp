#include "core/data/arff_parser.h"

#include <unordered_set>
#include <utility>

#include "core/data/text_cells.h"
#include "core/util/error.h"

namespace pfa::detail {

namespace {

bool isSpace(char c) { return c == ' ' || c == '\t'; }
bool isQuote(char c) { return c == '\'' || c == '"'; }

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

/// A cursor over one line, with ARFF's tokens: quoted strings with backslash escapes, bare
/// words, and '%' starting a comment that runs to the end of the line (as in Weka).
class LineScanner {
public:
    LineScanner(std::string_view line, const std::string& file, long lineNo)
        : m_s(line), m_file(file), m_line(lineNo) {}

    void skipSpace() {
        while (m_i < m_s.size() && isSpace(m_s[m_i])) ++m_i;
    }
    /// At the end of the line or at a comment.
    bool atEnd() const { return m_i >= m_s.size() || m_s[m_i] == '%'; }
    char peek() const { return m_s[m_i]; }
    void advance() { ++m_i; }
    /// The unread rest of the line, for messages.
    std::string_view rest() const { return m_s.substr(m_i); }

    /// A quoted token; the cursor is at the opening quote. `column` names it in errors.
    std::string quoted(const std::string& column) {
        const char q = m_s[m_i++];
        std::string out;
        while (m_i < m_s.size()) {
            const char c = m_s[m_i];
            if (c == '\\' && m_i + 1 < m_s.size()) {
                const char e = m_s[m_i + 1];
                switch (e) {
                    case 'n':
                        out += '\n';
                        break;
                    case 't':
                        out += '\t';
                        break;
                    case 'r':
                        out += '\r';
                        break;
                    case '\\':
                    case '\'':
                    case '"':
                    case '%':
                        out += e;
                        break;
                    default:  // not an escape: keep both characters (as Weka does)
                        out += '\\';
                        out += e;
                        break;
                }
                m_i += 2;
                continue;
            }
            if (c == q) {
                ++m_i;
                return out;
            }
            out += c;
            ++m_i;
        }
        throw DataFileError(m_file, m_line, column,
                            std::string("unterminated quoted value: the ") +
                                (q == '\'' ? "single" : "double") +
                                " quote is not closed on this line");
    }

    /// An unquoted token: up to a space, a tab, a '%' or one of `stops`; with
    /// `spacesInside`, spaces and tabs do not end it (trailing ones are dropped).
    std::string_view bare(std::string_view stops, bool spacesInside = false) {
        const std::size_t start = m_i;
        while (m_i < m_s.size()) {
            const char c = m_s[m_i];
            if (c == '%' || stops.find(c) != std::string_view::npos) break;
            if (!spacesInside && isSpace(c)) break;
            ++m_i;
        }
        std::size_t end = m_i;
        while (end > start && isSpace(m_s[end - 1])) --end;
        return m_s.substr(start, end - start);
    }

    /// A quoted or bare token (bare: ends at whitespace or one of `stops`).
    std::string token(const std::string& column, std::string_view stops) {
        if (!atEnd() && isQuote(peek())) return quoted(column);
        return std::string(bare(stops));
    }

    [[noreturn]] void fail(const std::string& column, const std::string& problem) const {
        throw DataFileError(m_file, m_line, column, problem);
    }

private:
    std::string_view m_s;
    const std::string& m_file;
    long m_line;
    std::size_t m_i = 0;
};

const char* kTypeList = "numeric, real, integer, string or a {list} of nominal values";

std::vector<std::string> parseNominalList(LineScanner& sc, const std::string& name) {
    sc.advance();  // '{'
    std::vector<std::string> levels;
    std::unordered_set<std::string> seen;
    for (;;) {
        sc.skipSpace();
        if (sc.atEnd())
            sc.fail(name, "unterminated list of nominal values: '}' is missing on this line");
        if (sc.peek() == '}' && levels.empty())
            sc.fail(name, "the list of nominal values is empty");
        std::string v = isQuote(sc.peek()) ? sc.quoted(name) : std::string(sc.bare(",}", true));
        if (v.empty()) sc.fail(name, "a nominal value is empty");
        if (!seen.insert(v).second)
            sc.fail(name, "the nominal value " + quoteCell(v) + " is declared twice");
        levels.push_back(std::move(v));
        sc.skipSpace();
        if (sc.atEnd())
            sc.fail(name, "unterminated list of nominal values: '}' is missing on this line");
        if (sc.peek() == ',') {
            sc.advance();
            continue;
        }
        if (sc.peek() == '}') {
            sc.advance();
            return levels;
        }
        sc.fail(name, "expected ',' or '}' in the list of nominal values, found " +
                          quoteCell(sc.rest().substr(0, 20)));
    }
}

ArffAttribute parseAttribute(LineScanner& sc, long line) {
    ArffAttribute a;
    a.line = line;
    sc.skipSpace();
    if (sc.atEnd()) sc.fail("", "@attribute needs a name and a type");
    a.name = sc.token("", "{");
    if (a.name.empty()) sc.fail("", "an attribute name is empty");
    sc.skipSpace();
    if (sc.atEnd())
        sc.fail(a.name, std::string("the attribute has no type (expected ") + kTypeList + ")");
    if (sc.peek() == '{') {
        a.type = ArffType::Nominal;
        a.levels = parseNominalList(sc, a.name);
    } else {
        const std::string word(sc.bare("{"));
        const std::string type = lower(word);
        if (type == "numeric" || type == "real" || type == "integer") {
            a.type = ArffType::Numeric;
        } else if (type == "string") {
            a.type = ArffType::String;
        } else if (type == "date") {
            sc.fail(a.name,
                    "date attributes are not supported (convert the column to a number or a "
                    "string first)");
        } else if (type == "relational") {
            sc.fail(a.name, "relational attributes are not supported");
        } else {
            sc.fail(a.name, "unknown attribute type " + quoteCell(word.empty() ? sc.rest() : word) +
                                " (expected " + kTypeList + ")");
        }
    }
    sc.skipSpace();
    if (!sc.atEnd())
        sc.fail(a.name,
                "unexpected text after the attribute type: " + quoteCell(sc.rest().substr(0, 20)));
    return a;
}

}  // namespace

bool looksLikeArff(std::string_view head) {
    std::size_t pos = 0;
    while (pos < head.size()) {
        std::size_t end = head.find_first_of("\r\n", pos);
        if (end == std::string_view::npos) end = head.size();
        std::string_view line = head.substr(pos, end - pos);
        pos = end + 1;
        while (!line.empty() && isSpace(line.front())) line.remove_prefix(1);
        if (line.empty() || line.front() == '%') continue;
        return line.size() >= 9 && lower(line.substr(0, 9)) == "@relation" &&
               (line.size() == 9 || isSpace(line[9]) || isQuote(line[9]));
    }
    return false;
}

ArffHeader readArffHeader(LineReader& lines) {
    ArffHeader h;
    bool sawRelation = false;
    std::unordered_set<std::string> names;
    std::string_view line;
    while (lines.next(line)) {
        LineScanner sc(line, lines.file(), lines.line());
        sc.skipSpace();
        if (sc.atEnd()) continue;                  // blank or comment
        const std::string_view whole = sc.rest();  // for messages
        const std::string keyword = lower(sc.peek() == '@' ? sc.bare("'\"{") : std::string_view());
        if (!sawRelation && keyword != "@relation")
            sc.fail("", "not an ARFF file: the first line must be '@relation <name>', found " +
                            quoteCell(whole.substr(0, 40)));
        if (keyword == "@relation") {
            if (sawRelation) sc.fail("", "a second @relation line");
            sc.skipSpace();
            if (sc.atEnd()) sc.fail("", "@relation needs a name");
            h.relation = sc.token("", "");
            sawRelation = true;
        } else if (keyword == "@attribute") {
            ArffAttribute a = parseAttribute(sc, lines.line());
            if (!names.insert(a.name).second) sc.fail(a.name, "the attribute is declared twice");
            h.attributes.push_back(std::move(a));
        } else if (keyword == "@data") {
            if (h.attributes.empty()) sc.fail("", "@data before any @attribute");
            h.dataLine = lines.line();
            return h;
        } else if (keyword == "@end") {
            sc.fail("", "unexpected @end (relational attributes are not supported)");
        } else {
            sc.fail("", "expected @attribute or @data, found " + quoteCell(whole.substr(0, 40)));
        }
    }
    if (!sawRelation)
        throw DataFileError(lines.file(), 0, "",
                            "not an ARFF file: no '@relation' line (only blank or comment lines)");
    throw DataFileError(lines.file(), 0, "",
                        "the ARFF header has no @data line (the file ends after " +
                            std::to_string(h.attributes.size()) + " attributes)");
}

ArffRecordReader::ArffRecordReader(LineReader& lines, const ArffHeader& header,
                                   std::string missingToken)
    : m_lines(lines), m_header(header), m_missingToken(std::move(missingToken)) {
    m_levelSets.resize(header.attributes.size());
    for (std::size_t a = 0; a < header.attributes.size(); ++a)
        if (header.attributes[a].type == ArffType::Nominal)
            m_levelSets[a].insert(header.attributes[a].levels.begin(),
                                  header.attributes[a].levels.end());
}

bool ArffRecordReader::next(Record& r) {
    std::string_view line;
    for (;;) {
        if (!m_lines.next(line)) return false;
        LineScanner probe(line, m_lines.file(), m_lines.line());
        probe.skipSpace();
        if (!probe.atEnd()) break;  // not blank, not a comment
    }
    const auto& attrs = m_header.attributes;
    LineScanner sc(line, m_lines.file(), m_lines.line());
    r.line = m_lines.line();
    r.count = 0;
    sc.skipSpace();
    if (sc.peek() == '{')
        sc.fail("",
                "sparse ARFF is not supported (this row starts with '{'); save the data in "
                "the dense format, one value per attribute");
    for (;;) {  // one iteration per value
        if (r.count == r.fields.size()) {
            r.fields.emplace_back();
            r.fieldLine.push_back(0);
        }
        std::string& f = r.fields[r.count];
        r.fieldLine[r.count] = r.line;
        const std::string column =
            r.count < attrs.size() ? attrs[r.count].name : "column " + std::to_string(r.count + 1);
        sc.skipSpace();
        if (!sc.atEnd() && isQuote(sc.peek())) {
            f = sc.quoted(column);
            sc.skipSpace();
            if (!sc.atEnd() && sc.peek() != ',')
                sc.fail(column, "unexpected text after a closing quote (" +
                                    quoteCell(sc.rest().substr(0, 20)) + ")");
        } else {
            const std::string_view v = sc.bare(",", true);
            if (!v.empty() && v.front() == '{')
                sc.fail(column, "instance weights ('{...}' after the values) are not supported");
            if (v == "?")
                f.clear();  // ARFF's missing value; an empty cell is missing for the reader
            else
                f.assign(v);
        }
        ++r.count;
        if (!sc.atEnd() && sc.peek() == ',') {
            sc.advance();
            continue;
        }
        break;
    }
    if (r.count != attrs.size())
        sc.fail("", "expected " + std::to_string(attrs.size()) +
                        " values (one per @attribute), found " + std::to_string(r.count));
    for (std::size_t a = 0; a < attrs.size(); ++a) {
        if (attrs[a].type != ArffType::Nominal) continue;
        const std::string& v = r.fields[a];
        if (v.empty() || v == m_missingToken || m_levelSets[a].count(v)) continue;
        sc.fail(attrs[a].name, "value " + quoteCell(v) +
                                   " is not one of the values declared for this nominal "
                                   "attribute: " +
                                   joinQuoted(attrs[a].levels, 12));
    }
    return true;
}

}  // namespace pfa::detail
