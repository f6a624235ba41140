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
    DropRow,  ///< skip the row (counted in ReadStats::droppedMissing)
    Error,    ///< raise a DataFileError naming line and column
};

/// Describes how a delimited text file (CSV and friends) becomes a TabularData: where the
/// column names come from, which column is the target, which are sensitive, which are
/// numeric or categorical features. The reader (csv_reader.h) does the parsing; encoding is
/// done later from training rows only.
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

    // --- target --------------------------------------------------------------------------
    /// Name of the label column (required).
    std::string target;
    /// Non-empty: a binary task; class 1 = the target equals any of these values, class 0 =
    /// any other value. Empty: a multi-class task whose classes are the distinct values
    /// in sorted order (at least 2).
    std::vector<std::string> positiveValues;
    /// Binary tasks, optional display name of class 0. Default: "not A" (one positive value
    /// A) or "not (A or B)" (several).
    std::string negativeClassName;
    /// Binary tasks, optional display name of class 1. Default: "A" or "A or B".
    std::string positiveClassName;
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

    /// Optional user (or silo) id column: its distinct values become ids 0, 1, ... in order of
    /// first appearance. Never a feature.
    std::optional<std::string> userId;

    // --- features --------------------------------------------------------------------------
    /// Per-column kinds, by column name. Columns not listed (and not target, sensitive or
    /// user id) are ColumnRole::Auto. The target, sensitive and user-id columns may not be
    /// listed here.
    std::map<std::string, ColumnSpec> columns;

    // --- missing values ----------------------------------------------------------------------
    /// A cell equal to this token (after trimming) is missing, e.g. "?"; empty cells are
    /// always missing. Empty token: only empty cells are missing.
    std::string missingToken;
    /// What a missing value in a used column (feature, target, sensitive, user id) does.
    MissingPolicy missingPolicy = MissingPolicy::DropRow;

    /// Checks the schema for contradictions that do not need the file: empty target, no
    /// sensitive column, a column used twice, declared levels on a non-categorical column,
    /// no column names without a header, names not among `columnNames` (when given), ...
    /// Throws pfa::InputError whose message names the offending field ("Schema.target: ...").
    void validate() const;
};

}  // namespace pfa
