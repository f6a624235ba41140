// dp-reductions: "DP reductions (simplified)" — fair classification by a game between a
// cost-sensitive learner and an auditor of the fairness constraints ("Differentially Private
// Fair Learning", built on "A Reductions Approach to Fair Classification"). Simplified: the
// learner is noisy least squares on the signed costs (the sources' code does this; the paper's
// exponential mechanism over a finite class takes exponential time), the auditor plays
// exponentiated gradient on noisy cell sums, and the output is the uniform mixture of all T
// plays (no best-iterate or LP step, which would read exact training statistics). Protects
// one record's sensitive attribute (features and labels public); two groups; demographic
// parity or equalized odds. Per round two full-batch Gaussian releases at a common multiplier
// z solved by the RDP accountant; the cell counts by Laplace, charged by basic composition.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "core/algorithms/reductions/reductions_game.h"
#include "core/config/algorithm.h"
#include "core/config/config_validation.h"
#include "core/config/own_setting.h"
#include "core/engine/laplace_mechanism.h"
#include "core/engine/private_run_report.h"
#include "core/engine/randomised_evaluation.h"
#include "core/engine/run_session.h"
#include "core/engine/run_streams.h"
#include "core/fairness/fairness_metrics.h"
#include "core/privacy/accounting_inputs.h"
#include "core/privacy/run_accountant.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

namespace {

// The own settings this file reads (checked against the declarations at start).
const OwnNumber kAuditorStep{"auditor-step"};
const OwnNumber kBound{"bound"};
const OwnChoice kEvaluation{"evaluation"};
const OwnNumber kGameRounds{"game-rounds"};
const OwnChoice kLearnerNoise{"learner-noise"};
const OwnChoice kMixture{"mixture"};
const OwnChoice kStepRule{"step-rule"};
const OwnNumber kRoundsBeta{"rounds-beta"};
const OwnNumber kTolerance{"tolerance"};

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
/// The seeded Bernoulli draws of the "sampled" evaluation (test rows, not a privacy stream).
constexpr std::uint64_t kEvaluationStream = 0x4556414c53414d50ULL;  // "EVALSAMP"

std::vector<ParamSpec> ownSettings() {
    return {
        declare("tolerance", "Tolerance c", ParamKind::Real,
                "allowed violation of each fairness constraint (|group rate − parent rate| ≤ c); "
                "smaller asks for fairer, B = 1/c by default")
            .defaultValue("0.05")
            .above(0.0)
            .atMost(1.0)
            .sweepable(),
        declare("bound", "Multiplier bound B", ParamKind::Real,
                "the auditor's multipliers λ sum to at most B; the learner's noise grows with B")
            .defaultValue("0")
            .above(0.0)
            .automatic("0", "1/c")
            .sweepable()
            .advanced(),
        declare("game-rounds", "Rounds T", ParamKind::Integer,
                "rounds of the learner–auditor game; the output mixes all T classifiers. "
                "Automatic is the sources' formula, which gives T = 1 (no fairness correction) "
                "on Adult at ε = 1: set more rounds to let the auditor act (each round costs "
                "privacy)")
            .defaultValue("0")
            .atLeast(1)
            .atMost(100000)
            .unit("rounds")
            .automatic("0",
                       "private: ⌊B√ln5·n·ε / (2(4B+1)·√ln(1/δ)·((d+1)·ln n + "
                       "ln(2/β)))⌋, at least 1; not private: " +
                           std::to_string(reductions::kNonPrivateRounds))
            .sweepable(),
        declare("auditor-step", "Auditor step η", ParamKind::Real,
                "step of the auditor's exponentiated-gradient update θ ← θ + η·(γ̃ − c)")
            .defaultValue("0")
            .above(0.0)
            .automatic("0", "by the step rule: 2/B (Fairlearn's) or 0.5·√(ln 5 / T)/B")
            .sweepable()
            .advanced(),
        // Records written before the setting existed used the reference step.
        declare("step-rule", "Automatic step", ParamKind::Choice,
                "the auditor's step η when it is automatic")
            .choices({
                {"fairlearn", "2/B (Fairlearn)",
                 "η = 2/B, Fairlearn's default step of the exponentiated-gradient reduction"},
                {"reference", "0.5·√(ln 5/T)/B (sources)",
                 "the step of the method's reference code; small: over few rounds the "
                 "multipliers hardly move"},
            })
            .defaultValue("fairlearn")
            .formerDefault("reference")
            .advanced(),
        declare("rounds-beta", "Rounds formula β", ParamKind::Real,
                "failure probability β in the automatic rounds formula (read only there)")
            .defaultValue("0.01")
            .above(0.0)
            .atMost(1.0, true)
            .advanced(),
        // Records written before the setting existed ran with the worst case.
        declare("learner-noise", "Learner noise", ParamKind::Choice,
                "how the learner's statistic X̃ᵀr is noised in a private game (the same ε)")
            .choices({
                {"per-round", "Per round",
                 "noise z·Δ_t with Δ_t from the round's public multipliers: none in round 1, "
                 "where the weights do not read the sensitive attribute"},
                {"worst-case", "Worst case",
                 "noise z·X₂·B/p̃_min in every round (earlier versions: with one round, as "
                 "the sources' formula gives on Adult at ε ≤ 1, the classifier was noise)"},
            })
            .defaultValue("per-round")
            .formerDefault("worst-case")
            .advanced(),
        // Records written before the setting existed output the uniform mixture.
        declare("mixture", "Output mixture", ParamKind::Choice,
                "which mixture of the T classifiers is the output")
            .choices({
                {"best", "Best of the plays",
                 "the mixture with the least training error whose released violations meet "
                 "the tolerance (a linear program, as Fairlearn's; it reads only public "
                 "errors and released violations, so it costs no privacy)"},
                {"uniform", "Uniform",
                 "every round's classifier with weight 1/T (the theory's output)"},
            })
            .defaultValue("best")
            .formerDefault("uniform")
            .advanced(),
        randomisedEvaluationParameter()};
}

class DpReductions final : public Algorithm {
public:
    std::string name() const override { return "dp-reductions"; }
    std::string description() const override {
        return "DP reductions (simplified): a learner–auditor game for demographic parity or "
               "equalized odds, private for the sensitive attribute. Simplified: a noisy "
               "least-squares learner instead of the exponential mechanism, and the uniform "
               "mixture of all rounds as the output.";
    }
    AlgorithmCapabilities capabilities() const override {
        return {.privacy = true,
                .curveSetting = "tolerance",
                .progressUnit = "round",
                .progressSetting = "game-rounds"};
    }
    std::vector<ParamSpec> parameters() const override {
        return commonParameters({"fairness", "epsilon", "delta", "seed", "scope", "secure-noise",
                                 "advantaged-class", "evaluate-every"},
                                ownSettings());
    }

    void validate(const TrainConfig& config, const DataSplit& data) const override {
        requireNoFairness(config);
        if (config.isPrivate() && config.scope != ProtectionScope::SensitiveOnly) {
            throw InputError(
                "scope = all-features is not supported by dp-reductions: it protects only the "
                "sensitive attribute (its learner uses the features and labels exactly, as the "
                "method's sources do); use scope = sensitive-only");
        }
        const Dataset& train = data.train;
        reductions::Cells cells(config.fairness, train.numGroups(), train.numClasses());
        // Private runs never refuse on exact counts (a refusal would tell about them): their
        // noisy cell counts are floored at 10, so an empty cell is harmless.
        if (!config.isPrivate()) requirePenaltyCellsPresent(config, train);
        if (config.isPrivate()) {
            const long T = static_cast<long>(kGameRounds(config));
            const double target = (1.0 - reductions::kCountShare) * config.epsilon;
            reductions::solveMultiplier(T, target, config.delta);  // throws when impossible
        }
    }

    TrainConfig resolve(const TrainConfig& requested, const DataSplit& data) const override {
        TrainConfig c = resolveDefaults(requested, data);
        const double tolerance = kTolerance(c);
        double bound = kBound(c);
        if (bound == 0.0) bound = 1.0 / tolerance;
        c.extra["bound"] = realText(bound);
        long rounds = static_cast<long>(kGameRounds(c));
        if (rounds == 0) {
            rounds = c.isPrivate()
                         ? reductions::referenceRounds(bound, static_cast<long>(data.train.rows()),
                                                       static_cast<long>(data.train.features()),
                                                       c.epsilon, c.delta, kRoundsBeta(c))
                         : reductions::kNonPrivateRounds;
            rounds = std::min(rounds, 100000L);
        }
        c.extra["game-rounds"] = std::to_string(rounds);
        if (kAuditorStep(c) == 0.0) {
            c.extra["auditor-step"] =
                realText(kStepRule(c) == "fairlearn" ? reductions::kFairlearnStep / bound
                                                     : reductions::referenceStep(rounds, bound));
        }
        return c;
    }

    /// A triangle like DP-SGD: the two are never compared on one plot (DP-SGD has no fairness
    /// term).
    AlgorithmPresentation presentation() const override {
        return {.marker = ChartMarker::Triangle};
    }

    RunResult run(const PreparedConfig& prepared, const DataSplit& data, TrainingObserver& observer,
                  const CancelToken& cancel) const override;

private:
    /// What a private game's report states: its calibration, the two releases per round and
    /// their sensitivities, the counts' Laplace release and what is protected.
    void describeRun(RunResult& result, const privacy::RunAccountant& accountant,
                     const reductions::Noise& noise, const reductions::GameSettings& game,
                     const reductions::Shares& shares, double rowNorm, double epsilonCounts,
                     const reductions::Cells& cells, const Dataset& train,
                     double largestLearnerStd) const;
};

/// The test metrics of the mixture whose probability of predicting class 1 is `probOne`.
FairnessMetrics mixtureMetrics(const Eigen::VectorXd& probOne, const Dataset& test,
                               const TrainConfig& config, bool sampled) {
    if (!sampled) {
        return evaluateFairnessInExpectation(probOne, test.y, test.s, test.groupNames,
                                             config.advantagedClass);
    }
    // One Bernoulli draw per test row from a stream of the seed alone: the same mixture on
    // the same test rows is always scored the same way.
    RandomStream draw(config.seed, kEvaluationStream);
    Eigen::VectorXi predicted(test.rows());
    RowMatrix F(test.rows(), 2);  // the soft ERMI reads the mixture's probabilities
    F.col(0) = Eigen::VectorXd::Ones(test.rows()) - probOne;
    F.col(1) = probOne;
    for (Eigen::Index i = 0; i < test.rows(); ++i)
        predicted(i) = draw.uniformOpen() < probOne(i) ? 1 : 0;
    return evaluateFairness(predicted, F, test.y, test.s, test.groupNames, test.numClasses(),
                            config.advantagedClass);
}

RunResult DpReductions::run(const PreparedConfig& prepared, const DataSplit& data,
                            TrainingObserver& observer, const CancelToken& cancel) const {
    const TrainConfig& config = prepared.config();
    const Dataset& train = data.train;
    const Dataset& test = data.test;
    const bool isPrivate = config.isPrivate();
    const bool sampled = kEvaluation(config) == "sampled";
    const reductions::Cells cells(config.fairness, train.numGroups(), train.numClasses());
    const double n = static_cast<double>(train.rows());

    reductions::GameSettings game;
    game.rounds = static_cast<long>(kGameRounds(config));
    game.tolerance = kTolerance(config);
    game.bound = kBound(config);
    game.step = kAuditorStep(config);

    // The designs and the learner's factor, computed once for the runs on these rows.
    const auto shared = reductions::reductionsData(train, test);
    const Eigen::MatrixXd& design = shared->design;
    const Eigen::MatrixXd& testDesign = shared->testDesign;
    const RunStreams streams(config, train);

    // Shares: label shares are public (labels are); cell shares are privatised in a private
    // run (Laplace counts floored at 10) and exact otherwise.
    reductions::Shares shares;
    const Eigen::VectorXd counts = cells.counts(train.y, train.s);
    shares.label = Eigen::VectorXd::Zero(2);
    for (Eigen::Index i = 0; i < train.y.size(); ++i) shares.label(train.y(i)) += 1.0 / n;
    const double epsilonCounts = isPrivate ? reductions::kCountShare * config.epsilon : 0.0;
    reductions::Noise noise;
    double rowNorm = 0.0;
    std::optional<LaplaceMechanism> countNoise;
    if (isPrivate) {
        // ℓ1 sensitivity 2: a changed sensitive attribute moves a record between two cells.
        countNoise.emplace(2.0, epsilonCounts, "cell");
        Eigen::VectorXd noisy = counts;
        RandomStream countStream = streams.stream(streams::kShares);
        countNoise->addNoise(noisy, countStream);
        shares.cell = noisy.cwiseMax(reductions::kCountFloor) / n;
        rowNorm = shared->rowNorm;
        const double z =
            reductions::solveMultiplier(game.rounds, config.epsilon - epsilonCounts, config.delta);
        noise = reductions::noiseFor(z, rowNorm, game.bound, shares.cell.minCoeff());
        game.learnerStd = noise.learnerStd;
        game.auditorStd = noise.auditorStd;
        game.learnerSensitivity = noise.learnerSensitivity;
        if (kLearnerNoise(config) == "per-round") {
            game.learnerMultiplier = noise.z;
            game.rowNorm = rowNorm;
        }
        game.auditorSensitivity = noise.auditorSensitivity;
    } else {
        shares.cell = counts / n;
    }

    // Accounting: per round two unsampled Gaussian releases at z (learner, auditor); the
    // counts by basic composition.
    auto accounting = [&](long rounds) {
        privacy::AccountingInputs in;
        in.unit = train.unitName;
        in.adjacency = privacy::Adjacency::Replace;
        in.kind = privacy::ReleaseKind::NoRelease;
        in.steps = rounds;
        in.delta = config.delta;
        in.gaussianReleases = {
            {"learner statistic X̃ᵀr", noise.z, 1,
             "Δ_t = X₂·max |λ̃_(a,y)/p̃_(a,y) − λ̃_(a',y)/p̃_(a',y)| per round, from the round's "
             "public multipliers, at most X₂·B/p̃_min (changing one sensitive attribute moves "
             "one r_i by that difference); noise z·Δ_t"},
            {"auditor cell sums", noise.z, 1, "√2 (one record leaves one cell and joins another)"}};
        if (countNoise) in.pureReleases.push_back(countNoise->release("cell counts"));
        return in;
    };

    std::optional<privacy::RunAccountant> accountant;
    if (isPrivate) accountant.emplace(accounting(game.rounds));

    RunSession session(observer, cancel, "rounds");
    if (accountant)
        session.setEpsilonSoFar([&](long rounds) { return accountant->after(rounds).epsilon; });
    RunResult& result = session.result();
    result.config = config;
    result.dataset = train.name;
    Eigen::VectorXd votes = Eigen::VectorXd::Zero(test.rows()), testScores(test.rows());
    RandomStream noiseStream = streams.stream(streams::kNoise);
    const bool bestMixture = kMixture(config) == "best";
    // The output after `t` rounds: P(ŷ = 1 | x) on the test rows.
    // Each play's test predictions, one byte per row, so that the best mixture after round t
    // reads them instead of scoring all t plays again; plays beyond kKeptPredictionBytes are
    // scored again.
    constexpr std::size_t kKeptPredictionBytes = std::size_t{1} << 28;
    std::vector<std::vector<std::uint8_t>> testPredictions;
    const bool keepPredictions =
        bestMixture && static_cast<double>(game.rounds) * static_cast<double>(test.rows()) <=
                           static_cast<double>(kKeptPredictionBytes);
    auto mixture = [&](long t, const reductions::GameOutcome& soFar) -> Eigen::VectorXd {
        if (!bestMixture) return votes / static_cast<double>(t);
        const Eigen::VectorXd weights =
            reductions::bestMixtureWeights(soFar, game.tolerance, game.bound, shares.label(1));
        if (keepPredictions)
            return reductions::weightedMixtureOfPredictions(testPredictions, weights, test.rows());
        return reductions::weightedMixtureProbability(soFar.w, weights, testDesign);
    };
    // Every evaluate-every-th round is evaluated, and the last; the last round's evaluation is
    // the run's result (made after the game when the run stopped between evaluations).
    FairnessMetrics lastEvaluation;
    long lastEvaluated = 0;
    auto afterRound = [&](long t, const reductions::GameOutcome& soFar) {
        testScores.noalias() = testDesign * soFar.w.back();
        votes.array() += (testScores.array() > 0.0).cast<double>();
        if (keepPredictions) {
            std::vector<std::uint8_t>& predicted =
                testPredictions.emplace_back(static_cast<std::size_t>(test.rows()));
            for (Eigen::Index i = 0; i < test.rows(); ++i)
                predicted[static_cast<std::size_t>(i)] = testScores(i) > 0.0 ? 1 : 0;
        }
        StepInfo info;
        info.step = t;
        info.epoch = static_cast<int>(t);
        info.batchRows = static_cast<long>(train.rows());
        info.batchLoss = kNaN;
        bool stop = session.stepped(info);
        if (RunSession::dueEvery(t, game.rounds, config.evaluateEvery)) {
            lastEvaluation = mixtureMetrics(mixture(t, soFar), test, config, sampled);
            lastEvaluated = t;
            const FairnessMetrics& f = lastEvaluation;
            EpochMetrics m;
            m.epoch = static_cast<int>(t);
            m.step = t;
            m.trainLoss = m.trainObjective = kNaN;
            m.testError = f.error;
            m.setTestGaps(f, config.fairness);
            m.ermiHard = f.ermiHard(config.fairness);
            m.ermiSoft = f.ermiSoft(config.fairness);
            m.clipFraction = kNaN;  // nothing is clipped
            stop = session.evaluated(m) || stop;
        }
        session.stopRequested(stop, t, game.rounds);
        return stop;
    };
    const reductions::GameOutcome outcome = reductions::playGame(
        cells, game, design, train.y, train.s, shares, noiseStream,
        [&] { return session.cancelled(result.steps); }, afterRound, &shared->learner);
    result.steps = outcome.rounds;
    // A cancellation requested during the last round still reports the run as cancelled (the
    // user asked to stop), with the rounds that ran.
    if (result.status == RunStatus::Completed) session.cancelled(outcome.rounds);
    if (outcome.rounds > 0) {
        if (lastEvaluated != outcome.rounds)
            lastEvaluation =
                mixtureMetrics(mixture(outcome.rounds, outcome), test, config, sampled);
        result.test = lastEvaluation;
    } else {
        result.test =
            evaluateFairness(Eigen::VectorXi::Zero(test.rows()), RowMatrix(0, 2), test.y, test.s,
                             test.groupNames, test.numClasses(), config.advantagedClass);
        result.test.error = kNaN;
    }
    result.trainLoss = kNaN;

    if (!isPrivate) {
        result.privacy = privacy::nonPrivateReport(name(), result.steps);
        return session.finish();
    }
    // Charged for the rounds executed (all of them unless cancelled).
    describeRun(result, *accountant, noise, game, shares, rowNorm, epsilonCounts, cells, train,
                outcome.largestLearnerStd);
    return session.finish();
}

void DpReductions::describeRun(RunResult& result, const privacy::RunAccountant& accountant,
                               const reductions::Noise& noise, const reductions::GameSettings& game,
                               const reductions::Shares& shares, double rowNorm,
                               double epsilonCounts, const reductions::Cells& cells,
                               const Dataset& train, double largestLearnerStd) const {
    const double n = static_cast<double>(train.rows());
    describePrivateRun(result, accountant, train);
    privacy::PrivacyReport& report = result.privacy;
    report.algorithm = name();
    report.calibration =
        "DP reductions (simplified): noisy least-squares learner instead of the exponential "
        "mechanism, uniform mixture of all rounds as output; noise solved by the RDP accountant";
    report.diagnosticsRecorded = false;
    report.epsilonShares = epsilonCounts;
    report.sampling = "none: every round uses every training " + train.unitName;
    report.samplingRate = 1.0;
    report.expectedBatch = static_cast<long>(train.rows());
    report.adjacency = "replace-one";
    report.noiseMultiplier = noise.z / std::sqrt(2.0);
    report.noiseMultiplierTheta = noise.z;
    report.noiseMultiplierW = noise.z;
    // The statement's σ's are stds on a batch mean; the batch is every training row, so they
    // are the stds on the released sums (stated in the clip description) divided by n. The
    // learner's noise follows each round's Δ_t: σ_θ is the largest it had.
    report.sigmaTheta = largestLearnerStd / n;
    report.sigmaW = noise.auditorStd / n;
    report.mechanism =
        "Gaussian, no sampling: per round two full-batch releases, the learner's statistic X̃ᵀr "
        "and the auditor's " +
        std::to_string(cells.count()) + " cell sums, each at multiplier z";
    report.clipDescription =
        "none; sensitivities (replace-one of one sensitive attribute): learner, per round, "
        "Δ_t = X₂·max |λ̃_(a,y)/p̃_(a,y) − λ̃_(a',y)/p̃_(a',y)| from that round's public "
        "multipliers (0 in round 1) ≤ X₂·B/p̃_min = " +
        formatNumber(rowNorm * game.bound / shares.cell.minCoeff()) +
        " (X₂ = max ‖x̃‖ = " + formatNumber(rowNorm) + ", B = " + formatNumber(game.bound) +
        ", p̃_min = " + formatNumber(shares.cell.minCoeff()) + "), with noise std z·Δ_t on the " +
        "sum (largest " + formatNumber(largestLearnerStd) + ", at most " +
        formatNumber(noise.learnerStd) +
        "); auditor √2 with S_a = " + formatNumber(noise.auditorStd);
    report.extraReleases =
        "cell counts via Laplace(2/ε₀), ε₀ = " + formatNumber(epsilonCounts) + ", floored at 10";
    report.protectedData =
        "only the sensitive attribute '" + train.sensitiveDescription + "' of each training " +
        train.unitName +
        " — features and labels are treated as public (the learner and the auditor use them "
        "exactly)";
    report.neighbouring = "one training " + train.unitName + "'s sensitive attribute changed";
    report.postProcessing =
        kMixture(result.config) == "best"
            ? "the mixture of the T released classifiers and the two constant ones with the "
              "least training error (read from the public features and labels) whose released "
              "noisy violations meet the tolerance c (excess charged at B), found by a linear "
              "program; each test row is classified by one of them, drawn with the mixture's "
              "weights"
            : "the uniform mixture of the T released classifiers (each test row "
              "is classified by one of them, drawn uniformly at random)";
    report.statement = privacy::renderPrivacyStatement(report, "", "");
}

}  // namespace

std::unique_ptr<Algorithm> makeDpReductions() { return std::make_unique<DpReductions>(); }

}  // namespace pfa
