#include "core/data/schema.h"

#include <algorithm>
#include <set>

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

}  // namespace

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
    if (positiveValues.empty() && (!negativeClassName.empty() || !positiveClassName.empty()))
        fail(negativeClassName.empty() ? "positiveClassName" : "negativeClassName",
             "class names can only be set for a binary target (Schema.positiveValues is empty)");

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

}  // namespace pfa
