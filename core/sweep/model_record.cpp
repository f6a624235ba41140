#include "core/sweep/model_record.h"

#include <memory>

#include "core/model/model.h"
#include "core/util/error.h"

namespace pfa {

namespace {

template <typename Matrix>
void writeRows(JsonWriter& json, const Matrix& matrix) {
    json.beginArray();
    std::vector<double> row(static_cast<std::size_t>(matrix.cols()));
    for (Eigen::Index i = 0; i < matrix.rows(); ++i) {
        for (Eigen::Index j = 0; j < matrix.cols(); ++j)
            row[static_cast<std::size_t>(j)] = matrix(i, j);
        json.array(row);
    }
    json.endArray();
}

/// The rows of a JSON array of equally long number arrays, as a matrix.
template <typename Matrix>
Matrix readRows(const JsonValue& array, const char* key) {
    const std::vector<JsonValue>& rows = array.items();
    const std::size_t cols = rows.empty() ? 0 : rows.front().items().size();
    Matrix matrix(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(cols));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::vector<double> values = rows[i].numbers();
        if (values.size() != cols) {
            throw InputError(std::string("model: the rows of '") + key + "' differ in length");
        }
        for (std::size_t j = 0; j < cols; ++j) {
            matrix(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = values[j];
        }
    }
    return matrix;
}

}  // namespace

bool hasStorableModel(const RunResult& result) {
    return result.theta.size() > 0 && result.theta.allFinite() && result.W.allFinite();
}

void writeModelJson(JsonWriter& json, const RunResult& result) {
    if (!hasStorableModel(result)) return;
    // p = 1 score row is binary logistic regression, p = l rows softmax (makeModelForClasses).
    const long classes = result.theta.rows() == 1 ? 2 : static_cast<long>(result.theta.rows());
    json.key("model").beginObject();
    json.key("kind").value(makeModelForClasses(static_cast<int>(classes))->name());
    json.key("classes").value(classes);
    json.key("theta");
    writeRows(json, result.theta);
    if (result.W.size() > 0) {
        json.key("w");
        writeRows(json, result.W);
    }
    json.key("feature_bound").value(result.featureBound);
    json.endObject();
}

void writeModelRecord(JsonWriter& json, const RunResult& result, const RunContext& context) {
    writeModelJson(json, result);
    if (context.preprocessing) {
        json.key("preprocessing");
        writePreprocessingJson(json, *context.preprocessing);
    }
}

void readModelRecord(const JsonValue& record, RunResult& result, RunContext* context) {
    if (record.has("model")) {
        const JsonValue& model = record.at("model");
        result.theta = readRows<RowMatrix>(model.at("theta"), "theta");
        const long classes = static_cast<long>(model.at("classes").asNumber());
        const long scoreRows = classes == 2 ? 1 : classes;
        if (classes < 2 || result.theta.rows() != scoreRows || result.theta.cols() < 1) {
            throw InputError("model: theta has " + std::to_string(result.theta.rows()) + " x " +
                             std::to_string(result.theta.cols()) + " values, which does not fit " +
                             std::to_string(classes) + " classes");
        }
        if (model.has("w")) result.W = readRows<Eigen::MatrixXd>(model.at("w"), "w");
        result.featureBound = model.numberOr("feature_bound", 0.0);
    }
    if (context && record.has("preprocessing")) {
        context->preprocessing = std::make_shared<const ModelPreprocessing>(
            preprocessingFromJson(record.at("preprocessing")));
    }
}

}  // namespace pfa
