#include "core/data/schema.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/data/text_cells.h"
#include "core/util/error.h"

namespace pfa {

namespace {

[[noreturn]] void fail(const std::string& field, const std::string& problem) {
    throw InputError("Schema." + field + ": " + problem);
}

std::string quoteValue(const std::string& s) { return "'" + s + "'"; }

std::string describeDelimiter(char c) {
    if (c == '\t') return "tab";
    if (c == '\n') return "newline";
    if (c == '\r') return "carriage return";
    return quoteValue(std::string(1, c));
}

bool isNumericOp(FilterOp op) { return op != FilterOp::Equal && op != FilterOp::NotEqual; }

}  // namespace

const char* filterOpSymbol(FilterOp op) {
    switch (op) {
        case FilterOp::Equal:
            return "==";
        case FilterOp::NotEqual:
            return "!=";
        case FilterOp::LessEqual:
            return "<=";
        case FilterOp::GreaterEqual:
            return ">=";
        case FilterOp::Less:
            return "<";
        case FilterOp::Greater:
            return ">";
        case FilterOp::AbsLessEqual:
            return "|x| <=";
    }
    return "?";
}

void Schema::validate() const {
    if (delimiter == '"' || delimiter == '\n' || delimiter == '\r')
        fail("delimiter", describeDelimiter(delimiter) + " cannot be a field delimiter");

    if (!hasHeader && columnNames.empty())
        fail("columnNames", "required when the file has no header (hasHeader is false)");
    {
        std::set<std::string> seen;
        for (const auto& c : columnNames) {
            if (c.empty()) fail("columnNames", "a column name is empty");
            if (!seen.insert(c).second)
                fail("columnNames", "column " + quoteValue(c) + " is listed twice");
        }
    }
    // Names must exist when we already know the columns; with a header, the reader checks.
    auto requireKnown = [&](const std::string& field, const std::string& col) {
        if (columnNames.empty()) return;
        if (std::find(columnNames.begin(), columnNames.end(), col) == columnNames.end())
            fail(field, "unknown column " + quoteValue(col) + " (not in Schema.columnNames)");
    };

    if (target.empty()) fail("target", "the target column name is empty");
    requireKnown("target", target);
    for (const auto& v : positiveValues)
        if (v.empty()) fail("positiveValues", "a positive value is empty");
    for (const auto& s : targetStripSuffixes)
        if (s.empty()) fail("targetStripSuffixes", "a suffix is empty");
    if (targetThreshold) {
        if (!std::isfinite(*targetThreshold))
            fail("targetThreshold", "the threshold is not a finite number");
        if (!positiveValues.empty())
            fail("targetThreshold",
                 "cannot be combined with Schema.positiveValues (both define the binary target)");
    }
    if (positiveValues.empty() && !targetThreshold &&
        (!negativeClassName.empty() || !positiveClassName.empty()))
        fail(negativeClassName.empty() ? "positiveClassName" : "negativeClassName",
             "class names can only be set for a binary target (Schema.positiveValues is empty "
             "and Schema.targetThreshold is not set)");

    if (sensitive.empty()) fail("sensitive", "at least one sensitive column is required");
    {
        std::set<std::string> seen;
        for (const auto& s : sensitive) {
            if (s.empty()) fail("sensitive", "a sensitive column name is empty");
            if (s == target)
                fail("sensitive", quoteValue(s) + " is also the target (Schema.target)");
            if (!seen.insert(s).second) fail("sensitive", quoteValue(s) + " is listed twice");
            requireKnown("sensitive", s);
        }
    }
    for (const auto& [key, label] : sensitiveValueLabels) {
        if (label.empty())
            fail("sensitiveValueLabels", "the label of " + quoteValue(key) + " is empty");
        // Group names are joined with " & "; a label containing it would make names ambiguous.
        if (label.find(" & ") != std::string::npos)
            fail("sensitiveValueLabels", "the label " + quoteValue(label) + " contains \" & \"");
    }

    if (sensitiveThreshold) {
        if (!std::isfinite(*sensitiveThreshold))
            fail("sensitiveThreshold", "the threshold is not a finite number");
        if (sensitive.size() != 1)
            fail("sensitiveThreshold", "needs exactly one sensitive column (Schema.sensitive has " +
                                           std::to_string(sensitive.size()) + ")");
        if (!sensitiveValueLabels.empty())
            fail("sensitiveValueLabels",
                 "cannot be combined with Schema.sensitiveThreshold (name the two groups with "
                 "Schema.sensitiveThresholdLabels)");
        if (!sensitiveThresholdLabels.empty()) {
            if (sensitiveThresholdLabels.size() != 2)
                fail("sensitiveThresholdLabels",
                     "exactly two names are needed (below the threshold, at or above it); found " +
                         std::to_string(sensitiveThresholdLabels.size()));
            for (const auto& label : sensitiveThresholdLabels) {
                if (label.empty()) fail("sensitiveThresholdLabels", "a name is empty");
                if (label.find(" & ") != std::string::npos)
                    fail("sensitiveThresholdLabels",
                         "the name " + quoteValue(label) + " contains \" & \"");
            }
            if (sensitiveThresholdLabels[0] == sensitiveThresholdLabels[1])
                fail("sensitiveThresholdLabels",
                     "the two names are equal (" + quoteValue(sensitiveThresholdLabels[0]) + ")");
        }
    } else if (!sensitiveThresholdLabels.empty()) {
        fail("sensitiveThresholdLabels",
             "only used with Schema.sensitiveThreshold, which is not set");
    }

    for (std::size_t k = 0; k < rowFilters.size(); ++k) {
        const RowFilter& f = rowFilters[k];
        const std::string field = "rowFilters[" + std::to_string(k) + "]";
        if (f.column.empty()) fail(field, "the column name is empty");
        requireKnown(field, f.column);
        if (f.value.empty())
            fail(field,
                 "the value is empty (a missing cell never passes a filter; compare "
                 "with a real value)");
        double x = 0;
        if (isNumericOp(f.op) && detail::parseNumber(f.value, x) != detail::NumberParse::Ok)
            fail(field, "the value " + quoteValue(f.value) + " is not a finite number, which " +
                            filterOpSymbol(f.op) + " needs");
    }

    if (userId) {
        if (userId->empty()) fail("userId", "the user-id column name is empty");
        if (*userId == target) fail("userId", quoteValue(*userId) + " is also the target");
        if (std::find(sensitive.begin(), sensitive.end(), *userId) != sensitive.end())
            fail("userId", quoteValue(*userId) + " is also a sensitive column");
        requireKnown("userId", *userId);
    }

    for (const auto& [col, spec] : columns) {
        const std::string field = "columns[" + quoteValue(col) + "]";
        if (col.empty()) fail("columns", "a column name is empty");
        requireKnown(field, col);
        if (col == target) fail(field, quoteValue(col) + " is the target; its role cannot be set");
        if (std::find(sensitive.begin(), sensitive.end(), col) != sensitive.end())
            fail(field, quoteValue(col) + " is a sensitive column; its role cannot be set");
        if (userId && col == *userId)
            fail(field, quoteValue(col) + " is the user-id column; its role cannot be set");
        if (!spec.levels.empty()) {
            if (spec.role != ColumnRole::Categorical)
                fail(field, "levels can only be declared for a categorical column");
            std::set<std::string> seen;
            for (const auto& level : spec.levels) {
                if (level.empty()) fail(field, "a declared level is empty");
                if (level == missingToken)
                    fail(field,
                         "the declared level " + quoteValue(level) + " is the missing-value token");
                if (!seen.insert(level).second)
                    fail(field, "the level " + quoteValue(level) + " is declared twice");
            }
        }
    }
}

std::string numberedColumnName(int index) { return "x" + std::to_string(index + 1); }

}  // namespace pfa
