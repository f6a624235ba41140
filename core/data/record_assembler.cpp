#include "core/data/record_assembler.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <utility>

#include "core/data/text_cells.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa::detail {

namespace {

constexpr std::size_t kMaxGroups = 64;

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
    for (int& c : codes) {
        if (c >= 0) c = remap[static_cast<std::size_t>(c)];  // −1: unknown (labelsOptional)
    }
    return sorted;
}

/// The shortest text that reads back as `number` (std::to_chars): "7" for 7, "0.1", "1e+100".
std::string shortestText(double number) {
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, number);
    return std::string(buffer, result.ptr);
}

/// The threshold as shown in class and group names: up to 6 significant digits.
std::string thresholdText(double t) { return formatNumber(t, 6); }

bool isNumericOp(FilterOp op) { return op != FilterOp::Equal && op != FilterOp::NotEqual; }

}  // namespace

RecordAssembler::RecordAssembler(const Schema& schema, std::string sourcesName)
    : m_schema(schema), m_sources(std::move(sourcesName)) {}

void RecordAssembler::setColumns(std::vector<std::string> names, const std::string& file,
                                 long headerLine, std::vector<ColumnSpec> fileSpecs) {
    m_names = std::move(names);
    auto find = [&](const std::string& col, const std::string& field) -> std::size_t {
        const auto it = std::find(m_names.begin(), m_names.end(), col);
        if (it == m_names.end())
            throw DataFileError(file, headerLine, col,
                                "unknown column named in Schema." + field +
                                    "; the file's columns are: " + joinQuoted(m_names, 30));
        return static_cast<std::size_t>(it - m_names.begin());
    };
    // With optional labels, the target, sensitive and user-id columns and the filters on
    // columns the file lacks are simply not read.
    auto present = [&](const std::string& col) {
        return !m_labelsOptional || std::find(m_names.begin(), m_names.end(), col) != m_names.end();
    };
    m_plan.assign(m_names.size(), ColumnPlan{});
    m_hasTarget = present(m_schema.target);
    if (m_hasTarget) {
        m_targetColumn = find(m_schema.target, "target");
        m_plan[m_targetColumn] = {Use::Target, 0};
    }
    const bool groups = std::all_of(m_schema.sensitive.begin(), m_schema.sensitive.end(), present);
    for (std::size_t s = 0; groups && s < m_schema.sensitive.size(); ++s) {
        const std::size_t c = find(m_schema.sensitive[s], "sensitive");
        m_plan[c] = {Use::Sensitive, static_cast<int>(s)};
        m_sensitiveColumns.push_back(c);
    }
    m_labelCache.resize(m_schema.sensitive.size());
    for (std::size_t s = 0; s < m_schema.sensitive.size(); ++s)
        m_description += (s ? " & " : "") + m_schema.sensitive[s];
    m_sensitiveLabelsSeen.resize(m_schema.sensitive.size());
    if (m_schema.sensitiveThreshold) {
        if (!m_schema.sensitiveThresholdLabels.empty()) {
            m_thresholdLabels = m_schema.sensitiveThresholdLabels;
        } else {
            const std::string t = thresholdText(*m_schema.sensitiveThreshold);
            m_thresholdLabels = {m_schema.sensitive[0] + " < " + t,
                                 m_schema.sensitive[0] + " \u2265 " + t};
        }
    }
    if (m_schema.userId && present(*m_schema.userId))
        m_plan[find(*m_schema.userId, "userId")] = {Use::UserId, 0};
    for (const auto& entry : m_schema.columns) find(entry.first, "columns");
    for (const RowFilter& f : m_schema.rowFilters) {
        if (!present(f.column)) continue;
        FilterPlan plan;
        plan.column = find(f.column, "rowFilters");
        plan.filter = &f;
        plan.valueIsNumber = parseNumber(f.value, plan.number) == NumberParse::Ok;
        m_filters.push_back(plan);
    }
    for (std::size_t c = 0; c < m_names.size(); ++c) {
        if (m_plan[c].use != Use::Ignore) continue;  // target, sensitive or user id
        ColumnSpec spec = c < fileSpecs.size() ? std::move(fileSpecs[c]) : ColumnSpec{};
        const auto it = m_schema.columns.find(m_names[c]);
        if (it != m_schema.columns.end()) {
            const ColumnSpec& user = it->second;
            if (user.role == ColumnRole::Ignore) continue;
            if (user.role == ColumnRole::Numeric) {
                spec = user;
            } else if (user.role == ColumnRole::Categorical) {
                // Declared levels: the schema's, else (a nominal ARFF attribute) the file's.
                if (!user.levels.empty() || spec.role != ColumnRole::Categorical)
                    spec.levels = user.levels;
                spec.role = ColumnRole::Categorical;
            }
        } else if (m_schema.defaultRole != ColumnRole::Auto) {
            // Columns the schema does not list take its default role (e.g. "ignore" for a
            // file with many columns of which a few are features). As for an explicit
            // Categorical role without levels, a nominal ARFF attribute keeps its levels.
            if (m_schema.defaultRole != ColumnRole::Categorical ||
                spec.role != ColumnRole::Categorical)
                spec.levels.clear();
            spec.role = m_schema.defaultRole;
        }
        if (spec.role == ColumnRole::Ignore) continue;
        FeatureState fs;
        fs.name = m_names[c];
        fs.role = spec.role;
        if (spec.role == ColumnRole::Categorical && !spec.levels.empty()) {
            fs.declared = true;
            fs.declaredLevels = std::move(spec.levels);
            for (const auto& level : fs.declaredLevels) intern(fs.levelIndex, level);
        }
        m_plan[c] = {Use::Feature, static_cast<int>(m_features.size())};
        m_features.push_back(std::move(fs));
    }
}

void RecordAssembler::beginFile(const std::string& file) {
    m_file = file;
    m_stats.push_back({});
    m_stats.back().file = file;
}

bool RecordAssembler::passes(const FilterPlan& f, const std::string& cell, long line) const {
    const FilterOp op = f.filter->op;
    double x = 0;
    const NumberParse parsed = parseNumber(cell, x);
    if (!isNumericOp(op)) {
        const bool equal =
            f.valueIsNumber && parsed == NumberParse::Ok ? x == f.number : cell == f.filter->value;
        return op == FilterOp::Equal ? equal : !equal;
    }
    if (parsed != NumberParse::Ok)
        throw DataFileError(m_file, line, m_names[f.column],
                            "value " + quoteCell(cell) +
                                (parsed == NumberParse::NotFinite ? " is not a finite number"
                                                                  : " is not a number") +
                                "; Schema.rowFilters compares it numerically (" +
                                filterOpSymbol(op) + " " + f.filter->value + ")");
    switch (op) {
        case FilterOp::LessEqual:
            return x <= f.number;
        case FilterOp::GreaterEqual:
            return x >= f.number;
        case FilterOp::Less:
            return x < f.number;
        case FilterOp::Greater:
            return x > f.number;
        case FilterOp::AbsLessEqual:
            return std::abs(x) <= f.number;
        default:
            return false;
    }
}

void RecordAssembler::addRecord(const Record& r) {
    FileReadStats& st = m_stats.back();
    ++st.records;
    if (r.count != m_names.size()) {
        if (m_schema.skipMalformedRows) {
            ++st.skippedBadRows;
            ++m_badRows;
            if (m_badRowList.size() < kListedBadRows)
                m_badRowList.push_back({r.line, r.count, m_names.size()});
            return;
        }
        std::string problem = "expected " + std::to_string(m_names.size()) + " fields, found " +
                              std::to_string(r.count);
        if (r.count == 1 && st.delimiter != 0)
            problem += " (is the delimiter right? it is " + delimiterName(st.delimiter) + ")";
        throw DataFileError(m_file, r.line, "", problem);
    }
    // Filters first: a row that is not selected is skipped whatever else it holds.
    for (const FilterPlan& f : m_filters) {
        const std::string& cell = r.fields[f.column];
        if (isMissing(cell) || !passes(f, cell, r.fieldLine[f.column])) {
            ++st.droppedFiltered;
            return;
        }
    }
    // Missing values next, so that a dropped row leaves no trace in any column.
    for (std::size_t c = 0; c < r.count; ++c) {
        if (m_plan[c].use == Use::Ignore || !isMissing(r.fields[c])) continue;
        // Optional labels: an unknown label or group is no reason to skip the row.
        if (m_labelsOptional && (m_plan[c].use == Use::Target || m_plan[c].use == Use::Sensitive))
            continue;
        if (m_schema.missingPolicy == MissingPolicy::DropRow) {
            ++st.droppedMissing;
            return;
        }
        throw DataFileError(
            m_file, r.fieldLine[c], m_names[c],
            "missing value (" +
                (r.fields[c].empty() ? std::string("empty cell") : quoteCell(r.fields[c])) +
                ") and Schema.missingPolicy is Error");
    }
    addTarget(r);
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
    if (m_rowLines) m_rowLines->push_back(r.line);
}

TabularData RecordAssembler::finish(std::string name) {
    if (m_rows == 0) {
        std::size_t records = 0, missing = 0, filtered = 0;
        for (const auto& s : m_stats) {
            records += s.records;
            missing += s.droppedMissing;
            filtered += s.droppedFiltered;
        }
        if (missing == 0 && filtered == 0 && m_badRows > 0)
            throw DataFileError(m_sources, 0, "",
                                "no data rows left: all " + std::to_string(m_badRows) +
                                    " records have the wrong number of fields (" +
                                    describeBadRow(m_badRowList.front()) + ")");
        const std::string missingWhat =
            m_schema.missingToken.empty() ? std::string(" (empty cell)")
                                          : " (empty or " + quoteCell(m_schema.missingToken) + ")";
        if (filtered == 0)
            throw DataFileError(m_sources, 0, "",
                                "no data rows left: all " + std::to_string(missing) +
                                    " records have a missing value" + missingWhat +
                                    " and were dropped");
        throw DataFileError(
            m_sources, 0, "",
            "no data rows left: of " + std::to_string(records) + " records, " +
                std::to_string(filtered) + " failed Schema.rowFilters" +
                (missing ? " and " + std::to_string(missing) + " have a missing value" + missingWhat
                         : std::string()));
    }
    TabularData out;
    out.name = std::move(name);
    out.skippedBadRows = m_badRows;
    out.skippedBadRowList = m_badRowList;

    // Target.
    if (!m_schema.positiveValues.empty() || m_schema.targetThreshold) {
        const auto positives =
            static_cast<std::size_t>(std::count(m_label.begin(), m_label.end(), 1));
        std::string negative, positive;
        if (m_schema.targetThreshold) {
            const std::string t = thresholdText(*m_schema.targetThreshold);
            negative = "\u2264 " + t;
            positive = "> " + t;
            if (!m_labelsOptional && (positives == 0 || positives == m_rows))
                throw DataFileError(m_sources, 0, m_schema.target,
                                    "the target has only one class after filtering: " +
                                        std::string(positives == 0 ? "no row" : "every row") +
                                        " has a value > " + t + " (Schema.targetThreshold)");
        } else {
            negative = negativeName();
            positive = positiveName();
            if (!m_labelsOptional && (positives == 0 || positives == m_rows))
                throw DataFileError(
                    m_sources, 0, m_schema.target,
                    "the target has only one class after filtering: " +
                        (positives == 0 ? "no row has the positive value " +
                                              joinQuoted(m_schema.positiveValues, 10)
                                        : "every row has the positive value " +
                                              joinQuoted(m_schema.positiveValues, 10)));
        }
        out.classNames = {
            m_schema.negativeClassName.empty() ? negative : m_schema.negativeClassName,
            m_schema.positiveClassName.empty() ? positive : m_schema.positiveClassName};
    } else {
        out.classNames = sortInterned(m_classIndex, m_label);
        if (!m_labelsOptional && out.classNames.size() < 2)
            throw DataFileError(m_sources, 0, m_schema.target,
                                "the target has only one class after filtering (" +
                                    quoteCell(out.classNames.front()) + ")");
    }
    out.label = std::move(m_label);

    // Sensitive groups.
    for (std::size_t s = 0; s < m_sensitiveLabelsSeen.size(); ++s) {
        if (!m_labelsOptional && m_sensitiveLabelsSeen[s].size() < 2)
            throw DataFileError(m_sources, 0, m_schema.sensitive[s],
                                "the sensitive column has only one group (" +
                                    quoteCell(*m_sensitiveLabelsSeen[s].begin()) +
                                    ") after filtering; fairness needs at least two");
    }
    out.groupNames = sortInterned(m_groupIndex, m_group);
    out.group = std::move(m_group);
    out.sensitiveDescription = m_description;

    if (m_schema.userId) {
        out.userId = std::move(m_userIds);
        out.personColumn = *m_schema.userId;
        // Ids stay in order of first appearance (results are keyed on them); names follow.
        out.userNames.resize(m_userIndex.size());
        for (const auto& [value, id] : m_userIndex) {
            out.userNames[static_cast<std::size_t>(id)] = value;
        }
    }

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
            col.levels = std::move(fs.declaredLevels);
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

bool RecordAssembler::isMissing(const std::string& v) const {
    return v.empty() || (!m_schema.missingToken.empty() && v == m_schema.missingToken);
}

std::string RecordAssembler::positiveName() const {
    std::string s;
    for (std::size_t k = 0; k < m_schema.positiveValues.size(); ++k)
        s += (k ? " or " : "") + m_schema.positiveValues[k];
    return s;
}

std::string RecordAssembler::negativeName() const {
    return m_schema.positiveValues.size() == 1 ? "not " + positiveName()
                                               : "not (" + positiveName() + ")";
}

void RecordAssembler::addTarget(const Record& r) {
    if (!m_hasTarget || isMissing(r.fields[m_targetColumn])) {
        m_label.push_back(-1);  // only with optional labels: other rows were dropped
        return;
    }
    std::string_view v = r.fields[m_targetColumn];
    for (const auto& suffix : m_schema.targetStripSuffixes) {
        if (v.size() > suffix.size() && v.substr(v.size() - suffix.size()) == suffix) {
            v.remove_suffix(suffix.size());
            break;
        }
    }
    if (m_schema.targetThreshold) {
        double x = 0;
        const NumberParse parsed = parseNumber(v, x);
        if (parsed != NumberParse::Ok)
            throw DataFileError(m_file, r.fieldLine[m_targetColumn], m_schema.target,
                                "value " + quoteCell(v) +
                                    (parsed == NumberParse::NotFinite ? " is not a finite number"
                                                                      : " is not a number") +
                                    " (Schema.targetThreshold needs a numeric target)");
        m_label.push_back(x > *m_schema.targetThreshold ? 1 : 0);
    } else if (!m_schema.positiveValues.empty()) {
        const bool positive =
            std::find(m_schema.positiveValues.begin(), m_schema.positiveValues.end(), v) !=
            m_schema.positiveValues.end();
        m_label.push_back(positive ? 1 : 0);
    } else {
        m_scratch.assign(v);
        m_label.push_back(intern(m_classIndex, m_scratch));
    }
}

const std::string& RecordAssembler::sensitiveLabel(std::size_t s, const std::string& raw,
                                                   long line) {
    if (m_schema.sensitiveThreshold) {
        double x = 0;
        const NumberParse parsed = parseNumber(raw, x);
        if (parsed != NumberParse::Ok)
            throw DataFileError(m_file, line, m_schema.sensitive[s],
                                "value " + quoteCell(raw) +
                                    (parsed == NumberParse::NotFinite ? " is not a finite number"
                                                                      : " is not a number") +
                                    " (Schema.sensitiveThreshold needs a numeric column)");
        return m_thresholdLabels[x < *m_schema.sensitiveThreshold ? 0 : 1];
    }
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

void RecordAssembler::addGroup(const Record& r) {
    const bool unknown = std::any_of(m_sensitiveColumns.begin(), m_sensitiveColumns.end(),
                                     [&](std::size_t c) { return isMissing(r.fields[c]); });
    if (m_sensitiveColumns.empty() || unknown) {
        m_group.push_back(-1);  // only with optional labels (the schema requires a column)
        return;
    }
    m_scratch.clear();
    for (std::size_t s = 0; s < m_sensitiveColumns.size(); ++s) {
        const std::size_t c = m_sensitiveColumns[s];
        const std::string& label = sensitiveLabel(s, r.fields[c], r.fieldLine[c]);
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
                                " sensitive groups (the next one is " + quoteCell(m_scratch) +
                                "); choose a sensitive attribute with fewer values or "
                                "merge values with Schema.sensitiveValueLabels");
    m_group.push_back(intern(m_groupIndex, m_scratch));
}

void RecordAssembler::addFeatureValue(FeatureState& fs, const std::string& v, long line) {
    switch (fs.role) {
        case ColumnRole::Numeric: {
            double x = 0;
            const NumberParse result = parseNumber(v, x);
            if (result != NumberParse::Ok)
                throw DataFileError(
                    m_file, line, fs.name,
                    "value " + quoteCell(v) +
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
                        "unknown value " + quoteCell(v) + " (not one of the " +
                            std::to_string(fs.declaredLevels.size()) +
                            " declared levels: " + joinQuoted(fs.declaredLevels, 12) + ")");
                fs.codes.push_back(it->second);
            } else {
                fs.codes.push_back(intern(fs.levelIndex, v));
            }
            break;
        default: {  // Auto: numbers while every value is one, then categories
            if (fs.numericSoFar) {
                double x = 0;
                if (parseNumber(v, x) == NumberParse::Ok) {
                    fs.numeric.push_back(x);
                    break;
                }
                // The first non-number: the numbers read so far become categories, each its
                // number in shortest form (so "7", "007" and "7.0" are one level, "7"). No
                // dictionary is kept before: for a numeric column (nearly always) it would hold
                // every distinct value as text, several times the column's own memory.
                fs.numericSoFar = false;
                fs.codes.reserve(fs.numeric.capacity());
                for (const double number : fs.numeric)
                    fs.codes.push_back(intern(fs.levelIndex, shortestText(number)));
                std::vector<double>().swap(fs.numeric);
                fs.codes.push_back(intern(fs.levelIndex, v));
                break;
            }
            // Numbers after the first non-number are levels in the same shortest form.
            double x = 0;
            fs.codes.push_back(
                intern(fs.levelIndex, parseNumber(v, x) == NumberParse::Ok ? shortestText(x) : v));
            break;
        }
    }
}

}  // namespace pfa::detail
