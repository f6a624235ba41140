// JSON round trip of run results and the JSON parser.
#include "core/sweep/run_record.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/algorithms/registry.h"
#include "core/util/error.h"
#include "core/util/json_value.h"
#include "test_data.h"

namespace core_run_record_test {

using namespace pfa;

TEST_CASE("JSON parser reads what the writer writes", "[json]") {
    const JsonValue v =
        parseJson(R"({"a": [1, 2.5e-3, "inf", null], "b": {"c": "x\"y\\nz\u00e9"}, "t": true})");
    CHECK(v.at("a").items().size() == 4);
    CHECK(v.at("a").items()[1].asNumber() == 2.5e-3);
    CHECK(std::isinf(v.at("a").items()[2].asNumber()));
    CHECK(std::isnan(v.at("a").items()[3].asNumber()));
    CHECK(v.at("b").at("c").asString() == "x\"y\\nz\xc3\xa9");
    CHECK(v.at("t").asBool());
    REQUIRE_THROWS_WITH(parseJson("{\"a\": [1, 2"), Catch::Contains("byte"));
    REQUIRE_THROWS_WITH(parseJson("{\"a\" 1}"), Catch::Contains("expected ':'"));
    REQUIRE_THROWS_WITH(v.at("missing"), Catch::Contains("missing key 'missing'"));
}

TEST_CASE("A run survives a JSON round trip exactly", "[json][trainer]") {
    const DataSplit data = test::syntheticSplit(3000);
    TrainConfig config;
    config.algorithm = "dp-fermi";
    config.epsilon = 2.0;
    config.lambda = 1.5;
    config.epochs = 7;
    config.batchSize = 300;
    config.seed = 5;
    TrainingObserver observer;
    CancelToken cancel;
    const RunResult original = runAlgorithm(config, data, observer, cancel);
    RunContext context;
    context.datasetDescription = "synthetic test";
    context.trainRows = 2250;
    RunRecordOptions exact;
    exact.historyDigits = 17;
    const std::string line = runRecordJson(original, context, exact);
    RunContext readContext;
    const RunResult copy = runResultFromJson(parseJson(line), &readContext);
    CHECK(readContext.datasetDescription == "synthetic test");
    CHECK(readContext.trainRows == 2250);
    CHECK(copy.config.lambda == original.config.lambda);
    CHECK(copy.config.delta == original.config.delta);
    CHECK(copy.config.minGroupShare == original.config.minGroupShare);
    CHECK(copy.config.sampling == original.config.sampling);
    CHECK(copy.test.error == original.test.error);
    CHECK(copy.test.dpGap == original.test.dpGap);
    CHECK(copy.test.groups.size() == original.test.groups.size());
    CHECK(copy.test.groups[1].truePositiveRate == original.test.groups[1].truePositiveRate);
    CHECK(copy.privacy.epsilonSpent == original.privacy.epsilonSpent);
    CHECK(copy.privacy.statement == original.privacy.statement);
    REQUIRE(copy.history.size() == original.history.size());
    for (std::size_t e = 0; e < copy.history.size(); ++e) {
        CHECK(copy.history[e].trainLoss == original.history[e].trainLoss);
        CHECK(copy.history[e].epsilonSpent == original.history[e].epsilonSpent);
        CHECK(copy.history[e].step == original.history[e].step);
    }
    // Writing the copy again gives the same line.
    CHECK(runRecordJson(copy, readContext, exact) == line);
}

TEST_CASE("A record carries the split method, and older records read as the seeded split",
          "[json][split]") {
    const DataSplit data = test::syntheticSplit(1000);
    TrainConfig config;
    config.algorithm = "erm";
    config.lambda = 0.0;
    config.epsilon = INFINITY;
    config.epochs = 2;
    TrainingObserver observer;
    CancelToken cancel;
    const RunResult run = runAlgorithm(config, data, observer, cancel);
    RunContext context;
    context.datasetDescription = "synthetic test";
    context.splitSeed = 100;
    context.testFraction = 0.2;
    context.splitMethod = SplitMethod::PandasSample;
    const std::string line = runRecordJson(run, context);
    CHECK(parseJson(line).at("config").at("split_method").asString() == "pandas");
    RunContext read;
    runResultFromJson(parseJson(line), &read);
    CHECK(read.splitMethod == SplitMethod::PandasSample);
    CHECK(read.splitSeed == 100);
    CHECK(read.testFraction == 0.2);
    CHECK(runRecordJson(run, read) == line);

    // A record written before split methods existed has no split_method: our own split.
    const std::string key = R"(,"split_method":"pandas")";
    std::string old = line;
    REQUIRE(old.find(key) != std::string::npos);
    old.erase(old.find(key), key.size());
    RunContext oldContext;
    oldContext.splitMethod = SplitMethod::PandasSample;  // must be overwritten
    runResultFromJson(parseJson(old), &oldContext);
    CHECK(oldContext.splitMethod == SplitMethod::Seeded);
    CHECK(oldContext.splitSeed == 100);

    std::string bad = line;
    bad.replace(bad.find(R"("split_method":"pandas")"), 23, R"("split_method":"sklearn")");
    REQUIRE_THROWS_WITH(runResultFromJson(parseJson(bad), &read),
                        Catch::Contains("unknown split method"));
}

TEST_CASE("A record carries per-unit metrics, the trust model and optional history columns",
          "[json][units]") {
    const DataSplit data = test::syntheticSplit(2000);
    TrainConfig config;
    config.algorithm = "dp-sgd";
    config.epsilon = 2.0;
    config.lambda = 0.0;
    config.epochs = 2;
    config.batchSize = 200;
    TrainingObserver observer;
    CancelToken cancel;
    RunResult original = runAlgorithm(config, data, observer, cancel);
    original.unitKind = "silo";
    original.units = {{"hospital A", 700, 240, 0.25, 0.5},
                      {"hospital <B>", 800, 260, 0.125, 0.375}};
    original.privacy.neighbouring = "one record of one silo replaced";
    original.privacy.trustModel = "no one: each silo adds its own noise";
    original.history.front().excessRisk = 0.5;
    original.history.back().gateMargin = -3.0;
    RunRecordOptions exact;
    exact.historyDigits = 17;
    const std::string line = runRecordJson(original, RunContext{}, exact);
    CHECK(line.find("\"removed_fraction\"") == std::string::npos);  // no value, no column
    const RunResult copy = runResultFromJson(parseJson(line), nullptr);
    CHECK(copy.unitKind == "silo");
    REQUIRE(copy.units.size() == 2);
    CHECK(copy.units[1].name == "hospital <B>");
    CHECK(copy.units[1].trainRows == 800);
    CHECK(copy.units[1].testRows == 260);
    CHECK(copy.units[1].testError == 0.125);
    CHECK(copy.units[0].testLoss == 0.5);
    CHECK(copy.privacy.neighbouring == original.privacy.neighbouring);
    CHECK(copy.privacy.trustModel == original.privacy.trustModel);
    CHECK(copy.history.front().excessRisk == 0.5);
    CHECK(std::isnan(copy.history.back().excessRisk));
    CHECK(copy.history.back().gateMargin == -3.0);
    CHECK(std::isnan(copy.history.front().removedFraction));
}

TEST_CASE(
    "Every classification run knows the constant classifier's test error, and its record "
    "keeps it",
    "[json][record][constant-baseline]") {
    const DataSplit data = test::syntheticSplit(2000, 6);
    // Counted here from the test labels: the most frequent class and the share of the others.
    long ones = 0;
    for (long i = 0; i < data.test.y.size(); ++i) ones += data.test.y(i) == 1 ? 1 : 0;
    const long rows = data.test.y.size();
    const bool onesWin = ones > rows - ones;
    const double expected = static_cast<double>(onesWin ? rows - ones : ones) / rows;
    const ConstantBaseline baseline = constantBaseline(data.test);
    REQUIRE(baseline.known);
    CHECK(baseline.error == Approx(expected).epsilon(1e-12));
    CHECK(baseline.className == data.test.classNames[onesWin ? 1 : 0]);

    RunResult run = test::runQuietly(test::quickConfig("dp-fermi", 1.0, 0.0), data);
    REQUIRE(run.constant.known);
    CHECK(run.constant.error == baseline.error);
    // A model that always predicts the majority sits on the baseline: flagged; a model clearly
    // better is not.
    RunResult flat = run;
    flat.test.error = baseline.error - 0.5 * kConstantMargin;
    CHECK(nearConstant(flat));
    flat.test.error = baseline.error - 2 * kConstantMargin;
    CHECK_FALSE(nearConstant(flat));

    RunContext context;
    const RunResult back = runResultFromJson(parseJson(runRecordJson(run, context)));
    CHECK(back.constant.known);
    CHECK(back.constant.className == run.constant.className);
    CHECK(back.constant.error == run.constant.error);
    // Regression data has no constant classifier.
    Dataset regression = data.test;
    regression.target = Eigen::VectorXd::Zero(regression.y.size());
    CHECK_FALSE(constantBaseline(regression).known);
}

}  // namespace core_run_record_test
