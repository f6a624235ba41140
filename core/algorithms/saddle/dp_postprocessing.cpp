// dp-postprocessing: differentially private post-processing of a logistic model for equalized
// odds (two groups). The base classifier is the unconstrained logistic model (λ = 0, threshold
// 0.5) trained inside the run on features and labels only; one Laplace-noised table of the
// training rows' (ŷ, a, y) counts (Laplace(2/ε) per cell: one changed sensitive attribute moves
// one row between two cells) gives noisy group rates, and a 4-variable linear program, solved
// exactly by GLPK (core/fairness/eo_postprocessing.h), chooses the flip probabilities
// P(ỹ = 1 | ŷ, a) of least expected error whose noisy rate gaps stay within γ plus a
// confidence slack. Every γ of the grid is solved from the same table, so the whole γ-curve
// costs one ε. ε-DP (δ = 0) for the sensitive attribute only: features and labels are public,
// so the base model costs nothing.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/algorithms/saddle/saddle_point_trainer.h"
#include "core/config/algorithm.h"
#include "core/config/config_validation.h"
#include "core/config/own_setting.h"
#include "core/engine/batch_sampler.h"
#include "core/engine/design_matrix.h"
#include "core/engine/laplace_mechanism.h"
#include "core/engine/private_run_report.h"
#include "core/engine/randomised_evaluation.h"
#include "core/engine/run_streams.h"
#include "core/fairness/eo_postprocessing.h"
#include "core/model/model.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

namespace {

// The own settings this file reads (checked against the declarations at start).
const OwnChoice kEvaluation{"evaluation"};
const OwnNumber kGamma{"gamma"};
const OwnChoice kGammaGrid{"gamma-grid"};
const OwnNumber kSlackBeta{"slack-beta"};

constexpr double kInf = std::numeric_limits<double>::infinity();
/// The Bernoulli draws of the "sampled" evaluation: test-side only, not a privacy stream.
constexpr std::uint64_t kFlipDrawStream = 0x464c495044524157ULL;  // "FLIPDRAW"

ParamSpec gammaParameter() {
    return declare("gamma", "Tolerance γ", ParamKind::Real,
                   "largest allowed gap between the groups' noisy true- and false-positive rates "
                   "(plus a confidence slack for the noise) of the headline classifier; 0 = equal "
                   "rates")
        .defaultValue("0.02")
        .atLeast(0.0)
        .atMost(1.0)
        .sweepable();
}

ParamSpec gammaGridParameter() {
    return declare("gamma-grid", "γ curve", ParamKind::Choice,
                   "the tolerances γ solved from the same noisy table for the tradeoff curve (one "
                   "ε for the whole curve)")
        .choices({
            {"reference", "Reference grid (72 values)",
             "0.001…0.009, 0.01…0.09, 0.1, 0.2, 0.4, 0.8, 1 and 51 even steps in [0.01, 0.2]"},
            {"coarse", "Coarse (9 values)", "0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.4, 0.8, 1"},
            {"none", "Headline γ only", "no curve beyond the headline γ and the base classifier"},
        })
        .defaultValue("reference")
        .advanced();
}

ParamSpec slackBetaParameter() {
    return declare("slack-beta", "Slack failure probability β", ParamKind::Real,
                   "the constraints are widened by ζ = 4 ln(8/β)/(m ε min share), so that the "
                   "true training-set gaps stay within γ + 2ζ with probability about 1 − β")
        .defaultValue("0.05")
        .above(0.0)
        .atMost(1.0, true)
        .sweepable()
        .advanced();
}

ParamSpec fprOnlyParameter() {
    return declare("fpr-only", "Equalize false-positive rates only", ParamKind::Flag,
                   "constrain only the false-positive-rate gap (drop the true-positive-rate rows "
                   "of the linear program)")
        .defaultValue("false")
        .advanced();
}

/// The γ values of a grid choice, ascending, without duplicates.
std::vector<double> gammaGrid(const std::string& choice) {
    std::vector<double> grid;
    if (choice == "reference") {
        for (int i = 1; i <= 9; ++i) grid.push_back(i / 1000.0);
        for (int i = 1; i <= 9; ++i) grid.push_back(i / 100.0);
        for (double g : {0.1, 0.2, 0.4, 0.8, 1.0}) grid.push_back(g);
        // Rounded to 6 digits: 0.0214, not 0.021400000000000002 (the formula's round-off),
        // in tables, legends and records.
        for (int i = 0; i <= 50; ++i) {
            double g = 0.0;
            parsePortable(formatPortable(0.01 + (0.2 - 0.01) * i / 50.0, 6), g);
            grid.push_back(g);
        }
    } else if (choice == "coarse") {
        grid = {0.0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.4, 0.8, 1.0};
    }
    std::sort(grid.begin(), grid.end());
    grid.erase(std::unique(grid.begin(), grid.end(),
                           [](double a, double b) { return std::abs(a - b) < 1e-12; }),
               grid.end());
    return grid;
}

/// Hard predictions of the model θ on `rows` (threshold 0.5 for two classes).
Eigen::VectorXi predictClasses(const Dataset& rows, const RowMatrix& theta, double featureBound) {
    const std::unique_ptr<Model> model = makeModelForClasses(rows.numClasses());
    const DesignMatrix design = makeDesignMatrix(rows.X, featureBound);
    const RowMatrix Z = design.X() * theta.transpose();
    RowMatrix F(rows.rows(), model->classes());
    model->probabilities(Z, F);
    Eigen::VectorXi predicted(rows.rows());
    Model::predict(F, predicted);
    return predicted;
}

class DpPostprocessing final : public Algorithm {
public:
    std::string name() const override { return "dp-postprocessing"; }
    std::string description() const override {
        return "DP post-processing for equalized odds: a logistic model's predictions are "
               "randomly flipped per (prediction, group), chosen by a linear program from one "
               "noisy table of counts; uses the sensitive attribute at decision time.";
    }
    AlgorithmCapabilities capabilities() const override {
        return {.privacy = true, .curveSetting = "gamma"};
    }
    std::vector<ParamSpec> parameters() const override {
        return commonParameters(
            {"fairness", "epsilon", "seed", "scope", "epochs", "batch-size", "lr-theta", "l2",
             "advantaged-class", "evaluate-every", "secure-noise", "diagnostics"},
            {gammaParameter(), gammaGridParameter(), slackBetaParameter(), fprOnlyParameter(),
             randomisedEvaluationParameter()});
    }

    void validate(const TrainConfig& config, const DataSplit& data) const override {
        requireNoFairness(config);
        if (config.fairness != FairnessNotion::EqualizedOdds) {
            throw InputError(name() +
                             " post-processes for equalized odds only: set the fairness "
                             "notion to eo (its demographic-parity gap is shown too)");
        }
        if (config.isPrivate() && config.scope != ProtectionScope::SensitiveOnly) {
            throw InputError(name() +
                             " protects only the sensitive attribute: set scope to "
                             "sensitive-only. Protecting whole records would need the "
                             "base model to be a private run of its own, whose cost "
                             "adds, which this method does not do");
        }
        if (data.train.numClasses() != 2) {
            throw InputError(name() + " needs a binary label; the data has " +
                             std::to_string(data.train.numClasses()) + " classes");
        }
        if (data.train.numGroups() != 2) {
            throw InputError(name() + " supports exactly two groups; the data has " +
                             std::to_string(data.train.numGroups()) +
                             " (choose a sensitive attribute with two values or merge groups)");
        }
    }

    TrainConfig resolve(const TrainConfig& config, const DataSplit& data) const override {
        // The base model trains without noise on shuffled batches and reports its last
        // iterate: the record says so (the private defaults, Poisson and averaging, do not apply).
        TrainConfig resolved = resolveDefaults(config, data);
        resolved.sampling = Sampling::Shuffle;
        resolved.averaging = IterateAveraging::None;
        return resolved;
    }

    RunResult run(const PreparedConfig& prepared, const DataSplit& data, TrainingObserver& observer,
                  const CancelToken& cancel) const override {
        return postProcess(prepared.config(), trainBase(prepared.config(), data, observer, cancel),
                           data, cancel);
    }

    /// Runs whose base models are the same (they differ in ε, γ, β or the evaluation) share it.
    std::string togetherKey(const TrainConfig& config, const Dataset&) const override {
        return "base-model;" + settingsKey(baseConfigOf(config));
    }

    /// The base model trained once (reporting to the first run's observer) and each run's
    /// post-processing of it: each result is what run() gives alone.
    std::vector<RunResult> runTogether(const std::vector<PreparedConfig>& runs,
                                       const DataSplit& data,
                                       const std::vector<TrainingObserver*>& observers,
                                       const CancelToken& cancel) const override {
        const std::string key = togetherKey(runs.front().config(), data.train);
        for (const PreparedConfig& run : runs) {
            if (togetherKey(run.config(), data.train) != key)
                return Algorithm::runTogether(runs, data, observers, cancel);
        }
        const RunResult base = trainBase(runs.front().config(), data, *observers.front(), cancel);
        std::vector<RunResult> results;
        for (const PreparedConfig& run : runs)
            results.push_back(postProcess(run.config(), base, data, cancel));
        return results;
    }

private:
    /// The base classifier's settings: the unconstrained logistic model, trained without noise
    /// on features and labels (public under the sensitive-only scope; it never sees a). Its
    /// batches depend on the common settings only: runs that differ in γ, β or the evaluation
    /// share one base model (it is not private, so sharing costs nothing).
    static TrainConfig baseConfigOf(const TrainConfig& config) {
        TrainConfig baseConfig = config;
        baseConfig.epsilon = kInf;
        baseConfig.lambda = 0.0;
        baseConfig.sampling = Sampling::Shuffle;
        baseConfig.averaging = IterateAveraging::None;
        baseConfig.extra.clear();
        return baseConfig;
    }

    static RunResult trainBase(const TrainConfig& config, const DataSplit& data,
                               TrainingObserver& observer, const CancelToken& cancel) {
        const TrainConfig baseConfig = baseConfigOf(config);
        TrainerPlan plan;
        plan.sampler = rowSampler(baseConfig, data.train);
        return runSaddlePointTrainer(baseConfig, plan, data, observer, cancel);
    }

    /// The run of `config` from its trained base model `result`: the noisy table, the flip
    /// program at γ and along the γ grid, the statement.
    RunResult postProcess(const TrainConfig& config, RunResult result, const DataSplit& data,
                          const CancelToken& cancel) const {
        result.config = config;
        if (!recordsDiagnostics(config)) {
            // The base model's training figures are diagnostics like any other run's.
            result.trainLoss = NAN;
            for (EpochMetrics& epoch : result.history)
                epoch.trainLoss = epoch.trainObjective = epoch.clipFraction = NAN;
        }
        if (result.status != RunStatus::Completed) {
            // Nothing about the sensitive attribute was released: ε spent is 0.
            describe(result, data.train, 0.0);
            return result;
        }

        const Eigen::VectorXi trainPredicted =
            predictClasses(data.train, result.theta, result.featureBound);
        const Eigen::VectorXi testPredicted =
            predictClasses(data.test, result.theta, result.featureBound);

        // One noisy table per run: every γ below is post-processing of it.
        const eo::CellTable counts = eo::countCells(trainPredicted, data.train.s, data.train.y);
        const RunStreams streams(config, data.train);
        RandomStream noise = streams.stream(streams::kNoise);
        const eo::CellTable noisy = eo::addLaplaceNoise(counts, config.epsilon, noise);
        const eo::NoisyRates rates = eo::noisyRates(noisy, static_cast<long>(data.train.rows()),
                                                    config.epsilon, kSlackBeta(config));
        const bool fprOnly = config.extra.at("fpr-only") == "true";
        const bool sampled = kEvaluation(config) == "sampled";

        const FairnessMetrics base = result.test;
        const auto evaluate = [&](const eo::FlipProbabilities& p) {
            return evaluateFlips(data.test, testPredicted, p, sampled, streams,
                                 config.advantagedClass);
        };
        const double gamma = kGamma(config);
        result.test = evaluate(eo::solveFlipProgram(eo::buildFlipProgram(rates, gamma, fprOnly)).p);
        for (double g : gammaGrid(kGammaGrid(config))) {
            if (cancel.cancelled()) {  // the table is released: ε is spent either way
                result.status = RunStatus::Cancelled;
                result.message = "stopped while solving the γ curve";
                break;
            }
            const eo::FlipSolution solution =
                eo::solveFlipProgram(eo::buildFlipProgram(rates, g, fprOnly));
            result.curve.push_back(CurvePoint{"gamma", g, evaluate(solution.p)});
        }
        if (result.status == RunStatus::Completed)
            result.curve.push_back(CurvePoint{"gamma", kInf, base});
        describe(result, data.train, config.epsilon);
        if (config.isPrivate()) {
            // The base model's epochs release nothing about the sensitive attribute; the one
            // release, the noisy table, comes after the last.
            for (EpochMetrics& epoch : result.history) epoch.epsilonSpent = 0.0;
            if (!result.history.empty())
                result.history.back().epsilonSpent = result.privacy.epsilonSpent;
        }
        return result;
    }

    /// Test metrics of the post-processed classifier: in expectation (P(ỹ = 1) per row) or of
    /// one seeded Bernoulli draw per row.
    static FairnessMetrics evaluateFlips(const Dataset& test, const Eigen::VectorXi& predicted,
                                         const eo::FlipProbabilities& p, bool sampled,
                                         const RunStreams& streams, int advantagedClass) {
        const Eigen::VectorXd probOne = eo::flipProbabilityPerRow(predicted, test.s, p);
        const RowMatrix noProbabilities(0, 2);
        if (!sampled) {
            return evaluateFairnessInExpectation(probOne, test.y, test.s, test.groupNames,
                                                 advantagedClass);
        }
        RandomStream draws = streams.stream(kFlipDrawStream);
        Eigen::VectorXi drawn(probOne.size());
        for (Eigen::Index i = 0; i < probOne.size(); ++i) {
            drawn(i) = draws.uniformOpen() < probOne(i) ? 1 : 0;
        }
        return evaluateFairness(drawn, noProbabilities, test.y, test.s, test.groupNames, 2,
                                advantagedClass);
    }

    /// The privacy report: ε-DP (δ = 0) for the sensitive attribute, one Laplace table charged
    /// by basic composition (`epsilon` 0: nothing released).
    void describe(RunResult& result, const Dataset& train, double epsilon) const {
        const TrainConfig& config = result.config;
        privacy::PrivacyReport& report = result.privacy;
        if (!config.isPrivate()) {
            report = privacy::nonPrivateReport(name(), result.steps);
            return;
        }
        privacy::AccountingInputs accounting;
        accounting.unit = train.unitName;
        accounting.adjacency = privacy::Adjacency::Replace;
        accounting.kind = privacy::ReleaseKind::NoRelease;
        accounting.sensitivity = "one sensitive attribute changed: ℓ1 bound 2 on the table";
        accounting.steps = result.steps;
        accounting.delta = 0.0;
        if (epsilon > 0.0) {
            accounting.pureReleases.push_back(
                LaplaceMechanism(2.0, epsilon, "cell")
                    .release("noisy (prediction, group, label) table"));
        }
        const privacy::EpsilonResult spent = privacy::certifiedEpsilon(accounting);

        report = privacy::PrivacyReport{};
        report.algorithm = name();
        report.calibration = "Laplace, pure ε-DP";
        report.isPrivate = true;
        report.unit = train.unitName;
        report.epsilonTarget = config.epsilon;
        report.epsilonNominal = config.epsilon;
        report.epsilonSpent = spent.epsilon;
        report.optimalOrder = spent.order;
        report.delta = 0.0;
        report.steps = result.steps;
        report.accountant = "Rényi-DP accountant";
        report.orderGrid = privacy::orderGridNamed(accounting.grid).describe();
        report.mechanism = "one Laplace release, pure ε-DP by basic composition";
        report.accounting = accounting;
        report.adjacency = adjacencyName(privacy::Adjacency::Replace);
        report.sensitiveColumn = train.sensitiveDescription;
        report.protectedData = "only the sensitive attribute '" + train.sensitiveDescription +
                               "' — features and labels are treated as public (the base "
                               "logistic model is trained on them without noise)";
        report.oneShotRelease =
            epsilon > 0.0
                ? "one release of the 8 counts of (base prediction, group, label) among the "
                  "training " +
                      train.unitName +
                      "s, each with Laplace noise of scale 2/ε = " + formatNumber(2.0 / epsilon) +
                      " (changing one sensitive attribute moves one row between two cells: ℓ1 "
                      "sensitivity 2), charged ε by basic composition"
                : "none: the run stopped before the noisy table was drawn";
        report.postProcessing =
            "the flip probabilities of every γ of the curve, solved by a linear program from the "
            "one noisy table, so the whole γ-curve costs one ε; the classifier uses the sensitive "
            "attribute at decision time";
        report.noiseSource =
            config.secureNoise ? privacy::NoiseSource::Secure : privacy::NoiseSource::Seeded;
        report.seed = config.seed;
        report.diagnosticsRecorded = recordsDiagnostics(config);
        if (report.diagnosticsRecorded) {
            report.disclose(
                "the base model's training loss and objective per epoch (computed "
                "from the features and labels, which this scope treats as public, "
                "never from the sensitive attribute)",
                {"train_loss", "history.train_loss", "history.train_objective",
                 "history.clip_fraction"},
                /*diagnostic=*/true);
        }
        const PersonCounts persons = countPersons(train);
        report.personColumn = train.personColumn;
        report.persons = persons.persons;
        report.maxRowsPerPerson = persons.maxRows;
        if (persons.maxRows > 1) {
            // Pure ε-DP: k changed rows cost exactly k·ε (group privacy, no δ).
            report.epsilonPerPerson = static_cast<double>(persons.maxRows) * spent.epsilon;
        }
        if (result.status == RunStatus::Cancelled) {
            report.warnings.push_back("run stopped early: ε covers what was released");
        }
        report.statement = privacy::renderPrivacyStatement(report, "", "");
    }
};

}  // namespace

std::unique_ptr<Algorithm> makeDpPostprocessing() { return std::make_unique<DpPostprocessing>(); }

}  // namespace pfa
