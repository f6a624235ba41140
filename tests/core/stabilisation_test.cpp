// The stabilised private saddle-point method: the group-mass W-stream, split clipping,
// iterate averaging, and tuning grids that pay for their choice.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/algorithms/registry.h"
#include "core/algorithms/saddle/saddle_point_trainer.h"
#include "core/sweep/run_record.h"
#include "core/sweep/sweep_runner.h"
#include "core/sweep/sweep_spec.h"
#include "core/sweep/sweep_summary.h"
#include "core/util/json_value.h"
#include "test_data.h"

namespace core_stabilisation_test {

using namespace pfa;

namespace {

/// A noise-free, clipped, full-batch plan of the conservative kind: every run of it is
/// deterministic whatever its random streams, so two plans can be compared exactly.
TrainerPlan clippedPlan(double lambda, double clip) {
    TrainerPlan plan;
    plan.penalty = lambda > 0;
    plan.lambda = lambda;
    plan.shares = Eigen::Vector2d(0.6, 0.4);
    plan.clipping.enabled = true;
    plan.clipping.clipTheta = clip;
    plan.clipping.clipW = 1e9;  // never binds
    plan.radius = 5.0;
    return plan;
}

TrainConfig fullBatch(const DataSplit& data, int epochs) {
    TrainConfig config = test::quickConfig("fermi", INFINITY, 1.0);
    config.batchSize = static_cast<int>(data.train.rows());
    config.epochs = epochs;
    config.lrTheta = 0.5;
    config.lrW = 0.2;
    return config;
}

/// Runs `plan` with shuffled batches of the config's size (full batches here).
RunResult train(const TrainConfig& config, TrainerPlan plan, const DataSplit& data) {
    plan.sampler = SamplerSpec::overRows(Sampling::Shuffle, static_cast<long>(data.train.rows()),
                                         config.batchSize, config.epochs);
    TrainingObserver observer;
    CancelToken cancel;
    return runSaddlePointTrainer(config, plan, data, observer, cancel);
}

}  // namespace

TEST_CASE("The W-gradient from group masses equals the sum of per-row W-gradients", "[stabilise]") {
    const DataSplit data = test::syntheticSplit(1200);
    const TrainConfig config = fullBatch(data, 5);
    TrainerPlan perRow = clippedPlan(4.0, 1e9);
    TrainerPlan masses = perRow;
    masses.clipping.wFromGroupMasses = true;
    const RunResult a = train(config, perRow, data);
    const RunResult b = train(config, masses, data);
    REQUIRE(a.status == RunStatus::Completed);
    REQUIRE(b.W.size() == a.W.size());
    CHECK((a.W - b.W).cwiseAbs().maxCoeff() < 1e-12);
    CHECK((a.theta - b.theta).cwiseAbs().maxCoeff() < 1e-12);
    CHECK(a.W.cwiseAbs().maxCoeff() > 1e-3);  // the adversary did move
}

TEST_CASE(
    "Split clipping bounds each row's θ-contribution by C_θ and equals joint clipping when "
    "nothing binds",
    "[stabilise]") {
    const DataSplit data = test::syntheticSplit(1200);
    TrainConfig oneStep = fullBatch(data, 1);
    oneStep.lrTheta = 1.0;
    SECTION("nothing binds") {
        TrainerPlan joint = clippedPlan(2.0, 1e6);
        TrainerPlan split = joint;
        split.clipping.lossClipShare = 0.3;
        const RunResult a = train(fullBatch(data, 4), joint, data);
        const RunResult b = train(fullBatch(data, 4), split, data);
        CHECK((a.theta - b.theta).cwiseAbs().maxCoeff() < 1e-12);
    }
    SECTION("a small C_θ binds: the mean step is at most C_θ") {
        for (double share : {0.0, 0.5}) {
            TrainerPlan plan = clippedPlan(50.0, 0.01);
            plan.clipping.lossClipShare = share;
            const RunResult result = train(oneStep, plan, data);
            CHECK(result.theta.norm() <= 0.01 + 1e-12);
            CHECK(result.theta.norm() > 0.001);  // rows were clipped, not zeroed
        }
    }
    SECTION("with a large λ the loss keeps its share of the clipped step") {
        TrainerPlan joint = clippedPlan(1e4, 0.05);
        Eigen::MatrixXd adversary(2, 2);  // W₀ ≠ 0, or the penalty gradient vanishes at step 1
        adversary << 1.2, 0.3, 0.2, 1.5;
        joint.initialW = adversary;
        TrainerPlan split = joint;
        split.clipping.lossClipShare = 0.5;
        const RunResult alone = train(oneStep, clippedPlan(0.0, 0.025), data);  // loss part only
        const RunResult withSplit = train(oneStep, split, data);
        const RunResult withJoint = train(oneStep, joint, data);
        // The loss direction (θ after a loss-only step) survives in the split step.
        const double splitAlong =
            withSplit.theta.cwiseProduct(alone.theta).sum() / alone.theta.norm();
        const double jointAlong =
            withJoint.theta.cwiseProduct(alone.theta).sum() / alone.theta.norm();
        CHECK(splitAlong > jointAlong);
    }
}

TEST_CASE("Polynomial-decay averaging reports 0.2·θ₁ + 0.8·θ₂ after two steps", "[stabilise]") {
    const DataSplit data = test::syntheticSplit(1000);
    TrainerPlan plan = clippedPlan(0.0, 1e9);
    plan.clipping.enabled = false;
    const RunResult one = train(fullBatch(data, 1), plan, data);
    const RunResult two = train(fullBatch(data, 2), plan, data);
    TrainConfig averagedConfig = fullBatch(data, 2);
    averagedConfig.averaging = IterateAveraging::PolynomialDecay;
    const RunResult averaged = train(averagedConfig, plan, data);
    const RowMatrix expected = 0.2 * one.theta + 0.8 * two.theta;
    CHECK((averaged.theta - expected).cwiseAbs().maxCoeff() < 1e-12);
    CHECK((two.theta - one.theta).cwiseAbs().maxCoeff() > 1e-3);
    // The per-epoch metrics describe the reported (averaged) model.
    REQUIRE(averaged.history.size() == 2);
    CHECK(averaged.history.back().testError == averaged.test.error);
}

TEST_CASE("dp-fermi's conservative defaults: group-mass W-stream with sensitivity 1 and averaging",
          "[stabilise][privacy]") {
    const DataSplit data = test::syntheticSplit(2000);
    TrainConfig config = test::quickConfig("dp-fermi", 1.0, 2.0);
    const RunResult result = test::runQuietly(config, data);
    REQUIRE(result.status == RunStatus::Completed);
    REQUIRE(result.config.averaging == IterateAveraging::PolynomialDecay);
    CHECK(result.config.wStream == WStream::GroupMasses);
    const privacy::PrivacyReport& report = result.privacy;
    CHECK(report.clipW == 1.0);
    // σ_W on the batch mean = z_W · 1 / m: the masses' noise is calibrated to sensitivity 1.
    CHECK_THAT(report.sigmaW * result.config.batchSize / report.noiseMultiplierW,
               Catch::Matchers::WithinRel(1.0, 1e-12));
    CHECK_THAT(report.statement, Catch::Contains("post-processing"));
    CHECK_THAT(report.statement, Catch::Contains("per-cell batch sums"));

    SECTION("the clipped-gradient stream keeps C_W") {
        config.wStream = WStream::ClippedGradient;
        const RunResult old = test::runQuietly(config, data);
        CHECK(old.privacy.clipW == Approx(old.config.clipW));
        CHECK(old.privacy.clipW > 10.0);
    }
    SECTION("non-private and published runs keep the last iterate") {
        config.epsilon = INFINITY;
        CHECK(test::runQuietly(config, data).config.averaging == IterateAveraging::None);
    }
}

TEST_CASE("Run records carry the stabilisation settings, old records read as what they ran",
          "[stabilise][record]") {
    const DataSplit data = test::syntheticSplit(1000);
    TrainConfig config = test::quickConfig("dp-fermi", 1.0, 1.0);
    config.lossClipShare = 0.25;
    config.epochs = 2;
    const RunResult result = test::runQuietly(config, data);
    const std::string line = runRecordJson(result, RunContext{});
    const RunResult back = runResultFromJson(parseJson(line));
    CHECK(back.config.lossClipShare == 0.25);
    CHECK(back.config.averaging == IterateAveraging::PolynomialDecay);
    CHECK(back.config.wStream == WStream::GroupMasses);
    CHECK(back.privacy.postProcessing == result.privacy.postProcessing);

    // A record written before these settings existed lacks them.
    std::string old = line;
    for (const char* key :
         {"\"loss-clip-share\":0.25,", "\"averaging\":\"poly\",", "\"w-stream\":\"masses\","}) {
        const auto at = old.find(key);
        REQUIRE(at != std::string::npos);
        old.erase(at, std::string(key).size());
    }
    const RunResult oldBack = runResultFromJson(parseJson(old));
    CHECK(oldBack.config.lossClipShare == 0.0);
    CHECK(oldBack.config.averaging == IterateAveraging::None);
    CHECK(oldBack.config.wStream == WStream::ClippedGradient);
}

TEST_CASE("A split-budget grid gives each of its K candidates ε/K, not-covered says so",
          "[stabilise][tuning]") {
    SweepSpec spec;
    spec.epsilons = {1.0, INFINITY};
    spec.lambdas = {0.0, 1.0, 4.0};
    spec.axes = {{"lr-theta", {0.05, 0.1}, {}}};
    spec.seeds = {0, 1};
    spec.tuning = Tuning::SplitBudget;
    const std::vector<SweepRun> runs = spec.expand();
    REQUIRE(runs.size() == 2 * 2 * 3 * 2);
    for (const SweepRun& run : runs) {
        CHECK(run.tuningCandidates == 6);
        if (std::isfinite(run.gridEpsilon)) {
            CHECK(run.config.epsilon == Approx(1.0 / 6.0));
            CHECK(run.gridEpsilon == 1.0);
        } else {
            CHECK(std::isinf(run.config.epsilon));
        }
    }

    // The statement of a finished candidate names the grid.
    const DataSplit data = test::syntheticSplit(1500);
    SweepRun candidate = runs.front();
    candidate.config.epochs = 2;
    RunResult result = test::runQuietly(candidate.config, data);
    describeTuning(result, candidate);
    CHECK(result.privacy.tuning == "split-budget");
    CHECK_THAT(result.privacy.statement,
               Catch::Contains("6 candidate settings that split the grid's ε = 1"));
    const RunResult back = runResultFromJson(parseJson(runRecordJson(result, RunContext{})));
    CHECK(back.privacy.tuningCandidates == 6);
    CHECK(back.privacy.tuningGridEpsilon == 1.0);
    // Views plot a split-budget grid at the grid's ε, with each run's own (smaller) ε spent.
    const std::vector<SweepCell> cells =
        summarizeRecords({parseJson(runRecordJson(result, RunContext{}))});
    REQUIRE(cells.size() == 1);
    CHECK(cells.front().epsilon == 1.0);
    CHECK(cells.front().epsilonSpent.max <= 1.0 / 6.0 + 1e-9);

    spec.tuning = Tuning::NotCovered;
    SweepRun full = spec.expand().front();
    CHECK(full.config.epsilon == 1.0);
    full.config.epochs = 2;
    RunResult fullResult = test::runQuietly(full.config, data);
    describeTuning(fullResult, full);
    CHECK_THAT(fullResult.privacy.statement, Catch::Contains("Tuning is not covered"));
}

}  // namespace core_stabilisation_test
