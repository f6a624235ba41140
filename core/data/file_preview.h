#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/tabular_data.h"

namespace pfa {

/// How a previewed file was recognised (by its content, not its name).
enum class FileFormat {
    Delimited,  ///< CSV, TSV and friends (read with csv_reader.h)
    Arff,       ///< Weka ARFF (read with arff_reader.h)
};

/// The preview looks at no more than this many leading bytes of a file, so that it is instant
/// on huge files; the statistics then describe the rows in this window only.
inline constexpr std::size_t kPreviewBytes = std::size_t{1024} * 1024;
/// At most this many distinct values are listed per column (ColumnPreview::distinctValues).
inline constexpr std::size_t kPreviewDistinctValues = 30;

/// What the preview saw in one column (over FilePreview::scannedRows rows).
struct ColumnPreview {
    /// The header name (made unique like the reader does: "x", "x.1"), or "column N".
    std::string name;
    /// Numeric when every non-missing value scanned is a finite number (and there is at least
    /// one), else categorical. ARFF: from the attribute type.
    FeatureKind guessedKind = FeatureKind::Categorical;
    /// Number of distinct non-missing values.
    std::size_t distinctCount = 0;
    /// Up to kPreviewDistinctValues distinct non-missing values, the most frequent first (ties:
    /// the first seen first): candidates for the positive value or the sensitive groups.
    std::vector<std::string> distinctValues;
    /// How many scanned rows hold each of `distinctValues` (same order).
    std::vector<std::size_t> distinctValueCounts;
    /// Scanned rows whose cell is missing: empty, or "?" (CSV), or ARFF's unquoted "?".
    std::size_t missingCount = 0;
    /// ARFF nominal attributes: the declared values in header order; empty otherwise.
    std::vector<std::string> declaredLevels;
    /// Numeric columns: a threshold t that splits the scanned values into two halves as even
    /// as the ties allow ("x < t" and "x ≥ t"), for binning a numeric sensitive attribute
    /// with Schema::sensitiveThreshold. Unset for other columns or fewer than 2 values.
    std::optional<double> median;
};

/// A sensitive column with more distinct values than this forms groups too small to compare
/// (e.g. an age column: one group per age); the import wizard warns and offers to bin it.
inline constexpr std::size_t kManySensitiveValues = 10;

/// A quick look at a data file for an import wizard: format, layout, columns and first rows.
struct FilePreview {
    std::string file;  ///< path or source name
    FileFormat format = FileFormat::Delimited;
    /// The detected delimiter (',' ';' tab '|' or, as a fallback, space); ',' for ARFF.
    char delimiter = ',';
    /// Whether the first record looks like a header (always true for ARFF). The heuristic:
    /// the first record is a header when none of its fields is a number or "?", and either
    /// some column is numeric in the rows below it or none of its fields occurs again in its
    /// own column below it (names are not data). With a single record: when none of its
    /// fields is a number or "?". Numeric column names ("2019", "2020") therefore fool it.
    bool hasHeader = true;
    /// "?" when some scanned cell is exactly "?" (a likely Schema::missingToken), else empty.
    /// Always empty for ARFF, whose "?" the ARFF reader handles itself.
    std::string missingToken;
    std::string relation;  ///< ARFF: the @relation name
    std::vector<ColumnPreview> columns;
    /// The first rows (at most the `maxRows` asked for), header excluded, one string per
    /// column; ARFF's missing values are shown as empty strings.
    std::vector<std::vector<std::string>> rows;
    /// Number of data rows the column statistics come from: every complete row within the
    /// first kPreviewBytes bytes.
    std::size_t scannedRows = 0;
    /// Data rows within the preview window whose number of fields differs from the first
    /// row's (the header's): how many, and the first kListedBadRows of them in file order.
    /// They are left out of `rows` and of the statistics. A file whose every data row is bad
    /// raises DataFileError instead (nothing to preview).
    std::size_t badRowCount = 0;
    std::vector<BadRow> badRows;
    /// True when the whole file fitted in the preview window (all rows were scanned).
    bool complete = true;
    std::uint64_t fileBytes = 0;  ///< size of the whole file (or text)
};

/// Previews a CSV/TSV/ARFF file, reading at most its first kPreviewBytes bytes. The format is
/// recognised by content: ARFF when the first line that is neither blank nor a '%' comment
/// starts with "@relation" (any case), delimited text otherwise. Raises DataFileError (file,
/// line, column) like the readers for a missing, empty or binary file, an undetectable
/// delimiter, a file whose data rows all have the wrong number of fields, or a malformed ARFF
/// header or row. Some ragged rows among good ones are listed in FilePreview::badRows.
FilePreview previewFile(const std::string& path, std::size_t maxRows = 20);

/// previewFile() on in-memory text called `sourceName` (only its first kPreviewBytes bytes
/// are looked at).
FilePreview previewText(std::string_view text, std::string sourceName, std::size_t maxRows = 20);

}  // namespace pfa
