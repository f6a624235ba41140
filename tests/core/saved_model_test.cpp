// Run records carry the model and its preprocessing; saved models predict new rows exactly as
// training evaluated its test rows.
#include "core/sweep/saved_model.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/algorithms/registry.h"
#include "core/data/csv_reader.h"
#include "core/data/synthetic.h"
#include "core/sweep/model_record.h"
#include "core/sweep/prepared_dataset.h"
#include "core/sweep/record_fields.h"
#include "core/sweep/run_record.h"
#include "core/sweep/sweep_spec.h"
#include "core/util/error.h"
#include "core/util/json_value.h"
#include "temp_file.h"

namespace core_saved_model_test {

using namespace pfa;

namespace {

/// A small loan file: a numeric and a categorical feature (with a level in one row only), a
/// binary label and two groups; the label depends on both features and the group.
std::string loansCsv(int rows) {
    std::string text = "income,region,gender,approved\n";
    for (int i = 0; i < rows; ++i) {
        const double income = 20.0 + (i * 37) % 80 + 0.25 * (i % 7);
        const std::string region = i == 17 ? "r9" : "r" + std::to_string(i % 3);
        const char* gender = i % 2 == 0 ? "f" : "m";
        const bool approved = income + 8.0 * (i % 3) - 6.0 * (i % 2) + ((i * 13) % 11) > 62.0;
        char line[128];
        std::snprintf(line, sizeof line, "%.17g,%s,%s,%s\n", income, region.c_str(), gender,
                      approved ? "yes" : "no");
        text += line;
    }
    return text;
}

Schema loansSchema() {
    Schema schema;
    schema.target = "approved";
    schema.positiveValues = {"yes"};
    schema.sensitive = {"gender"};
    schema.columns["region"].role = ColumnRole::Categorical;
    return schema;
}

PreparedDatasetPtr prepareFile(const std::string& path, const Schema& schema) {
    DatasetRequest request;
    request.name = "file";
    request.filePath = path;
    request.schema = schema;
    return prepareDataset(request);
}

RunResult train(const TrainConfig& config, const PreparedDataset& data) {
    TrainingObserver observer;
    CancelToken cancel;
    return runAlgorithm(config, data.split, observer, cancel);
}

TrainConfig fairConfig() {
    TrainConfig config;
    config.algorithm = "fermi";
    config.epsilon = INFINITY;
    config.lambda = 2.0;
    config.epochs = 6;
    config.batchSize = 64;
    config.seed = 3;
    return config;
}

/// The record as written before models were stored: the same line without its last two keys.
std::string withoutModel(const std::string& line) {
    const std::size_t cut = line.find(",\"model\":");
    REQUIRE(cut != std::string::npos);
    return line.substr(0, cut) + "}";
}

/// The data of a synthetic split as the file syntheticSchema() describes, numbers exact.
std::string syntheticCsv(const TabularData& data) {
    std::string text;
    for (const FeatureColumn& column : data.features) text += column.name + ",";
    text += "group,outcome\n";
    for (std::size_t i = 0; i < data.rows(); ++i) {
        for (const FeatureColumn& column : data.features) {
            char number[40];
            std::snprintf(number, sizeof number, "%.17g,", column.numeric[i]);
            text += number;
        }
        text += data.groupNames[static_cast<std::size_t>(data.group[i])] + "," +
                data.classNames[static_cast<std::size_t>(data.label[i])] + "\n";
    }
    return text;
}

}  // namespace

TEST_CASE("Run records carry the model and its preprocessing exactly", "[saved-model][json]") {
    const test::TempFile csv(loansCsv(400), ".csv");
    const PreparedDatasetPtr data = prepareFile(csv.path(), loansSchema());
    const RunResult original = train(fairConfig(), *data);
    REQUIRE(original.theta.rows() == 1);
    REQUIRE(original.theta.cols() == data->split.train.features() + 1);
    REQUIRE(original.W.size() > 0);  // fair training: the adversary is stored too

    const std::string line = runRecordJson(original, data->context);
    RunContext context;
    const RunResult copy = runResultFromJson(parseJson(line), &context);
    REQUIRE(copy.theta.rows() == original.theta.rows());
    REQUIRE(copy.theta.cols() == original.theta.cols());
    for (Eigen::Index j = 0; j < original.theta.cols(); ++j)
        CHECK(copy.theta(0, j) == original.theta(0, j));
    REQUIRE(copy.W.rows() == original.W.rows());
    REQUIRE(copy.W.cols() == original.W.cols());
    for (Eigen::Index i = 0; i < original.W.rows(); ++i) {
        for (Eigen::Index j = 0; j < original.W.cols(); ++j)
            CHECK(copy.W(i, j) == original.W(i, j));
    }
    CHECK(copy.featureBound == 0.0);

    REQUIRE(context.preprocessing);
    const ModelPreprocessing& p = *context.preprocessing;
    const EncodingInfo& encoding = data->split.encoding;
    REQUIRE(p.columns.size() == 2);
    CHECK(p.columns[0].name == "income");
    CHECK(p.columns[0].kind == FeatureKind::Numeric);
    CHECK(p.columns[0].mean == encoding.means[0]);
    CHECK(p.columns[0].standardDeviation == encoding.standardDeviations[0]);
    CHECK(p.columns[1].name == "region");
    CHECK(p.columns[1].kind == FeatureKind::Categorical);
    CHECK(p.columns[1].levels == encoding.keptLevels[0]);
    CHECK(p.featureNames == data->split.train.featureNames);
    CHECK(p.classNames == std::vector<std::string>{"not yes", "yes"});
    CHECK(p.groupNames == std::vector<std::string>{"f", "m"});
    CHECK(p.schema.target == "approved");
    CHECK(p.schema.columns.at("region").role == ColumnRole::Categorical);
    // Writing the copy again gives the same line, model and preprocessing included.
    CHECK(runRecordJson(copy, context) == line);
}

TEST_CASE("Records written before models were stored still read, without a model",
          "[saved-model][json]") {
    const test::TempFile csv(loansCsv(300), ".csv");
    const PreparedDatasetPtr data = prepareFile(csv.path(), loansSchema());
    const std::string old = withoutModel(runRecordJson(train(fairConfig(), *data), data->context));
    REQUIRE(old.find("\"preprocessing\"") == std::string::npos);
    RunContext context;
    const RunResult result = runResultFromJson(parseJson(old), &context);
    CHECK(result.theta.size() == 0);
    CHECK(result.W.size() == 0);
    CHECK_FALSE(context.preprocessing);
    CHECK_FALSE(hasSavedModel(result, context));
    CHECK_THROWS_WITH(modelExportJson(result, context), Catch::Contains("has no model"));

    const test::TempFile results(old + "\n", ".jsonl");
    CHECK_THROWS_AS(loadSavedModel(results.path()), DataFileError);
    CHECK_THROWS_WITH(loadSavedModel(results.path()), Catch::Contains("has no model"));
    CHECK_THROWS_WITH(loadSavedModel(results.path(), "#0"), Catch::Contains("has no model"));
}

TEST_CASE("A saved model reproduces its run's test predictions exactly", "[saved-model][trainer]") {
    const test::TempFile csv(loansCsv(500), ".csv");
    const PreparedDatasetPtr data = prepareFile(csv.path(), loansSchema());
    TrainConfig config = fairConfig();
    SECTION("fermi") {}
    SECTION("dp-fermi, conservative") {
        config.algorithm = "dp-fermi";
        config.epsilon = 2.0;
    }
    SECTION("dp-sgd") {
        config.algorithm = "dp-sgd";
        config.epsilon = 4.0;
        config.lambda = 0.0;
    }
    const RunResult run = train(config, *data);
    REQUIRE(run.status == RunStatus::Completed);
    RunContext context = data->context;
    context.runKey = "the run";
    const test::TempFile results(runRecordJson(run, context) + "\n", ".jsonl");

    const SavedModel model = loadSavedModel(results.path());
    CHECK(model.context.runKey == "the run");
    PredictionOptions options;
    options.testRowsOnly = true;
    const Predictions p = predictFile(model, csv.path(), options);
    REQUIRE(p.rows() == data->split.test.rows());
    REQUIRE(p.metrics);
    CHECK(p.metrics->error == run.test.error);
    CHECK(p.metrics->dpGap == run.test.dpGap);
    CHECK(p.metrics->eoGap == run.test.eoGap);
    CHECK(p.error() == run.test.error);

    // Row for row: the same probabilities as the training split's encoded test rows give.
    RowMatrix F;
    Eigen::VectorXi predicted;
    scoreRows(run, data->split.test.X, F, predicted);
    CHECK(p.probabilities == F);
    CHECK(p.predicted == predicted);
    for (Eigen::Index i = 0; i < p.predicted.size(); ++i) {
        const std::string truth =
            data->split.test.classNames[static_cast<std::size_t>(data->split.test.y(i))];
        CHECK(p.labels[static_cast<std::size_t>(i)] == truth);
    }
}

TEST_CASE("The published calibration's feature bound is stored and applied",
          "[saved-model][trainer]") {
    const test::TempFile csv(loansCsv(500), ".csv");
    const PreparedDatasetPtr data = prepareFile(csv.path(), loansSchema());
    TrainConfig config = fairConfig();
    config.algorithm = "dp-fermi";
    config.calibration = Calibration::Published;
    config.epsilon = 1.0;
    config.epochs = 10;
    SECTION("default bound") {
        const RunResult run = train(config, *data);
        CHECK(run.featureBound == 5.0);
    }
    SECTION("a bound that rescales most rows") {
        config.featureBound = 1.0;
        const RunResult run = train(config, *data);
        REQUIRE(run.status == RunStatus::Completed);
        REQUIRE(run.featureBound == 1.0);
        const std::string line = runRecordJson(run, data->context);
        CHECK(parseJson(line).at("model").at("feature_bound").asNumber() == 1.0);
        const test::TempFile results(line + "\n", ".jsonl");
        SavedModel model = loadSavedModel(results.path());
        CHECK(model.run.featureBound == 1.0);
        PredictionOptions options;
        options.testRowsOnly = true;
        const Predictions bounded = predictFile(model, csv.path(), options);
        REQUIRE(bounded.metrics);
        CHECK(bounded.metrics->error == run.test.error);
        // Every row has ‖[x, 1]‖ ≥ 1, so without the bound the scores change. Shown with fixed
        // parameters: the trained ones depend on the noise, which is keyed by the data set's key
        // and so by this temporary file's random name; a run whose noise left θ near 0 changed
        // the probabilities by as little as 1e-7.
        model.run.theta.setConstant(0.5);
        const Predictions boundedFixed = predictFile(model, csv.path(), options);
        model.run.featureBound = 0.0;
        const Predictions unbounded = predictFile(model, csv.path(), options);
        CHECK((boundedFixed.probabilities - unbounded.probabilities).cwiseAbs().maxCoeff() > 1e-3);
    }
}

TEST_CASE("A model trained on the synthetic data predicts a file of its layout",
          "[saved-model][trainer]") {
    DatasetRequest request;
    request.knobs<SyntheticOptions>().rows = 800;
    request.knobs<SyntheticOptions>().features = 6;
    const PreparedDatasetPtr data = prepareDataset(request);
    REQUIRE(data->context.preprocessing);
    CHECK(data->context.preprocessing->schema.target == "outcome");
    const RunResult run = train(fairConfig(), *data);
    const test::TempFile results(runRecordJson(run, data->context) + "\n", ".jsonl");
    const test::TempFile csv(syntheticCsv(generateSynthetic(request.knobs<SyntheticOptions>())),
                             ".csv");
    PredictionOptions options;
    options.testRowsOnly = true;
    const Predictions p = predictFile(loadSavedModel(results.path()), csv.path(), options);
    REQUIRE(p.metrics);
    CHECK(p.metrics->error == run.test.error);
    CHECK(p.metrics->dpGap == run.test.dpGap);
}

TEST_CASE("New rows: any column order, no label, unseen levels as zeros, missing columns named",
          "[saved-model]") {
    const test::TempFile csv(loansCsv(300), ".csv");
    const PreparedDatasetPtr data = prepareFile(csv.path(), loansSchema());
    const RunResult run = train(fairConfig(), *data);
    const test::TempFile results(runRecordJson(run, data->context) + "\n", ".jsonl");
    const SavedModel model = loadSavedModel(results.path());
    const ModelPreprocessing& pre = *model.context.preprocessing;

    // Reordered, an extra column, no label or group; an unseen level; a missing income.
    const test::TempFile rows("note;region;income\nx;r1;50\ny;r7;50\nz;r0;\nw;r0;71.5\n", ".csv");
    const Predictions p = predictFile(model, rows.path());
    REQUIRE(p.rows() == 3);
    CHECK_FALSE(p.hasLabels);
    CHECK_FALSE(p.hasGroups);
    CHECK_FALSE(p.metrics);
    CHECK(p.lines == std::vector<long>{2, 3, 5});
    CHECK(p.droppedMissing == 1);
    REQUIRE(p.unseenLevels.size() == 1);
    CHECK(p.unseenLevels[0].column == "region");
    CHECK(p.unseenLevels[0].value == "r7");
    CHECK(p.unseenLevels[0].count == 1);

    // The encoding by hand: z-scored income, one-hot region (r7: all zeros).
    const double z = (50.0 - pre.columns[0].mean) / pre.columns[0].standardDeviation;
    RowMatrix X = RowMatrix::Zero(2, pre.encodedWidth());
    X(0, 0) = z;
    X(0, 1 + 1) = 1.0;  // r1
    X(1, 0) = z;
    RowMatrix F;
    Eigen::VectorXi predicted;
    scoreRows(run, X, F, predicted);
    CHECK(p.probabilities.topRows(2).isApprox(F, 1e-12));

    // A label column (one class only is fine here) is read and compared.
    const test::TempFile labelled("income,region,approved\n50,r1,yes\n90,r2,yes\n", ".csv");
    const Predictions q = predictFile(model, labelled.path());
    CHECK(q.hasLabels);
    CHECK(q.labels == std::vector<std::string>{"yes", "yes"});
    CHECK(q.labelledRows() == 2);

    const test::TempFile noIncome("region,gender\nr1,f\n", ".csv");
    CHECK_THROWS_AS(predictFile(model, noIncome.path()), DataFileError);
    CHECK_THROWS_WITH(predictFile(model, noIncome.path()), Catch::Contains("no column 'income'"));
    const test::TempFile badNumber("income,region\nlots,r1\n", ".csv");
    CHECK_THROWS_WITH(predictFile(model, badNumber.path()),
                      Catch::Contains("'lots' is not a number"));
    PredictionOptions testRows;
    testRows.testRowsOnly = true;
    CHECK_THROWS_WITH(predictFile(model, labelled.path(), testRows),
                      Catch::Contains("no column 'gender'"));
    const test::TempFile otherFile(loansCsv(120), ".csv");
    CHECK_THROWS_WITH(predictFile(model, otherFile.path(), testRows),
                      Catch::Contains("trained on 300"));
}

TEST_CASE("Choosing a run in a results file", "[saved-model]") {
    const test::TempFile csv(loansCsv(300), ".csv");
    const PreparedDatasetPtr data = prepareFile(csv.path(), loansSchema());
    TrainConfig config = fairConfig();
    config.epochs = 2;
    std::string lines;
    for (const char* key : {"run:a", "run:b"}) {
        RunContext context = data->context;
        context.runKey = key;
        lines += runRecordJson(train(config, *data), context) + "\n";
        config.lambda = 0.0;
    }
    const test::TempFile results(lines, ".jsonl");
    CHECK_THROWS_AS(loadSavedModel(results.path()), InputError);
    CHECK_THROWS_WITH(loadSavedModel(results.path()),
                      Catch::Contains("2 runs with a model (#0, #1)"));
    CHECK(loadSavedModel(results.path(), "#1").run.config.lambda == 0.0);
    CHECK(loadSavedModel(results.path(), "run:a").run.config.lambda == 2.0);
    CHECK(loadSavedModel(results.path(), "run:b").recordIndex == 1);
    CHECK_THROWS_WITH(loadSavedModel(results.path(), "#2"), Catch::Contains("there is no #2"));
    CHECK_THROWS_WITH(loadSavedModel(results.path(), "#x"), Catch::Contains("not a record index"));
    CHECK_THROWS_WITH(loadSavedModel(results.path(), "run:c"),
                      Catch::Contains("no run with key 'run:c'"));
    CHECK(listSavedRuns(results.path()).size() == 2);

    // Run keys hold ':' themselves: the file is the first prefix that exists.
    CHECK(splitModelSpec(results.path()) ==
          std::pair<std::string, std::string>{results.path(), ""});
    CHECK(splitModelSpec(results.path() + ":run:b") ==
          std::pair<std::string, std::string>{results.path(), "run:b"});
    CHECK(splitModelSpec(results.path() + ":#1") ==
          std::pair<std::string, std::string>{results.path(), "#1"});

    // A one-run model file (the GUI export), and one written before model files left fields out
    // (the whole record), are read the same way.
    const test::TempFile exported(
        modelExportJson(loadSavedModel(results.path(), "#0").run, data->context), ".json");
    CHECK(loadSavedModel(exported.path()).run.config.lambda == 2.0);
    CHECK(loadSavedModel(exported.path()).fromExport);
    RunRecordOptions exact;
    exact.historyDigits = 17;
    const test::TempFile older(
        runRecordJson(loadSavedModel(results.path(), "#0").run, data->context, exact), ".json");
    CHECK(loadSavedModel(older.path()).run.config.lambda == 2.0);
    CHECK_FALSE(loadSavedModel(older.path()).fromExport);
    const test::TempFile notResults("a,b\n1,2\n", ".csv");
    CHECK_THROWS_WITH(loadSavedModel(notResults.path()), Catch::Contains("no run record"));
}

TEST_CASE("A softmax model (three classes) reproduces its run exactly", "[saved-model][trainer]") {
    std::string text = "x1,color,grade,sex\n";
    for (int i = 0; i < 450; ++i) {
        const double x1 = ((i * 29) % 100) / 25.0 - 2.0;
        const char* color = i % 3 == 0 ? "red" : (i % 3 == 1 ? "green" : "blue");
        const double score = x1 + (i % 3 == 0 ? 0.8 : 0.0) + ((i * 7) % 5) * 0.2;
        const char* grade = score < -0.5 ? "low" : (score < 1.0 ? "mid" : "high");
        text +=
            std::to_string(x1) + "," + color + "," + grade + "," + (i % 4 == 0 ? "a" : "b") + "\n";
    }
    const test::TempFile csv(text, ".csv");
    Schema schema;
    schema.target = "grade";  // no positive value: one class per distinct value
    schema.sensitive = {"sex"};
    const PreparedDatasetPtr data = prepareFile(csv.path(), schema);
    const RunResult run = train(fairConfig(), *data);
    REQUIRE(run.theta.rows() == 3);
    const std::string line = runRecordJson(run, data->context);
    CHECK(parseJson(line).at("model").at("kind").asString() == "softmax");
    const test::TempFile results(line + "\n", ".jsonl");
    PredictionOptions options;
    options.testRowsOnly = true;
    const Predictions p = predictFile(loadSavedModel(results.path()), csv.path(), options);
    CHECK(p.classNames == std::vector<std::string>{"high", "low", "mid"});
    REQUIRE(p.metrics);
    CHECK(p.metrics->error == run.test.error);
    CHECK(p.metrics->dpGap == run.test.dpGap);
    CHECK(p.probabilities.cols() == 3);
}

namespace {

/// Every leaf path of a model file outside its "export" block, with the record field class
/// that declares it.
std::vector<std::pair<std::string, FieldClass>> exportedFields(const JsonValue& file) {
    std::vector<std::pair<std::string, FieldClass>> out;
    for (const RecordLeaf& leaf : flattenRecord(file)) {
        if (leaf.normalised.rfind("export.", 0) == 0) continue;
        if (leaf.normalised == "preprocessing.not_protected") continue;  // the file's label
        REQUIRE(isDeclaredRecordField(leaf.normalised));
        out.emplace_back(leaf.normalised, recordFieldClass(leaf.normalised));
    }
    return out;
}

bool holdsClass(const std::vector<std::pair<std::string, FieldClass>>& fields, FieldClass c) {
    for (const auto& [path, fieldClass] : fields) {
        if (fieldClass == c) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("A model file holds what the guarantee covers, and labels the preprocessing",
          "[saved-model][export]") {
    const test::TempFile csv(loansCsv(400), ".csv");
    const PreparedDatasetPtr data = prepareFile(csv.path(), loansSchema());
    TrainConfig config = fairConfig();
    config.algorithm = "dp-fermi";
    config.epsilon = 2.0;
    config.seed = 987654321;  // a seed no other number in the record resembles
    config.recordDiagnostics = true;
    const RunResult run = train(config, *data);
    REQUIRE(run.privacy.isPrivate);
    REQUIRE(run.privacy.noiseSource == privacy::NoiseSource::Seeded);
    REQUIRE(run.privacy.diagnosticsRecorded);
    RunContext context = data->context;
    context.runKey = runKey("file", config);
    REQUIRE(context.runKey.find("987654321") != std::string::npos);
    const std::string full = runRecordJson(run, context);
    REQUIRE(full.find("987654321") != std::string::npos);  // the record does hold the seed

    const std::string text = modelExportJson(run, context);
    const JsonValue file = parseJson(text);
    // No seed anywhere: not the field, not the run key, not the statement.
    CHECK(text.find("987654321") == std::string::npos);
    CHECK_FALSE(file.has("seed"));
    CHECK_FALSE(file.has("run_key"));
    CHECK_FALSE(file.at("privacy").has("seed"));
    CHECK_THAT(file.at("privacy").at("statement").asString(),
               Catch::Contains("the seed (not in this file)"));
    // No training-set diagnostics, bookkeeping or test metrics.
    const auto fields = exportedFields(file);
    CHECK_FALSE(holdsClass(fields, FieldClass::Diagnostic));
    CHECK_FALSE(holdsClass(fields, FieldClass::Disclosed));
    CHECK_FALSE(holdsClass(fields, FieldClass::Secret));
    CHECK_FALSE(holdsClass(fields, FieldClass::Bookkeeping));
    CHECK_FALSE(holdsClass(fields, FieldClass::TestRows));
    CHECK_FALSE(holdsClass(fields, FieldClass::UnitCount));  // n is private under add/remove
    CHECK_FALSE(file.has("history"));
    CHECK_FALSE(file.has("train_loss"));
    CHECK_FALSE(file.has("seconds"));
    CHECK_FALSE(file.has("run_uid"));
    // What it needs and what it states: the model, the settings, the guarantee.
    CHECK(holdsClass(fields, FieldClass::Released));
    CHECK(file.at("privacy").at("unit").asString() == "record");
    CHECK(file.at("privacy").at("adjacency").asString() == "add/remove-one");
    CHECK(file.at("privacy").has("accounting"));
    CHECK(file.at("settings").at("scope").asString() == "all-features");
    // The preprocessing statistics are there, labelled as not protected, in the file and in
    // its export block.
    const JsonValue& preprocessing = file.at("preprocessing");
    CHECK_THAT(preprocessing.at("not_protected").asString(),
               Catch::Contains("computed from the training rows without noise"));
    CHECK(preprocessing.at("columns").items().at(0).has("mean"));
    const JsonValue& block = file.at("export");
    CHECK(block.at("format").asString() == "pfa-explorer model");
    CHECK(block.at("protection").asString() == "record, add/remove-one");
    CHECK(block.at("noise").asString() == "seeded");
    CHECK_THAT(block.at("warning").asString(), Catch::Contains("Secure noise (OS entropy)"));
    const JsonValue& labelled = block.at("not_protected").items().at(0);
    CHECK_THAT(labelled.at("what").asString(), Catch::Contains("computed from the training rows"));
    CHECK(labelled.at("fields").items().size() == 4);
    bool diagnosticsListed = false;
    for (const JsonValue& item : block.at("left_out").items())
        diagnosticsListed =
            diagnosticsListed || item.asString().find("training loss") != std::string::npos;
    CHECK(diagnosticsListed);

    // The model reads back and predicts exactly as its run.
    const test::TempFile model(text + "\n", ".json");
    const SavedModel saved = loadSavedModel(model.path());
    CHECK(saved.fromExport);
    CHECK_FALSE(saved.seedKnown);
    CHECK_FALSE(saved.testMetricsKnown);
    CHECK(saved.run.theta == run.theta);
    CHECK(saved.run.W == run.W);
    CHECK(saved.run.privacy.epsilonSpent == run.privacy.epsilonSpent);
    PredictionOptions options;
    options.testRowsOnly = true;  // the split settings are public: the test rows are found
    const Predictions p = predictFile(saved, csv.path(), options);
    REQUIRE(p.metrics);
    CHECK(p.metrics->error == run.test.error);
}

TEST_CASE("A model file adds test metrics and diagnostics only when asked, labelled",
          "[saved-model][export]") {
    const test::TempFile csv(loansCsv(300), ".csv");
    const PreparedDatasetPtr data = prepareFile(csv.path(), loansSchema());
    TrainConfig config = fairConfig();
    config.algorithm = "dp-fermi";
    config.epsilon = 2.0;
    config.epochs = 3;
    const RunResult run = train(config, *data);
    ModelExportOptions options;
    options.testMetrics = true;
    JsonValue file = parseJson(modelExportJson(run, data->context, options));
    auto fields = exportedFields(file);
    CHECK(holdsClass(fields, FieldClass::TestRows));
    CHECK_FALSE(holdsClass(fields, FieldClass::Diagnostic));
    CHECK(file.at("test_error").asNumber() == run.test.error);
    CHECK(file.at("history").has("test_error"));
    CHECK_FALSE(file.at("history").has("train_loss"));
    CHECK_FALSE(file.has("seed"));  // still: the options never add the seed
    const test::TempFile withTests(modelExportJson(run, data->context, options), ".json");
    CHECK(loadSavedModel(withTests.path()).testMetricsKnown);
    CHECK(loadSavedModel(withTests.path()).run.test.error == run.test.error);

    options.diagnostics = true;
    file = parseJson(modelExportJson(run, data->context, options));
    fields = exportedFields(file);
    CHECK(holdsClass(fields, FieldClass::Diagnostic));
    CHECK(file.at("history").has("train_loss"));
    CHECK(file.at("config").has("train_rows"));
    const ModelExportContents contents = modelExportContents(run, data->context, options);
    bool labelled = false;
    for (const std::string& item : contents.notProtected)
        labelled = labelled || item.find("training-set diagnostics") != std::string::npos;
    CHECK(labelled);
    CHECK_FALSE(file.has("seed"));
}

TEST_CASE("A model file of a run with secure noise carries no warning, a non-private one its seed",
          "[saved-model][export]") {
    const test::TempFile csv(loansCsv(300), ".csv");
    const PreparedDatasetPtr data = prepareFile(csv.path(), loansSchema());
    TrainConfig config = fairConfig();
    config.algorithm = "dp-fermi";
    config.epsilon = 2.0;
    config.epochs = 2;
    config.secureNoise = true;
    const RunResult secure = train(config, *data);
    CHECK(seededNoiseWarning(secure).empty());
    CHECK_FALSE(modelExportContents(secure, data->context).seededNoise);
    const JsonValue file = parseJson(modelExportJson(secure, data->context));
    CHECK(file.at("export").at("noise").asString() == "os-entropy");
    CHECK_FALSE(file.at("export").has("warning"));
    CHECK_FALSE(file.has("seed"));

    config.secureNoise = false;
    config.algorithm = "fermi";
    config.epsilon = INFINITY;
    config.seed = 11;
    const RunResult open = train(config, *data);
    CHECK(seededNoiseWarning(open).empty());  // nothing is protected, nothing to keep secret
    const JsonValue plain = parseJson(modelExportJson(open, data->context));
    CHECK(plain.at("seed").asNumber() == 11);
    CHECK(plain.at("export").at("protection").asString() == "not private");
}

}  // namespace core_saved_model_test
