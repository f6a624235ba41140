#pragma once

// Internal building block of the data-file readers: turns the text records of one or more
// files into a TabularData as a Schema describes (column roles, target, sensitive groups, user
// ids, row filters, missing values). Shared by the CSV and ARFF readers so that both apply the
// schema identically. Not a public API.

#include <cstddef>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/data/csv_reader.h"
#include "core/data/delimited_parser.h"
#include "core/data/schema.h"
#include "core/data/tabular_data.h"

namespace pfa::detail {

/// Builds typed columns from records, one file after the other. Usage: setColumns() once,
/// then per file beginFile() and addRecord() per record, then finish().
class RecordAssembler {
public:
    /// `schema` must outlive the assembler and be valid (Schema::validate()); `sourcesName`
    /// names all inputs in errors that are not tied to one file ("a.csv + b.csv").
    RecordAssembler(const Schema& schema, std::string sourcesName);
    /// Reads as ReadOptions::labelsOptional describes (call before setColumns()).
    void setLabelsOptional(bool optional) { m_labelsOptional = optional; }
    /// When set, the physical line of every kept row is appended to `lines`.
    void setRowLines(std::vector<long>* lines) { m_rowLines = lines; }

    /// True once setColumns() was called.
    bool hasColumns() const { return !m_names.empty(); }
    /// The column names given to setColumns().
    const std::vector<std::string>& names() const { return m_names; }

    /// Fixes the columns and plans their use. `fileSpecs`, when not empty, holds one spec per
    /// column that the file itself declares (ARFF: numeric, or nominal with its levels);
    /// Schema::columns overrides it where it sets a role other than Auto (a Categorical
    /// override without levels keeps the file's levels). Unknown columns named by the schema
    /// raise DataFileError at `file`:`headerLine`.
    void setColumns(std::vector<std::string> names, const std::string& file, long headerLine,
                    std::vector<ColumnSpec> fileSpecs = {});

    /// Starts the statistics of the next input.
    void beginFile(const std::string& file);
    /// Statistics of the current input.
    FileReadStats& fileStats() { return m_stats.back(); }

    /// Adds one record: checks its field count, applies the row filters and the missing-value
    /// policy, then appends target, group, features and user id.
    void addRecord(const Record& r);

    /// The data set, after the checks that need every row (at least one row, two classes, two
    /// groups per sensitive column). Call once.
    TabularData finish(std::string name);

    /// Per-input statistics so far.
    const std::vector<FileReadStats>& stats() const { return m_stats; }

private:
    enum class Use { Ignore, Target, Sensitive, UserId, Feature };

    struct ColumnPlan {
        Use use = Use::Ignore;
        int index = -1;  // feature or sensitive index
    };

    struct FeatureState {
        std::string name;
        ColumnRole role = ColumnRole::Auto;  // Numeric, Categorical or Auto
        bool declared = false;               // levels fixed up front (schema or file header)
        std::vector<std::string> declaredLevels;
        std::unordered_map<std::string, int> levelIndex;  // declared, or collected (unsorted)
        std::vector<int> codes;
        std::vector<double> numeric;
        bool numericSoFar = true;  // Auto: every value so far was a finite number
    };

    struct FilterPlan {
        std::size_t column = 0;
        const RowFilter* filter = nullptr;
        double number = 0;           // the filter value as a number
        bool valueIsNumber = false;  // Equal / NotEqual: compare numerically when possible
    };

    bool isMissing(const std::string& v) const;
    bool passes(const FilterPlan& f, const std::string& cell, long line) const;
    std::string positiveName() const;
    std::string negativeName() const;
    void addTarget(const Record& r);
    const std::string& sensitiveLabel(std::size_t s, const std::string& raw, long line);
    void addGroup(const Record& r);
    void addFeatureValue(FeatureState& fs, const std::string& v, long line);

    const Schema& m_schema;
    std::string m_sources;  // all inputs, for errors not tied to one file
    std::string m_file;     // current input
    std::vector<std::string> m_names;
    std::vector<ColumnPlan> m_plan;
    std::vector<FilterPlan> m_filters;
    std::size_t m_targetColumn = 0;
    std::vector<std::size_t> m_sensitiveColumns;
    std::string m_description;                   // "race & sex"
    std::vector<std::string> m_thresholdLabels;  // {below, at or above} with sensitiveThreshold
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
    bool m_labelsOptional = false;
    bool m_hasTarget = true;  // false: labelsOptional and the file has no target column
    std::vector<long>* m_rowLines = nullptr;
    std::size_t m_badRows = 0;         // skipped for a wrong field count (all files)
    std::vector<BadRow> m_badRowList;  // the first kListedBadRows of them
};

}  // namespace pfa::detail
