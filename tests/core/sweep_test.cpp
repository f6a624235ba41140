// Sweep expansion, run keys, summaries (the whisker statistics), results files, presets and
// the reference-point overlay parser.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "core/sweep/reference_points.h"
#include "core/sweep/results_file.h"
#include "core/sweep/sweep_preset.h"
#include "core/sweep/sweep_runner.h"
#include "core/sweep/sweep_summary.h"
#include "core/util/error.h"
#include "test_data.h"

namespace core_sweep_test {

using namespace pfa;

namespace {

/// `name` with this process's id: the same tests of another build may run beside these.
std::string uniqueName(const std::string& name) { return std::to_string(::getpid()) + "-" + name; }

}  // namespace

using Catch::Matchers::WithinAbs;

TEST_CASE("Sweep expansion order, deduplication and run keys", "[sweep]") {
    SweepSpec spec;
    spec.datasets = {"d"};
    spec.algorithms = {"dp-fermi", "erm"};
    spec.epsilons = {0.5, 2};
    spec.lambdas = {0, 1, 4};
    spec.seeds = {0, 1};
    spec.axes = {{"lr-theta", {0.05, 0.1}, {}}};
    const std::vector<SweepRun> runs = spec.expand();
    // dp-fermi: 2 lr × 2 ε × 3 λ × 2 seeds = 24; erm only at ε = ∞, λ = 0: 2 lr × 2 seeds = 4.
    REQUIRE(runs.size() == 28);
    CHECK(spec.size() == 28);
    for (std::size_t i = 0; i < runs.size(); ++i) CHECK(runs[i].index == i);
    CHECK(runs[0].config.lrTheta == 0.05);
    CHECK(runs[0].config.seed == 0);
    CHECK(runs[1].config.seed == 1);
    CHECK(runs[2].config.lambda == 1);
    CHECK(std::isinf(runs.back().config.epsilon));
    CHECK(runs.back().config.algorithm == "erm");
    std::set<std::string> keys;
    for (const SweepRun& run : runs) keys.insert(run.key);
    CHECK(keys.size() == runs.size());  // distinct settings, distinct keys
    CHECK(runs[0].key.find("seed=0") != std::string::npos);
    CHECK(cellKeyOf(runs[0].key) == cellKeyOf(runs[1].key));  // differ only in the seed
    // Shards partition the runs.
    std::size_t total = 0;
    for (int i = 0; i < 3; ++i) total += shardRuns(runs, i, 3).size();
    CHECK(total == runs.size());
    REQUIRE_THROWS_WITH(shardRuns(runs, 3, 3), Catch::Contains("shard 3/3 is invalid"));
    TrainConfig config;
    REQUIRE_THROWS_WITH(applySweepParameter(config, "epochs", 2.5),
                        Catch::Contains("epochs = 2.5 is invalid: it must be a whole number"));
}

TEST_CASE("Whisker statistics: mean and sample standard deviation per cell", "[sweep][summary]") {
    std::vector<SweepPoint> points;
    const double errors[] = {0.20, 0.22, 0.27};
    const double violations[] = {0.10, 0.06, 0.08};
    for (int seed = 0; seed < 3; ++seed) {
        SweepPoint p;
        p.runKey =
            "dataset=d;algorithm=a;epsilon=1;lambda=2;seed=" + std::to_string(seed) + ";epochs=5";
        p.epsilon = 1;
        p.lambda = 2;
        p.testError = errors[seed];
        p.violation = violations[seed];
        p.epsilonSpent = 0.99;
        points.push_back(p);
    }
    SweepPoint failed = points.front();
    failed.runKey = "dataset=d;algorithm=a;epsilon=1;lambda=2;seed=9;epochs=5";
    failed.status = "failed";
    failed.testError = NAN;
    points.push_back(failed);
    SweepPoint other = points.front();
    other.runKey = "dataset=d;algorithm=a;epsilon=1;lambda=4;seed=0;epochs=5";
    points.push_back(other);

    const std::vector<SweepCell> cells = summarizePoints(points);
    REQUIRE(cells.size() == 2);
    const SweepCell& cell = cells[0];
    CHECK(cell.runs == 4);
    CHECK(cell.failed == 1);
    CHECK(cell.testError.n == 3);
    CHECK_THAT(cell.testError.mean, WithinAbs(0.23, 1e-12));
    // Sample sd of {0.20, 0.22, 0.27}: sqrt(((−.03)² + (−.01)² + .04²)/2) = sqrt(0.0013).
    CHECK_THAT(cell.testError.sd, WithinAbs(std::sqrt(0.0013), 1e-12));
    CHECK_THAT(cell.violation.mean, WithinAbs(0.08, 1e-12));
    CHECK_THAT(cell.violation.sd, WithinAbs(0.02, 1e-12));
    CHECK_THAT(cell.testError.standardError(),
               WithinAbs(std::sqrt(0.0013) / std::sqrt(3.0), 1e-12));
    CHECK(cells[1].runs == 1);
    CHECK(cells[1].testError.sd == 0.0);
}

TEST_CASE("Results files: damaged tails are cut, merges deduplicate", "[sweep][results]") {
    const auto dir = std::filesystem::temp_directory_path() / uniqueName("pfa-results-test");
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string a = (dir / "a.jsonl").string(), b = (dir / "b.jsonl").string();
    {
        std::ofstream out(a);
        out << R"({"run_key":"k1","x":1})"
            << "\n"
            << R"({"run_key":"k2","x":2})"
            << "\n"
            << R"({"run_key":"k3","x)";
    }
    const ResultsFileContent content = readResultsFile(a);
    CHECK(content.records.size() == 2);
    CHECK(content.damagedLines == 1);
    CHECK(completedRunKeys(a) == std::set<std::string>{"k1", "k2"});
    CHECK(repairResultsFile(a) > 0);
    {
        ResultsAppender out(a);
        out.append(R"({"run_key":"k3","x":3})");
    }
    CHECK(readResultsFile(a).records.size() == 3);
    CHECK(readResultsFile(a).damagedLines == 0);
    {
        std::ofstream out(b);
        out << R"({"run_key":"k2","x":2})"
            << "\n"
            << R"({"run_key":"k4","x":4})"
            << "\n";
    }
    const MergeReport report = mergeResultsFiles({a, b}, (dir / "m.jsonl").string());
    CHECK(report.written == 4);
    CHECK(report.duplicates == 1);
    CHECK(completedRunKeys((dir / "m.jsonl").string()) ==
          std::set<std::string>{"k1", "k2", "k3", "k4"});
    std::filesystem::remove_all(dir);
}

TEST_CASE("Presets reproduce the published experiments and say where settings come from",
          "[sweep][preset]") {
    const SweepPreset& adult = findSweepPreset("adult-dp");
    CHECK(adult.dataset.name == "adult");
    CHECK(adult.spec.epsilons == std::vector<double>{0.5, 1, 3, 9});
    CHECK(adult.spec.seeds.size() == 15);
    CHECK(adult.spec.base.epochs == 200);
    CHECK(adult.spec.base.batchSize == 1024);
    CHECK(adult.spec.base.lrTheta == 0.005);
    CHECK(adult.spec.base.lrW == 0.01);
    CHECK(adult.spec.base.calibration == Calibration::Published);
    CHECK(adult.source.find("Stochastic Differentially Private and Fair Learning") !=
          std::string::npos);
    CHECK(findSweepPreset("credit-card-eo").spec.notions ==
          std::vector<FairnessNotion>{FairnessNotion::EqualizedOdds});
    CHECK(findSweepPreset("credit-card-eo").spec.epsilons == std::vector<double>{0.5, 1, 3});
    CHECK(findSweepPreset("parkinsons-dp").dataset.name == "parkinsons");
    REQUIRE_THROWS_WITH(findSweepPreset("nope"), Catch::Contains("unknown preset 'nope'"));
    REQUIRE_THROWS_WITH(
        parseSweepPreset("x.json",
                         R"({"name":"x","title":"t","source":"s","dataset":{"name":"adult"},
        "algorithms":["dp-fermi"],"fairness":["dp"],"epsilons":[1],"lambdas":[1],"seeds":[0],"config":{"speed":1}})"),
        Catch::Contains("x.json") && Catch::Contains("unknown setting 'speed'"));
}

TEST_CASE("Certified presets cover every published experiment with a λ grid that spans it",
          "[sweep][preset]") {
    for (const char* name : {"adult-dp-certified", "adult-eo-certified", "credit-card-eo-certified",
                             "parkinsons-dp-certified"}) {
        INFO(name);
        const SweepPreset& preset = findSweepPreset(name);
        CHECK(preset.spec.base.calibration == Calibration::Conservative);
        CHECK(preset.spec.seeds.size() == 15);
        CHECK(preset.spec.lambdas.front() == 0.0);
        CHECK(preset.spec.lambdas.back() >= 64.0);  // reaches the fair end on real data
        CHECK(preset.source.find("not covered by any epsilon") != std::string::npos);
        CHECK(preset.source.find("Measured with this preset") != std::string::npos);
    }
    CHECK(findSweepPreset("adult-dp-certified").source.find("0.187 / 0.0099") != std::string::npos);
    const SweepPreset& credit = findSweepPreset("credit-card-eo-certified");
    CHECK(credit.source.find("0.214 / 0.0045") != std::string::npos);
    CHECK(credit.spec.base.lossClipShare == 0.5);
    CHECK(credit.spec.lambdas.back() >=
          256.0);  // equalized odds on small gaps needs λ in the hundreds
    const SweepPreset& parkinsons = findSweepPreset("parkinsons-dp-certified");
    CHECK(parkinsons.dataset.split.method == SplitMethod::PandasSample);
    CHECK(parkinsons.dataset.split.seed == 100);
    CHECK(findSweepPreset("parkinsons-dp").dataset.split.method == SplitMethod::PandasSample);
}

TEST_CASE("A preset's data set may name its split, pandas' included", "[sweep][preset][split]") {
    const auto preset = [](const std::string& dataset, const std::string& extra = "") {
        return parseSweepPreset(
            "p.json",
            R"({"name":"p","title":"t","source":"s","dataset":)" + dataset + extra +
                R"(,"algorithms":["erm"],"fairness":["dp"],"epsilons":["inf"],"lambdas":[0],"seeds":[0]})");
    };
    const SweepPreset plain = preset(R"({"name":"parkinsons","sensitive":"sex"})");
    CHECK(plain.dataset.split.method == SplitMethod::Seeded);
    CHECK(plain.dataset.split.seed == 0);
    CHECK(plain.dataset.split.testFraction == 0.25);
    const SweepPreset published = preset(
        R"({"name":"parkinsons","sensitive":"sex","split":{"method":"pandas","seed":100,"test_fraction":0.25}})");
    CHECK(published.dataset.split.method == SplitMethod::PandasSample);
    CHECK(published.dataset.split.seed == 100);
    CHECK(datasetKey(published.dataset) == "parkinsons/sex|split=100,0.25,pandas");
    CHECK(preset(R"({"name":"adult","split":{"seed":3}})").dataset.split.seed == 3);
    // The split's one spelling, as on the command line, names the same data set.
    CHECK(
        datasetKey(
            preset(
                R"({"name":"parkinsons","sensitive":"sex","split-method":"pandas","split-seed":100,"test-fraction":0.25})")
                .dataset) == "parkinsons/sex|split=100,0.25,pandas");
    REQUIRE_THROWS_WITH(
        preset(R"({"name":"adult","split":{"method":"sklearn"}})"),
        Catch::Contains("p.json") && Catch::Contains("split-method = sklearn is invalid"));
    REQUIRE_THROWS_WITH(preset(R"({"name":"adult","split":{"random_state":100}})"),
                        Catch::Contains("unknown split key 'random_state'"));
    REQUIRE_THROWS_WITH(preset(R"({"name":"adult","split":{"seed":-1}})"),
                        Catch::Contains("split-seed = -1 is invalid"));
    REQUIRE_THROWS_WITH(preset(R"({"name":"adult","split":{"test_fraction":1}})"),
                        Catch::Contains("test-fraction = 1 is invalid"));
    // A split outside "dataset" (or any misspelt key) is refused, not ignored.
    REQUIRE_THROWS_WITH(preset(R"({"name":"adult"})", R"(,"split":{"method":"pandas"})"),
                        Catch::Contains("unknown preset key 'split'"));
    REQUIRE_THROWS_WITH(preset(R"({"name":"adult","splits":{}})"),
                        Catch::Contains("unknown dataset key 'splits'"));
}

TEST_CASE("A preset's data axes sweep a generator's knobs: one data set per combination",
          "[sweep][preset][data-axes]") {
    const auto preset = [](const std::string& axes) {
        return parseSweepPreset(
            "p.json",
            R"({"name":"p","title":"t","source":"s","dataset":{"name":"synthetic","synthetic":{"rows":2000,"features":4}},"data_axes":)" +
                axes +
                R"(,"algorithms":["erm"],"fairness":["dp"],"epsilons":["inf"],"lambdas":[0],"seeds":[0]})");
    };
    const SweepPreset one = preset(R"({"synthetic.rows":[1000,4000]})");
    REQUIRE(one.dataVariants.size() == 2);
    CHECK(one.dataAxes == std::vector<std::string>{"synthetic.rows"});
    CHECK(one.dataVariants[0].knobs<SyntheticOptions>().rows == 1000);
    CHECK(one.dataVariants[1].knobs<SyntheticOptions>().rows == 4000);
    // The knobs not swept stay as the data set says; the keys differ only in the swept knob.
    CHECK(one.dataVariants[1].knobs<SyntheticOptions>().features == 4);
    CHECK(datasetKey(one.dataVariants[0]) != datasetKey(one.dataVariants[1]));
    CHECK(one.datasets().size() == 2);
    // Two axes: every combination, axes in name order, the first outermost.
    const SweepPreset two =
        preset(R"({"synthetic.rows":[1000,4000],"synthetic.minority":[0.2,0.3,0.4]})");
    REQUIRE(two.dataVariants.size() == 6);
    CHECK(two.dataVariants[0].knobs<SyntheticOptions>().minorityShare == 0.2);
    CHECK(two.dataVariants[0].knobs<SyntheticOptions>().rows == 1000);
    CHECK(two.dataVariants[1].knobs<SyntheticOptions>().rows == 4000);
    // Without data axes: the one data set.
    const SweepPreset none = parseSweepPreset(
        "p.json",
        R"({"name":"p","title":"t","source":"s","dataset":{"name":"synthetic"},"algorithms":["erm"],"fairness":["dp"],"epsilons":["inf"],"lambdas":[0],"seeds":[0]})");
    CHECK(none.dataVariants.empty());
    CHECK(none.datasets().size() == 1);
    // A knob is checked as in the data set itself; malformed axes are refused with a reason.
    REQUIRE_THROWS_WITH(preset(R"({"synthetic.rows":[-5]})"),
                        Catch::Contains("p.json") && Catch::Contains("rows"));
    REQUIRE_THROWS_WITH(preset(R"({"synthetic.colour":[1]})"), Catch::Contains("colour"));
    REQUIRE_THROWS_WITH(preset(R"({"rows":[1000]})"),
                        Catch::Contains("must name a generator knob"));
    // The knobs' one spelling (as on the command line) names the same data sets as the spelling
    // of earlier presets, OBJECT.KNOB.
    const SweepPreset named = preset(R"({"synthetic-rows":[1000,4000]})");
    CHECK(named.dataAxes == std::vector<std::string>{"synthetic-rows"});
    REQUIRE(named.dataVariants.size() == 2);
    CHECK(datasetKey(named.dataVariants[0]) == datasetKey(one.dataVariants[0]));
    CHECK(datasetKey(named.dataVariants[1]) == datasetKey(one.dataVariants[1]));
    const SweepPreset flat = parseSweepPreset(
        "p.json",
        R"({"name":"p","title":"t","source":"s","dataset":{"name":"synthetic","synthetic-rows":2000,"synthetic-features":4},"algorithms":["erm"],"fairness":["dp"],"epsilons":["inf"],"lambdas":[0],"seeds":[0]})");
    CHECK(flat.dataset.knobs<SyntheticOptions>().rows == 2000);
    CHECK(flat.dataset.knobs<SyntheticOptions>().features == 4);
    REQUIRE_THROWS_WITH(preset(R"({"heavy-rows":[1000]})"),
                        Catch::Contains("only goes with the synthetic-heavy-tailed data set"));
    REQUIRE_THROWS_WITH(preset(R"({"synthetic.rows":[]})"), Catch::Contains("no values"));
}

TEST_CASE("Reference points: parsed, and bad rows named", "[sweep][reference]") {
    const auto points = parseReferencePoints(
        "dataset,method,fairness,epsilon,lambda,error,violation,note\n"
        "adult,\"DP-FERMI (paper)\",dp,1,0.5,0.18,0.04,read off Fig. 1\n"
        "adult,Jagielski et al.,dp,inf,,0.20,0.02,\n",
        "ref.csv");
    REQUIRE(points.size() == 2);
    CHECK(points[0].method == "DP-FERMI (paper)");
    CHECK(points[0].lambda == 0.5);
    CHECK(std::isinf(points[1].epsilon));
    CHECK(std::isnan(points[1].lambda));
    CHECK(points[1].line == 3);
    auto fails = [](const std::string& text, const std::string& expected) {
        INFO(expected);
        REQUIRE_THROWS_WITH(parseReferencePoints(text, "ref.csv"), Catch::Contains(expected));
    };
    const std::string header = "dataset,method,fairness,epsilon,lambda,error,violation\n";
    fails("dataset,method,epsilon,lambda,error,violation\n", "no column 'fairness'");
    fails(header + "adult,m,dp,1,0,0.2\n", "ref.csv:2: expected 7 fields, found 6");
    fails(header + "adult,m,dp,1,0,abc,0.1\n", "ref.csv:2 (column 'error'): 'abc' is not a number");
    fails(header + "adult,m,dp,1,0,0.2,0.1\nadult,m,xx,1,0,0.2,0.1\n",
          "ref.csv:3 (column 'fairness')");
    fails(header + "adult,m,dp,1,0,1.5,0.1\n",
          "ref.csv:2 (column 'error'): the error must lie in [0, 1]");
    fails(header + "adult,m,dp,0,0,0.2,0.1\n", "epsilon must be > 0");
    fails("", "empty");
}

TEST_CASE("A cancelled sweep records no cut-short run", "[sweep]") {
    const PreparedDatasetPtr data = test::preparedSynthetic(2000);
    SweepSpec spec;
    spec.datasets = {data->key};
    spec.lambdas = {0, 1};
    spec.seeds = {0, 1, 2};
    spec.base.epochs = 50;
    const auto file =
        (std::filesystem::temp_directory_path() / uniqueName("pfa-cancel-test.jsonl")).string();
    std::filesystem::remove(file);
    CancelToken cancel;
    SweepOptions options;
    options.threads = 2;
    options.outputPath = file;
    options.onRunFinished = [&](const SweepRun&, const RunResult&, const SweepProgress& p) {
        if (p.finished == 2) cancel.cancel();
    };
    const SweepOutcome outcome = runSweep(
        spec, [&](const std::string&) { return data; }, options, cancel);
    CHECK(outcome.cancelled);
    CHECK(outcome.results.size() >= 2);
    CHECK(outcome.results.size() < 6);
    for (const RunResult& r : outcome.results) CHECK(r.status == RunStatus::Completed);
    CHECK(readResultsFile(file).records.size() == outcome.results.size());
    std::filesystem::remove(file);
}

TEST_CASE("A resumed sweep hands over the records of the runs it skips", "[sweep]") {
    const PreparedDatasetPtr data = test::preparedSynthetic(2000);
    SweepSpec spec;
    spec.datasets = {data->key};
    spec.lambdas = {0, 1};
    spec.seeds = {0, 1};
    spec.base.epochs = 5;
    const auto file =
        (std::filesystem::temp_directory_path() / uniqueName("pfa-resume-hook-test.jsonl"))
            .string();
    std::filesystem::remove(file);
    const DatasetProvider provider = [&](const std::string&) { return data; };
    CancelToken never;
    SweepOptions options;
    options.threads = 2;
    options.outputPath = file;
    SweepSpec first = spec;
    first.seeds = {0};
    const SweepOutcome partial = runSweep(first, provider, options, never);
    REQUIRE(partial.results.size() == 2);

    std::map<std::string, double> handedOver;  // run key -> test error of its record
    options.onAlreadyDone = [&](const SweepRun& run, const JsonValue& record) {
        CHECK(record.at("run_key").asString() == run.key);
        handedOver[run.key] = record.at("test_error").asNumber();
    };
    const SweepOutcome rest = runSweep(spec, provider, options, never);
    CHECK(rest.progress.alreadyDone == 2);
    CHECK(rest.results.size() == 2);
    REQUIRE(handedOver.size() == 2);
    for (std::size_t i = 0; i < partial.runs.size(); ++i) {
        REQUIRE(handedOver.count(partial.runs[i].key) == 1);
        CHECK(handedOver[partial.runs[i].key] == partial.results[i].test.error);
    }
    for (const SweepRun& run : rest.runs) CHECK(handedOver.count(run.key) == 0);
    std::filesystem::remove(file);
}

TEST_CASE("Sweep groups only join cells equal in every setting but the varying ones and the seed",
          "[sweep][summary][groups]") {
    // Two seeds of a 50-epoch grid over λ, plus one 200-epoch run at λ = 1 (a run of the
    // panel, not of the sweep): the 200-epoch run is a curve of its own, not a second λ = 1
    // point of the 50-epoch curve.
    std::vector<SweepPoint> points;
    auto add = [&](double lambda, int seed, int epochs) {
        SweepPoint p;
        p.runKey = "dataset=adult|split=0,0.2;algorithm=dp-fermi;epsilon=1;lambda=" +
                   std::to_string(lambda) + ";seed=" + std::to_string(seed) +
                   ";epochs=" + std::to_string(epochs) + ";lr_theta=0.1";
        p.dataset = "adult";
        p.algorithm = "dp-fermi";
        p.epsilon = 1;
        p.lambda = lambda;
        p.testError = 0.2 + 0.01 * seed;
        p.violation = 0.05;
        points.push_back(p);
    };
    for (double lambda : {0.0, 1.0, 2.0}) {
        add(lambda, 0, 50);
        add(lambda, 1, 50);
    }
    add(1.0, 0, 200);
    const std::vector<SweepCell> cells = summarizePoints(points);
    REQUIRE(cells.size() == 4);  // three λ cells of the 50-epoch grid and the 200-epoch run
    CHECK(cells[0].runs == 2);   // two seeds of one setting are one cell
    CHECK(cells[0].testError.n == 2);
    CHECK(cells[3].runs == 1);
    CHECK(cells[3].datasetKey == "adult|split=0,0.2");

    const std::vector<SweepGroup> curves = groupCells(cells, {"lambda"}, {"algorithm", "epsilon"});
    REQUIRE(curves.size() == 2);
    CHECK(curves[0].cells == std::vector<std::size_t>{0, 1, 2});
    CHECK(curves[1].cells == std::vector<std::size_t>{3});
    CHECK(curves[0].distinction == "epochs = 50");
    CHECK(curves[1].distinction == "epochs = 200");

    // A number is named as typed, not in the run key's exact form.
    {
        std::vector<SweepPoint> steps;
        for (const char* step : {"0.050000000000000003", "0.10000000000000001"}) {
            SweepPoint p = points.front();
            p.runKey =
                "dataset=adult|split=0,0.2;algorithm=dp-fermi;epsilon=1;lambda=0;seed=0;"
                "epochs=50;lr_theta=" +
                std::string(step);
            steps.push_back(p);
        }
        const std::vector<SweepGroup> byStep =
            groupCells(summarizePoints(steps), {"lambda"}, {"algorithm", "epsilon"});
        REQUIRE(byStep.size() == 2);
        CHECK(byStep[0].distinction == "lr_theta = 0.05");
        CHECK(byStep[1].distinction == "lr_theta = 0.1");
    }
    // Within one curve, λ is unique: no zig-zag of two λ = 1 points.
    std::set<double> lambdas;
    for (std::size_t c : curves[0].cells) CHECK(lambdas.insert(cells[c].lambda).second);

    // Groups that differ in a named setting need no distinction.
    std::vector<SweepCell> two = {cells[0], cells[1]};
    two[1].cellKey =
        "dataset=adult|split=0,0.2;algorithm=dp-fermi;epsilon=4;lambda=1;epochs=50;lr_theta=0.1";
    const std::vector<SweepGroup> byEpsilon = groupCells(two, {"lambda"}, {"algorithm", "epsilon"});
    REQUIRE(byEpsilon.size() == 2);
    CHECK(byEpsilon[0].distinction.empty());
    CHECK(byEpsilon[1].distinction.empty());
    // Over (ε, λ) the same two cells are one heat map.
    CHECK(groupCells(two, {"epsilon", "lambda"}, {"algorithm"}).size() == 1);

    CHECK(datasetOfRunKey(points[0].runKey) == "adult|split=0,0.2");
    CHECK(datasetOfRunKey("").empty());
    SweepPoint keyless;
    keyless.dataset = "synthetic";
    CHECK(keyless.datasetKey() == "synthetic");
    CHECK(runKeySettings("point 3") ==
          std::vector<std::pair<std::string, std::string>>{{"", "point 3"}});
}

TEST_CASE("A method traced by its own setting keeps its best point per ε, one line over ε",
          "[sweep][summary][groups][curve-best]") {
    // Post-processing over γ (three values, two seeds) at two ε, and DP-FERMI at two λ: γ
    // collapses to the lowest mean test error per ε, λ does not.
    std::vector<SweepPoint> points;
    auto add = [&](const std::string& algorithm, double epsilon, const std::string& setting,
                   double error, int seed) {
        SweepPoint p;
        p.runKey = "dataset=adult|split=0,0.2;algorithm=" + algorithm +
                   ";epsilon=" + realText(epsilon) + ";" + setting +
                   ";seed=" + std::to_string(seed);
        p.dataset = "adult";
        p.algorithm = algorithm;
        p.epsilon = epsilon;
        p.testError = error + 0.001 * seed;
        p.violation = 0.05;
        points.push_back(p);
    };
    for (int seed : {0, 1}) {
        for (double epsilon : {1.0, 4.0}) {
            add("dp-postprocessing", epsilon, "gamma=0.01", 0.30 - 0.01 * epsilon, seed);
            add("dp-postprocessing", epsilon, "gamma=0.050000000000000003",
                epsilon == 1.0 ? 0.21 : 0.25, seed);
            add("dp-postprocessing", epsilon, "gamma=0.2", epsilon == 1.0 ? 0.24 : 0.19, seed);
            add("dp-fermi", epsilon, "lambda=0", 0.2, seed);
            add("dp-fermi", epsilon, "lambda=2", 0.22, seed);
        }
    }
    const std::vector<SweepCell> cells = summarizePoints(points);
    REQUIRE(cells.size() == 10);
    std::vector<CurveBest> chosen;
    std::vector<std::size_t> sources;
    const std::vector<SweepCell> kept = bestPointPerCurve(cells, &chosen, "", &sources);
    REQUIRE(kept.size() == 6);  // one γ cell per ε, every λ cell
    REQUIRE(sources.size() == kept.size());
    for (std::size_t i = 0; i < kept.size(); ++i) CHECK(cells[sources[i]].runs == kept[i].runs);
    REQUIRE(chosen.size() == 2);
    for (const CurveBest& best : chosen) {
        CHECK(best.setting == "gamma");
        CHECK(best.candidates == 3);
        const SweepCell& cell = kept[best.cell];
        CHECK(cell.algorithm == "dp-postprocessing");
        // The lowest mean error: γ = 0.05 at ε = 1 (0.21), γ = 0.2 at ε = 4 (0.19).
        CHECK(best.value == (cell.epsilon == 1.0 ? "0.05" : "0.2"));
        CHECK(cell.testError.mean == Approx(cell.epsilon == 1.0 ? 0.2105 : 0.1905));
        CHECK(cell.cellKey.find("gamma") == std::string::npos);
    }
    // The kept γ cells are one line over ε; DP-FERMI keeps a line per λ.
    const std::vector<SweepGroup> lines = groupCells(kept, {"epsilon"}, {"algorithm"});
    CHECK(lines.size() == 3);
    // Along γ itself nothing collapses.
    CHECK(bestPointPerCurve(cells, nullptr, "gamma").size() == cells.size());
}

TEST_CASE("A choice axis sweeps the algorithms that read it and leaves the others alone",
          "[sweep][axes]") {
    SweepSpec spec;
    spec.algorithms = {"isrl-dp-sgd", "dp-sgd"};
    spec.epsilons = {1.0, 4.0};
    spec.lambdas = {0.0};
    spec.seeds = {0, 1};
    SweepAxis trust;
    trust.parameter = "trust";
    trust.choices = {"central", "isrl", "local"};
    spec.axes = {trust};
    const std::vector<SweepRun> runs = spec.expand();
    std::size_t silo = 0, rows = 0;
    std::set<std::string> keys, trusts;
    for (const SweepRun& run : runs) {
        CHECK(keys.insert(run.key).second);  // no run twice
        if (run.config.algorithm == "isrl-dp-sgd") {
            ++silo;
            trusts.insert(run.config.extra.at("trust"));
            CHECK(run.tuningCandidates == 3);
        } else {
            ++rows;
            CHECK(run.config.extra.count("trust") == 0);
            CHECK(run.tuningCandidates == 1);
        }
    }
    CHECK(silo == 3 * 2 * 2);
    CHECK(rows == 2 * 2);
    CHECK(trusts == std::set<std::string>{"central", "isrl", "local"});
    TrainConfig probe;
    REQUIRE_THROWS_WITH(applySweepParameter(probe, "trust", "nobody"), Catch::Contains("trust"));
}

TEST_CASE("A preset's algorithm_config sets one algorithm's settings and leaves the others alone",
          "[sweep][preset]") {
    const auto preset = [](const std::string& own) {
        return parseSweepPreset(
            "p.json",
            R"({"name":"p","title":"t","source":"s","dataset":{"name":"synthetic"},"algorithms":["erm","dp-sgd"],"fairness":["dp"],"epsilons":[1],"lambdas":[0],"seeds":[0],"config":{"epochs":30,"batch-size":256},"algorithm_config":)" +
                own + "}");
    };
    const SweepPreset p = preset(R"({"dp-sgd":{"epochs":7,"clip-theta":1.5}})");
    SweepSpec spec = p.spec;
    spec.datasets = {"synthetic"};  // the caller names the data sets
    std::vector<SweepRun> runs = spec.expand();
    REQUIRE(runs.size() == 2);
    CHECK(runs[0].config.algorithm == "erm");
    CHECK(runs[0].config.epochs == 30);
    CHECK(runs[1].config.algorithm == "dp-sgd");
    CHECK(runs[1].config.epochs == 7);
    CHECK(runs[1].config.clipTheta == 1.5);
    CHECK(runs[1].config.batchSize == 256);  // the shared config still applies
    CHECK(runs[1].key.find("epochs=7") != std::string::npos);
    // Misspelt settings and algorithms the preset does not run are refused with a reason.
    REQUIRE_THROWS_WITH(preset(R"({"dp-sgd":{"epochz":7}})"), Catch::Contains("epochz"));
    REQUIRE_THROWS_WITH(preset(R"({"fermi":{"epochs":7}})"), Catch::Contains("does not run"));
}

}  // namespace core_sweep_test
