#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pfa {

/// How one column of a delimited file is used.
enum class ColumnRole {
    /// Numeric when every kept, non-missing value is a finite number, else categorical.
    Auto,
    /// A feature; every kept value must parse as a finite number.
    Numeric,
    /// A feature; one-hot encoded later.
    Categorical,
    /// Not read at all (its missing values do not drop the row either).
    Ignore,
};

/// The specification of one column (see `Schema::columns`).
struct ColumnSpec {
    ColumnRole role = ColumnRole::Auto;
    /// Categorical only, optional: the complete, ordered list of allowed levels. When given,
    /// the level codes (and so the one-hot layout) do not depend on which rows were read or
    /// how they are later split, and any other value is an error.
    std::vector<std::string> levels;
};

/// What to do with a row that has a missing value in a column that is used.
enum class MissingPolicy {
    DropRow,  ///< skip the row (counted in FileReadStats::droppedMissing)
    Error,    ///< raise a DataFileError naming line and column
};

/// The comparison of a RowFilter.
enum class FilterOp {
    Equal,         ///< cell == value
    NotEqual,      ///< cell != value
    LessEqual,     ///< cell <= value (numeric)
    GreaterEqual,  ///< cell >= value (numeric)
    Less,          ///< cell < value (numeric)
    Greater,       ///< cell > value (numeric)
    AbsLessEqual,  ///< |cell| <= value (numeric)
};

/// The operator as written in messages: "==", "!=", "<=", ">=", "<", ">", "|x| <=".
const char* filterOpSymbol(FilterOp op);

/// A condition a row must meet to be read (see `Schema::rowFilters`): `cell op value`.
///
/// Equal and NotEqual compare numerically when both the cell and `value` are numbers (so "1.0"
/// equals "1"), and as text otherwise. The other operators are numeric: `value` must be a
/// finite number (Schema::validate() checks it) and a cell that is not a number is an error
/// naming line and column. A missing cell (empty, or Schema::missingToken) fails every filter,
/// as NULL does in SQL, so its row is dropped (pandas' `abs(x) <= 30` drops NaN the same way).
struct RowFilter {
    std::string column;             ///< any column, also one whose role is Ignore
    FilterOp op = FilterOp::Equal;  ///< the comparison
    std::string value;              ///< the right-hand side, as text
};

/// Describes how a delimited text file (CSV and friends) becomes a TabularData: where the
/// column names come from, which column is the target, which are sensitive, which are
/// numeric or categorical features, which rows are kept. The readers (csv_reader.h,
/// arff_reader.h) do the parsing; encoding is done later from training rows only. An ARFF file
/// defines its own columns: the file-layout fields below are ignored for it.
struct Schema {
    /// Data set name stored in TabularData::name; empty: the first file's stem.
    std::string name;

    // --- file layout -------------------------------------------------------------------
    /// Field delimiter; 0 = auto-detect among ',' ';' '\t' '|' from the first lines.
    char delimiter = 0;
    /// True when the first non-blank, non-comment line of each file holds the column names.
    bool hasHeader = true;
    /// Column names in file order. Required when `hasHeader` is false; with a header it is
    /// optional and, when given, every file's header must match it exactly.
    std::vector<std::string> columnNames;
    /// Lines starting with this prefix (at the very start of the line) are skipped; empty
    /// disables comments. E.g. "|" for adult.test.
    std::string commentPrefix;
    /// Strip spaces and tabs around unquoted fields (quoted content is kept as is).
    bool trimWhitespace = true;
    /// A data row whose number of fields differs from the header's (a short or long row) is
    /// skipped and reported (FileReadStats::skippedBadRows, TabularData::skippedBadRowList)
    /// instead of stopping the read with a DataFileError. Off by default: such rows are errors
    /// unless the user asked to skip them, so no row disappears silently.
    bool skipMalformedRows = false;

    // --- target --------------------------------------------------------------------------
    /// Name of the label column (required).
    std::string target;
    /// Non-empty: a binary task; class 1 = the target equals any of these values, class 0 =
    /// any other value. Empty: a multi-class task whose classes are the distinct values
    /// in sorted order (at least 2).
    std::vector<std::string> positiveValues;
    /// Binary tasks, optional display name of class 0. Default: "not A" (one positive value
    /// A), "not (A or B)" (several) or "≤ T" (targetThreshold T).
    std::string negativeClassName;
    /// Binary tasks, optional display name of class 1. Default: "A", "A or B" or "> T".
    std::string positiveClassName;
    /// Set: a binary task from a numeric target column: class 1 iff the value is greater than
    /// this threshold (e.g. Parkinsons total_UPDRS > 27.576). Class names default to "≤ T" and
    /// "> T" (T with up to 6 significant digits) unless negative/positiveClassName are set. A
    /// target value that is not a number is an error. Excludes `positiveValues`.
    std::optional<double> targetThreshold;
    /// Suffixes removed from target values before comparison (at most one, the first that
    /// matches), e.g. "." so that ">50K." in adult.test equals ">50K".
    std::vector<std::string> targetStripSuffixes;

    // --- sensitive attribute(s) ------------------------------------------------------------
    /// One or more sensitive columns (required; they are never features). Several columns
    /// form intersectional groups named "a & b" (values in the order of this list). Group
    /// ids follow the sorted order of the group names.
    std::vector<std::string> sensitive;
    /// Optional display names for raw sensitive values. A key "column=value" applies to one
    /// column only and wins over a plain "value" key, e.g. {"SEX=1", "male"} or {"A92", "female"}.
    /// Several raw values may share a label; they then form one group.
    std::map<std::string, std::string> sensitiveValueLabels;

    /// Set: the (single) sensitive column is numeric and is split into two groups, "value < t"
    /// and "value ≥ t" (e.g. German credit: age ≥ 25). A value that is not a number is an
    /// error. Only with exactly one sensitive column, and not with `sensitiveValueLabels`.
    std::optional<double> sensitiveThreshold;
    /// With `sensitiveThreshold`, optional: exactly two group names, {below, at-or-above}.
    /// Default: {"<column> < t", "<column> ≥ t"}, e.g. {"age < 25", "age ≥ 25"}. As for all
    /// groups, group ids follow the sorted order of the names.
    std::vector<std::string> sensitiveThresholdLabels;

    /// Optional user (or silo) id column: its distinct values become ids 0, 1, ... in order of
    /// first appearance. Never a feature.
    std::optional<std::string> userId;

    // --- features --------------------------------------------------------------------------
    /// Per-column kinds, by column name. Columns not listed (and not target, sensitive or
    /// user id) are ColumnRole::Auto. The target, sensitive and user-id columns may not be
    /// listed here.
    std::map<std::string, ColumnSpec> columns;
    /// Role of every column not listed in `columns` (and not target, sensitive or user id):
    /// Auto (detect), or e.g. Ignore when only the listed columns are features.
    ColumnRole defaultRole = ColumnRole::Auto;

    // --- row selection -----------------------------------------------------------------------
    /// Rows failing any of these filters are skipped (counted in FileReadStats::droppedFiltered)
    /// before anything else is looked at, so a skipped row never raises a missing-value error.
    /// E.g. ProPublica's COMPAS selection: days_b_screening_arrest AbsLessEqual 30,
    /// is_recid NotEqual -1, c_charge_degree NotEqual O, score_text NotEqual N/A.
    std::vector<RowFilter> rowFilters;

    // --- missing values ----------------------------------------------------------------------
    /// A cell equal to this token (after trimming) is missing, e.g. "?"; empty cells are
    /// always missing. Empty token: only empty cells are missing.
    std::string missingToken;
    /// What a missing value in a used column (feature, target, sensitive, user id) does.
    MissingPolicy missingPolicy = MissingPolicy::DropRow;

    /// Checks the schema for contradictions that do not need the file: empty target, no
    /// sensitive column, a column used twice, declared levels on a non-categorical column,
    /// no column names without a header, names not among `columnNames` (when given), a
    /// threshold combined with what it excludes, a filter without a usable value, ...
    /// Throws pfa::InputError whose message names the offending field ("Schema.target: ...").
    void validate() const;
};

/// Name of column `index` (from 0) of a generated data set: "x1", "x2", …
std::string numberedColumnName(int index);

}  // namespace pfa
