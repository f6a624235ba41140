#include "core/sweep/model_preprocessing.h"

#include "core/data/catalog.h"
#include "core/generators/generator.h"
#include "core/util/error.h"

namespace pfa {

namespace {

void writeStrings(JsonWriter& json, const char* key, const std::vector<std::string>& items) {
    json.key(key).beginArray();
    for (const std::string& item : items) json.value(item);
    json.endArray();
}

std::vector<std::string> readStrings(const JsonValue& array) {
    std::vector<std::string> out;
    for (const JsonValue& item : array.items()) out.push_back(item.asString());
    return out;
}

}  // namespace

long ModelPreprocessing::encodedWidth() const {
    long width = 0;
    for (const EncodedColumn& column : columns) {
        width += column.kind == FeatureKind::Numeric ? 1 : static_cast<long>(column.levels.size());
    }
    return width;
}

Schema requestSchema(const DatasetRequest& request) {
    if (const DataGenerator* generator = findGenerator(request.name))
        return generator->schema(request);
    if (request.name == "file") return request.schema;
    return findCatalogEntry(request.name).schemaFor(request.sensitive);
}

ModelPreprocessing makeModelPreprocessing(const Schema& schema, const TabularData& data,
                                          const DataSplit& split) {
    ModelPreprocessing out;
    out.schema = schema;
    const EncodingInfo& encoding = split.encoding;
    std::size_t numeric = 0, categorical = 0;
    // EncodingInfo keeps numeric and categorical columns apart; the data's column order is
    // the order of the encoded features.
    for (const FeatureColumn& feature : data.features) {
        EncodedColumn column;
        column.name = feature.name;
        column.kind = feature.kind;
        if (feature.kind == FeatureKind::Numeric) {
            column.mean = encoding.means.at(numeric);
            column.standardDeviation = encoding.standardDeviations.at(numeric);
            ++numeric;
        } else {
            column.levels = encoding.keptLevels.at(categorical);
            ++categorical;
        }
        out.columns.push_back(std::move(column));
    }
    out.featureNames = split.train.featureNames;
    out.classNames = split.train.classNames;
    out.groupNames = split.train.groupNames;
    out.sensitiveDescription = split.train.sensitiveDescription;
    return out;
}

void writePreprocessingJson(JsonWriter& json, const ModelPreprocessing& p) {
    json.beginObject();
    json.key("schema").rawValue(schemaToJson(p.schema));
    json.key("columns").beginArray();
    for (const EncodedColumn& column : p.columns) {
        json.beginObject();
        json.key("name").value(column.name);
        if (column.kind == FeatureKind::Numeric) {
            json.key("kind").value("numeric");
            json.key("mean").value(column.mean);
            json.key("sd").value(column.standardDeviation);
        } else {
            json.key("kind").value("categorical");
            writeStrings(json, "levels", column.levels);
        }
        json.endObject();
    }
    json.endArray();
    writeStrings(json, "feature_names", p.featureNames);
    writeStrings(json, "class_names", p.classNames);
    writeStrings(json, "group_names", p.groupNames);
    json.key("sensitive").value(p.sensitiveDescription);
    json.endObject();
}

ModelPreprocessing preprocessingFromJson(const JsonValue& json) {
    ModelPreprocessing p;
    p.schema = schemaFromJson(json.at("schema"));
    for (const JsonValue& item : json.at("columns").items()) {
        EncodedColumn column;
        column.name = item.at("name").asString();
        const std::string kind = item.at("kind").asString();
        if (kind == "numeric") {
            column.kind = FeatureKind::Numeric;
            column.mean = item.at("mean").asNumber();
            column.standardDeviation = item.at("sd").asNumber();
        } else if (kind == "categorical") {
            column.kind = FeatureKind::Categorical;
            column.levels = readStrings(item.at("levels"));
        } else {
            throw InputError("preprocessing column '" + column.name + "' has unknown kind '" +
                             kind + "'");
        }
        p.columns.push_back(std::move(column));
    }
    p.featureNames = readStrings(json.at("feature_names"));
    p.classNames = readStrings(json.at("class_names"));
    p.groupNames = readStrings(json.at("group_names"));
    p.sensitiveDescription = json.stringOr("sensitive", "");
    if (static_cast<long>(p.featureNames.size()) != p.encodedWidth()) {
        throw InputError("preprocessing: " + std::to_string(p.featureNames.size()) +
                         " feature names for " + std::to_string(p.encodedWidth()) +
                         " encoded features");
    }
    return p;
}

}  // namespace pfa
