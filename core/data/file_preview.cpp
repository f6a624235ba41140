#include "core/data/file_preview.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <system_error>
#include <unordered_map>
#include <utility>

#include "core/data/arff_parser.h"
#include "core/data/delimited_parser.h"
#include "core/data/line_reader.h"
#include "core/data/schema.h"
#include "core/data/text_cells.h"
#include "core/util/error.h"

namespace pfa {

namespace {

using detail::NumberParse;
using detail::parseNumber;

/// Records looked at by the space-delimiter fallback.
constexpr std::size_t kSpaceProbeLines = 50;

bool isNumber(const std::string& s) {
    double x = 0;
    return parseNumber(s, x) == NumberParse::Ok;
}

/// Running statistics of one column.
class ColumnStats {
public:
    /// Adds the cell of data row `row` (0-based, rows may come in any order).
    void add(const std::string& v, bool missing, std::size_t row) {
        if (missing) {
            ++m_missing;
            return;
        }
        ++m_present;
        if (isNumber(v)) ++m_numeric;
        Entry& e = m_values.try_emplace(v, Entry{0, row}).first->second;
        ++e.count;
        e.firstSeen = std::min(e.firstSeen, row);
    }

    /// True when every non-missing value is a number, and there is one.
    bool numeric() const { return m_present > 0 && m_numeric == m_present; }
    bool contains(const std::string& v) const { return m_values.count(v) > 0; }

    void fill(ColumnPreview& c) const {
        c.missingCount = m_missing;
        if (numeric() && m_values.size() >= 2) c.median = evenSplit();
        c.distinctCount = m_values.size();
        std::vector<std::pair<const std::string*, Entry>> entries;
        entries.reserve(m_values.size());
        for (const auto& [value, entry] : m_values) entries.emplace_back(&value, entry);
        const std::size_t shown = std::min(entries.size(), kPreviewDistinctValues);
        std::partial_sort(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(shown),
                          entries.end(), [](const auto& a, const auto& b) {
                              if (a.second.count != b.second.count)
                                  return a.second.count > b.second.count;
                              return a.second.firstSeen < b.second.firstSeen;
                          });
        for (std::size_t k = 0; k < shown; ++k) {
            c.distinctValues.push_back(*entries[k].first);
            c.distinctValueCounts.push_back(entries[k].second.count);
        }
    }

private:
    struct Entry {
        std::size_t count;
        std::size_t firstSeen;
    };

    /// The value t (one of the column's values, not the smallest) for which "x < t" holds
    /// for a share of the values as close to one half as the ties allow.
    double evenSplit() const {
        std::vector<std::pair<double, std::size_t>> sorted;
        sorted.reserve(m_values.size());
        for (const auto& [value, entry] : m_values) {
            double x = 0;
            parseNumber(value, x);
            sorted.emplace_back(x, entry.count);
        }
        std::sort(sorted.begin(), sorted.end());
        // Equal numbers written differently ("1", "1.0") are one value.
        std::vector<std::pair<double, std::size_t>> merged;
        for (const auto& item : sorted) {
            if (!merged.empty() && merged.back().first == item.first)
                merged.back().second += item.second;
            else
                merged.push_back(item);
        }
        if (merged.size() < 2) return merged.front().first;
        const double half = static_cast<double>(m_present) / 2.0;
        std::size_t below = merged.front().second, best = 1;
        double bestGap = std::abs(static_cast<double>(below) - half);
        for (std::size_t k = 2; k < merged.size(); ++k) {
            below += merged[k - 1].second;
            const double gap = std::abs(static_cast<double>(below) - half);
            if (gap < bestGap) {
                bestGap = gap;
                best = k;
            }
        }
        return merged[best].first;
    }
    std::unordered_map<std::string, Entry> m_values;
    std::size_t m_missing = 0;
    std::size_t m_present = 0;
    std::size_t m_numeric = 0;
};

/// The fallback when none of , ; tab | occurs in the first record: single spaces (as in
/// german.data), when every one of the first records splits into the same number (> 1) of
/// fields. 0 when that does not hold either.
char detectSpaceDelimiter(std::string_view head) {
    std::size_t expected = 0, seen = 0, pos = 0;
    while (pos < head.size() && seen < kSpaceProbeLines) {
        std::size_t end = head.find_first_of("\r\n", pos);
        if (end == std::string_view::npos) end = head.size();
        const std::string_view line = head.substr(pos, end - pos);
        pos = end + 1;
        if (detail::isBlankLine(line, true, 0)) continue;
        const auto fields = static_cast<std::size_t>(std::count(line.begin(), line.end(), ' ')) + 1;
        if (seen == 0) expected = fields;
        if (fields != expected || fields < 2) return 0;
        ++seen;
    }
    return seen ? ' ' : 0;
}

bool isCsvMissing(const std::string& v) { return v.empty() || v == "?"; }

void previewDelimited(detail::LineReader& lines, std::size_t maxRows, bool complete,
                      FilePreview& out) {
    Schema layout;  // the reader's defaults: trimmed fields, no comment lines
    char delim = 0;
    try {
        delim = detail::detectDelimiter(lines.head(), lines.headIsAll(), layout, out.file);
    } catch (const DataFileError&) {
        delim = detectSpaceDelimiter(lines.head());
        if (delim == 0) throw;
    }
    out.delimiter = delim;
    detail::RecordParser parser(lines, delim, layout);
    parser.setTolerateCutAtEnd(!complete);

    detail::Record rec;
    if (!parser.next(rec))
        throw DataFileError(out.file, 0, "", "the file has no data (only blank lines)");
    const std::vector<std::string> first(
        rec.fields.begin(), rec.fields.begin() + static_cast<std::ptrdiff_t>(rec.count));
    const std::size_t width = first.size();
    std::vector<ColumnStats> below(width);       // statistics of the records after the first
    std::vector<std::vector<std::string>> rows;  // first records after the first one
    std::size_t belowCount = 0;
    bool question = false;
    while (parser.next(rec)) {
        if (rec.count != width) {
            // Listed, not fatal: the user sees the good rows and decides whether to skip these.
            ++out.badRowCount;
            if (out.badRows.size() < kListedBadRows)
                out.badRows.push_back({rec.line, rec.count, width});
            continue;
        }
        ++belowCount;
        for (std::size_t c = 0; c < width; ++c) {
            const std::string& v = rec.fields[c];
            question = question || v == "?";
            below[c].add(v, isCsvMissing(v), belowCount);  // the first record is row 0
        }
        if (rows.size() < maxRows)
            rows.emplace_back(rec.fields.begin(),
                              rec.fields.begin() + static_cast<std::ptrdiff_t>(width));
    }

    if (belowCount == 0 && out.badRowCount > 0) {
        const BadRow& bad = out.badRows.front();
        throw DataFileError(
            out.file, bad.line, "",
            "expected " + std::to_string(width) + " fields (as in the first row), found " +
                std::to_string(bad.fields) +
                (bad.fields == 1 ? " (is the delimiter " + detail::delimiterName(delim) + " right?)"
                                 : std::string()) +
                "; no data row has the first row's " + std::to_string(width) + " fields");
    }

    // The header heuristic (documented in file_preview.h).
    bool header = std::none_of(first.begin(), first.end(),
                               [](const std::string& v) { return v == "?" || isNumber(v); });
    if (header && belowCount > 0) {
        bool someNumeric = false, recurs = false;
        for (std::size_t c = 0; c < width; ++c) {
            someNumeric = someNumeric || below[c].numeric();
            recurs = recurs || (!first[c].empty() && below[c].contains(first[c]));
        }
        header = someNumeric || !recurs;
    }
    out.hasHeader = header;

    if (header) {
        for (std::string& n : detail::uniqueNames(first)) {
            out.columns.emplace_back();
            out.columns.back().name = std::move(n);
        }
        out.rows = std::move(rows);
        out.scannedRows = belowCount;
    } else {
        for (std::size_t c = 0; c < width; ++c) {
            out.columns.emplace_back();
            out.columns.back().name = "column " + std::to_string(c + 1);
            question = question || first[c] == "?";
            below[c].add(first[c], isCsvMissing(first[c]), 0);
        }
        if (maxRows > 0) {
            out.rows.push_back(first);
            for (auto& r : rows) {
                if (out.rows.size() == maxRows) break;
                out.rows.push_back(std::move(r));
            }
        }
        out.scannedRows = belowCount + 1;
    }
    for (std::size_t c = 0; c < width; ++c) {
        below[c].fill(out.columns[c]);
        out.columns[c].guessedKind =
            below[c].numeric() ? FeatureKind::Numeric : FeatureKind::Categorical;
    }
    out.missingToken = question ? "?" : "";
}

void previewArff(detail::LineReader& lines, std::size_t maxRows, FilePreview& out) {
    const detail::ArffHeader header = detail::readArffHeader(lines);
    out.format = FileFormat::Arff;
    out.delimiter = ',';
    out.hasHeader = true;
    out.relation = header.relation;
    std::vector<ColumnStats> stats(header.attributes.size());
    detail::ArffRecordReader records(lines, header, "");
    detail::Record rec;
    while (records.next(rec)) {
        for (std::size_t c = 0; c < rec.count; ++c)
            stats[c].add(rec.fields[c], rec.fields[c].empty(), out.scannedRows);
        ++out.scannedRows;
        if (out.rows.size() < maxRows)
            out.rows.emplace_back(rec.fields.begin(),
                                  rec.fields.begin() + static_cast<std::ptrdiff_t>(rec.count));
    }
    for (std::size_t c = 0; c < header.attributes.size(); ++c) {
        const auto& a = header.attributes[c];
        ColumnPreview col;
        col.name = a.name;
        col.guessedKind =
            a.type == detail::ArffType::Numeric ? FeatureKind::Numeric : FeatureKind::Categorical;
        col.declaredLevels = a.levels;
        stats[c].fill(col);
        out.columns.push_back(std::move(col));
    }
}

/// Previews `window`, the first bytes of an input of `totalBytes` bytes.
FilePreview previewWindow(std::string_view window, std::uint64_t totalBytes, std::string name,
                          std::size_t maxRows) {
    FilePreview out;
    out.file = std::move(name);
    out.fileBytes = totalBytes;
    out.complete = window.size() >= totalBytes;
    if (!out.complete) {
        // Only whole lines: cut after the last line end of the window.
        const std::size_t lastEnd = window.find_last_of("\r\n");
        if (lastEnd == std::string_view::npos)
            throw DataFileError(out.file, 1, "",
                                "the first " + detail::formatByteSize(window.size()) +
                                    " hold no line end; this does not look like a table");
        window = window.substr(0, lastEnd + 1);
    }
    detail::TextSource source(window);
    detail::LineReader lines(source, out.file);
    if (lines.headIsAll() && lines.head().empty())
        throw DataFileError(out.file, 0, "", "the file is empty");
    if (detail::looksLikeArff(lines.head()))
        previewArff(lines, maxRows, out);
    else
        previewDelimited(lines, maxRows, out.complete, out);
    return out;
}

}  // namespace

FilePreview previewFile(const std::string& path, std::size_t maxRows) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) throw DataFileError(path, 0, "", "file not found");
    if (fs::is_directory(st)) throw DataFileError(path, 0, "", "is a directory, not a data file");
    detail::FileSource source(path);
    // Read the window, plus one byte to learn whether the file goes on beyond it (the size
    // from the file system may be 0 for special files).
    std::string window(kPreviewBytes + 1, '\0');
    std::size_t got = 0;
    while (got < window.size()) {
        const std::size_t n = source.read(window.data() + got, window.size() - got);
        if (n == 0) break;
        got += n;
    }
    const bool more = got > kPreviewBytes;
    window.resize(std::min(got, kPreviewBytes));
    const auto size = fs::file_size(path, ec);
    std::uint64_t total = ec ? 0 : static_cast<std::uint64_t>(size);
    if (more)
        total = std::max<std::uint64_t>(total, kPreviewBytes + 1);
    else
        total = window.size();
    return previewWindow(window, total, path, maxRows);
}

FilePreview previewText(std::string_view text, std::string sourceName, std::size_t maxRows) {
    return previewWindow(text.substr(0, std::min(text.size(), kPreviewBytes)), text.size(),
                         std::move(sourceName), maxRows);
}

}  // namespace pfa
