#include "core/data/catalog.h"

#include <algorithm>
#include <filesystem>

#include "core/util/embedded_json.h"
#include "core/util/error.h"
#include "core/util/json_writer.h"

namespace pfa {

namespace {

std::vector<std::string> strings(const JsonValue& array) {
    std::vector<std::string> out;
    for (const JsonValue& item : array.items()) out.push_back(item.asString());
    return out;
}

std::map<std::string, std::string> stringMap(const JsonValue& object) {
    std::map<std::string, std::string> out;
    for (const auto& [key, value] : object.members()) out[key] = value.asString();
    return out;
}

ColumnRole parseRole(const std::string& text) {
    if (text == "numeric") return ColumnRole::Numeric;
    if (text == "categorical") return ColumnRole::Categorical;
    if (text == "ignore") return ColumnRole::Ignore;
    if (text == "auto") return ColumnRole::Auto;
    throw InputError("unknown column role '" + text +
                     "': use numeric, categorical, ignore or auto");
}

std::string roleName(ColumnRole role) {
    switch (role) {
        case ColumnRole::Numeric:
            return "numeric";
        case ColumnRole::Categorical:
            return "categorical";
        case ColumnRole::Ignore:
            return "ignore";
        case ColumnRole::Auto:
            return "auto";
    }
    return "auto";
}

FilterOp parseFilterOp(const std::string& text) {
    if (text == "==") return FilterOp::Equal;
    if (text == "!=") return FilterOp::NotEqual;
    if (text == "<=") return FilterOp::LessEqual;
    if (text == ">=") return FilterOp::GreaterEqual;
    if (text == "<") return FilterOp::Less;
    if (text == ">") return FilterOp::Greater;
    if (text == "abs<=") return FilterOp::AbsLessEqual;
    throw InputError("unknown row-filter operator '" + text +
                     "': use ==, !=, <=, >=, <, > or abs<=");
}

std::string filterOpName(FilterOp op) {
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
            return "abs<=";
    }
    return "==";
}

}  // namespace

Schema schemaFromJson(const JsonValue& json) {
    Schema s;
    s.name = json.stringOr("name", "");
    const std::string delimiter = json.stringOr("delimiter", "");
    if (delimiter.size() > 1 && delimiter != "\\t")
        throw InputError("schema delimiter must be one character");
    s.delimiter = delimiter == "\\t" ? '\t' : (delimiter.empty() ? '\0' : delimiter[0]);
    if (json.has("has_header")) s.hasHeader = json.at("has_header").asBool();
    if (json.has("column_names")) s.columnNames = strings(json.at("column_names"));
    s.commentPrefix = json.stringOr("comment_prefix", "");
    if (json.has("trim_whitespace")) s.trimWhitespace = json.at("trim_whitespace").asBool();
    if (json.has("skip_malformed_rows"))
        s.skipMalformedRows = json.at("skip_malformed_rows").asBool();
    s.target = json.stringOr("target", "");
    if (json.has("positive_values")) s.positiveValues = strings(json.at("positive_values"));
    s.negativeClassName = json.stringOr("negative_class_name", "");
    s.positiveClassName = json.stringOr("positive_class_name", "");
    if (json.has("target_strip_suffixes"))
        s.targetStripSuffixes = strings(json.at("target_strip_suffixes"));
    if (json.has("target_threshold")) s.targetThreshold = json.at("target_threshold").asNumber();
    if (json.has("sensitive")) s.sensitive = strings(json.at("sensitive"));
    if (json.has("sensitive_value_labels"))
        s.sensitiveValueLabels = stringMap(json.at("sensitive_value_labels"));
    if (json.has("sensitive_threshold"))
        s.sensitiveThreshold = json.at("sensitive_threshold").asNumber();
    if (json.has("sensitive_threshold_labels")) {
        s.sensitiveThresholdLabels = strings(json.at("sensitive_threshold_labels"));
    }
    if (json.has("user_id")) s.userId = json.at("user_id").asString();
    if (json.has("default_role")) s.defaultRole = parseRole(json.at("default_role").asString());
    if (json.has("columns")) {
        for (const auto& [name, spec] : json.at("columns").members()) {
            ColumnSpec column;
            column.role = parseRole(spec.stringOr("role", "auto"));
            if (spec.has("levels")) column.levels = strings(spec.at("levels"));
            s.columns[name] = column;
        }
    }
    s.missingToken = json.stringOr("missing_token", "");
    const std::string policy = json.stringOr("missing_policy", "drop");
    if (policy != "drop" && policy != "error")
        throw InputError("missing_policy must be drop or error");
    s.missingPolicy = policy == "error" ? MissingPolicy::Error : MissingPolicy::DropRow;
    if (json.has("row_filters")) {
        for (const JsonValue& filter : json.at("row_filters").items()) {
            s.rowFilters.push_back({filter.at("column").asString(),
                                    parseFilterOp(filter.at("op").asString()),
                                    filter.at("value").asString()});
        }
    }
    return s;
}

std::string schemaToJson(const Schema& s) {
    JsonWriter json;
    json.beginObject();
    if (!s.name.empty()) json.key("name").value(s.name);
    if (s.delimiter != '\0') {
        json.key("delimiter")
            .value(s.delimiter == '\t' ? std::string("\\t") : std::string(1, s.delimiter));
    }
    json.key("has_header").value(s.hasHeader);
    if (!s.columnNames.empty()) {
        json.key("column_names").beginArray();
        for (const std::string& name : s.columnNames) json.value(name);
        json.endArray();
    }
    if (!s.commentPrefix.empty()) json.key("comment_prefix").value(s.commentPrefix);
    json.key("trim_whitespace").value(s.trimWhitespace);
    // Written only when set, so that the keys of data sets imported before it stay the same.
    if (s.skipMalformedRows) json.key("skip_malformed_rows").value(true);
    json.key("target").value(s.target);
    auto writeList = [&](const char* key, const std::vector<std::string>& list) {
        if (list.empty()) return;
        json.key(key).beginArray();
        for (const std::string& item : list) json.value(item);
        json.endArray();
    };
    writeList("positive_values", s.positiveValues);
    if (!s.negativeClassName.empty()) json.key("negative_class_name").value(s.negativeClassName);
    if (!s.positiveClassName.empty()) json.key("positive_class_name").value(s.positiveClassName);
    writeList("target_strip_suffixes", s.targetStripSuffixes);
    if (s.targetThreshold) json.key("target_threshold").value(*s.targetThreshold);
    writeList("sensitive", s.sensitive);
    if (!s.sensitiveValueLabels.empty()) {
        json.key("sensitive_value_labels").beginObject();
        for (const auto& [raw, label] : s.sensitiveValueLabels) json.key(raw).value(label);
        json.endObject();
    }
    if (s.sensitiveThreshold) json.key("sensitive_threshold").value(*s.sensitiveThreshold);
    writeList("sensitive_threshold_labels", s.sensitiveThresholdLabels);
    if (s.userId) json.key("user_id").value(*s.userId);
    json.key("default_role").value(roleName(s.defaultRole));
    if (!s.columns.empty()) {
        json.key("columns").beginObject();
        for (const auto& [name, spec] : s.columns) {
            json.key(name).beginObject();
            json.key("role").value(roleName(spec.role));
            writeList("levels", spec.levels);
            json.endObject();
        }
        json.endObject();
    }
    if (!s.missingToken.empty()) json.key("missing_token").value(s.missingToken);
    json.key("missing_policy").value(s.missingPolicy == MissingPolicy::Error ? "error" : "drop");
    if (!s.rowFilters.empty()) {
        json.key("row_filters").beginArray();
        for (const RowFilter& filter : s.rowFilters) {
            json.beginObject();
            json.key("column").value(filter.column);
            json.key("op").value(filterOpName(filter.op));
            json.key("value").value(filter.value);
            json.endObject();
        }
        json.endArray();
    }
    json.endObject();
    return json.text();
}

CatalogEntry parseCatalogEntry(const std::string& fileName, const std::string& text) {
    try {
        const JsonValue json = parseJson(text);
        CatalogEntry entry;
        entry.name = json.at("name").asString();
        entry.title = json.at("title").asString();
        entry.description = json.at("description").asString();
        entry.sources = strings(json.at("sources"));
        entry.license = json.at("license").asString();
        entry.citation = json.at("citation").asString();
        entry.preprocessing = json.at("preprocessing").asString();
        for (const JsonValue& item : json.at("files").items()) {
            DatasetFile file;
            file.name = item.at("name").asString();
            file.bytes = static_cast<std::uint64_t>(item.at("bytes").asNumber());
            file.sha256 = item.at("sha256").asString();
            file.urls = strings(item.at("urls"));
            entry.files.push_back(file);
        }
        for (const JsonValue& item : json.at("sensitive_choices").items()) {
            SensitiveChoice choice;
            choice.id = item.at("id").asString();
            choice.title = item.at("title").asString();
            choice.columns = strings(item.at("columns"));
            if (item.has("value_labels")) choice.valueLabels = stringMap(item.at("value_labels"));
            if (item.has("threshold")) {
                choice.hasThreshold = true;
                choice.threshold = item.at("threshold").asNumber();
                choice.thresholdLabels = strings(item.at("threshold_labels"));
            }
            choice.expectedFeatures = static_cast<long>(item.numberOr("expected_features", 0));
            if (item.has("expected_groups")) {
                for (const auto& [group, count] : item.at("expected_groups").members()) {
                    choice.expectedGroups[group] = static_cast<long>(count.asNumber());
                }
            }
            entry.sensitiveChoices.push_back(choice);
        }
        if (entry.sensitiveChoices.empty()) throw InputError("no sensitive_choices");
        entry.expectedRows = static_cast<long>(json.numberOr("expected_rows", 0));
        entry.unit = json.stringOr("unit", "record");
        entry.schemaJson = json.at("schema");
        entry.schemaFor("").validate();  // every choice must give a consistent schema
        for (const SensitiveChoice& choice : entry.sensitiveChoices)
            entry.schemaFor(choice.id).validate();
        return entry;
    } catch (const InputError& error) {
        throw InputError("data-set catalog " + fileName + ": " + error.what());
    }
}

const SensitiveChoice& CatalogEntry::sensitiveChoice(const std::string& id) const {
    if (id.empty()) return sensitiveChoices.front();
    std::string known;
    for (const SensitiveChoice& choice : sensitiveChoices) {
        if (choice.id == id) return choice;
        known += (known.empty() ? "" : ", ") + choice.id;
    }
    throw InputError("data set '" + name + "' has no sensitive choice '" + id + "': choose " +
                     known);
}

std::vector<const SensitiveChoice*> CatalogEntry::sensitiveChoicesOf(
    const std::string& sensitiveId) const {
    std::vector<const SensitiveChoice*> chosen;
    std::size_t start = 0;
    while (true) {
        const std::size_t plus = sensitiveId.find('+', start);
        const std::string id =
            sensitiveId.substr(start, plus == std::string::npos ? std::string::npos : plus - start);
        if (id.empty() && sensitiveId.find('+') != std::string::npos)
            throw InputError("data set '" + name + "': the sensitive choice '" + sensitiveId +
                             "' has an empty part");
        const SensitiveChoice* choice = &sensitiveChoice(id);
        if (std::find(chosen.begin(), chosen.end(), choice) != chosen.end())
            throw InputError("data set '" + name + "': the sensitive choice '" + choice->id +
                             "' is named twice");
        chosen.push_back(choice);
        if (plus == std::string::npos) break;
        start = plus + 1;
    }
    return chosen;
}

std::string CatalogEntry::sensitiveTitle(const std::string& sensitiveId) const {
    std::string title;
    for (const SensitiveChoice* choice : sensitiveChoicesOf(sensitiveId))
        title += (title.empty() ? "" : " × ") + choice->title;
    return title;
}

Schema CatalogEntry::schemaFor(const std::string& sensitiveId) const {
    const std::vector<const SensitiveChoice*> chosen = sensitiveChoicesOf(sensitiveId);
    Schema schema = schemaFromJson(schemaJson);
    schema.name = name;
    if (chosen.size() == 1) {
        const SensitiveChoice& choice = *chosen.front();
        schema.sensitive = choice.columns;
        schema.sensitiveValueLabels = choice.valueLabels;
        if (choice.hasThreshold) {
            schema.sensitiveThreshold = choice.threshold;
            schema.sensitiveThresholdLabels = choice.thresholdLabels;
        }
    } else {
        // Intersectional groups: every choice's columns, each value label bound to its own
        // column ("race=Black") so that equal raw values of two columns stay apart.
        for (const SensitiveChoice* choice : chosen) {
            if (choice->hasThreshold)
                throw InputError("data set '" + name + "': the sensitive choice '" + choice->id +
                                 "' splits a number at a threshold and cannot be combined with "
                                 "another attribute");
            for (const std::string& column : choice->columns) {
                if (std::find(schema.sensitive.begin(), schema.sensitive.end(), column) !=
                    schema.sensitive.end())
                    throw InputError("data set '" + name + "': the sensitive choices of '" +
                                     sensitiveId + "' use the column '" + column + "' twice");
                schema.sensitive.push_back(column);
            }
            for (const auto& [raw, label] : choice->valueLabels) {
                const bool bound = raw.find('=') != std::string::npos;
                for (const std::string& column : choice->columns)
                    schema.sensitiveValueLabels[bound ? raw : column + "=" + raw] = label;
            }
        }
    }
    // The sensitive columns are never features: drop their feature roles.
    for (const std::string& column : schema.sensitive) schema.columns.erase(column);
    return schema;
}

TabularData CatalogEntry::load(const std::string& directory, const std::string& sensitiveId,
                               const ReadOptions& options) const {
    std::vector<std::string> paths;
    for (const DatasetFile& file : files) {
        const std::filesystem::path path = std::filesystem::path(directory) / file.name;
        if (!std::filesystem::exists(path)) {
            throw DataFileError(
                path.string(), 0, "",
                "file not found: the " + title + " data set needs " + file.name +
                    " in this folder (download it, or import a folder that has it)");
        }
        paths.push_back(path.string());
    }
    TabularData data = readDelimitedFiles(paths, schemaFor(sensitiveId), options);
    data.name = name;
    data.unitName = unit;
    return data;
}

const std::vector<CatalogEntry>& datasetCatalog() {
    static const std::vector<CatalogEntry> catalog = [] {
        std::vector<CatalogEntry> entries;
        for (const EmbeddedJson& source : catalogSources()) {
            entries.push_back(
                parseCatalogEntry(std::string(source.fileName), std::string(source.json)));
        }
        std::sort(entries.begin(), entries.end(),
                  [](const CatalogEntry& a, const CatalogEntry& b) { return a.name < b.name; });
        return entries;
    }();
    return catalog;
}

const CatalogEntry& findCatalogEntry(const std::string& name) {
    std::string known;
    for (const CatalogEntry& entry : datasetCatalog()) {
        if (entry.name == name) return entry;
        known += (known.empty() ? "" : ", ") + entry.name;
    }
    throw InputError("unknown data set '" + name + "': the catalog has " + known);
}

}  // namespace pfa
