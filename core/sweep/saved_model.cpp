#include "core/sweep/saved_model.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <unordered_map>

#include "core/data/arff_parser.h"
#include "core/data/arff_reader.h"
#include "core/data/csv_reader.h"
#include "core/data/delimited_parser.h"
#include "core/data/line_reader.h"
#include "core/data/preprocessing.h"
#include "core/data/text_cells.h"
#include "core/model/model.h"
#include "core/sweep/model_record.h"
#include "core/sweep/results_file.h"
#include "core/util/error.h"

namespace pfa {

namespace {

bool hasModel(const JsonValue& record) {
    return record.isObject() && record.has("model") && record.has("preprocessing");
}

std::string recordName(const JsonValue& record, std::size_t index) {
    std::string name = "record #" + std::to_string(index);
    if (record.isObject() && record.has("run_key"))
        name += " (run key '" + record.at("run_key").asString() + "')";
    return name;
}

/// The run records of a results file, a model export or a GUI history export.
std::vector<JsonValue> readRecords(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) throw DataFileError(path, 0, "", "file not found");
    if (fs::is_directory(status))
        throw DataFileError(path, 0, "", "is a directory, not a results file");
    ResultsFileContent content = readResultsFile(path);
    if (!content.records.empty()) return std::move(content.records);
    // Not JSON lines: one JSON document (a pretty-printed record, or the GUI's run history
    // export, an array of {id, finished, record}).
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    try {
        const JsonValue document = parseJson(text.str());
        if (document.isObject()) return {document};
        if (document.isArray()) {
            std::vector<JsonValue> records;
            for (const JsonValue& item : document.items()) {
                records.push_back(item.isObject() && item.has("record") ? item.at("record") : item);
            }
            if (!records.empty()) return records;
        }
    } catch (const InputError&) {
        // Reported below: the file is neither JSON lines nor one JSON document.
    }
    throw DataFileError(path, 0, "",
                        "no run record in this file (expected the JSON-lines results of a sweep or "
                        "a model exported by PFA Explorer)");
}

[[noreturn]] void throwNoModel(const std::string& path, const std::string& what) {
    throw DataFileError(path, 0, "",
                        what +
                            " has no model: it was recorded by a version that did not store "
                            "models (or the run failed); train it again to predict with it");
}

/// Where the columns of a data file are, as far as the file says before it is read.
struct FileLayout {
    bool arff = false;
    bool namesKnown = false;   ///< a header (or ARFF attributes) names the columns
    bool headerFound = false;  ///< a header the schema did not expect (hasHeader false)
    long headerLine = 0;
    std::vector<std::string> names;
};

FileLayout inspectFile(const std::string& path, const Schema& schema) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) throw DataFileError(path, 0, "", "file not found");
    if (fs::is_directory(status))
        throw DataFileError(path, 0, "", "is a directory, not a data file");
    detail::FileSource source(path);
    detail::LineReader lines(source, path);
    if (lines.headIsAll() && lines.head().empty())
        throw DataFileError(path, 0, "", "the file is empty");
    FileLayout layout;
    if (detail::looksLikeArff(lines.head())) {
        layout.arff = true;
        layout.namesKnown = true;
        for (const detail::ArffAttribute& a : detail::readArffHeader(lines).attributes) {
            layout.names.push_back(a.name);
        }
        return layout;
    }
    const char delimiter =
        schema.delimiter != 0
            ? schema.delimiter
            : detail::detectDelimiter(lines.head(), lines.headIsAll(), schema, path);
    detail::RecordParser parser(lines, delimiter, schema);
    detail::Record record;
    if (!parser.next(record)) throw DataFileError(path, 0, "", "the file has no rows");
    const std::vector<std::string> fields(
        record.fields.begin(), record.fields.begin() + static_cast<std::ptrdiff_t>(record.count));
    layout.headerLine = record.line;
    if (schema.hasHeader) {
        layout.namesKnown = true;
        layout.names = detail::uniqueNames(fields);
    } else if (std::all_of(fields.begin(), fields.end(), [&](const std::string& field) {
                   return std::find(schema.columnNames.begin(), schema.columnNames.end(), field) !=
                          schema.columnNames.end();
               })) {
        // The training files had no header, but this one names its columns.
        layout.namesKnown = true;
        layout.headerFound = true;
        layout.names = fields;
    }
    return layout;
}

/// The training schema adapted to reading rows for a model: the encoded columns with their
/// kinds fixed (auto-detection on other rows could differ), every other column ignored.
Schema predictionSchema(const ModelPreprocessing& preprocessing, const FileLayout& layout,
                        bool exact) {
    Schema schema = preprocessing.schema;
    schema.columns.clear();
    for (const EncodedColumn& column : preprocessing.columns) {
        // No declared levels: a new value must read (and encode as zeros), not fail.
        schema.columns[column.name].role =
            column.kind == FeatureKind::Numeric ? ColumnRole::Numeric : ColumnRole::Categorical;
    }
    schema.defaultRole = ColumnRole::Ignore;
    if (!layout.arff && (schema.hasHeader || layout.headerFound)) {
        schema.hasHeader = true;
        schema.columnNames.clear();  // any column order, label and sensitive columns optional
    }
    if (!exact) schema.userId.reset();
    return schema;
}

void requireColumns(const std::string& path, const FileLayout& layout,
                    const std::vector<std::string>& needed, const std::string& why) {
    if (!layout.namesKnown) return;  // positional: the reader checks the field count
    std::vector<std::string> missing;
    for (const std::string& name : needed) {
        if (std::find(layout.names.begin(), layout.names.end(), name) == layout.names.end()) {
            missing.push_back(name);
        }
    }
    if (missing.empty()) return;
    throw DataFileError(path, layout.headerLine, "",
                        std::string(missing.size() == 1 ? "no column " : "no columns ") +
                            detail::joinQuoted(missing, 8) + ": " + why);
}

bool hasColumn(const FileLayout& layout, const std::string& name) {
    return !layout.namesKnown ||
           std::find(layout.names.begin(), layout.names.end(), name) != layout.names.end();
}

RowMatrix encodeSelectedRows(const ModelPreprocessing& preprocessing, const TabularData& data,
                             const std::vector<std::size_t>& rows,
                             std::vector<UnseenLevel>* unseen) {
    std::unordered_map<std::string, std::size_t> byName;
    for (std::size_t j = 0; j < data.features.size(); ++j) byName.emplace(data.features[j].name, j);
    const auto n = static_cast<Eigen::Index>(rows.size());
    RowMatrix X = RowMatrix::Zero(n, preprocessing.encodedWidth());
    Eigen::Index offset = 0;
    for (const EncodedColumn& column : preprocessing.columns) {
        const auto found = byName.find(column.name);
        if (found == byName.end())
            throw InputError("the rows have no column '" + column.name + "'");
        const FeatureColumn& raw = data.features[found->second];
        if (column.kind == FeatureKind::Numeric) {
            if (raw.kind != FeatureKind::Numeric) {
                throw InputError("column '" + column.name + "' is not numeric, as the model needs");
            }
            // Exactly as splitAndEncode encodes test rows.
            const double scale =
                column.standardDeviation > 0.0 ? 1.0 / column.standardDeviation : 1.0;
            for (Eigen::Index i = 0; i < n; ++i) {
                X(i, offset) =
                    (raw.numeric[rows[static_cast<std::size_t>(i)]] - column.mean) * scale;
            }
            ++offset;
            continue;
        }
        if (raw.kind != FeatureKind::Categorical) {
            throw InputError("column '" + column.name + "' is not categorical, as the model needs");
        }
        std::unordered_map<std::string, int> kept;
        for (std::size_t level = 0; level < column.levels.size(); ++level) {
            kept.emplace(column.levels[level], static_cast<int>(level));
        }
        std::vector<int> target(raw.levels.size(), -1);  // code → one-hot offset, −1: unseen
        for (std::size_t code = 0; code < raw.levels.size(); ++code) {
            const auto level = kept.find(raw.levels[code]);
            if (level != kept.end()) target[code] = level->second;
        }
        std::vector<long> unseenCount(raw.levels.size(), 0);
        for (Eigen::Index i = 0; i < n; ++i) {
            const auto code =
                static_cast<std::size_t>(raw.codes[rows[static_cast<std::size_t>(i)]]);
            if (target[code] >= 0) {
                X(i, offset + target[code]) = 1.0;
            } else {
                ++unseenCount[code];
            }
        }
        if (unseen) {
            for (std::size_t code = 0; code < raw.levels.size(); ++code) {
                if (unseenCount[code] > 0)
                    unseen->push_back({column.name, raw.levels[code], unseenCount[code]});
            }
        }
        offset += static_cast<Eigen::Index>(column.levels.size());
    }
    return X;
}

/// Index of `name` in `names`, −1 when absent.
int indexOf(const std::vector<std::string>& names, const std::string& name) {
    const auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

}  // namespace

bool hasSavedModel(const RunResult& result, const RunContext& context) {
    return hasStorableModel(result) && context.preprocessing != nullptr;
}

std::string savedModelJson(const RunResult& result, const RunContext& context) {
    if (!hasSavedModel(result, context)) {
        throw InputError(
            result.theta.size() == 0 || !context.preprocessing
                ? "this run has no model: it was opened from a file written before models "
                  "were stored (train it again to get one)"
                : "this run has no usable model: its parameters are not finite (it diverged)");
    }
    RunRecordOptions exact;
    exact.historyDigits = 17;
    return runRecordJson(result, context, exact);
}

std::pair<std::string, std::string> splitModelSpec(const std::string& spec) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_regular_file(spec, ec)) return {spec, ""};
    for (std::size_t colon = spec.find(':'); colon != std::string::npos;
         colon = spec.find(':', colon + 1)) {
        const std::string file = spec.substr(0, colon);
        if (!file.empty() && fs::is_regular_file(file, ec)) return {file, spec.substr(colon + 1)};
    }
    return {spec, ""};
}

SavedModel loadSavedModel(const std::string& path, const std::string& selector) {
    const std::vector<JsonValue> records = readRecords(path);
    std::size_t index = 0;
    if (selector.empty()) {
        std::vector<std::size_t> withModel;
        for (std::size_t i = 0; i < records.size(); ++i) {
            if (hasModel(records[i])) withModel.push_back(i);
        }
        if (withModel.empty()) {
            throwNoModel(path, records.size() == 1
                                   ? std::string("its run")
                                   : "none of its " + std::to_string(records.size()) +
                                         " runs has a model; the file");
        }
        if (withModel.size() > 1) {
            std::string indices;
            for (std::size_t k = 0; k < withModel.size() && k < 8; ++k) {
                indices += (k ? ", #" : "#") + std::to_string(withModel[k]);
            }
            if (withModel.size() > 8) indices += ", ...";
            throw InputError(path + " holds " + std::to_string(withModel.size()) +
                             " runs with a model (" + indices +
                             "): choose one as FILE:#N (N = 0-based record index) or FILE:RUN_KEY");
        }
        index = withModel.front();
    } else if (selector[0] == '#') {
        const std::string digits = selector.substr(1);
        if (digits.empty() || digits.size() > 9 ||
            !std::all_of(digits.begin(), digits.end(),
                         [](char c) { return c >= '0' && c <= '9'; })) {
            throw InputError("'" + selector +
                             "' is not a record index: write #N with N = 0, 1, ...");
        }
        index = static_cast<std::size_t>(std::stoul(digits));
        if (index >= records.size()) {
            throw InputError(path + " has " + std::to_string(records.size()) +
                             " record(s), #0 to #" + std::to_string(records.size() - 1) +
                             ": there is no #" + digits);
        }
    } else {
        index = records.size();
        for (std::size_t i = 0; i < records.size() && index == records.size(); ++i) {
            if (records[i].isObject() && records[i].stringOr("run_key", "") == selector) index = i;
        }
        if (index == records.size()) {
            throw InputError("no run with key '" + selector + "' in " + path + " (" +
                             std::to_string(records.size()) +
                             " record(s); FILE:#N picks one by index)");
        }
    }
    if (!hasModel(records[index])) throwNoModel(path, recordName(records[index], index));

    SavedModel model;
    model.file = path;
    model.recordIndex = index;
    try {
        model.run = runResultFromJson(records[index], &model.context);
    } catch (const DataFileError&) {
        throw;
    } catch (const InputError& error) {
        throw DataFileError(path, 0, "",
                            recordName(records[index], index) + " is damaged: " + error.what());
    }
    const ModelPreprocessing& p = *model.context.preprocessing;
    const long classes =
        model.run.theta.rows() == 1 ? 2 : static_cast<long>(model.run.theta.rows());
    if (model.run.theta.cols() != p.encodedWidth() + 1 ||
        static_cast<long>(p.classNames.size()) != classes) {
        throw DataFileError(
            path, 0, "",
            recordName(records[index], index) + " is damaged: its model does not fit its " +
                "preprocessing (" + std::to_string(model.run.theta.cols()) +
                " parameters per class for " + std::to_string(p.encodedWidth()) + " features)");
    }
    return model;
}

std::vector<SavedRunSummary> listSavedRuns(const std::string& path) {
    std::vector<SavedRunSummary> out;
    const std::vector<JsonValue> records = readRecords(path);
    for (std::size_t i = 0; i < records.size(); ++i) {
        const JsonValue& r = records[i];
        SavedRunSummary s;
        s.index = i;
        if (r.isObject()) {
            s.runKey = r.stringOr("run_key", "");
            s.algorithm = r.stringOr("algorithm", "");
            s.fairness = r.stringOr("fairness", "");
            s.epsilon = r.numberOr("epsilon", NAN);
            s.lambda = r.numberOr("lambda", NAN);
            s.seed = r.numberOr("seed", NAN);
            s.testError = r.numberOr("test_error", NAN);
        }
        s.hasModel = hasModel(r);
        out.push_back(std::move(s));
    }
    return out;
}

long Predictions::labelledRows() const {
    return static_cast<long>(std::count_if(labels.begin(), labels.end(),
                                           [](const std::string& l) { return !l.empty(); }));
}

double Predictions::error() const {
    long labelled = 0, wrong = 0;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (labels[i].empty()) continue;
        ++labelled;
        if (labels[i] !=
            classNames[static_cast<std::size_t>(predicted(static_cast<Eigen::Index>(i)))])
            ++wrong;
    }
    return labelled > 0 ? static_cast<double>(wrong) / static_cast<double>(labelled) : NAN;
}

RowMatrix encodeForModel(const ModelPreprocessing& preprocessing, const TabularData& data,
                         std::vector<UnseenLevel>* unseen) {
    std::vector<std::size_t> all(data.rows());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    return encodeSelectedRows(preprocessing, data, all, unseen);
}

void scoreRows(const RunResult& run, const RowMatrix& X, RowMatrix& probabilities,
               Eigen::VectorXi& predicted) {
    const Eigen::Index n = X.rows();
    const Eigen::Index d = X.cols();
    if (run.theta.cols() != d + 1) {
        throw InputError("the model takes " + std::to_string(run.theta.cols() - 1) +
                         " features, the rows have " + std::to_string(d));
    }
    const int classes = run.theta.rows() == 1 ? 2 : static_cast<int>(run.theta.rows());
    // As the trainer builds its design matrix (augment in saddle_point_trainer.cpp): the bias
    // column, then rows with ‖[x, 1]‖ > B scaled to norm B. Same operations, same bits.
    RowMatrix design(n, d + 1);
    design.leftCols(d) = X;
    design.col(d).setOnes();
    if (run.featureBound > 0.0) {
        const Eigen::VectorXd norms = design.rowwise().norm();
        for (Eigen::Index i = 0; i < n; ++i) {
            if (norms(i) > run.featureBound) design.row(i) *= run.featureBound / norms(i);
        }
    }
    const std::unique_ptr<Model> model = makeModelForClasses(classes);
    RowMatrix Z(n, model->scoreDimension());
    Z.noalias() = design * run.theta.transpose();
    probabilities.resize(n, model->classes());
    model->probabilities(Z, probabilities);
    predicted.resize(n);
    Model::predict(probabilities, predicted);
}

Predictions predictFile(const SavedModel& model, const std::string& path,
                        const PredictionOptions& options) {
    if (!model.context.preprocessing || model.run.theta.size() == 0)
        throwNoModel(model.file, "the run");
    const ModelPreprocessing& pre = *model.context.preprocessing;
    const bool exact = options.testRowsOnly;
    const FileLayout layout = inspectFile(path, pre.schema);
    std::vector<std::string> features;
    for (const EncodedColumn& column : pre.columns) features.push_back(column.name);
    requireColumns(path, layout, features,
                   "the model needs its feature columns " + detail::joinQuoted(features, 12) +
                       " (the label and sensitive columns are optional)");
    if (exact) {
        std::vector<std::string> labelled{pre.schema.target};
        labelled.insert(labelled.end(), pre.schema.sensitive.begin(), pre.schema.sensitive.end());
        requireColumns(path, layout, labelled,
                       "the held-out test rows are those of the training data, with its label and "
                       "sensitive columns");
    }
    const Schema schema = predictionSchema(pre, layout, exact);

    ReadOptions read;
    read.labelsOptional = !exact;
    std::vector<long> lines;
    read.rowLines = &lines;
    ReadStats stats;
    read.stats = &stats;
    const TabularData data =
        layout.arff ? readArffFile(path, schema, read) : readDelimitedFile(path, schema, read);

    std::vector<std::size_t> rows(data.rows());
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = i;
    if (exact) {
        const long expected = model.context.trainRows + model.context.testRows;
        if (static_cast<long>(data.rows()) != expected) {
            throw DataFileError(
                path, 0, "",
                "has " + std::to_string(data.rows()) +
                    " rows once read with the run's schema, "
                    "but the run was trained on " +
                    std::to_string(expected) + " (" + std::to_string(model.context.trainRows) +
                    " training + " + std::to_string(model.context.testRows) +
                    " test rows): the held-out test rows can only be found in the data "
                    "the model was trained on");
        }
        SplitOptions split;
        split.seed = model.context.splitSeed;
        split.testFraction = model.context.testFraction;
        split.method = model.context.splitMethod;
        rows = splitRows(data.rows(), split, data.name).test;
    }

    Predictions out;
    out.classNames = pre.classNames;
    out.hasLabels = hasColumn(layout, pre.schema.target);
    out.hasGroups =
        std::all_of(pre.schema.sensitive.begin(), pre.schema.sensitive.end(),
                    [&](const std::string& column) { return hasColumn(layout, column); });
    for (const FileReadStats& file : stats.files) {
        out.droppedMissing += file.droppedMissing;
        out.droppedFiltered += file.droppedFiltered;
    }
    const RowMatrix X = encodeSelectedRows(pre, data, rows, &out.unseenLevels);
    scoreRows(model.run, X, out.probabilities, out.predicted);

    const auto n = static_cast<Eigen::Index>(rows.size());
    Eigen::VectorXi y(n), s(n);
    bool known = out.hasLabels && out.hasGroups && n > 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        const std::size_t row = rows[static_cast<std::size_t>(i)];
        out.lines.push_back(lines.at(row));
        const int label = data.label[row];
        const int group = data.group[row];
        out.labels.push_back(label >= 0 ? data.classNames[static_cast<std::size_t>(label)] : "");
        out.groups.push_back(group >= 0 ? data.groupNames[static_cast<std::size_t>(group)] : "");
        y(i) = indexOf(pre.classNames, out.labels.back());
        s(i) = indexOf(pre.groupNames, out.groups.back());
        known = known && y(i) >= 0 && s(i) >= 0;
    }
    if (known) {
        out.metrics = evaluateFairness(out.predicted, out.probabilities, y, s, pre.groupNames,
                                       static_cast<int>(pre.classNames.size()),
                                       model.run.config.advantagedClass);
    }
    return out;
}

}  // namespace pfa
