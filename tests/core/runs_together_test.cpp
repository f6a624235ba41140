// Runs that read the same data train together without sharing any randomness: ppsgd's runs with
// every user in every round draw each user's samples once for the whole group, and the linear
// runs of DIFF2/DP-GD share each full pass over the rows. Each result must be bit for bit what
// the run gives alone, and a sweep must group them. Linear DP-SGD runs that share batches by
// seed (one sample for all) are here too.
#include <catch2/catch.hpp>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "core/algorithms/registry.h"
#include "core/config/parameters.h"
#include "core/data/builtin_datasets.h"
#include "core/data/linear_gaussian.h"
#include "core/data/personalised.h"
#include "core/data/preprocessing.h"
#include "core/data/silo_splitters.h"
#include "core/generators/dataset_loading.h"
#include "core/privacy/accounting_inputs.h"
#include "core/privacy/noisy_release.h"
#include "core/privacy/rdp_accountant.h"
#include "core/sweep/prepared_dataset.h"
#include "core/sweep/sweep_runner.h"
#include "core/sweep/sweep_spec.h"
#include "core/util/random.h"
#include "test_data.h"

namespace core_runs_together_test {

using namespace pfa;

namespace {

/// Equal, or both NaN (a metric not recorded).
bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

/// Same model, per-evaluation history, final metrics, per-unit read-outs and ε, bit for bit.
void requireIdentical(const RunResult& a, const RunResult& b) {
    REQUIRE(a.status == b.status);
    REQUIRE(a.steps == b.steps);
    REQUIRE(a.theta.size() == b.theta.size());
    for (Eigen::Index i = 0; i < a.theta.size(); ++i)
        REQUIRE(same(a.theta.data()[i], b.theta.data()[i]));
    REQUIRE(a.history.size() == b.history.size());
    for (std::size_t e = 0; e < a.history.size(); ++e) {
        REQUIRE(a.history[e].step == b.history[e].step);
        REQUIRE(same(a.history[e].testError, b.history[e].testError));
        REQUIRE(same(a.history[e].clipFraction, b.history[e].clipFraction));
        REQUIRE(same(a.history[e].epsilonSpent, b.history[e].epsilonSpent));
        REQUIRE(same(a.history[e].trainLoss, b.history[e].trainLoss));
    }
    REQUIRE(same(a.test.error, b.test.error));
    REQUIRE(same(a.regression.testMse, b.regression.testMse));
    REQUIRE(a.units.size() == b.units.size());
    for (std::size_t u = 0; u < a.units.size(); ++u)
        REQUIRE(same(a.units[u].testError, b.units[u].testError));
    REQUIRE(same(a.privacy.epsilonSpent, b.privacy.epsilonSpent));
    REQUIRE(a.privacy.statement == b.privacy.statement);
}

std::vector<RunResult> together(const std::vector<TrainConfig>& configs, const DataSplit& data) {
    std::vector<TrainingObserver> observers(configs.size());
    std::vector<TrainingObserver*> pointers;
    for (TrainingObserver& observer : observers) pointers.push_back(&observer);
    CancelToken cancel;
    return runAlgorithmTogether(configs, data, pointers, cancel);
}

DataSplit personalisedSplit(int users, int features) {
    PersonalisedOptions options;
    options.users = users;
    options.features = features;
    options.heterogeneity = 0.3;
    options.rowsPerUser = 4;
    return splitAndEncode(generatePersonalised(options));
}

TrainConfig ppsgdConfig(double epsilon, double a, double eta, long rounds) {
    TrainConfig c;
    c.algorithm = "ppsgd";
    c.epsilon = epsilon;
    c.delta = 1e-4;
    c.seed = 3;
    c.lambda = 0.0;
    c.extra["personalisation"] = realText(a);
    c.extra["base-step"] = realText(eta);
    c.extra["global-rounds"] = std::to_string(rounds);
    return c;
}

/// y = tanh(⟨a, x⟩) + noise as a regression, or its sign as two classes; 80/20, optional silos.
DataSplit roundsData(int rows, int d, bool classes, int silos) {
    RandomStream random(21, 4);
    DataSplit split;
    for (Dataset* part : {&split.train, &split.test}) {
        const int n = part == &split.train ? rows * 4 / 5 : rows / 5;
        part->name = "rounds-data";
        part->X.resize(n, d);
        part->target.resize(n);
        part->y = Eigen::VectorXi::Zero(n);
        for (int i = 0; i < n; ++i) {
            double s = 0.0;
            for (int j = 0; j < d; ++j) {
                part->X(i, j) = random.normal();
                s += part->X(i, j) * (j % 2 ? -0.5 : 0.7);
            }
            const double t = std::tanh(s) + 0.3 * random.normal();
            part->target(i) = t;
            part->y(i) = t > 0.0 ? 1 : 0;
        }
        part->s = Eigen::VectorXi::Zero(n);
        part->groupNames = {"all"};
        if (classes) {
            part->target.resize(0);
            part->classNames = {"negative", "positive"};
        }
    }
    if (silos > 0) {
        SiloOptions options;
        options.silos = silos;
        assignSilos(split, makeSilos(split, options));
    }
    return split;
}

TrainConfig roundsConfig(const std::string& algorithm, double epsilon, double step, double clip) {
    TrainConfig c;
    c.algorithm = algorithm;
    c.epsilon = epsilon;
    c.delta = 1e-5;
    c.seed = 11;
    c.lambda = 0.0;
    c.extra["gd-rounds"] = "45";
    c.extra["gd-step"] = realText(step);
    c.extra["full-clip"] = realText(clip);
    c.extra["model"] = "linear";
    return c;
}

}  // namespace

TEST_CASE("ppsgd runs trained together equal each run alone, bit for bit", "[ppsgd][together]") {
    for (const bool streaming : {true, false}) {
        DataSplit data = personalisedSplit(40, 6);
        if (!streaming) {
            // Pool: the users' own rows (every row its own user without user ids).
            data.train.personalised.reset();
            data.test.personalised.reset();
        }
        std::vector<TrainConfig> configs = {
            ppsgdConfig(1.0, 1.0, 0.2, 30), ppsgdConfig(4.0, 0.0, 0.05, 30),
            ppsgdConfig(INFINITY, INFINITY, 0.2, 30), ppsgdConfig(2.0, 10.0, 0.7, 12),
            // diverges early (a huge step): it leaves the group, the others go on
            ppsgdConfig(2.0, 1.0, 500.0, 30)};
        configs[1].extra["global-clip"] = "1";
        configs[2].extra["diagnostics"] = "on";
        const std::vector<RunResult> trained = together(configs, data);
        REQUIRE(trained.size() == configs.size());
        for (std::size_t i = 0; i < configs.size(); ++i) {
            INFO((streaming ? "streaming" : "pool") << " run " << i);
            requireIdentical(trained[i], test::runQuietly(configs[i], data));
        }
        CHECK(trained[3].steps == 12);
        CHECK(trained[0].status == RunStatus::Completed);
    }
}

TEST_CASE("ppsgd trains together only runs with every user in every round", "[ppsgd][together]") {
    const DataSplit data = personalisedSplit(40, 6);
    const Algorithm& ppsgd = findAlgorithm("ppsgd");
    const TrainConfig everyone = ppsgdConfig(1.0, 1.0, 0.2, 30);
    TrainConfig sampled = everyone;
    sampled.extra["sampled-users"] = "10";
    TrainConfig allByNumber = everyone;
    allByNumber.extra["sampled-users"] = "40";
    TrainConfig otherSeed = everyone;
    otherSeed.seed = 4;
    const auto key = [&](const TrainConfig& config) {
        return ppsgd.togetherKey(prepareRun(ppsgd, config, data).config(), data.train);
    };
    CHECK(!key(everyone).empty());
    CHECK(key(allByNumber) == key(everyone));
    CHECK(key(sampled).empty());
    CHECK(key(otherSeed) != key(everyone));
    // Runs that cannot share their samples still train correctly when handed over together.
    const std::vector<RunResult> trained = together({everyone, sampled}, data);
    requireIdentical(trained[1], test::runQuietly(sampled, data));
    requireIdentical(trained[0], test::runQuietly(everyone, data));
}

TEST_CASE("Linear DIFF2 and DP-GD runs sharing each pass equal each run alone, bit for bit",
          "[diff2][dp-gd][together]") {
    for (const bool classes : {false, true}) {
        const DataSplit data = roundsData(900, 5, classes, classes ? 0 : 3);
        for (const std::string algorithm : {"diff2", "dp-gd"}) {
            std::vector<TrainConfig> configs = {
                roundsConfig(algorithm, 1.0, 0.5, 0.5), roundsConfig(algorithm, 8.0, 0.2, 2.0),
                roundsConfig(algorithm, INFINITY, 0.5, 0.5),
                roundsConfig(algorithm, 2.0, 1e300, 0.5)};  // diverges
            configs[1].seed = 12;
            configs[2].extra["diagnostics"] = "on";
            if (algorithm == "diff2") {
                configs[0].extra["restart-period"] = "5";
                configs[1].extra["restart-period"] = "3";
                configs[2].extra["restart-period"] = "9";
                configs[3].extra["restart-period"] = "5";
            }
            const std::vector<RunResult> trained = together(configs, data);
            for (std::size_t i = 0; i < configs.size(); ++i) {
                INFO(algorithm << (classes ? " classes" : " regression") << " run " << i);
                requireIdentical(trained[i], test::runQuietly(configs[i], data));
            }
            CHECK(trained[0].status == RunStatus::Completed);
            CHECK(trained[3].status == RunStatus::Diverged);
        }
    }
}

TEST_CASE("A sweep groups runs that read the same data and records what each gives alone",
          "[ppsgd][diff2][together][sweep]") {
    const Algorithm& diff2 = findAlgorithm("diff2");
    const DataSplit data = roundsData(600, 4, false, 0);
    TrainConfig linear = roundsConfig("diff2", 1.0, 0.5, 0.5);
    TrainConfig mlp = linear;
    mlp.extra["model"] = "mlp";
    const auto key = [&](const TrainConfig& config) {
        return diff2.togetherKey(prepareRun(diff2, config, data).config(), data.train);
    };
    CHECK(!key(linear).empty());
    CHECK(key(mlp).empty());  // the MLP trains alone

    const PreparedDatasetPtr prepared = test::preparedSynthetic(1500);
    SweepSpec spec;
    spec.datasets = {prepared->key};
    spec.algorithms = {"dp-gd"};
    spec.epsilons = {0.5, 2.0, INFINITY};
    spec.lambdas = {0};
    spec.seeds = {0, 1};
    spec.base.extra["gd-rounds"] = "25";
    for (const int threads : {1, 2}) {
        SweepOptions options;
        options.threads = threads;
        options.resume = false;
        CancelToken never;
        const SweepOutcome outcome = runSweep(
            spec, [&](const std::string&) { return prepared; }, options, never);
        REQUIRE(outcome.results.size() == 6);
        for (std::size_t i = 0; i < outcome.results.size(); ++i) {
            INFO("threads " << threads << ", run " << outcome.runs[i].key);
            requireIdentical(outcome.results[i],
                             test::runQuietly(outcome.runs[i].config, prepared->split));
        }
    }
}

TEST_CASE("Runs trained together stop at once when cancelled", "[ppsgd][diff2][together]") {
    // Cancelled before the first round: every run of the group reports itself cancelled, with
    // nothing trained, instead of running on.
    CancelToken cancel;
    cancel.cancel();
    const auto check = [&](const std::vector<TrainConfig>& configs, const DataSplit& data) {
        std::vector<TrainingObserver> observers(configs.size());
        std::vector<TrainingObserver*> pointers;
        for (TrainingObserver& observer : observers) pointers.push_back(&observer);
        const std::vector<RunResult> trained =
            runAlgorithmTogether(configs, data, pointers, cancel);
        REQUIRE(trained.size() == configs.size());
        for (const RunResult& result : trained) {
            CHECK(result.status == RunStatus::Cancelled);
            CHECK(result.steps == 0);
        }
    };
    check({ppsgdConfig(1.0, 1.0, 0.2, 30), ppsgdConfig(4.0, 10.0, 0.2, 30)},
          personalisedSplit(40, 6));
    check({roundsConfig("dp-gd", 1.0, 0.5, 0.5), roundsConfig("dp-gd", 4.0, 0.5, 0.5)},
          roundsData(600, 4, true, 0));
}

TEST_CASE("DP post-processing runs sharing a base model equal each run alone",
          "[dp-postprocessing][together]") {
    // The base model is non-private and depends on the common settings only: trained once for
    // runs that differ in ε, γ or the evaluation, then each run's own noisy table and curve.
    const DataSplit data = test::syntheticSplit(3000);
    const Algorithm& algorithm = findAlgorithm("dp-postprocessing");
    const auto config = [](double epsilon, const std::string& gamma) {
        TrainConfig c = test::quickConfig("dp-postprocessing", epsilon, 0.0);
        c.fairness = FairnessNotion::EqualizedOdds;
        c.scope = ProtectionScope::SensitiveOnly;
        c.epochs = 5;
        c.seed = 4;
        c.extra["gamma"] = gamma;
        return c;
    };
    std::vector<TrainConfig> configs = {config(0.5, "0.5"), config(1.0, "0.9"), config(3.0, "0.5")};
    configs[2].extra["evaluation"] = "sampled";
    const auto key = [&](const TrainConfig& c) {
        return algorithm.togetherKey(prepareRun(algorithm, c, data).config(), data.train);
    };
    CHECK(key(configs[0]) == key(configs[1]));
    CHECK(key(configs[0]) == key(configs[2]));
    TrainConfig otherSeed = configs[0];
    otherSeed.seed = 5;
    CHECK(key(otherSeed) != key(configs[0]));

    const std::vector<RunResult> trained = together(configs, data);
    for (std::size_t i = 0; i < configs.size(); ++i) {
        INFO("run " << i);
        const RunResult alone = test::runQuietly(configs[i], data);
        requireIdentical(trained[i], alone);
        REQUIRE(trained[i].curve.size() == alone.curve.size());
        for (std::size_t k = 0; k < alone.curve.size(); ++k)
            REQUIRE(same(trained[i].curve[k].test.error, alone.curve[k].test.error));
        CHECK(trained[i].status == RunStatus::Completed);
    }
    // Each states its own release: the table at its own ε.
    CHECK(trained[0].privacy.epsilonSpent == Approx(0.5));
    CHECK(trained[1].privacy.epsilonSpent == Approx(1.0));
}

TEST_CASE(
    "PF-LD runs sharing batches by seed equal each run alone, bit for bit, and name their "
    "sample",
    "[pf-ld][together][shared-batches]") {
    const DataSplit data = test::syntheticSplit(3000);
    const auto config = [](double epsilon, const std::string& dualStep) {
        TrainConfig c = test::quickConfig("pf-ld", epsilon, 0.0);
        c.batchSharing = BatchSharing::BySeed;
        c.epochs = 4;
        c.batchSize = 256;
        c.evaluateEvery = 2;
        c.extra["dual-step"] = dualStep;
        c.extra["adam-lr"] = "0.05";
        return c;
    };
    std::vector<TrainConfig> configs = {config(0.5, "0.1"), config(2.0, "0.5"),
                                        config(4.0, "0.02")};
    configs[1].averaging = IterateAveraging::PolynomialDecay;
    configs[2].adjacency = privacy::Adjacency::Replace;
    configs[2].extra["diagnostics"] = "off";
    const std::vector<RunResult> trained = together(configs, data);
    for (std::size_t i = 0; i < configs.size(); ++i) {
        INFO("run " << i);
        requireIdentical(trained[i], test::runQuietly(configs[i], data));
        CHECK(trained[i].status == RunStatus::Completed);
        // One sample for all, named alike in every record and in the statement.
        CHECK(!trained[i].privacy.accounting.sharedBatches.empty());
        CHECK(trained[i].privacy.accounting.sharedBatches ==
              trained[0].privacy.accounting.sharedBatches);
        CHECK(trained[i].privacy.statement.find("Batches: shared") != std::string::npos);
    }
    // Own batches (the default) keep their own pass and name no sample.
    TrainConfig own = configs[0];
    own.batchSharing = BatchSharing::Own;
    const RunResult alone = test::runQuietly(own, data);
    CHECK(alone.privacy.accounting.sharedBatches.empty());
    CHECK(alone.privacy.epsilonSpent == Approx(trained[0].privacy.epsilonSpent));
}

TEST_CASE("A PF-LD run on shared batches learns what it learns on its own",
          "[pf-ld][together][shared-batches]") {
    // With almost no noise, by-seed and own batches differ only in their draws: the shared pass
    // must hand every row's clipped gradient to θ (together-equals-alone cannot see a dropped
    // one, since a run alone takes the shared pass too).
    const DataSplit data = test::syntheticSplit(4000);
    TrainConfig own = test::quickConfig("pf-ld", 1000.0, 0.0);
    own.epochs = 12;
    own.batchSize = 256;
    own.extra["adam-lr"] = "0.05";
    own.extra["dual-step"] = "0.2";
    TrainConfig shared = own;
    shared.batchSharing = BatchSharing::BySeed;
    const RunResult a = test::runQuietly(own, data), b = test::runQuietly(shared, data);
    REQUIRE(a.status == RunStatus::Completed);
    REQUIRE(b.status == RunStatus::Completed);
    CHECK(a.test.error < 0.3);
    CHECK(std::abs(a.test.error - b.test.error) < 0.02);
    CHECK((a.theta - b.theta).norm() < 0.25 * a.theta.norm());
}

namespace {

/// What a sweep groups runs by: the algorithm's family and its key for the prepared run.
std::string sweepGroupKey(const TrainConfig& config, const DataSplit& data) {
    const Algorithm& a = findAlgorithm(config.algorithm);
    return a.togetherFamily() + "|" +
           a.togetherKey(prepareRun(a, config, data).config(), data.train);
}

TrainConfig linearConfig(const std::string& algorithm, double epsilon) {
    TrainConfig c;
    c.algorithm = algorithm;
    c.epsilon = epsilon;
    c.delta = 1e-5;
    c.lambda = 0.0;
    c.seed = 4;
    c.epochs = 3;
    c.batchSize = 64;
    c.clipTheta = 1.0;
    c.lrTheta = 0.2;
    c.batchSharing = BatchSharing::BySeed;
    if (algorithm == "semi-dp-sgd") c.extra["public-share"] = "0.1";
    return c;
}

}  // namespace

TEST_CASE("Linear DP-SGD runs sharing batches by seed equal each run alone, bit for bit",
          "[dp-sgd-linear][semi-dp-sgd][together][shared-batches]") {
    const DataSplit data = test::linearSplit(2000, 6);
    for (const std::string algorithm : {"dp-sgd-linear", "semi-dp-sgd"}) {
        std::vector<TrainConfig> configs = {
            linearConfig(algorithm, 0.5), linearConfig(algorithm, 2.0),
            linearConfig(algorithm, 8.0), linearConfig(algorithm, 1.0)};
        configs[1].averaging = IterateAveraging::PolynomialDecay;
        configs[2].adjacency = privacy::Adjacency::Replace;
        configs[2].extra["diagnostics"] = "off";
        configs[3].lrTheta = 1e308;  // dp-sgd-linear diverges
        if (algorithm == "semi-dp-sgd") {
            configs[1].extra["weight-rule"] = "per-run";
            configs[2].extra["public-weight"] = "0";  // reads no private row
            configs.push_back(linearConfig(algorithm, 1.0));
            configs.back().extra["public-use"] = "public-only";  // trains alone
            configs.push_back(linearConfig(algorithm, 1.0));
            configs.back().extra["public-share"] = "0.2";  // other private rows: its own sample
        }
        const std::vector<RunResult> trained = together(configs, data);
        for (std::size_t i = 0; i < configs.size(); ++i) {
            INFO(algorithm << " run " << i);
            requireIdentical(trained[i], test::runQuietly(configs[i], data));
        }
        CHECK(trained[0].status == RunStatus::Completed);
        // (semi-dp-sgd's normalised public gradients keep even this step finite)
        if (algorithm == "dp-sgd-linear") CHECK(trained[3].status == RunStatus::Diverged);
        // One sample for the runs on the same rows, named in every record and statement.
        for (const std::size_t i : {0, 1, 2, 3}) {
            INFO(algorithm << " run " << i);
            CHECK(!trained[i].privacy.accounting.sharedBatches.empty());
            CHECK(trained[i].privacy.accounting.sharedBatches ==
                  trained[0].privacy.accounting.sharedBatches);
            CHECK(trained[i].privacy.statement.find("Batches: shared") != std::string::npos);
        }
        if (algorithm == "semi-dp-sgd") {
            CHECK(trained[4].privacy.accounting.sharedBatches.empty());
            CHECK(trained[5].privacy.accounting.sharedBatches !=
                  trained[0].privacy.accounting.sharedBatches);
            CHECK(trained[5].privacy.accounting.sharedBatches.find("public-share=0.2") !=
                  std::string::npos);
        }
        // The sweep's grouping follows the same rule.
        const Algorithm& a = findAlgorithm(algorithm);
        const auto key = [&](const TrainConfig& config) {
            return a.togetherKey(prepareRun(a, config, data).config(), data.train);
        };
        CHECK(!key(configs[0]).empty());
        CHECK(key(configs[0]) == key(configs[1]));
        TrainConfig own = configs[0];
        own.batchSharing = BatchSharing::Own;
        CHECK(key(own).empty());
        if (algorithm == "semi-dp-sgd") {
            CHECK(key(configs[4]).empty());
            CHECK(key(configs[5]) != key(configs[0]));
        }
        // Own batches (the default) name no sample; the run's own ε is the same either way.
        const RunResult alone = test::runQuietly(own, data);
        CHECK(alone.privacy.accounting.sharedBatches.empty());
        CHECK(alone.privacy.epsilonSpent == Approx(trained[0].privacy.epsilonSpent));
    }
}

TEST_CASE("dp-sgd-linear and semi-dp-sgd without public rows train together on one sample",
          "[dp-sgd-linear][semi-dp-sgd][together][shared-batches]") {
    // semi-dp-sgd with public share 0 takes dp-sgd-linear's step on every row: with batches
    // shared by seed the two algorithms draw one Poisson sample and a sweep trains them in one
    // pass over each batch, each run bit for bit as alone; the ledger charges them as one
    // mechanism (same rate, same kind), which it can certify.
    const DataSplit data = test::linearSplit(2000, 6);
    std::vector<TrainConfig> configs = {
        linearConfig("dp-sgd-linear", 1.0), linearConfig("semi-dp-sgd", 1.0),
        linearConfig("semi-dp-sgd", 2.0), linearConfig("semi-dp-sgd", 1.0)};
    configs[1].extra["public-share"] = "0";
    configs[2].extra["public-share"] = "0";
    configs[2].extra["weight-rule"] = "per-step";
    const std::vector<RunResult> trained = together({configs[0], configs[1], configs[2]}, data);
    for (std::size_t i = 0; i < 3; ++i) {
        INFO("run " << i);
        requireIdentical(trained[i], test::runQuietly(configs[i], data));
        REQUIRE(trained[i].status == RunStatus::Completed);
        CHECK(!trained[i].privacy.accounting.sharedBatches.empty());
        CHECK(trained[i].privacy.accounting.sharedBatches ==
              trained[0].privacy.accounting.sharedBatches);
    }
    // The same key and family, so a sweep groups them; with public rows, another sample.
    const auto key = [&](const TrainConfig& config) { return sweepGroupKey(config, data); };
    CHECK(key(configs[0]) == key(configs[1]));
    CHECK(key(configs[0]) == key(configs[2]));
    CHECK(key(configs[3]) != key(configs[0]));
    // One mechanism the ledger can certify: finite, and above each run's own ε.
    std::vector<privacy::AccountingInputs> inputs;
    for (std::size_t i = 0; i < 3; ++i) inputs.push_back(trained[i].privacy.accounting);
    const privacy::OrderGrid grid = privacy::orderGridNamed(inputs[0].grid);
    const double joint =
        privacy::epsilonFromRdp(grid, privacy::sharedBatchesCurve(grid, inputs), inputs[0].delta)
            .epsilon;
    CHECK(std::isfinite(joint));
    CHECK(joint > trained[2].privacy.epsilonSpent);
    // Runs of another family are not trained with them.
    CHECK(findAlgorithm("dp-sgd").togetherFamily() !=
          findAlgorithm("dp-sgd-linear").togetherFamily());
}

TEST_CASE("Linear DP-SGD runs at every public share train together on one nested sample",
          "[dp-sgd-linear][semi-dp-sgd][together][shared-batches]") {
    // shared-sample nested: dp-sgd-linear and semi-dp-sgd at public shares 0, 0.05 and 0.3
    // (other private rows, other rates, other step counts, other public batches) draw one
    // nested sample of every training row; a sweep trains them in one pass over it, each bit
    // for bit as alone. Each run's own ε is that of its own rate; the ledger charges them as
    // one mechanism at the highest rate, above each run and finite.
    const DataSplit data = test::linearSplit(2000, 6);
    const auto nested = [](TrainConfig c) {
        c.extra["shared-sample"] = "nested";
        return c;
    };
    std::vector<TrainConfig> configs = {
        nested(linearConfig("dp-sgd-linear", 1.0)), nested(linearConfig("semi-dp-sgd", 1.0)),
        nested(linearConfig("semi-dp-sgd", 2.0)),   nested(linearConfig("semi-dp-sgd", 1.0)),
        nested(linearConfig("semi-dp-sgd", 1.0)),   nested(linearConfig("semi-dp-sgd", 1.0))};
    configs[1].extra["public-share"] = "0";
    configs[2].extra["public-share"] = "0.05";
    configs[2].extra["weight-rule"] = "per-run";
    configs[3].extra["public-share"] = "0.3";
    configs[3].extra["public-batch"] = "32";
    configs[4].extra["public-share"] = "0.3";
    configs[4].extra["public-weight"] = "0";  // reads no private row
    configs[5].extra["public-share"] = "0.05";
    configs[5].extra["public-use"] = "public-only";  // trains alone
    const std::vector<RunResult> trained = together(configs, data);
    for (std::size_t i = 0; i < configs.size(); ++i) {
        INFO("run " << i);
        requireIdentical(trained[i], test::runQuietly(configs[i], data));
        REQUIRE(trained[i].status == RunStatus::Completed);
    }
    // One nested sample named alike by the runs that draw it; each run's own rate and ε.
    std::vector<privacy::AccountingInputs> inputs;
    for (const std::size_t i : {0, 1, 2, 3, 4}) {
        INFO("run " << i);
        const privacy::AccountingInputs& in = trained[i].privacy.accounting;
        CHECK(in.nestedSample);
        CHECK(in.sharedBatches == trained[0].privacy.accounting.sharedBatches);
        CHECK(in.sharedBatches.find("nested sample of every training row") != std::string::npos);
        CHECK(trained[i].privacy.statement.find("nested") != std::string::npos);
        inputs.push_back(in);
    }
    CHECK(trained[5].privacy.accounting.sharedBatches.empty());
    CHECK(inputs[3].samplingRate > inputs[0].samplingRate);
    CHECK(inputs[3].steps < inputs[0].steps);
    // Per population, the run at share 0.3 draws another sample: the same ε, other batches.
    TrainConfig perPopulation = configs[3];
    perPopulation.extra["shared-sample"] = "per-population";
    const RunResult own = test::runQuietly(perPopulation, data);
    CHECK(own.privacy.epsilonSpent == trained[3].privacy.epsilonSpent);
    CHECK(own.privacy.accounting.samplingRate == inputs[3].samplingRate);
    CHECK(!own.privacy.accounting.nestedSample);
    CHECK(own.theta != trained[3].theta);
    // The sweep's grouping: one key for the runs on the sample, none for public rows only.
    const auto key = [&](const TrainConfig& config) { return sweepGroupKey(config, data); };
    for (const std::size_t i : {1, 2, 3, 4}) CHECK(key(configs[i]) == key(configs[0]));
    CHECK(key(configs[5]).find("nested") == std::string::npos);
    CHECK(key(perPopulation) != key(configs[0]));
    // The key of a run names shared-sample only when nested (earlier runs keep their keys).
    CHECK(settingsKey(prepareRun(findAlgorithm("semi-dp-sgd"), perPopulation, data).config())
              .find("shared-sample") == std::string::npos);
    CHECK(settingsKey(prepareRun(findAlgorithm("semi-dp-sgd"), configs[3], data).config())
              .find("shared-sample=nested") != std::string::npos);
    // One mechanism the ledger can certify: finite, above each run's own ε.
    const privacy::OrderGrid grid = privacy::orderGridNamed(inputs[0].grid);
    const double joint =
        privacy::epsilonFromRdp(grid, privacy::sharedBatchesCurve(grid, inputs), inputs[0].delta)
            .epsilon;
    CHECK(std::isfinite(joint));
    for (const std::size_t i : {0, 1, 2, 3}) CHECK(joint > trained[i].privacy.epsilonSpent);
    // Under a release tap (the neighbour tests) each run's batch is shown to the tap as a sample
    // of its private rows at its own rate and read for the run alone: the same bits.
    struct Watcher : privacy::ReleaseTap {
        std::set<double> rates;
        bool onRelease(const privacy::ReleaseSpec&, Eigen::Ref<Eigen::VectorXd>) override {
            return true;
        }
        void onBatch(const privacy::BatchDraw& draw, std::vector<long>&, long&) override {
            if (std::string(draw.sampler) == "private-rows") rates.insert(draw.rate);
        }
    } watcher;
    {
        const privacy::ScopedReleaseTap scope(watcher);
        requireIdentical(test::runQuietly(configs[3], data), trained[3]);
    }
    CHECK(watcher.rates == std::set<double>{inputs[3].samplingRate});
    // Replace-one has no joint bound for a nested sample: refused.
    TrainConfig replace = configs[2];
    replace.adjacency = privacy::Adjacency::Replace;
    CHECK_THROWS_WITH(test::runQuietly(replace, data), Catch::Contains("add/remove"));
}

TEST_CASE(
    "Runs with single-precision scores on one nested sample equal each run alone, bit for bit",
    "[dp-sgd-linear][semi-dp-sgd][together][shared-batches]") {
    // row-precision single-scores: the group reads each chunk's rows as stored for every run
    // (no block of double rows), the public batches too; each run bit for bit as alone, also
    // beside a run with double scores in the same sweep item (trained as a group of its own).
    const DataSplit data = test::linearSplit(2000, 6);
    const auto scores = [](TrainConfig c) {
        c.extra["shared-sample"] = "nested";
        c.extra["row-precision"] = "single-scores";
        return c;
    };
    std::vector<TrainConfig> configs = {
        scores(linearConfig("dp-sgd-linear", 1.0)), scores(linearConfig("semi-dp-sgd", 1.0)),
        scores(linearConfig("semi-dp-sgd", 2.0)), scores(linearConfig("semi-dp-sgd", 1.0)),
        scores(linearConfig("semi-dp-sgd", 1.0))};
    configs[1].extra["public-share"] = "0";
    configs[2].extra["public-share"] = "0.05";
    configs[2].extra["weight-rule"] = "per-run";
    configs[3].extra["public-share"] = "0.3";
    configs[4].extra["public-share"] = "0.3";
    configs[4].extra["row-precision"] = "single";  // double scores
    const std::vector<RunResult> trained = together(configs, data);
    for (std::size_t i = 0; i < configs.size(); ++i) {
        INFO("run " << i);
        requireIdentical(trained[i], test::runQuietly(configs[i], data));
        REQUIRE(trained[i].status == RunStatus::Completed);
        CHECK(trained[i].privacy.accounting.nestedSample);
    }
    // The same run with double scores: other bits (the setting does something), same ε.
    CHECK(trained[4].theta != trained[3].theta);
    CHECK(trained[4].privacy.epsilonSpent == trained[3].privacy.epsilonSpent);
    // One sweep item for all of them.
    const auto key = [&](const TrainConfig& config) { return sweepGroupKey(config, data); };
    for (const std::size_t i : {1, 2, 3, 4}) CHECK(key(configs[i]) == key(configs[0]));
}

TEST_CASE("A linear DP-SGD run on shared batches learns what it learns on its own",
          "[dp-sgd-linear][semi-dp-sgd][together][shared-batches]") {
    // With almost no noise, by-seed and own batches differ only in their draws: the shared pass
    // must hand every row's clipped gradient (and every public row's) to the model. Checked
    // early, where the model is still the sum of its steps (a converged model would hide a
    // gradient of half its size), and at the end.
    const DataSplit data = test::linearSplit(4000, 6);
    for (const std::string algorithm : {"dp-sgd-linear", "semi-dp-sgd"}) {
        TrainConfig own = linearConfig(algorithm, 1000.0);
        own.batchSharing = BatchSharing::Own;
        own.clipTheta = 20.0;
        own.extra["warm-start"] = "none";
        if (algorithm == "dp-sgd-linear") own.extra.erase("warm-start");
        for (const int epochs : {1, 6}) {
            INFO(algorithm << ", " << epochs << " epoch(s)");
            own.epochs = epochs;
            own.lrTheta = epochs == 1 ? 0.002 : 0.05;
            TrainConfig shared = own;
            shared.batchSharing = BatchSharing::BySeed;
            const RunResult a = test::runQuietly(own, data), b = test::runQuietly(shared, data);
            REQUIRE(a.status == RunStatus::Completed);
            REQUIRE(b.status == RunStatus::Completed);
            // From the zero model: θ is the sum of the steps.
            CHECK((a.theta - b.theta).norm() < 0.1 * a.theta.norm());
            if (epochs == 1) continue;
            // The best possible test MSE is 0.25 (noise 0.5²).
            CHECK(a.regression.testMse < 0.3);
            CHECK(std::abs(a.regression.testMse - b.regression.testMse) < 0.02);
        }
    }
}

}  // namespace core_runs_together_test
