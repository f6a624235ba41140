#include "core/algorithms/lagrangian/lagrangian_dual.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <utility>

#include "core/algorithms/lagrangian/ld_lanes.h"
#include "core/config/own_setting.h"
#include "core/engine/batch_sampler.h"
#include "core/engine/clipping.h"
#include "core/engine/design_matrix.h"
#include "core/engine/evaluator.h"
#include "core/engine/iterate_average.h"
#include "core/engine/laplace_mechanism.h"
#include "core/engine/private_run_report.h"
#include "core/engine/run_session.h"
#include "core/engine/run_streams.h"
#include "core/engine/shared_batch_products.h"
#include "core/model/logistic_functions.h"
#include "core/model/model.h"
#include "core/privacy/noisy_release.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "core/util/random.h"

namespace pfa::ld {

namespace {

// The own settings this file reads (checked against the declarations at start).
const OwnNumber kAdamLr{"adam-lr"};
const OwnChoice kConstraint{"constraint"};
const OwnNumber kCountShare{"count-share"};
const OwnNumber kDualClip{"dual-clip"};
const OwnNumber kDualShare{"dual-share"};
const OwnNumber kDualStep{"dual-step"};
const OwnNumber kDualTolerance{"dual-tolerance"};

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

// ---- settings --------------------------------------------------------------------------------

ParamSpec adamLearningRateParameter() {
    return declare("adam-lr", "Adam learning rate", ParamKind::Real,
                   "step size of the Adam optimiser on the model (β = 0.9, 0.999)")
        .defaultValue("0.001")
        .above(0.0)
        .sweepable();
}

ParamSpec dualStepParameter() {
    return declare("dual-step", "Dual step s", ParamKind::Real,
                   "after each epoch every constraint's multiplier moves by s × (its violation − "
                   "τ), never "
                   "below 0; larger s enforces the constraints harder, 0 trains without them")
        .defaultValue("0.2")
        .atLeast(0.0)
        .sweepable();
}

ParamSpec dualToleranceParameter() {
    return declare("dual-tolerance", "Constraint tolerance τ", ParamKind::Real,
                   "each constraint allows a gap of τ between a group's mean and its "
                   "parent's mean before its multiplier grows")
        .defaultValue("0")
        .atLeast(0.0)
        .sweepable()
        .advanced();
}

ParamSpec dualClipParameter() {
    return declare("dual-clip", "Dual clip C_d", ParamKind::Real,
                   "each row's value in the per-group sums of the multiplier update "
                   "(predicted probability, or loss for accuracy parity) is clipped to C_d")
        .defaultValue("1")
        .above(0.0)
        .sweepable()
        .advanced();
}

ParamSpec dualShareParameter() {
    return declare("dual-share", "Dual budget share φ_d", ParamKind::Real,
                   "share of ε the noisy per-group sums of the multiplier updates would "
                   "spend on their own; sets their noise")
        .defaultValue("0.1")
        .above(0.0)
        .atMost(1.0, true)
        .sweepable()
        .applies(AppliesPrivate)
        .advanced();
}

ParamSpec countShareParameter() {
    return declare("count-share", "Count budget share", ParamKind::Real,
                   "share of ε spent on the noisy group sizes (Laplace, once per run)")
        .defaultValue("0.05")
        .above(0.0)
        .atMost(1.0, true)
        .sweepable()
        .applies(AppliesPrivate)
        .advanced();
}

ParamSpec constraintParameter() {
    return declare("constraint", "Constraint", ParamKind::Choice,
                   "what the multipliers equalise across groups")
        .choices({
            {"rates", "Rates of the fairness notion",
             "mean predicted probability per group: selection rates (dp), true- and "
             "false-positive rates (eo), true-positive rates (eopp)"},
            {"accuracy-parity", "Accuracy parity",
             "mean loss per group (the groups of demographic parity)"},
        })
        .defaultValue("rates")
        .advanced();
}

Constraint parseConstraint(const std::string& code) {
    if (code == "rates") return Constraint::Rates;
    if (code == "accuracy-parity") return Constraint::AccuracyParity;
    throw InputError("unknown constraint '" + code + "': use rates or accuracy-parity");
}

// ---- cells -----------------------------------------------------------------------------------

Cells::Cells(FairnessNotion notion, Constraint constraint, int groups, int advantagedClass)
    : m_layout(
          constraint == Constraint::AccuracyParity ? FairnessNotion::DemographicParity : notion,
          groups, 2, advantagedClass),
      m_constraint(constraint) {}

Eigen::VectorXi Cells::cellsOfRows(const Eigen::VectorXi& y, const Eigen::VectorXi& s) const {
    Eigen::VectorXi out(y.size());
    for (Eigen::Index i = 0; i < y.size(); ++i) out(i) = cellOf(y(i), s(i));
    return out;
}

Eigen::VectorXd Cells::counts(const Eigen::VectorXi& y, const Eigen::VectorXi& s) const {
    return m_layout.cellCounts(y, s);
}

void Cells::violations(const Eigen::VectorXd& sums, const Eigen::VectorXd& counts,
                       Eigen::VectorXd& out) const {
    const int k = m_layout.groups();
    for (int block = 0; block < parents(); ++block) {
        const double parentSum = sums.segment(block * k, k).sum();
        const double parentCount = counts.segment(block * k, k).sum();
        for (int a = 0; a < k; ++a) {
            const int j = block * k + a;
            out(j) = sums(j) / counts(j) - parentSum / parentCount;
        }
    }
}

void Cells::weights(const Eigen::VectorXd& lambda, const Eigen::VectorXd& signs,
                    const Eigen::VectorXd& counts, double n, Eigen::VectorXd& out) const {
    const int k = m_layout.groups();
    for (int block = 0; block < parents(); ++block) {
        const double parentCount = counts.segment(block * k, k).sum();
        double parentTerm = 0.0;  // Σ_{j in the block} λ_j ŝ_j / n_P: every row of the block
        for (int a = 0; a < k; ++a) {
            const int j = block * k + a;
            parentTerm += lambda(j) * signs(j);
        }
        parentTerm /= parentCount;
        for (int a = 0; a < k; ++a) {
            const int j = block * k + a;
            out(j) = n * (lambda(j) * signs(j) / counts(j) - parentTerm);
        }
    }
}

void dualStep(const Eigen::VectorXd& violations, double step, double tolerance,
              Eigen::VectorXd& lambda, Eigen::VectorXd& signs) {
    for (Eigen::Index j = 0; j < violations.size(); ++j) {
        const double v = violations(j);
        signs(j) = v > 0.0 ? 1.0 : (v < 0.0 ? -1.0 : 0.0);
        lambda(j) = std::max(0.0, lambda(j) + step * (std::abs(v) - tolerance));
    }
}

double rowValue(Constraint constraint, double score, int y, double clip) {
    const double value = constraint == Constraint::Rates ? sigmoid(score) : logisticLoss(score, y);
    return std::min(value, clip);
}

double rowScoreGradient(Constraint constraint, double score, int y, double kappa) {
    const double p = sigmoid(score);
    const double residual = p - static_cast<double>(y);
    if (constraint == Constraint::Rates) return residual + kappa * p * (1.0 - p);
    return residual * (1.0 + kappa);
}

long clippedGradientSum(Constraint constraint, const Eigen::VectorXd& theta, const RowMatrix& X,
                        const Eigen::VectorXd& norms, const Eigen::VectorXi& y,
                        const Eigen::VectorXi& cellOfRow, const Eigen::VectorXd& kappa,
                        const long* rows, long count, double clip, Eigen::VectorXd& sum,
                        double& lossSum, bool withLoss, const SparseRows* sparse) {
    sum.setZero();
    lossSum = 0.0;
    long clipped = 0;
    for (long b = 0; b < count; ++b) {
        const long i = rows[b];
        if (b + 1 < count) {
            if (sparse) {
                prefetchSparseRow(*sparse, rows[b + 1]);
            } else {
                prefetchRow(X, rows[b + 1]);
            }
        }
        const double score =
            sparse ? sparseRowScore(*sparse, i, theta.data()) : X.row(i).dot(theta.transpose());
        const int cell = cellOfRow(i);
        const double k = cell >= 0 ? kappa(cell) : 0.0;
        double r = rowScoreGradient(constraint, score, y(i), k);
        if (withLoss) lossSum += logisticLoss(score, y(i));
        const double norm = std::abs(r) * norms(i);
        clipped += clipScale(norm, clip, r);
        if (sparse) {
            addSparseRow(*sparse, i, r, sum.data());
        } else {
            sum.noalias() += r * X.row(i).transpose();
        }
    }
    return clipped;
}

// ---- Adam ------------------------------------------------------------------------------------

Adam::Adam(Eigen::Index parameters, double learningRate)
    : m_learningRate(learningRate),
      m_m(Eigen::VectorXd::Zero(parameters)),
      m_v(Eigen::VectorXd::Zero(parameters)) {}

void Adam::step(Eigen::VectorXd& theta, const Eigen::VectorXd& gradient) {
    constexpr double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    ++m_t;
    m_beta1Power *= beta1;
    m_beta2Power *= beta2;
    m_m = beta1 * m_m + (1.0 - beta1) * gradient;
    m_v = beta2 * m_v + (1.0 - beta2) * gradient.cwiseAbs2();
    const double c1 = 1.0 - m_beta1Power, c2 = 1.0 - m_beta2Power;
    for (Eigen::Index k = 0; k < theta.size(); ++k) {
        theta(k) -= m_learningRate * (m_m(k) / c1) / (std::sqrt(m_v(k) / c2) + eps);
    }
}

// ---- accounting ------------------------------------------------------------------------------

double Ledger::dualMultiplierFor(privacy::Adjacency a) const {
    return a == privacy::Adjacency::Replace ? dualMultiplier / std::sqrt(2.0) : dualMultiplier;
}

privacy::RdpCurve Ledger::curve(const privacy::OrderGrid& grid, privacy::Adjacency a) const {
    privacy::RdpCurve total(grid.size(), 0.0);
    if (primalSteps > 0) {
        privacy::accumulate(total, privacy::scaled(privacy::subsampledGaussianStepCurve(
                                                       grid, samplingRate, primalMultiplier, a),
                                                   static_cast<double>(primalSteps)));
    }
    if (dualReleases > 0) {
        privacy::accumulate(total,
                            privacy::scaled(privacy::gaussianCurve(grid, dualMultiplierFor(a)),
                                            static_cast<double>(dualReleases)));
    }
    return total;
}

privacy::EpsilonResult Ledger::epsilon(const privacy::OrderGrid& grid, double delta,
                                       privacy::Adjacency a) const {
    privacy::EpsilonResult result = privacy::epsilonFromRdp(grid, curve(grid, a), delta);
    result.epsilon += countEpsilon;
    return result;
}

Ledger Ledger::after(long steps, long dual) const {
    Ledger l = *this;
    l.primalSteps = steps;
    l.dualReleases = dual;
    return l;
}

Ledger calibrate(double epsilon, double delta, double samplingRate, long primalSteps,
                 long dualReleases, double dualShare, double countShare,
                 privacy::Adjacency adjacency, const privacy::OrderGrid& grid) {
    Ledger ledger;
    ledger.samplingRate = samplingRate;
    ledger.primalSteps = primalSteps;
    ledger.dualReleases = dualReleases;
    ledger.adjacency = adjacency;
    ledger.countEpsilon = countShare * epsilon;
    // The dual releases alone cost φ_d·ε under the run's adjacency.
    const double scale = adjacency == privacy::Adjacency::Replace ? 1.0 / std::sqrt(2.0) : 1.0;
    const double E = static_cast<double>(dualReleases);
    ledger.dualMultiplier =
        privacy::solveNoiseMultiplier(
            [&](double z) { return privacy::scaled(privacy::gaussianCurve(grid, z * scale), E); },
            grid, dualShare * epsilon, delta)
            .noiseMultiplier;
    // Then the primal multiplier on the total curve, the dual one fixed.
    Ledger trial = ledger;
    ledger.primalMultiplier = privacy::solveNoiseMultiplier(
                                  [&](double z) {
                                      trial.primalMultiplier = z;
                                      return trial.curve(grid, adjacency);
                                  },
                                  grid, epsilon - ledger.countEpsilon, delta)
                                  .noiseMultiplier;
    return ledger;
}

// ---- settings of a configuration -------------------------------------------------------------

Settings settingsOf(Mode mode, const TrainConfig& config) {
    Settings s;
    s.mode = mode;
    s.constraint = parseConstraint(kConstraint(config));
    s.learningRate = kAdamLr(config);
    s.dualStep = kDualStep(config);
    s.tolerance = kDualTolerance(config);
    s.dualClip = kDualClip(config);
    if (mode == Mode::Private) {
        s.dualShare = kDualShare(config);
        s.countShare = kCountShare(config);
    }
    return s;
}

void validate(const std::string& algorithm, const Settings& settings, const TrainConfig& config,
              const DataSplit& data) {
    const Dataset& train = data.train;
    if (train.isRegression() || train.numClasses() != 2) {
        throw InputError(algorithm + " trains a binary classifier, and '" + train.name + "' has " +
                         (train.isRegression() ? std::string("a regression target")
                                               : std::to_string(train.numClasses()) + " classes"));
    }
    const Cells cells(config.fairness, settings.constraint, train.numGroups(),
                      config.advantagedClass);
    const Eigen::VectorXd counts = cells.counts(train.y, train.s);
    // A private run never refuses on exact counts (the refusal would tell about them): its
    // noisy counts are floored at 10, so an empty cell is harmless.
    const bool privateRun = settings.mode == Mode::Private && config.isPrivate();
    for (int j = 0; j < cells.count() && !privateRun; ++j) {
        if (counts(j) > 0) continue;
        throw InputError(algorithm + " needs training rows in every constraint cell, but " +
                         cells.layout().cellName(j, train.classNames, train.groupNames) +
                         " has none; merge or drop that group");
    }
    if (settings.mode == Mode::Private && config.isPrivate()) {
        if (settings.dualShare + settings.countShare >= 1.0) {
            throw InputError("dual-share + count-share = " +
                             formatNumber(settings.dualShare + settings.countShare) +
                             " is invalid: the two must leave part of ε to the model's steps "
                             "(their sum must be below 1)");
        }
        if (config.scope != ProtectionScope::AllFeatures) {
            throw InputError(algorithm +
                             " protects whole records; scope = sensitive-only is not "
                             "supported");
        }
    }
}

// ---- the run ---------------------------------------------------------------------------------

privacy::AccountingInputs accountingInputs(const Ledger& ledger, long stepsPerEpoch, double delta,
                                           const std::string& unit) {
    privacy::AccountingInputs inputs;
    inputs.unit = unit;
    inputs.adjacency = ledger.adjacency;
    inputs.kind = ledger.adjacency == privacy::Adjacency::Replace
                      ? privacy::ReleaseKind::PoissonReplace
                      : privacy::ReleaseKind::PoissonSubsampled;
    inputs.samplingRate = ledger.samplingRate;
    inputs.noiseMultiplier = ledger.primalMultiplier;
    inputs.sensitivity = "C_p (per-row clip of the model gradient)";
    inputs.stepsPerRelease = 1;
    inputs.steps = ledger.primalSteps;
    inputs.delta = delta;
    privacy::GaussianRelease dual;
    dual.what = "per-cell sums of the dual step (one vector per epoch)";
    dual.noiseMultiplier = ledger.dualMultiplierFor(ledger.adjacency);
    dual.everySteps = stepsPerEpoch;
    dual.sensitivity = ledger.adjacency == privacy::Adjacency::Replace
                           ? "√2·C_d (replace-one: a row may leave one cell and join another)"
                           : "C_d (clip of each row's value)";
    inputs.gaussianReleases.push_back(dual);
    inputs.pureReleases.push_back({"cell counts and the number of rows",
                                   "Laplace(2/ε₀) per cell and on n (ℓ1 bound 2)",
                                   ledger.countEpsilon});
    return inputs;
}

namespace {

std::string cellsDescription(const Cells& cells, FairnessNotion notion) {
    if (cells.constraint() == Constraint::AccuracyParity) return "mean loss per group";
    switch (notion) {
        case FairnessNotion::DemographicParity:
            return "selection rate per group";
        case FairnessNotion::EqualizedOdds:
            return "rates per group and label";
        case FairnessNotion::EqualOpportunity:
            return "true-positive rate per group";
    }
    return "";
}

/// The privacy report of a finished private run: ε from the accountant for the executed steps
/// and dual releases, the statement (scope, adjacency, what is not protected) and the ε of the
/// other adjacency for the same noise.
void describeRun(const std::string& algorithm, RunResult& result, const Ledger& executed,
                 long stepsPerEpoch, const Settings& settings, const Dataset& train,
                 const std::string& sharedBatches) {
    const TrainConfig& config = result.config;
    privacy::AccountingInputs inputs =
        accountingInputs(executed, stepsPerEpoch, config.delta, train.unitName);
    // Runs of one seed drew the same batches: named, so the ledger charges them jointly.
    inputs.sharedBatches = sharedBatches;
    const privacy::RunAccountant accountant(inputs);
    describePrivateRun(result, accountant, train);
    privacy::PrivacyReport& report = result.privacy;
    report.algorithm = algorithm;
    report.calibration = "RDP-calibrated: dual share φ_d = " + formatNumber(settings.dualShare) +
                         ", count share " + formatNumber(settings.countShare);
    report.sampling = samplingDescription(Sampling::Poisson);
    report.samplingRate = executed.samplingRate;
    report.expectedBatch = config.batchSize;
    report.adjacency = adjacencyName(config.adjacency);
    report.noiseMultiplier = report.noiseMultiplierTheta = executed.primalMultiplier;
    report.sigmaTheta =
        executed.primalMultiplier * config.clipTheta / static_cast<double>(config.batchSize);
    report.clipTheta = config.clipTheta;
    report.clipDescription = "C_p = " + formatNumber(config.clipTheta) +
                             " per row (model gradient), C_d = " + formatNumber(settings.dualClip) +
                             " per row value (dual sums)";
    report.mechanism =
        "Poisson-subsampled Gaussian model steps, signed series" +
        std::string(config.adjacency == privacy::Adjacency::Replace ? " (replace-one: group-of-two)"
                                                                    : "") +
        ", composed with one full-batch Gaussian release of the per-cell sums per epoch";
    report.extraReleases =
        std::to_string(executed.dualReleases) + " dual releases of the per-cell sums (" +
        "Gaussian, noise std z_d·C_d with z_d = " + formatNumber(executed.dualMultiplier) +
        "), the cell counts and n once via Laplace(2/ε₀), ε₀ = " +
        formatNumber(executed.countEpsilon) + " (basic composition)";
    report.epsilonShares = executed.countEpsilon;
    report.protectedData = wholeRecordProtection(train);
    report.postProcessing =
        std::string(config.averaging == IterateAveraging::PolynomialDecay
                        ? "an average of the released iterates θ_t weighted toward recent ones "
                          "(polynomial-decay averaging, weight 4/(t + 3) at step t), not the last "
                          "iterate"
                        : "the last iterate") +
        "; the multipliers λ and the signs of the violations are computed from the noisy cell "
        "sums and counts only";
    report.statement = privacy::renderPrivacyStatement(report, "", "");
    // The other adjacency for the same noise: replace-one also covers changing one record's
    // sensitive attribute or label.
    const privacy::OrderGrid grid = privacy::OrderGrid::standard();
    if (config.adjacency == privacy::Adjacency::AddRemove) {
        const double replace =
            executed.epsilon(grid, config.delta, privacy::Adjacency::Replace).epsilon;
        report.statement +=
            "Replace-one adjacency (one record's values changed, e.g. its "
            "sensitive attribute): ε = " +
            formatNumber(replace) + " at the same δ for the same noise.\n";
    }
    report.statement += "Constraint cells: " +
                        cellsDescription(Cells(config.fairness, settings.constraint,
                                               train.numGroups(), config.advantagedClass),
                                         config.fairness) +
                        "; no early stopping on training or validation statistics.\n";
}

/// The Laplace release of the cell counts and, last, the number of rows n: a row added or
/// removed changes its cell and n by one each, a replaced row two cells: ℓ1 bound 2 either
/// way, so n costs nothing extra and no exact count (n is private under add/remove) is ever
/// used. Returns the noisy counts (at least 10 each) and sets `rows` to the noisy n (≥ 1).
Eigen::VectorXd releaseCounts(const Eigen::VectorXd& exactCounts, long n, double countEpsilon,
                              RandomStream& countNoise, double& rows) {
    const Eigen::Index J = exactCounts.size();
    const LaplaceMechanism laplace(2.0, countEpsilon, "cell");
    Eigen::VectorXd released(J + 1);
    released.head(J) = exactCounts;
    released(J) = static_cast<double>(n);
    laplace.addNoise(released, countNoise);
    rows = std::max(1.0, released(J));
    return released.head(J).cwiseMax(10.0);
}

/// One pass over the training rows at the model w (a row): each cell's sum of the clipped row
/// values into `sums`; returns the summed logistic loss when `withLoss` (0 otherwise).
double cellSums(const DesignMatrix& design, const Eigen::Ref<const Eigen::RowVectorXd>& w,
                const Dataset& train, const Eigen::VectorXi& cellOfRow, Constraint constraint,
                double clip, bool withLoss, Eigen::VectorXd& sums) {
    sums.setZero();
    double loss = 0.0;
    for (Eigen::Index i = 0; i < train.rows(); ++i) {
        const double score = design.X().row(i).dot(w);
        if (withLoss) loss += logisticLoss(score, train.y(i));
        const int cell = cellOfRow(i);
        if (cell >= 0) sums(cell) += rowValue(constraint, score, train.y(i), clip);
    }
    return loss;
}

/// cellSums from the rows' scores x̃_iᵀw computed before (the pass of runs trained together).
double cellSumsOfScores(const Eigen::Ref<const Eigen::VectorXd>& scores, const Dataset& train,
                        const Eigen::VectorXi& cellOfRow, Constraint constraint, double clip,
                        bool withLoss, Eigen::VectorXd& sums) {
    sums.setZero();
    double loss = 0.0;
    for (Eigen::Index i = 0; i < train.rows(); ++i) {
        const double score = scores(i);
        if (withLoss) loss += logisticLoss(score, train.y(i));
        const int cell = cellOfRow(i);
        if (cell >= 0) sums(cell) += rowValue(constraint, score, train.y(i), clip);
    }
    return loss;
}

/// The test read-outs of the reported model into `metrics` (NaN when it diverged).
void measureTest(Evaluator& testEvaluator, const RowMatrix& reported, bool diverged,
                 const TrainConfig& config, EpochMetrics& metrics) {
    if (diverged) {
        metrics.testError = metrics.violation = metrics.dpGap = metrics.eoGap = metrics.eoppGap =
            metrics.ermiHard = metrics.ermiSoft = kNaN;
        return;
    }
    testEvaluator.predict(reported);
    const FairnessMetrics f = testEvaluator.fairness(config.advantagedClass);
    metrics.testError = f.error;
    metrics.setTestGaps(f, config.fairness);
    metrics.ermiHard = f.ermiHard(config.fairness);
    metrics.ermiSoft = testEvaluator.softErmi(config.fairness, config.advantagedClass);
}

/// The dual player of a run: the constraint cells of the training rows, their exact and
/// released counts, the multipliers λ, the row weights κ they give the primal steps, and the
/// dual step after each epoch (its release included). Per-cell vectors are allocated once.
class DualPlayer {
public:
    DualPlayer(const Settings& settings, const TrainConfig& config, const Dataset& train)
        : m_settings(settings),
          m_train(train),
          m_cells(config.fairness, settings.constraint, train.numGroups(), config.advantagedClass),
          m_cellOfRow(m_cells.cellsOfRows(train.y, train.s)),
          m_exactCounts(m_cells.counts(train.y, train.s)),
          m_counts(m_exactCounts),
          m_rows(static_cast<double>(train.rows())),
          m_replace(config.adjacency == privacy::Adjacency::Replace),
          m_lambda(Eigen::VectorXd::Zero(m_cells.count())),
          m_signs(Eigen::VectorXd::Zero(m_cells.count())),
          m_kappa(Eigen::VectorXd::Zero(m_cells.count())),
          m_sums(m_cells.count()),
          m_exactSums(m_cells.count()),
          m_v(m_cells.count()),
          m_vExact(m_cells.count()),
          m_batchCounts(m_cells.count()),
          m_batchSums(m_cells.count()),
          m_batchSigns(m_cells.count()),
          m_batchV(m_cells.count()) {}

    /// A private run: the counts (and n) released once with ε_count (Laplace, `countNoise`),
    /// and the noise std σ_d of the per-epoch release of the cell sums.
    void makePrivate(double countEpsilon, RandomStream& countNoise, double sigma) {
        m_counts = releaseCounts(m_exactCounts, static_cast<long>(m_train.rows()), countEpsilon,
                                 countNoise, m_rows);
        m_sigma = sigma;
    }

    const Eigen::VectorXi& cellOfRow() const { return m_cellOfRow; }
    /// The weight of each cell's rows in the primal gradient.
    const Eigen::VectorXd& kappa() const { return m_kappa; }
    /// Dual steps taken (one release each in a private run).
    long steps() const { return m_steps; }

    /// f-ld: the batch's own cells, signs and counts give the row weights κ of Σ_j λ_j |vB_j|;
    /// false when the batch misses a cell (the step is skipped, as in the reference code).
    bool batchWeights(const DesignMatrix& design, const Eigen::VectorXd& theta,
                      const std::vector<long>& indices, long b) {
        m_batchCounts.setZero();
        m_batchSums.setZero();
        for (long r = 0; r < b; ++r) {
            const long i = indices[static_cast<std::size_t>(r)];
            const int cell = m_cellOfRow(i);
            if (cell < 0) continue;
            const double score = design.X().row(i).dot(theta.transpose());
            m_batchCounts(cell) += 1.0;
            m_batchSums(cell) +=
                rowValue(m_settings.constraint, score, m_train.y(i), m_settings.dualClip);
        }
        if (b <= 0 || m_batchCounts.minCoeff() <= 0.0) return false;
        m_cells.violations(m_batchSums, m_batchCounts, m_batchV);
        for (int j = 0; j < m_cells.count(); ++j)
            m_batchSigns(j) = m_batchV(j) > 0.0 ? 1.0 : (m_batchV(j) < 0.0 ? -1.0 : 0.0);
        m_cells.weights(m_lambda, m_batchSigns, m_batchCounts, static_cast<double>(b), m_kappa);
        return true;
    }

    /// The dual step on the whole training set at θ: the per-cell sums of the clipped values
    /// (noised in a private run), the violations against the (released) counts, then λ; pf-ld's
    /// next weights from what was released. Returns the summed training loss when `withLoss`.
    /// `scores`, when given, holds every training row's score at θ (computed with other runs'):
    /// no pass of its own.
    double epochStep(const DesignMatrix& design, const Eigen::VectorXd& theta, bool withLoss,
                     RandomStream& noise, const RowMatrix* scores = nullptr) {
        const double loss =
            scores ? cellSumsOfScores(scores->col(0), m_train, m_cellOfRow, m_settings.constraint,
                                      m_settings.dualClip, withLoss, m_sums)
                   : cellSums(design, theta.transpose(), m_train, m_cellOfRow,
                              m_settings.constraint, m_settings.dualClip, withLoss, m_sums);
        m_exactSums = m_sums;
        // Per-cell sums of values in [0, C_d]: one row moves one cell by C_d, a replaced row two
        // cells (√2·C_d) or one (C_d).
        const privacy::ReleaseSpec release = privacy::ReleaseSpec::gaussian(
            "dual-cell-sums", (m_replace ? std::sqrt(2.0) : 1.0) * m_settings.dualClip, m_sigma);
        privacy::releaseGaussian(release, m_sums, noise);
        m_cells.violations(m_sums, m_counts, m_v);
        dualStep(m_v, m_settings.dualStep, m_settings.tolerance, m_lambda, m_signs);
        ++m_steps;
        if (m_settings.mode != Mode::NonPrivate)
            m_cells.weights(m_lambda, m_signs, m_counts, m_rows, m_kappa);
        return loss;
    }

    /// The summed training loss of another model (a row: the reported average), with its exact
    /// cell sums kept for the epoch's figures.
    double exactFiguresAt(const DesignMatrix& design, const RowMatrix& reported) {
        return cellSums(design, reported.row(0), m_train, m_cellOfRow, m_settings.constraint,
                        m_settings.dualClip, true, m_exactSums);
    }

    /// The metrics of an evaluated epoch of the reported model: its training figures when
    /// diagnostics are recorded (the loss `trainLoss` summed over the rows, the objective with
    /// the exact violations, the clipped share) and its test metrics.
    EpochMetrics metrics(int epoch, long step, double trainLoss, long clipped, long seen,
                         bool diagnostics, Evaluator& testEvaluator, const RowMatrix& reported,
                         bool diverged, const TrainConfig& config) {
        EpochMetrics metrics;
        metrics.epoch = epoch;
        metrics.step = step;
        if (diagnostics) {
            m_cells.violations(m_exactSums, m_exactCounts, m_vExact);
            metrics.trainLoss = trainLoss / static_cast<double>(m_train.rows());
            metrics.trainObjective = metrics.trainLoss + m_lambda.dot(m_vExact.cwiseAbs());
            metrics.clipFraction = clippedShare(clipped, seen, true);
        } else {
            metrics.trainLoss = metrics.trainObjective = metrics.clipFraction = kNaN;
        }
        measureTest(testEvaluator, reported, diverged, config, metrics);
        return metrics;
    }

private:
    const Settings& m_settings;
    const Dataset& m_train;
    const Cells m_cells;
    const Eigen::VectorXi m_cellOfRow;
    const Eigen::VectorXd m_exactCounts;
    Eigen::VectorXd m_counts;  ///< released counts in a private run, else the exact ones
    double m_rows;             ///< n, or its noisy release in a private run
    double m_sigma = 0.0;      ///< noise std of the cell sums' release
    bool m_replace;
    long m_steps = 0;
    Eigen::VectorXd m_lambda, m_signs, m_kappa;
    Eigen::VectorXd m_sums, m_exactSums, m_v, m_vExact;
    Eigen::VectorXd m_batchCounts, m_batchSums, m_batchSigns, m_batchV;  ///< f-ld's batch terms
};

}  // namespace

namespace {

/// One run of the loop, driven epoch by epoch and step by step: alone (run) or in lockstep with
/// other pf-ld runs that draw the same Poisson batches (batch-sharing by-seed: runTogether),
/// whose steps then share one pass over each batch (SharedBatchProducts). A by-seed run takes
/// that shared pass also alone, so its results do not depend on the runs beside it; a run with
/// its own sample takes its own pass (clippedGradientSum).
class LdRun {
public:
    LdRun(const std::string& algorithm, const Settings& settings, const TrainConfig& config,
          const DataSplit& data, std::shared_ptr<const DesignMatrix> design,
          std::shared_ptr<const DesignMatrix> testDesign, TrainingObserver& observer,
          const CancelToken& cancel)
        : m_algorithm(algorithm),
          m_settings(settings),
          m_config(config),
          m_data(data),
          m_isPrivate(settings.mode == Mode::Private && config.isPrivate()),
          m_batchTerm(settings.mode == Mode::NonPrivate),
          m_diagnostics(recordsDiagnostics(config)),
          // The batch loss is only shown as it goes (a sweep shows none): computed for a viewer.
          m_lossShown(observer.showsBatchLoss()),
          m_dual(m_settings, config, data.train),
          // The sampler: Poisson for pf-ld (q = m/n, ⌈1/q⌉ steps an epoch), shuffled batches
          // for f-ld.
          m_spec(SamplerSpec::overRows(m_batchTerm ? Sampling::Shuffle : Sampling::Poisson,
                                       static_cast<long>(data.train.rows()), config.batchSize,
                                       config.epochs)),
          m_stepsPerEpoch(m_spec.stepsPerEpoch()),
          m_streams(config, data.train),
          m_sampler(m_spec, m_streams.stream(streams::kSampling)),
          m_noise(m_streams.stream(streams::kNoise)),
          m_grid(privacy::OrderGrid::standard()),
          m_design(std::move(design)),
          m_testDesign(std::move(testDesign)),
          m_model(makeModelForClasses(2)),
          m_testEvaluator(data.test, *m_testDesign, *m_model),
          m_adam(data.train.features() + 1, settings.learningRate),
          m_averaging(config.averaging == IterateAveraging::PolynomialDecay),
          m_average(RowMatrix::Zero(1, data.train.features() + 1)),
          m_session(observer, cancel) {
        const Eigen::Index D = data.train.features() + 1;
        // Calibration and the privatised counts.
        m_clip = m_isPrivate ? config.clipTheta : kInf;
        if (m_isPrivate) {
            m_ledger = calibrate(config.epsilon, config.delta, m_spec.samplingRate(),
                                 m_stepsPerEpoch * config.epochs, config.epochs, settings.dualShare,
                                 settings.countShare, config.adjacency, m_grid);
            RandomStream countNoise = m_streams.stream(streams::kShares);
            m_dual.makePrivate(m_ledger.countEpsilon, countNoise,
                               m_ledger.dualMultiplier * settings.dualClip);
        }
        // The sum of per-row gradients clipped to C_p: one row moves it by C_p (twice that when
        // replaced).
        m_primalRelease = privacy::ReleaseSpec::gaussian(
            "primal-gradient",
            (config.adjacency == privacy::Adjacency::Replace ? 2.0 : 1.0) * m_clip,
            m_isPrivate ? m_ledger.primalMultiplier * m_clip : 0.0);
        // Everything the steps touch, allocated once.
        m_theta = Eigen::VectorXd::Zero(D);
        m_gradient.resize(D);
        m_indices.resize(static_cast<std::size_t>(data.train.rows()));
        m_thetaRow.resize(1, D);
        m_totalSteps = static_cast<long>(config.epochs) * m_stepsPerEpoch;
        RunResult& result = m_session.result();
        result.config = config;
        result.dataset = data.train.name;
        // Evaluated after an epoch's dual step: its steps and the dual releases done so far.
        if (m_isPrivate) {
            m_session.setEpsilonSoFar([this](long steps) {
                return m_ledger.after(steps, m_dual.steps())
                    .epsilon(m_grid, m_config.delta, m_config.adjacency)
                    .epsilon;
            });
        }
    }

    /// Starts the next epoch; false when the run is over.
    bool startEpoch() {
        if (m_over || m_stop || m_epoch >= m_config.epochs) {
            m_over = true;
            return false;
        }
        ++m_epoch;
        m_t = 0;
        return true;
    }
    /// Draws the next step's batch; false when the epoch's steps are done, or the run stopped
    /// or was cancelled.
    bool startStep() {
        if (m_stop || m_t >= m_stepsPerEpoch) return false;
        if (m_session.cancelled(m_step)) {
            m_stop = true;
            return false;
        }
        m_b = m_sampler.next(m_t, m_indices);
        m_lossSum = 0.0;
        m_update = true;
        if (m_batchTerm) m_update = m_dual.batchWeights(*m_design, m_theta, m_indices, m_b);
        return true;
    }
    /// Starts a step on a batch of `b` rows drawn for the group (the same batch this run's own
    /// sampler would draw: one stream for the group); false as startStep.
    bool startSharedStep(long b) {
        if (m_stop || m_t >= m_stepsPerEpoch) return false;
        if (m_session.cancelled(m_step)) {
            m_stop = true;
            return false;
        }
        m_b = b;
        m_lossSum = 0.0;
        m_update = true;
        return true;
    }
    /// The sampler's spec (a group's sampler draws with it, from streams()).
    const SamplerSpec& samplerSpec() const { return m_spec; }
    /// Whether the epoch's steps are all done (its dual step is due).
    bool epochDone() const { return !m_over && m_t >= m_stepsPerEpoch; }
    const Eigen::VectorXd& theta() const { return m_theta; }

    /// The step on this run's own pass over its batch.
    void ownStep() {
        if (m_update) {
            m_clipped += clippedGradientSum(
                m_settings.constraint, m_theta, m_design->X(), m_design->norms, m_data.train.y,
                m_dual.cellOfRow(), m_dual.kappa(), m_indices.data(), m_b, m_clip, m_gradient,
                m_lossSum, m_lossShown, m_design->sparseRows());
        }
        finishStep();
    }
    /// The model as one row, for the shared pass.
    const RowMatrix& thetaRow() {
        m_thetaRow.row(0) = m_theta.transpose();
        return m_thetaRow;
    }
    /// Row i's coefficient in the step's clipped sum from its score x̃_iᵀθ (the shared pass):
    /// what clippedGradientSum does for one row, short of adding the row.
    double coefficient(long i, double score) {
        double r = rowScoreGradient(m_settings.constraint, score, m_data.train.y(i), kappaOfRow(i));
        if (m_lossShown) m_lossSum += logisticLoss(score, m_data.train.y(i));
        m_clipped += clipScale(std::abs(r) * m_design->norms(i), m_clip, r);
        return r;
    }
    /// Whether the shared pass may compute this run's coefficients in lanes (ld_lanes.h): no
    /// batch loss to add up.
    bool coefficientsInLanes() const { return !m_lossShown; }
    const Dataset& trainingRows() const { return m_data.train; }
    Constraint constraint() const { return m_settings.constraint; }
    double clip() const { return m_clip; }
    /// κ of row i's cell (0 outside the cells): what coefficient() weighs the row with.
    double kappaOfRow(long i) const {
        const int cell = m_dual.cellOfRow()(i);
        return cell >= 0 ? m_dual.kappa()(cell) : 0.0;
    }
    /// Rows the lanes clipped for this run.
    void addClipped(long rows) { m_clipped += rows; }
    /// The step from the shared pass's sum of this run's coefficients times its rows.
    void sharedStep(const RowMatrix& sum) {
        m_gradient = sum.row(0).transpose();
        finishStep();
    }

    /// The epoch's dual step, evaluation and divergence check (nothing after a stop inside the
    /// epoch: the accountant charges a dual release only after a whole epoch of steps).
    /// `scores`, when given: every training row's score at θ, computed with other runs'.
    void endEpoch(const RowMatrix* scores = nullptr) {
        if (m_t < m_stepsPerEpoch) {
            m_over = true;
            return;
        }
        const int epoch = m_epoch;
        // The dual step leaves θ as it is; the exact training loss (a diagnostic) is summed
        // only in the epochs that are evaluated.
        const bool diverged = !m_theta.allFinite();
        const bool evaluated = epoch % std::max(1, m_config.evaluateEvery) == 0 ||
                               epoch == m_config.epochs || diverged || m_stop;
        double trainLoss =
            m_dual.epochStep(*m_design, m_theta, m_diagnostics && evaluated, m_noise, scores);
        if (evaluated) {
            const RowMatrix& reported = reportedRow();
            if (m_averaging && m_diagnostics && !diverged) {
                // The training figures of the model the run reports, not of the iterate.
                trainLoss = m_dual.exactFiguresAt(*m_design, reported);
            }
            const EpochMetrics metrics =
                m_dual.metrics(epoch, m_step, trainLoss, m_clipped, m_seen, m_diagnostics,
                               m_testEvaluator, reported, diverged, m_config);
            m_clipped = m_seen = 0;
            if (m_session.stopRequested(m_session.evaluated(metrics), m_step, m_totalSteps))
                m_stop = true;
        }
        if (diverged) {
            m_session.diverge("the model diverged in epoch " + std::to_string(epoch) +
                              ": lower adam-lr or dual-step");
            m_over = true;
        }
    }

    /// The released model (the last iterate, or the average of the iterates), its test
    /// read-outs and the privacy statement.
    RunResult finish() {
        RunResult& result = m_session.result();
        result.theta = reportedRow();
        if (result.theta.allFinite()) {
            m_testEvaluator.meanLoss(result.theta);
            result.test = m_testEvaluator.fairness(m_config.advantagedClass);
        } else {
            result.test = fairnessNotApplicable(static_cast<long>(m_data.test.rows()), kNaN);
        }
        result.trainLoss = result.history.empty() ? kNaN : result.history.back().trainLoss;
        if (!m_isPrivate) {
            result.privacy = privacy::nonPrivateReport(m_algorithm, result.steps);
            return m_session.finish();
        }
        describeRun(m_algorithm, result, m_ledger.after(result.steps, m_dual.steps()),
                    m_stepsPerEpoch, m_settings, m_data.train, m_streams.sharedBatches());
        return m_session.finish();
    }

    const RunStreams& streams() const { return m_streams; }
    /// Whether this run draws the batches of its seed and sampler (batch-sharing by-seed).
    bool sharesBatches() const { return !m_streams.sharedBatches().empty(); }
    /// All epochs on this run's own sample, its own pass over each batch.
    void trainOnOwnBatches() {
        while (startEpoch()) {
            while (startStep()) ownStep();
            endEpoch();
        }
    }

private:
    /// The reported (and evaluated) model: the last iterate, or the polynomial-decay average of
    /// the iterates (post-processing; the steps and the dual updates still use the iterate).
    const RowMatrix& reportedRow() {
        if (m_averaging) return m_average.value();
        m_thetaRow.row(0) = m_theta.transpose();
        return m_thetaRow;
    }

    void finishStep() {
        if (m_update) {
            m_seen += m_b;
            privacy::releaseGaussian(m_primalRelease, m_gradient, m_noise);
            // Normalised by the expected batch (pf-ld, privacy-accounting §6) or the batch.
            m_gradient /=
                m_batchTerm ? static_cast<double>(m_b) : static_cast<double>(m_config.batchSize);
            const Eigen::Index D = m_theta.size();
            if (m_config.l2 > 0.0) m_gradient.head(D - 1) += m_config.l2 * m_theta.head(D - 1);
            m_adam.step(m_theta, m_gradient);
        }
        ++m_step;
        if (m_averaging) {
            m_thetaRow.row(0) = m_theta.transpose();
            m_average.add(m_step, m_thetaRow);
        }
        StepInfo info;
        info.step = m_step;
        info.epoch = m_epoch;
        info.batchRows = m_b;
        info.batchLoss = m_b > 0 && m_lossShown ? m_lossSum / static_cast<double>(m_b) : kNaN;
        if (m_session.stepped(info)) {
            m_stop = true;
            m_session.stopRequested(true, m_step, m_totalSteps);
        }
        ++m_t;
    }

    const std::string m_algorithm;
    const Settings m_settings;
    const TrainConfig& m_config;
    const DataSplit& m_data;
    const bool m_isPrivate, m_batchTerm, m_diagnostics, m_lossShown;
    DualPlayer m_dual;
    const SamplerSpec m_spec;
    const long m_stepsPerEpoch;
    const RunStreams m_streams;
    BatchSampler m_sampler;
    RandomStream m_noise;
    const privacy::OrderGrid m_grid;
    Ledger m_ledger;
    double m_clip = kInf;
    privacy::ReleaseSpec m_primalRelease;
    const std::shared_ptr<const DesignMatrix> m_design, m_testDesign;
    const std::unique_ptr<Model> m_model;
    Evaluator m_testEvaluator;
    Eigen::VectorXd m_theta, m_gradient;
    Adam m_adam;
    std::vector<long> m_indices;
    RowMatrix m_thetaRow;
    const bool m_averaging;
    PolynomialDecayAverage m_average;
    RunSession m_session;

    long m_step = 0, m_clipped = 0, m_seen = 0, m_totalSteps = 0, m_t = 0, m_b = 0;
    int m_epoch = 0;
    double m_lossSum = 0.0;
    bool m_stop = false, m_over = false, m_update = true;
};

/// By-seed runs in lockstep. Their sampling streams are one stream (keyed by seed, sampler and
/// data), so one sampler draws each step's batch for the group, and one pass over each chunk of
/// it computes every run's scores and clipped sums; at each epoch's end one pass over the rows
/// scores every run's model for its dual step.
void runSharedTogether(const std::vector<LdRun*>& runs, const DesignMatrix& design) {
    const long n = design.X().rows();
    SharedBatchProducts products(design, static_cast<int>(runs.size()));
    BatchSampler sampler(runs.front()->samplerSpec(),
                         runs.front()->streams().stream(streams::kSampling));
    const long stepsPerEpoch = runs.front()->samplerSpec().stepsPerEpoch();
    std::vector<long> batch(static_cast<std::size_t>(n));
    RowMatrix sum(1, design.X().cols());
    std::vector<RowMatrix> scores(runs.size(), RowMatrix(n, 1));
    std::vector<RowMatrix> thetas(runs.size(), RowMatrix(1, design.X().cols()));
    std::vector<LdRun*> epoch, step;
    std::vector<const RowMatrix*> thetaRefs;
    std::vector<RowMatrix*> scoreRefs;
    std::vector<std::size_t> scored;
    // Coefficients in lanes when every run allows it and all share one constraint.
    bool inLanes = !runsOneByOne();
    for (const LdRun* run : runs)
        inLanes = inLanes && run->coefficientsInLanes() &&
                  run->constraint() == runs.front()->constraint();
    const bool rates = runs.front()->constraint() == Constraint::Rates;
    const auto capacity = runs.size();
    std::vector<double> laneKappa(capacity), laneClip(capacity), laneClipped(capacity),
        laneExp(capacity);
    const Dataset& train = runs.front()->trainingRows();
    for (;;) {
        epoch.clear();
        for (LdRun* run : runs) {
            if (run->startEpoch()) epoch.push_back(run);
        }
        if (epoch.empty()) break;
        for (long t = 0; t < stepsPerEpoch; ++t) {
            step.clear();
            const long b = sampler.next(t, batch);
            for (LdRun* run : epoch) {
                if (run->startSharedStep(b)) step.push_back(run);
            }
            if (step.empty()) break;
            const int columns = static_cast<int>(step.size());
            products.begin(columns);
            for (int c = 0; c < columns; ++c) products.setParameters(c, step[c]->thetaRow());
            for (int c = 0; inLanes && c < columns; ++c) {
                laneClip[static_cast<std::size_t>(c)] = step[c]->clip();
                laneClipped[static_cast<std::size_t>(c)] = 0.0;
            }
            const RowLanes lanes{columns, laneKappa.data(), laneClip.data(), laneClipped.data(),
                                 laneExp.data()};
            for (long c0 = 0; c0 < b; c0 += SharedBatchProducts::kChunkRows) {
                const long count = std::min(SharedBatchProducts::kChunkRows, b - c0);
                products.forward(batch, b, c0, count);
                if (inLanes) {
                    for (long k = 0; k < count; ++k) {
                        const long row = batch[static_cast<std::size_t>(c0 + k)];
                        for (int c = 0; c < columns; ++c)
                            laneKappa[static_cast<std::size_t>(c)] = step[c]->kappaOfRow(row);
                        rowCoefficients(lanes, rates, static_cast<double>(train.y(row)),
                                        design.norms(row), products.scoresOfRow(k),
                                        products.coefficientsOfRow(k));
                    }
                } else {
                    for (int c = 0; c < columns; ++c) {
                        for (long k = 0; k < count; ++k) {
                            const long row = batch[static_cast<std::size_t>(c0 + k)];
                            products.setCoefficient(
                                k, c, step[c]->coefficient(row, products.score(k, c)));
                        }
                    }
                }
                products.backward();
            }
            for (int c = 0; inLanes && c < columns; ++c)
                step[c]->addClipped(static_cast<long>(laneClipped[static_cast<std::size_t>(c)]));
            for (int c = 0; c < columns; ++c) {
                products.getGradient(c, sum);
                step[c]->sharedStep(sum);
            }
        }
        // The dual steps: one pass scoring every model that finished the epoch.
        thetaRefs.clear();
        scoreRefs.clear();
        scored.clear();
        for (std::size_t r = 0; r < epoch.size(); ++r) {
            if (!epoch[r]->epochDone()) continue;
            thetas[scored.size()].row(0) = epoch[r]->theta().transpose();
            thetaRefs.push_back(&thetas[scored.size()]);
            scoreRefs.push_back(&scores[scored.size()]);
            scored.push_back(r);
        }
        products.scoreAllRows(design, thetaRefs, scoreRefs);
        std::size_t next = 0;
        for (std::size_t r = 0; r < epoch.size(); ++r) {
            const bool hasScores = next < scored.size() && scored[next] == r;
            epoch[r]->endEpoch(hasScores ? scoreRefs[next] : nullptr);
            if (hasScores) ++next;
        }
    }
}

/// Runs of `configs` (with `settings`) on `data`: those sharing batches by seed in lockstep, the
/// others one after another; results in their order.
std::vector<RunResult> trainRuns(const std::string& algorithm,
                                 const std::vector<Settings>& settings,
                                 const std::vector<const TrainConfig*>& configs,
                                 const DataSplit& data,
                                 const std::vector<TrainingObserver*>& observers,
                                 const CancelToken& cancel) {
    const auto design = sharedDesignMatrix(data.train.X, 0.0);
    const auto testDesign = sharedDesignMatrix(data.test.X, 0.0);
    std::vector<std::unique_ptr<LdRun>> group;
    std::vector<LdRun*> shared;
    for (std::size_t k = 0; k < configs.size(); ++k) {
        group.push_back(std::make_unique<LdRun>(algorithm, settings[k], *configs[k], data, design,
                                                testDesign, *observers[k], cancel));
        if (group.back()->sharesBatches()) shared.push_back(group.back().get());
    }
    // Runs of one seed and sampler share their batches (the sweep groups them so; a run alone is
    // a group of one); the others train one after another.
    if (!shared.empty()) runSharedTogether(shared, *design);
    std::vector<RunResult> results;
    for (auto& run : group) {
        if (!run->sharesBatches()) run->trainOnOwnBatches();
        results.push_back(run->finish());
    }
    return results;
}

}  // namespace

RunResult run(const std::string& algorithm, const Settings& settings, const TrainConfig& config,
              const DataSplit& data, TrainingObserver& observer, const CancelToken& cancel) {
    return trainRuns(algorithm, {settings}, {&config}, data, {&observer}, cancel).front();
}

std::vector<RunResult> runTogether(const std::string& algorithm,
                                   const std::vector<Settings>& settings,
                                   const std::vector<PreparedConfig>& runs, const DataSplit& data,
                                   const std::vector<TrainingObserver*>& observers,
                                   const CancelToken& cancel) {
    std::vector<const TrainConfig*> configs;
    for (const PreparedConfig& run : runs) configs.push_back(&run.config());
    return trainRuns(algorithm, settings, configs, data, observers, cancel);
}

}  // namespace pfa::ld
