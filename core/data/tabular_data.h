#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace pfa {

struct PersonalisedTruth;  // core/data/personalised.h

/// A data row that does not have the columns the file's first row (header) has, as the
/// preview and the readers report it (see Schema::skipMalformedRows).
struct BadRow {
    long line = 0;             ///< physical line (1-based) where the record starts
    std::size_t fields = 0;    ///< fields found
    std::size_t expected = 0;  ///< fields of the header (or first row)
};

/// "line 202 has 9 fields, expected 15".
inline std::string describeBadRow(const BadRow& row) {
    // Built with append(): GCC 12 reports a false -Wrestrict for `"literal" + string`.
    std::string text("line ");
    text.append(std::to_string(row.line)).append(" has ").append(std::to_string(row.fields));
    return text.append(row.fields == 1 ? " field" : " fields")
        .append(", expected ")
        .append(std::to_string(row.expected));
}

/// At most this many bad rows are listed one by one (they are all counted).
inline constexpr std::size_t kListedBadRows = 50;

/// "2 malformed rows skipped (lines 202, 340)": the bad rows `count` counts, of which `listed`
/// are the first; at most 5 lines are named.
inline std::string describeSkippedRows(std::size_t count, const std::vector<BadRow>& listed) {
    std::string lines;
    for (std::size_t i = 0; i < listed.size() && i < 5; ++i) {
        if (i > 0) lines.append(", ");
        lines.append(std::to_string(listed[i].line));
    }
    if (count > 5 || count > listed.size()) lines.append(", …");
    std::string text = std::to_string(count);
    return text
        .append(count == 1 ? " malformed row skipped (line " : " malformed rows skipped (lines ")
        .append(lines)
        .append(")");
}

/// How a raw feature column becomes model inputs.
enum class FeatureKind {
    Numeric,      ///< standardised (z-score with training-set statistics)
    Categorical,  ///< one-hot encoded, one column per level
};

/// One parsed (not yet encoded) feature column.
struct FeatureColumn {
    std::string name;
    FeatureKind kind = FeatureKind::Numeric;
    /// Numeric columns: one value per row.
    std::vector<double> numeric;
    /// Categorical columns: one code per row, an index into `levels`.
    std::vector<int> codes;
    /// Categorical columns: the level names, indexed by code.
    std::vector<std::string> levels;
    /// True when `levels` is a fixed, public list (from the schema): every level gets a
    /// one-hot column. False: levels were collected from the file, and only those seen in
    /// training rows get a column (test rows with an unseen level encode as all zeros).
    bool levelsDeclared = false;
};

/// A data set after parsing and before encoding: typed feature columns, the label, the
/// sensitive group and (optionally) a user id and a silo id per row. Splitting and encoding
/// happen later (see preprocessing.h), so that encoding statistics come from training rows
/// only.
struct TabularData {
    std::string name;                     ///< data set name ("adult", a file name, ...)
    std::vector<FeatureColumn> features;  ///< every column except target/sensitive/ignored
    std::vector<int> label;               ///< class index per row, in [0, classNames.size())
    std::vector<std::string> classNames;  ///< class 1 is "positive" for binary tasks
    std::vector<int> group;               ///< sensitive group per row, in [0, groupNames.size())
    std::vector<std::string> groupNames;  ///< intersectional groups are named "a & b"
    std::string sensitiveDescription;     ///< e.g. "sex" or "race & sex"
    std::vector<int> userId;              ///< empty, or one id per row (user-level units)
    std::string unitName = "record";      ///< what one row is ("record", "recording", ...)
    std::string personColumn;             ///< column of the user ids ("" when none)
    std::vector<std::string> userNames;   ///< the user column's value per user id (may be empty)
    std::vector<int> siloId;              ///< empty, or one silo id (0 … N − 1) per row
    std::vector<std::string> siloNames;   ///< name per silo id (may be empty)
    std::string siloDescription;          ///< how the silos were formed ("" without silos)
    /// Regression data: the real-valued target per row (empty for classification data, whose
    /// target is `label`). Such data has no classes and one group; `label` and `group` hold 0.
    std::vector<double> target;
    /// Regression data made by a generator that knows the true coefficients: w*_j per feature
    /// column, in the raw units of the columns (empty when unknown). Numeric columns only.
    std::vector<double> trueWeights;
    /// Data made by the personalised generator ("synthetic-personalised"): every user's
    /// optimum and the sampling law, for algorithms that draw fresh samples per round and
    /// measure the exact excess risk (null for all other data).
    std::shared_ptr<const PersonalisedTruth> personalised;
    /// Rows the reader skipped because they had the wrong number of fields (only with
    /// Schema::skipMalformedRows; otherwise such a row is an error): how many, and the first
    /// kListedBadRows of them, so that everything trained on the data can say so.
    std::size_t skippedBadRows = 0;
    std::vector<BadRow> skippedBadRowList;

    std::size_t rows() const { return label.size(); }
};

}  // namespace pfa
