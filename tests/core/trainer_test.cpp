// End-to-end behaviour of the algorithms: reproducibility, cancellation, fairness effect,
// privacy accounting, validation messages.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/algorithms/registry.h"
#include "core/algorithms/saddle/saddle_point_trainer.h"
#include "core/util/error.h"
#include "test_data.h"

namespace core_trainer_test {

using namespace pfa;
using Catch::Matchers::WithinAbs;

namespace {

using test::quickConfig;

RunResult run(const TrainConfig& config, const DataSplit& data) {
    return test::runQuietly(config, data);
}

bool identical(const RunResult& a, const RunResult& b) {
    if (a.theta.size() != b.theta.size() || a.history.size() != b.history.size()) return false;
    for (Eigen::Index i = 0; i < a.theta.size(); ++i) {
        if (a.theta.data()[i] != b.theta.data()[i]) return false;  // bit-identical
    }
    for (std::size_t e = 0; e < a.history.size(); ++e) {
        if (a.history[e].trainLoss != b.history[e].trainLoss) return false;
    }
    return a.test.error == b.test.error;
}

}  // namespace

TEST_CASE("Every algorithm is reproducible bit for bit from config and seed", "[trainer]") {
    const DataSplit data = test::syntheticSplit(3000);
    for (const auto& [algorithm, epsilon, lambda] :
         {std::tuple<std::string, double, double>{"erm", INFINITY, 0.0},
          {"fermi", INFINITY, 2.0},
          {"dp-fermi", 1.0, 2.0},
          {"dp-sgd", 1.0, 0.0}}) {
        INFO(algorithm);
        TrainConfig config = quickConfig(algorithm, epsilon, lambda);
        config.seed = 11;
        const RunResult first = run(config, data);
        const RunResult second = run(config, data);
        REQUIRE(first.status == RunStatus::Completed);
        CHECK(identical(first, second));
        config.seed = 12;
        const RunResult other = run(config, data);
        // Non-private ERM with shuffling still depends on the seed through the batch order.
        CHECK_FALSE(identical(first, other));
    }
}

TEST_CASE("Cancellation stops within one minibatch", "[trainer]") {
    const DataSplit data = test::syntheticSplit(3000);
    struct CancelAtStep : TrainingObserver {
        CancelToken* token = nullptr;
        long cancelAt = 0;
        long lastStep = 0;
        bool onStep(const StepInfo& step) override {
            lastStep = step.step;
            if (step.step == cancelAt) token->cancel();  // as the GUI thread would
            return false;
        }
    };
    for (const char* algorithm : {"dp-fermi", "fermi", "dp-sgd", "erm"}) {
        INFO(algorithm);
        const bool fair = std::string(algorithm).find("fermi") != std::string::npos;
        const bool priv = std::string(algorithm).rfind("dp-", 0) == 0;
        TrainConfig config = quickConfig(algorithm, priv ? 1.0 : INFINITY, fair ? 1.0 : 0.0);
        CancelToken cancel;
        CancelAtStep observer;
        observer.token = &cancel;
        observer.cancelAt = 17;  // mid-epoch (9 steps per epoch at n = 2250, m = 256)
        const RunResult result = runAlgorithm(config, data, observer, cancel);
        CHECK(result.status == RunStatus::Cancelled);
        CHECK(result.steps == 17);
        CHECK(observer.lastStep == 17);
        if (priv) {
            // A cancelled private run is charged for the steps it executed.
            CHECK(result.privacy.steps == 17);
            CHECK(result.privacy.epsilonSpent > 0.0);
            CHECK(result.privacy.epsilonSpent < config.epsilon);
        }
    }
}

TEST_CASE("Observer hooks can stop a run", "[trainer]") {
    const DataSplit data = test::syntheticSplit(3000);
    struct StopAfterThreeEpochs : TrainingObserver {
        int epochs = 0;
        bool ended = false;
        bool onEpochEnd(const EpochMetrics&) override { return ++epochs == 3; }
        void onRunEnd(const RunResult&) override { ended = true; }
    } observer;
    CancelToken cancel;
    const RunResult result =
        runAlgorithm(quickConfig("fermi", INFINITY, 1.0), data, observer, cancel);
    CHECK(result.status == RunStatus::Cancelled);
    CHECK(result.history.size() == 3);
    CHECK(observer.ended);
}

TEST_CASE("A step's batch loss is the mean loss of its rows at the model it starts from",
          "[trainer]") {
    // Full batches (one step per epoch, no averaging): step e + 1 starts from the model that
    // epoch e evaluated on the same rows.
    const DataSplit data = test::syntheticSplit(2000);
    for (const std::string algorithm : {"erm", "fermi"}) {
        INFO(algorithm);
        TrainConfig config = quickConfig(algorithm, INFINITY, algorithm == "fermi" ? 2.0 : 0.0);
        config.batchSize = static_cast<int>(data.train.rows());
        config.averaging = IterateAveraging::None;
        config.evaluateEvery = 1;
        config.epochs = 5;
        struct Losses : TrainingObserver {
            std::vector<double> batch;
            bool onStep(const StepInfo& step) override {
                batch.push_back(step.batchLoss);
                return false;
            }
        } observer;
        CancelToken cancel;
        const RunResult result = runAlgorithm(config, data, observer, cancel);
        REQUIRE(observer.batch.size() == 5);
        REQUIRE(result.history.size() == 5);
        CHECK_THAT(observer.batch[0], WithinAbs(std::log(2.0), 1e-12));  // θ = 0: σ = 1/2
        for (std::size_t e = 0; e + 1 < 5; ++e)
            CHECK_THAT(observer.batch[e + 1], WithinAbs(result.history[e].trainLoss, 1e-12));
        CHECK(observer.batch[4] < observer.batch[0] - 0.01);
    }
}

TEST_CASE("FERMI with a large lambda halves the demographic-parity violation",
          "[trainer][fairness]") {
    const DataSplit data = test::syntheticSplit(10000);
    TrainConfig config = quickConfig("fermi", INFINITY, 0.0);
    config.epochs = 100;
    config.batchSize = 512;
    const RunResult unfair = run(config, data);
    config.lambda = 10.0;
    const RunResult fair = run(config, data);
    INFO("lambda 0: DP violation " << unfair.test.dpGap << ", lambda 10: " << fair.test.dpGap);
    REQUIRE(unfair.test.dpGap > 0.15);  // the synthetic data carries real group bias
    CHECK(fair.test.dpGap <= 0.5 * unfair.test.dpGap);
    CHECK(fair.test.ermiDpHard < unfair.test.ermiDpHard);
    CHECK(fair.test.error < 0.35);
}

TEST_CASE("Equalized odds and equal opportunity penalties reduce their violation",
          "[trainer][fairness]") {
    // A stronger historical bias makes the conditional gaps visible at λ = 0.
    const DataSplit data = test::syntheticSplit(10000, 8, 2.0);
    for (FairnessNotion notion :
         {FairnessNotion::EqualizedOdds, FairnessNotion::EqualOpportunity}) {
        INFO(fairnessName(notion));
        TrainConfig config = quickConfig("fermi", INFINITY, 0.0);
        config.fairness = notion;
        config.epochs = 60;
        const RunResult unfair = run(config, data);
        config.lambda = 10.0;
        const RunResult fair = run(config, data);
        REQUIRE(unfair.test.violation(notion) > 0.15);
        CHECK(fair.test.violation(notion) < 0.5 * unfair.test.violation(notion));
        CHECK(fair.W.rows() == (notion == FairnessNotion::EqualizedOdds ? 4 : 2));
    }
}

TEST_CASE("DP-FERMI spends at most its budget, certified by the accountant", "[trainer][privacy]") {
    const DataSplit data = test::syntheticSplit(4000);
    TrainConfig config = quickConfig("dp-fermi", 1.0, 2.0);
    const RunResult result = run(config, data);
    const privacy::PrivacyReport& p = result.privacy;
    REQUIRE(p.isPrivate);
    CHECK(p.epsilonSpent <= 1.0);
    CHECK(p.epsilonSpent > 0.95);  // the solver stops within 1% of the target
    CHECK_THAT(p.epsilonShares, WithinAbs(0.05, 1e-12));
    CHECK_THAT(p.delta, WithinAbs(1.0 / (3000.0 * 3000.0), 1e-18));
    CHECK(p.noiseMultiplier > 0);
    CHECK(p.sigmaTheta > 0);
    CHECK(p.sigmaW > 0);
    // ε grows with every epoch and ends at the reported value.
    for (std::size_t e = 1; e < result.history.size(); ++e) {
        CHECK(result.history[e].epsilonSpent >= result.history[e - 1].epsilonSpent);
    }
    CHECK_THAT(result.history.back().epsilonSpent, WithinAbs(p.epsilonSpent, 1e-12));
    CHECK_THAT(p.statement,
               Catch::Contains("Rényi-DP accountant") && Catch::Contains("add/remove-one") &&
                   Catch::Contains("every column of each training record") &&
                   Catch::Contains("Test rows used for the displayed metrics are not protected"));
    // The default W-stream noises the group masses (sensitivity 1): its noise does not depend
    // on λ (λ multiplies the gradient computed from them). The clipped-gradient stream's noise
    // scales with λ through the clip norm C_W = 2λ(1/√ρ + R).
    config.lambda = 4.0;
    const RunResult doubled = run(config, data);
    CHECK_THAT(doubled.privacy.sigmaW / result.privacy.sigmaW, WithinAbs(1.0, 1e-9));
    config.wStream = WStream::ClippedGradient;
    const RunResult clippedFour = run(config, data);
    config.lambda = 2.0;
    const RunResult clippedTwo = run(config, data);
    CHECK_THAT(clippedFour.privacy.sigmaW / clippedTwo.privacy.sigmaW, WithinAbs(2.0, 1e-9));
}

TEST_CASE("DP-SGD solves its noise from the target epsilon", "[trainer][privacy]") {
    const DataSplit data = test::syntheticSplit(4000);
    const RunResult result = run(quickConfig("dp-sgd", 2.0, 0.0), data);
    CHECK(result.privacy.epsilonSpent <= 2.0);
    CHECK(result.privacy.epsilonSpent > 1.97);
    CHECK(result.privacy.epsilonShares == 0.0);
    CHECK(result.privacy.sigmaW == 0.0);
    const RunResult nonPrivate = run(quickConfig("dp-sgd", INFINITY, 0.0), data);
    CHECK_FALSE(nonPrivate.privacy.isPrivate);
    CHECK(std::isinf(nonPrivate.privacy.epsilonSpent));
}

TEST_CASE("Published calibration reports nominal and certified epsilon", "[trainer][privacy]") {
    const DataSplit data = test::syntheticSplit(4000);
    TrainConfig config = quickConfig("dp-fermi", 1.0, 1.0);
    config.calibration = Calibration::Published;
    config.scope = ProtectionScope::SensitiveOnly;
    config.minGroupShare = 0.25;
    config.epochs = 60;  // T = 720 ≥ n²ε/(4m²) = 35 steps
    const RunResult result = run(config, data);
    const privacy::PrivacyReport& p = result.privacy;
    CHECK(p.knownGaps);
    CHECK(p.epsilonNominal == 1.0);
    // Un-noised loss gradients leave only the linear bound: far above the nominal value.
    CHECK(p.epsilonSpent > 1.0);
    CHECK_FALSE(p.warnings.empty());
    CHECK_THAT(p.statement, Catch::Contains("known accounting gaps") &&
                                Catch::Contains("only the sensitive attribute"));

    config.scope = ProtectionScope::AllFeatures;
    const RunResult allFeatures = run(config, data);
    CHECK(std::isinf(allFeatures.privacy.epsilonSpent));

    config.epochs = 2;  // T = 24 < 35 violates precondition 2
    config.scope = ProtectionScope::SensitiveOnly;
    REQUIRE_THROWS_WITH(run(config, data), Catch::Contains("raise the number of epochs"));
}

TEST_CASE("Invalid configurations name the offending value", "[trainer][validation]") {
    const DataSplit data = test::syntheticSplit(2000);
    auto expectError = [&](TrainConfig config, const std::string& fragment) {
        INFO(fragment);
        REQUIRE_THROWS_WITH(run(config, data), Catch::Contains(fragment));
    };
    TrainConfig base = quickConfig("dp-fermi", 1.0, 1.0);
    TrainConfig c = base;
    c.lambda = -1;
    expectError(c, "lambda = -1 is invalid");
    c = base;
    c.batchSize = 100000;
    expectError(c, "batch-size = 100000 is invalid");
    c = base;
    c.lrTheta = 0;
    expectError(c, "lr-theta = 0 is invalid");
    c = base;
    c.epsilon = -2;
    expectError(c, "epsilon = -2 is invalid");
    c = base;
    c.delta = 1.5;
    expectError(c, "delta = 1.5 is invalid");
    c = base;
    c.minGroupShare = 0.7;
    expectError(c, "min-group-share = 0.7 is invalid");
    c = base;
    c.epochs = 0;
    expectError(c, "epochs = 0 is invalid");
    c = quickConfig("erm", 1.0, 0.0);
    expectError(c, "erm is not differentially private");
    c = quickConfig("dp-sgd", 1.0, 0.5);
    expectError(c, "dp-sgd has no fairness term");
    c = quickConfig("no-such-algorithm", 1.0, 0.5);
    expectError(c, "unknown algorithm 'no-such-algorithm'");
    c = base;
    c.epsilon = 1e-6;  // far too little budget for 20 epochs
    expectError(c, "privacy budget too small");
}

TEST_CASE("A group missing from the training rows is rejected for the penalty",
          "[trainer][validation]") {
    DataSplit data = test::syntheticSplit(2000);
    data.train.groupNames.push_back("C (absent)");
    data.test.groupNames.push_back("C (absent)");
    REQUIRE_THROWS_WITH(run(quickConfig("fermi", INFINITY, 1.0), data),
                        Catch::Contains("group 'C (absent)' has no training rows"));
}

TEST_CASE("A diverging run is reported, not hidden", "[trainer]") {
    const DataSplit data = test::syntheticSplit(2000);
    TrainConfig config = quickConfig("fermi", INFINITY, 1.0);
    config.lrW = 1e3;  // the unprojected ascent step overshoots and grows without bound
    TrainerPlan plan;
    plan.penalty = true;
    plan.lambda = 1.0;
    plan.shares = Eigen::Vector2d(0.65, 0.35);
    plan.sampler = SamplerSpec::overRows(Sampling::Shuffle, static_cast<long>(data.train.rows()),
                                         config.batchSize, config.epochs);
    plan.radius = 0.0;  // no projection
    TrainingObserver observer;
    CancelToken cancel;
    const RunResult result = runSaddlePointTrainer(config, plan, data, observer, cancel);
    CHECK(result.status == RunStatus::Diverged);
    CHECK_THAT(result.message, Catch::Contains("diverged"));
    CHECK(std::isnan(result.test.error));
}

TEST_CASE("Softmax regression trains on a three-class task", "[trainer]") {
    DataSplit data = test::syntheticSplit(3000);
    // Three classes: split "repaid" by income above/below its median.
    for (Dataset* part : {&data.train, &data.test}) {
        part->classNames = {"default", "repaid-low", "repaid-high"};
        for (Eigen::Index i = 0; i < part->rows(); ++i) {
            if (part->y(i) == 1 && part->X(i, 0) > 0) part->y(i) = 2;
        }
    }
    TrainConfig config = quickConfig("fermi", INFINITY, 1.0);
    config.epochs = 30;
    const RunResult result = run(config, data);
    REQUIRE(result.status == RunStatus::Completed);
    CHECK(result.theta.rows() == 3);
    CHECK(result.W.cols() == 3);
    CHECK(result.test.error < 0.45);  // well below the 2/3 of guessing
    CHECK(result.test.groups.size() == 2);
}

}  // namespace core_trainer_test
