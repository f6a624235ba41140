// Auto-tune (core/sweep/auto_tune.h): the abandon rule, the first surviving step kept, the
// selection by final training loss, the validation split carved from the training rows, and
// the statement that the choice is not covered by any ε, with the composed ε of every trial, and
// the ledger completeness of a tuned sweep (every trial charged, in the store and the file).
#include "core/sweep/auto_tune.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <random>
#include <set>

#include "core/data/silo_splitters.h"
#include "core/privacy/accounting_inputs.h"
#include "core/privacy/ledger_store.h"
#include "core/privacy/rdp_accountant.h"
#include "core/sweep/results_file.h"
#include "core/sweep/run_ledger.h"
#include "core/util/format.h"
#include "core/util/random.h"
#include "test_data.h"

namespace core_auto_tune_test {

using namespace pfa;
using Catch::Matchers::WithinRel;

namespace {

DataSplit regression(int rows, int d, int silos) {
    RandomStream random(8, 21);
    DataSplit split;
    for (Dataset* part : {&split.train, &split.test}) {
        const int n = part == &split.train ? rows * 4 / 5 : rows / 5;
        part->name = "tune-regression";
        part->X.resize(n, d);
        part->target.resize(n);
        for (int i = 0; i < n; ++i) {
            double s = 0.0;
            for (int j = 0; j < d; ++j) {
                part->X(i, j) = random.normal();
                s += part->X(i, j) * 0.4;
            }
            part->target(i) = std::tanh(s) + 0.2 * random.normal();
        }
        part->y = Eigen::VectorXi::Zero(n);
        part->s = Eigen::VectorXi::Zero(n);
        part->groupNames = {"all"};
    }
    SiloOptions options;
    options.silos = silos;
    assignSilos(split, makeSilos(split, options));
    return split;
}

TrainConfig candidate(const std::string& algorithm, double epsilon) {
    TrainConfig c;
    c.algorithm = algorithm;
    c.epsilon = epsilon;
    c.delta = 1e-5;
    c.seed = 2;
    c.lambda = 0.0;
    c.extra["gd-rounds"] = "200";
    c.extra["full-clip"] = "1";
    return c;
}

}  // namespace

TEST_CASE("The abandon rule: NaN, or 5 evaluations in a row above 1.05 x the best", "[auto-tune]") {
    AbandonRule nan(1.05, 5);
    CHECK_FALSE(nan.observe(1.0));
    CHECK(nan.observe(std::nan("")));
    CHECK_THAT(nan.reason(), Catch::Contains("not finite"));

    AbandonRule rising(1.05, 5);
    CHECK_FALSE(rising.observe(1.0));
    for (int k = 0; k < 4; ++k) CHECK_FALSE(rising.observe(1.2));
    CHECK(rising.observe(1.2));  // the fifth in a row
    CHECK_THAT(rising.reason(), Catch::Contains("5 evaluations in a row"));

    // A new best resets the count; so does an evaluation within 1.05 x the best.
    AbandonRule reset(1.05, 5);
    CHECK_FALSE(reset.observe(1.0));
    for (int k = 0; k < 4; ++k) CHECK_FALSE(reset.observe(1.1));
    CHECK_FALSE(reset.observe(0.9));  // new best
    for (int k = 0; k < 4; ++k) CHECK_FALSE(reset.observe(0.95));
    CHECK_FALSE(reset.observe(0.94));  // within 1.05 x 0.9: the row is broken
    for (int k = 0; k < 4; ++k) CHECK_FALSE(reset.observe(0.96));
    CHECK(reset.observe(0.96));
}

TEST_CASE("Auto-tune keeps the first surviving step and chooses by final training loss",
          "[auto-tune]") {
    const DataSplit data = regression(1500, 4, 3);
    AutoTuneOptions options;
    // Without noise and clipping, 64 and 16 diverge on standardised features (|1 − ηλ| > 1).
    options.steps = {64.0, 16.0, 4.0, 1.0, 0.25};
    std::vector<TrainConfig> candidates;
    for (const char* period : {"1", "10"}) {
        TrainConfig c = candidate("diff2", INFINITY);
        c.extra["restart-period"] = period;
        candidates.push_back(c);
    }
    CancelToken cancel;
    std::vector<TuneProgress> reports;
    const AutoTuneOutcome out = autoTune(candidates, data, options, cancel,
                                         [&](const TuneProgress& p) { reports.push_back(p); });
    REQUIRE(out.chosen);
    REQUIRE(reports.size() == out.trials.size());
    // Per candidate: trials in the order of the steps, abandoned until the first survivor, which
    // ends the candidate's trials.
    for (std::size_t c = 0; c < candidates.size(); ++c) {
        std::vector<const TuneTrial*> mine;
        for (const TuneTrial& t : out.trials) {
            if (t.candidate == c) mine.push_back(&t);
        }
        REQUIRE(!mine.empty());
        CHECK(mine.front()->config.extra.at("gd-step") == "64");
        CHECK_FALSE(mine.front()->survived);
        CHECK(mine.back()->survived);
        for (std::size_t k = 0; k + 1 < mine.size(); ++k) CHECK_FALSE(mine[k]->survived);
    }
    // The chosen trial has the smallest final training loss among the survivors.
    for (const TuneTrial& t : out.trials) {
        if (t.survived) CHECK(out.trials[*out.chosen].trainLoss <= t.trainLoss);
    }
    // The final run is the chosen setting on all training rows.
    const RunResult& final = out.final;
    REQUIRE(final.status == RunStatus::Completed);
    CHECK(final.config.extra.at("gd-step") == out.trials[*out.chosen].config.extra.at("gd-step"));
    CHECK(final.config.extra.at("restart-period") ==
          out.trials[*out.chosen].config.extra.at("restart-period"));
}

TEST_CASE(
    "Auto-tune states that its choice is not covered by any epsilon, and what all trials cost",
    "[auto-tune]") {
    const DataSplit data = regression(1500, 4, 3);
    AutoTuneOptions options;
    options.steps = {1.0, 0.25};
    std::vector<TrainConfig> candidates;
    for (const char* clip : {"0.3", "1"}) {
        TrainConfig c = candidate("dp-gd", 4.0);
        c.extra["full-clip"] = clip;
        candidates.push_back(c);
    }
    CancelToken cancel;
    std::vector<TuneTrial> seen;
    options.onTrial = [&](const TuneTrial& trial) { seen.push_back(trial); };
    const AutoTuneOutcome out = autoTune(candidates, data, options, cancel);
    REQUIRE(out.chosen);
    const RunResult& final = out.final;
    REQUIRE(final.status == RunStatus::Completed);
    CHECK(seen.size() == out.trials.size());  // each trial reported as it ended
    CHECK(final.privacy.tuning == "auto-tune");
    CHECK(final.privacy.tuningCandidates == static_cast<int>(out.trials.size()));
    // The choice rests on exact statistics: covered by no ε, not even the composed one (the
    // statement must not say that the ledger's total covers it).
    CHECK_THAT(final.privacy.statement,
               Catch::Contains("exact, not noisy, statistics of the private rows, so the choice is "
                               "NOT covered by any ε") &&
                   Catch::Contains("compose to ε = " + formatNumber(out.composedEpsilon, 4)) &&
                   Catch::Contains("Not protected — read from the private training data: which "
                                   "auto-tune trials ran"));
    CHECK_THAT(final.privacy.statement, !Catch::Contains("only covered by their composed cost"));
    // The composed ε is more than the run's own and at most the plain sum of all the runs' ε.
    double sum = final.privacy.epsilonSpent;
    for (const TuneTrial& t : out.trials) sum += privacy::certifiedEpsilon(t.accounting).epsilon;
    CHECK(out.composedEpsilon > final.privacy.epsilonSpent);
    CHECK(out.composedEpsilon <= sum);
}

TEST_CASE(
    "Ledger completeness: auto-tune charges every trial and the final run, in the store "
    "and in the results file, to the total its statement gives",
    "[auto-tune][ledger]") {
    namespace fs = std::filesystem;
    const fs::path folder = fs::temp_directory_path() /
                            ("pfa_auto_tune_ledger_" + std::to_string(std::random_device{}()));
    fs::create_directories(folder);
    struct Cleanup {
        fs::path path;
        ~Cleanup() {
            std::error_code ignored;
            fs::remove_all(path, ignored);
        }
    } cleanup{folder};

    auto prepared = std::make_shared<PreparedDataset>();
    prepared->key = "tune-regression";
    prepared->split = regression(1500, 4, 3);
    prepared->context.ledgerKey = "tune-regression";
    prepared->context.dataFingerprint = "00112233445566778899aabbccddeeff";
    SweepSpec spec;
    spec.datasets = {"tune-regression"};
    spec.algorithms = {"diff2"};
    spec.epsilons = {4.0};
    spec.lambdas = {0.0};
    spec.seeds = {2};
    spec.base = candidate("diff2", 4.0);
    spec.axes = {SweepAxis{"restart-period", {1.0, 10.0}, {}}};
    AutoTuneOptions tune;
    // Large steps diverge: the first trials of each candidate are abandoned.
    tune.steps = {64.0, 16.0, 4.0, 1.0, 0.25};
    std::vector<TuneTrial> trials;  // straight from the tuner, not through any ledger
    tune.onTrial = [&](const TuneTrial& trial) { trials.push_back(trial); };
    const privacy::LedgerStore store((folder / "ledgers").string());
    SweepOptions options;
    options.threads = 1;
    options.outputPath = (folder / "tuned.jsonl").string();
    options.onCharge = [&](const RunContext& context,
                           const std::vector<privacy::LedgerEntry>& entries) {
        chargeLedgerStore(store, context, entries, "test");
    };
    CancelToken cancel;
    const SweepOutcome outcome = runAutoTuneSweep(
        spec, [&](const std::string&) { return PreparedDatasetPtr(prepared); }, options, tune,
        cancel);
    REQUIRE(outcome.chargeError.empty());
    REQUIRE(outcome.results.size() == 1);
    const RunResult& final = outcome.results.front();
    REQUIRE(final.status == RunStatus::Completed);
    REQUIRE(trials.size() > 2);
    CHECK(std::count_if(trials.begin(), trials.end(),
                        [](const TuneTrial& t) { return t.abandoned; }) > 0);

    // The composition recomputed here from the trials' and the final run's accounting inputs:
    // RDP curves added on the standard grid, converted at the largest δ, plus pure releases.
    const privacy::OrderGrid grid = privacy::OrderGrid::standard();
    privacy::RdpCurve curve = privacy::runCurve(grid, final.privacy.accounting);
    double pure = final.privacy.accounting.pureEpsilon();
    double delta = final.privacy.accounting.delta;
    double naive = final.privacy.epsilonSpent;
    for (const TuneTrial& t : trials) {
        REQUIRE(t.isPrivate);
        CHECK(t.accounting.steps > 0);
        privacy::accumulate(curve, privacy::runCurve(grid, t.accounting));
        pure += t.accounting.pureEpsilon();
        delta = std::max(delta, t.accounting.delta);
        naive += privacy::certifiedEpsilon(t.accounting).epsilon;
    }
    const double composed = privacy::epsilonFromRdp(grid, curve, delta).epsilon + pure;

    // 1. The results file: the record lists every trial, and its ledger charges them all.
    const ResultsFileContent content = readResultsFile(options.outputPath);
    REQUIRE(content.records.size() == 1);
    CHECK(content.records[0].at("tuning_trials").items().size() == trials.size());
    const std::vector<privacy::DatasetLedger> fromFile = ledgersFromRecords(content.records);
    REQUIRE(fromFile.size() == 1);
    CHECK(fromFile[0].entries().size() == trials.size() + 1);
    CHECK_THAT(fromFile[0].totals().epsilon, WithinRel(composed, 1e-12));
    CHECK_THAT(fromFile[0].totals().naiveEpsilon, WithinRel(naive, 1e-12));
    // 2. The persistent ledger of the rows: the same runs, the same total.
    const privacy::StoredLedger stored = store.read("00112233445566778899aabbccddeeff");
    CHECK(stored.ledger.entries().size() == trials.size() + 1);
    CHECK_THAT(stored.ledger.totals().epsilon, WithinRel(composed, 1e-12));
    // 3. The statement gives that total.
    CHECK_THAT(final.privacy.statement,
               Catch::Contains("compose to ε = " + formatNumber(composed, 4)));
    CHECK(composed > final.privacy.epsilonSpent);

    // A second sweep over the same file resumes: nothing runs, nothing more is charged.
    const SweepOutcome again = runAutoTuneSweep(
        spec, [&](const std::string&) { return PreparedDatasetPtr(prepared); }, options, tune,
        cancel);
    CHECK(again.progress.alreadyDone == 1);
    CHECK(store.read("00112233445566778899aabbccddeeff").ledger.entries().size() ==
          trials.size() + 1);

    // When no step survives, nothing is chosen and no final run is made: the trials still ran,
    // so the record lists them and both ledgers charge them.
    trials.clear();
    tune.steps = {1e6};  // diverges at once with restart period 1 (DP-GD)
    spec.axes = {SweepAxis{"restart-period", {1.0}, {}}};
    options.outputPath = (folder / "failed.jsonl").string();
    prepared->context.dataFingerprint = "ffeeddccbbaa99887766554433221100";
    const SweepOutcome failed = runAutoTuneSweep(
        spec, [&](const std::string&) { return PreparedDatasetPtr(prepared); }, options, tune,
        cancel);
    REQUIRE(failed.results.size() == 1);
    CHECK(failed.results.front().status == RunStatus::Failed);
    REQUIRE(trials.size() == 1);
    CHECK(trials[0].abandoned);
    CHECK(trials[0].accounting.steps > 0);
    const std::vector<privacy::DatasetLedger> failedLedger =
        ledgersFromRecords(readResultsFile(options.outputPath).records);
    REQUIRE(failedLedger.size() == 1);
    CHECK(failedLedger[0].entries().size() == 1);
    CHECK(failedLedger[0].totals().epsilon ==
          privacy::certifiedEpsilon(trials[0].accounting).epsilon);
    CHECK(store.read("ffeeddccbbaa99887766554433221100").ledger.entries().size() == 1);
}

TEST_CASE("Auto-tune's validation rows come from the training rows only", "[auto-tune]") {
    const DataSplit data = regression(1000, 3, 4);
    const DataSplit carved = carveValidation(data, 0.2, 5);
    CHECK(carved.train.rows() + carved.test.rows() == data.train.rows());
    CHECK(carved.test.rows() == 160);
    // Every validation row is a training row (the targets are distinct reals).
    std::set<double> trainTargets(data.train.target.data(),
                                  data.train.target.data() + data.train.rows());
    for (Eigen::Index i = 0; i < carved.test.rows(); ++i)
        CHECK(trainTargets.count(carved.test.target(i)) == 1);
    // The silos follow their rows.
    REQUIRE(carved.train.silos);
    CHECK(carved.train.silos->units() == 4);
    CHECK(carved.train.silos->rows() == carved.train.rows());
    CHECK_THROWS_WITH(carveValidation(data, 1.0, 5), Catch::Contains("leaves a part empty"));
}

}  // namespace core_auto_tune_test
