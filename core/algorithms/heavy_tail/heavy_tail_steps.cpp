#include "core/algorithms/heavy_tail/heavy_tail_steps.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "core/config/config_validation.h"
#include "core/config/own_setting.h"
#include "core/engine/clipping.h"
#include "core/engine/design_matrix.h"
#include "core/engine/private_run_report.h"
#include "core/privacy/noisy_release.h"
#include "core/privacy/rdp_mechanisms.h"
#include "core/privacy/run_accountant.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

namespace {

// The own settings this file reads (checked against the declarations at start).
const OwnNumber kClipNorm{"clip-norm"};
const OwnChoice kClipRule{"clip-rule"};
const OwnNumber kDomainRadius{"domain-radius"};
const OwnNumber kMomentBound{"moment-bound"};
const OwnNumber kLossCurvature{"loss-curvature"};
const OwnNumber kRidge{"ridge"};
const OwnNumber kSmoothness{"smoothness"};
const OwnNumber kSteps{"steps"};
const OwnNumber kTailIndex{"tail-index"};

/// Norm of an iterate that counts as diverged (standardised features: sensible models have
/// norms of order 1–100).
constexpr double kDivergedNorm = 1e6;

ParamSpec declaration(const std::string& name) {
    if (name == "tail-index") {
        return declare("tail-index", "Tail index k", ParamKind::Real,
                       "k: the k-th moment of the per-example gradient norms is bounded (k ≥ 2)")
            .defaultValue("2.5")
            .atLeast(2.0)
            .sweepable();
    }
    if (name == "moment-bound") {
        return declare("moment-bound", "Moment bound r_k", ParamKind::Real,
                       "r_k = (E‖∇f‖^k)^{1/k}: a PUBLIC bound given by the user, never estimated "
                       "from the private rows")
            .defaultValue("1")
            .above(0.0)
            .sweepable();
    }
    if (name == "ridge") {
        return declare("ridge", "Ridge µ", ParamKind::Real,
                       "strong convexity: (µ/2)‖w‖² is added after clipping")
            .defaultValue("0.1")
            .above(0.0)
            .sweepable();
    }
    if (name == "loss-curvature") {
        // The step count used κ = β/µ with the ridge alone, as if the squared loss had no
        // curvature of its own: on standardised features T came out ~20× too large (770 steps
        // of 19 rows instead of ~41 of 365), and the tail-calibrated clip drowned in noise.
        // Records written before the setting existed ran with the ridge alone.
        return declare("loss-curvature", "Loss curvature µ_f", ParamKind::Real,
                       "strong convexity of the squared loss itself, 2·(smallest eigenvalue of "
                       "the feature covariance): a bound you state, never read from the rows; 2 "
                       "for standardised uncorrelated features (the heavy-tailed generator's), "
                       "0 when nothing is known. κ = β/(µ_f + µ) sets the steps and step sizes")
            .defaultValue("2")
            .formerDefault("0")
            .atLeast(0.0)
            .sweepable();
    }
    if (name == "smoothness") {
        return declare("smoothness", "Smoothness β", ParamKind::Real,
                       "smoothness of the loss (2 for the squared loss on standardised features)")
            .defaultValue("2")
            .above(0.0)
            .sweepable();
    }
    if (name == "domain-radius") {
        return declare("domain-radius", "Domain radius D", ParamKind::Real,
                       "iterates are projected onto the ball of radius D around 0 (inf: none)")
            .defaultValue("inf")
            .above(0.0)
            .sweepable();
    }
    if (name == "steps") {
        return declare("steps", "Steps T", ParamKind::Integer,
                       "gradient steps, each on a fresh disjoint batch of ⌊n/T⌋ rows")
            .atLeast(1)
            .defaultValue("0")
            .automatic("0",
                       "noisy- and proximal-clipped-gd: clamp(⌈4κ ln n⌉, 1, n), κ = β/(µ_f + µ); "
                       "accelerated-clipped-gd: its rule from β, D, r_k, ε, d and n");
    }
    if (name == "clip-norm") {
        return declare("clip-norm", "Clip C", ParamKind::Real, "per-example gradient norm bound")
            .defaultValue("0")
            .above(0.0)
            .automatic("0",
                       "by the clip rule: tail-calibrated (private: the algorithm's formula in "
                       "r_k, k, ρ, n, d, T; not private: no clipping), naive (C = 1) or "
                       "worst-case (the rows' worst-case Lipschitz bound)")
            .sweepable();
    }
    if (name == "clip-rule") {
        return declare("clip-rule", "Clip rule", ParamKind::Choice,
                       "how an automatic clip norm is chosen: from the tail assumption, the "
                       "naive C = 1, or the worst-case Lipschitz bound")
            .choices({{"tail-calibrated", "Tail-calibrated",
                       "C from r_k, k, ρ, n, d and T (the heavy-tail analysis balances clipping "
                       "bias and noise)"},
                      {"naive", "Naive (C = 1)",
                       "C = 1, the hand-set clip norm of DP-SGD on standardised features: the "
                       "baseline"},
                      {"worst-case", "Worst-case Lipschitz",
                       "C = the largest gradient norm any training row can have in the domain "
                       "‖w‖ ≤ D (an unbounded domain becomes D = 10, and the iterates are "
                       "projected onto it): no clipping bias and the noise of the worst case, "
                       "the baseline the heavy-tail analysis improves on. C is read from the "
                       "private rows (standing in for a public bound): not protected"}})
            .defaultValue("tail-calibrated")
            .sweepable();
    }
    throw std::logic_error("heavyTailParameter: unknown setting '" + name + "'");
}

}  // namespace

ParamSpec heavyTailParameter(const std::string& name) { return ownParameter(declaration(name)); }

TrainConfig StronglyConvexHeavyTailAlgorithm::resolve(const TrainConfig& requested,
                                                      const DataSplit& data) const {
    return resolveStronglyConvexSchedule(resolveDefaults(requested, data), data);
}

std::vector<ParamSpec> heavyTailParameters(const std::vector<std::string>& names) {
    std::vector<ParamSpec> list;
    for (const std::string& name : names) list.push_back(heavyTailParameter(name));
    return list;
}

double clippedMeanBiasBound(double momentBound, double tailIndex, double clip) {
    if (std::isinf(clip)) return 0.0;
    // Clipping moves a gradient towards 0 by at most its norm: the bias is at most E‖g‖ ≤ r_k
    // (Jensen), whatever C. The tail bound alone grows without limit as C shrinks (211 at
    // C = 1, r_k = 10, k = 2.5), and accelerated-clipped-gd's step rule, which reads it, then
    // took steps so small that the model never left 0.
    if (clip <= 0.0) return momentBound;
    return std::min(momentBound, std::pow(momentBound, tailIndex) /
                                     ((tailIndex - 1.0) * std::pow(clip, tailIndex - 1.0)));
}

double clippedMeanVarianceBound(double dimension, double sigma, double secondMoment,
                                double batchRows) {
    return dimension * sigma * sigma + secondMoment * secondMoment / batchRows;
}

double heavyTailSigma(double clip, long batchRows, double rho) {
    if (std::isinf(rho)) return 0.0;
    return 2.0 * clip / (static_cast<double>(batchRows) * std::sqrt(2.0 * rho));
}

double ruleRadius(const TrainConfig& config) {
    const double radius = kDomainRadius(config);
    return std::isfinite(radius) ? radius : 10.0;
}

double worstCaseLipschitz(const Dataset& train, double radius) {
    const Eigen::VectorXd y = regressionTargets(train);
    double largest = 0.0;
    for (Eigen::Index i = 0; i < train.rows(); ++i) {
        const double norm = std::sqrt(train.X.row(i).squaredNorm() + 1.0);
        largest = std::max(largest, 2.0 * (std::abs(y(i)) + radius * norm) * norm);
    }
    return largest;
}

void applyRuleClip(TrainConfig& c, double tailCalibrated, const DataSplit& data) {
    const std::string rule = kClipRule(c);
    double clip = c.isPrivate() ? tailCalibrated : std::numeric_limits<double>::infinity();
    if (rule == "naive") clip = 1.0;
    if (rule == "worst-case") {
        // A worst-case Lipschitz constant exists only on a bounded domain: an unbounded one
        // becomes the rule radius, onto which the iterates are then projected too.
        const double radius = ruleRadius(c);
        c.extra["domain-radius"] = realText(radius);
        clip = worstCaseLipschitz(data.train, radius);
        c.extra["clip-norm"] = realText(clip);
        c.readFromData.push_back(
            {"clip-norm", c.extra["clip-norm"],
             "the worst-case Lipschitz bound of the training rows, max_i 2(|y_i| + D‖x̃_i‖)‖x̃_i‖ "
             "with D = " +
                 formatNumber(radius),
             /*readsContent=*/true});
        return;
    }
    c.extra["clip-norm"] = realText(clip);
}

void validateHeavyTailRun(const TrainConfig& config, const DataSplit& data) {
    requireNoFairness(config);
    const long n = static_cast<long>(data.train.rows());
    if (static_cast<long>(kSteps(config)) > n) {
        throw InputError("steps = " + formatNumber(kSteps(config)) +
                         " is invalid: at most one step per training row (" + std::to_string(n) +
                         ")");
    }
}

TrainConfig resolveStronglyConvexSchedule(TrainConfig c, const DataSplit& data) {
    const double n = static_cast<double>(data.train.rows());
    const double d = static_cast<double>(data.train.features() + 1);  // with the intercept
    if (kSteps(c) == 0) {
        const double kappa = kSmoothness(c) / (kLossCurvature(c) + kRidge(c));
        const double t = std::clamp(std::ceil(4.0 * kappa * std::log(n)), 1.0, n);
        c.extra["steps"] = std::to_string(static_cast<long>(t));
    }
    if (kClipNorm(c) == 0) {
        const double t = kSteps(c);
        const double k = kTailIndex(c);
        const double tailClip =
            c.isPrivate() ? kMomentBound(c) * std::pow(2.0 * privacy::zcdpRho(c.epsilon, c.delta) *
                                                           n * n / (d * t),
                                                       1.0 / (2.0 * k))
                          : std::numeric_limits<double>::infinity();
        applyRuleClip(c, tailClip, data);
    }
    return c;
}

AcceleratedIterates::AcceleratedIterates(Eigen::Index dimension, double etaBar, double radius)
    : m_etaBar(etaBar),
      m_radius(radius),
      m_w(Eigen::VectorXd::Zero(dimension)),
      m_ag(Eigen::VectorXd::Zero(dimension)),
      m_md(Eigen::VectorXd::Zero(dimension)) {}

const Eigen::VectorXd& AcceleratedIterates::query(long t) {
    const double alpha = 2.0 / (static_cast<double>(t) + 1.0);
    m_md = (1.0 - alpha) * m_ag + alpha * m_w;
    return m_md;
}

void AcceleratedIterates::update(long t, const Eigen::VectorXd& g) {
    const double alpha = 2.0 / (static_cast<double>(t) + 1.0);
    // α/η_t with η_t = 4η̄/(t(t+1)) is t/(2η̄).
    m_w -= (static_cast<double>(t) / (2.0 * m_etaBar)) * g;
    if (std::isfinite(m_radius) && m_w.norm() > m_radius) m_w *= m_radius / m_w.norm();
    m_ag = alpha * m_w + (1.0 - alpha) * m_ag;
}

void softThresholdAndProject(Eigen::VectorXd& w, double threshold, double radius) {
    if (threshold > 0.0) {
        for (Eigen::Index i = 0; i + 1 < w.size(); ++i) {
            const double v = w(i);
            w(i) = v > threshold ? v - threshold : (v < -threshold ? v + threshold : 0.0);
        }
    }
    if (std::isfinite(radius) && w.norm() > radius) w *= radius / w.norm();
}

std::optional<RateShape> stronglyConvexHeavyTailRate(const RateInputs& in) {
    const double n = in.n, d = in.d;
    if (n <= 0.0 || d <= 0.0) return std::nullopt;
    const double k = in.numberSetting("tail-index", 2.0);
    if (!(k > 1.0)) return std::nullopt;
    return RateShape{
        "heavy tails, strongly convex (k = " + formatNumber(k) + "): 1/n + (√d/(ε n))^{(2k−2)/k}",
        [=](double eps) {
            return 1.0 / n + std::pow(std::sqrt(d) / (eps * n), (2.0 * k - 2.0) / k);
        }};
}

HeavyTailRun::HeavyTailRun(const Algorithm& algorithm, const PreparedConfig& prepared,
                           const DataSplit& data, TrainingObserver& observer,
                           const CancelToken& cancel, double ridge,
                           std::function<double(const Eigen::VectorXd&)> penalty)
    : m_algorithm(algorithm),
      m_config(prepared.config()),
      m_data(data),
      m_session(observer, cancel),
      m_penalty(std::move(penalty)),
      m_n(data.train.rows()),
      m_d(data.train.features()),
      m_streams(prepared.config(), data.train),
      m_noise(m_streams.stream(streams::kNoise)) {
    m_T = static_cast<long>(kSteps(m_config));
    m_s = static_cast<long>(m_n) / m_T;
    m_clip = kClipNorm(m_config);
    m_rho = m_config.isPrivate() ? privacy::zcdpRho(m_config.epsilon, m_config.delta) : INFINITY;
    // Replace-one: the mean of s clipped gradients moves by at most 2C/s; one release per row.
    m_sigma = m_config.isPrivate() ? heavyTailSigma(m_clip, m_s, m_rho) : 0.0;

    m_inputs.unit = data.train.unitName;
    m_inputs.adjacency = privacy::Adjacency::Replace;
    m_inputs.kind = privacy::ReleaseKind::Gaussian;
    m_inputs.samplingRate = 1.0;
    m_inputs.noiseMultiplier = m_sigma * static_cast<double>(m_s) / (2.0 * m_clip);  // = 1/√(2ρ)
    m_inputs.sensitivity = "2C (replace-one difference of a batch's clipped gradient sums)";
    m_inputs.stepsPerRelease =
        m_T;  // disjoint batches: each row is in one release (parallel composition)
    m_inputs.delta = m_config.delta;
    // Each row is in one release: the ε after any number of steps is that of one.
    if (m_config.isPrivate()) {
        const double epsilon = privacy::RunAccountant(m_inputs).after(1).epsilon;
        m_session.setEpsilonSoFar([epsilon](long) { return epsilon; });
    }

    m_session.result().config = m_config;
    m_session.result().dataset = data.train.name;
    m_y = regressionTargets(data.train);
    m_xi.resize(m_d + 1);
    // A data-independent permutation cut into T disjoint batches of s rows.
    RandomStream sampling = m_streams.stream(streams::kSampling);
    m_order.resize(static_cast<std::size_t>(m_n));
    std::iota(m_order.begin(), m_order.end(), Eigen::Index{0});
    for (std::size_t i = m_order.size() - 1; i > 0; --i)
        std::swap(m_order[i], m_order[sampling.uniformIndex(i + 1)]);
    // The non-private reference (display only): the exact optimum of the same objective.
    m_reference = excessRiskReference(data.train, data.test, ridge);
    // Up to 50 evaluations of train and test MSE: in O(d²) each from the rows' factors.
    m_testFactor = regressionFactorFor(data.test);
    if (recordsDiagnostics(m_config)) m_trainFactor = regressionFactorFor(data.train);
}

void HeavyTailRun::noisyGradient(long t, const Eigen::VectorXd& w, Eigen::VectorXd& g) {
    const Dataset& train = m_data.train;
    g.setZero();
    m_batchLoss = 0.0;
    // The batch's rows are scattered (a permutation): each is requested a few rows ahead.
    constexpr long kAhead = 4;
    const Eigen::Index* batch = m_order.data() + t * m_s;
    for (long j = 0; j < std::min(kAhead, m_s); ++j) prefetchRow(train.X, batch[j]);
    for (long j = 0; j < m_s; ++j) {
        if (j + kAhead < m_s) prefetchRow(train.X, batch[j + kAhead]);
        const Eigen::Index row = batch[j];
        m_xi.head(m_d) = train.X.row(row).transpose();
        m_xi(m_d) = 1.0;
        const double residual = w.dot(m_xi) - m_y(row);
        m_batchLoss += residual * residual;
        const double norm = 2.0 * std::abs(residual) * m_xi.norm();
        double scale = 2.0 * residual;
        m_clippedSince += clipScale(norm, m_clip, scale);
        g += scale * m_xi;
    }
    m_seenSince += m_s;
    g /= static_cast<double>(m_s);
    // replace-one, disjoint batch
    const privacy::ReleaseSpec release = privacy::ReleaseSpec::gaussian(
        "batch-gradient", 2.0 * m_clip / static_cast<double>(m_s), m_sigma);
    privacy::releaseGaussian(release, g, m_noise);
}

bool HeavyTailRun::diverged(long t, const Eigen::VectorXd& iterate) {
    // A check on the released iterate alone (post-processing, no privacy cost).
    if (iterate.allFinite() && iterate.norm() <= kDivergedNorm) return false;
    m_session.diverge("the iterate's norm exceeded " + formatNumber(kDivergedNorm) + " at step " +
                      std::to_string(t + 1) + ": " + m_divergenceHint);
    return true;
}

bool HeavyTailRun::report(long t, const Eigen::VectorXd& reported) {
    EpochMetrics m;
    m.epoch = static_cast<int>(m_session.result().history.size()) + 1;
    m.step = t + 1;
    const bool diagnostics = recordsDiagnostics(m_config);
    m.testError = evaluationMse(m_testFactor.get(), m_data.test, reported);
    // Training-set diagnostics: the loss on the private rows, and the excess risk over the
    // exact fit of the private rows (both only when diagnostics are recorded).
    m.trainLoss = diagnostics ? evaluationMse(m_trainFactor.get(), m_data.train, reported) : NAN;
    m.trainObjective = diagnostics ? m.trainLoss + (m_penalty ? m_penalty(reported) : 0.0) : NAN;
    m.excessRisk = diagnostics ? m.testError - m_reference.optimumMse : NAN;
    m.violation = m.dpGap = m.eoGap = m.eoppGap = m.ermiHard = m.ermiSoft = NAN;
    m.clipFraction = clippedShare(m_clippedSince, m_seenSince, diagnostics);
    m_clippedSince = m_seenSince = 0;
    return m_session.evaluated(m);
}

RunResult HeavyTailRun::finish(const Eigen::VectorXd& reported, const std::string& postProcessing,
                               const std::string& calibration) {
    RunResult& result = m_session.result();
    result.theta = RowMatrix(1, m_d + 1);
    result.theta.row(0) = reported.transpose();
    if (m_session.diverged()) {
        result.regression.known = true;
    } else {
        result.regression = evaluateRegression(m_data.test, reported);
        if (recordsDiagnostics(m_config)) m_reference.apply(result.regression);
    }
    result.test =
        fairnessNotApplicable(static_cast<long>(m_data.test.rows()), result.regression.testMse);
    result.trainLoss =
        recordsDiagnostics(m_config) ? evaluateRegression(m_data.train, reported).testMse : NAN;

    // What a clip-norm sweep overlays: the bias and variance bounds of one noisy clipped mean
    // at this run's C, σ and s (r₂ ≤ r_k for k ≥ 2), from public settings only.
    const double rk = kMomentBound(m_config), k = kTailIndex(m_config);
    result.theoryInputs["tail_index"] = k;
    result.theoryInputs["moment_bound"] = rk;
    result.theoryInputs["clip"] = m_clip;
    result.theoryInputs["sigma"] = m_sigma;
    result.theoryInputs["batch_rows"] = static_cast<double>(m_s);
    result.theoryInputs["steps"] = static_cast<double>(m_T);
    result.theoryInputs["bias_bound"] = clippedMeanBiasBound(rk, k, m_clip);
    result.theoryInputs["variance_bound"] = clippedMeanVarianceBound(
        static_cast<double>(m_d + 1), m_sigma, rk, static_cast<double>(m_s));

    if (!m_config.isPrivate()) {
        result.privacy = privacy::nonPrivateReport(m_algorithm.name(), result.steps);
        return m_session.finish();
    }
    const privacy::RunAccountant accountant(m_inputs);
    describePrivateRun(result, accountant, m_data.train);
    privacy::PrivacyReport& report = result.privacy;
    report.algorithm = m_algorithm.name();
    report.calibration =
        "σ = 2C/(s·√(2ρ)) from the zCDP calibration ρ(ε, δ) of the target ε; the ε stated is the "
        "RDP "
        "accountant's for that σ (≤ target). " +
        calibration + " r_k = " + formatNumber(rk) + " and k = " + formatNumber(k) +
        " are public constants given by the user. The privacy guarantee does not depend on them: "
        "clipping "
        "bounds each row's influence whatever the data's tails. The accuracy analysis does: it "
        "assumes "
        "E‖∇f‖^k ≤ r_k^k, which no r_k satisfies when the data have no finite k-th moment "
        "(Student-t "
        "features with ν ≤ k; with ν ≤ 2 not even the variance is finite)";
    report.mechanism = "Gaussian, one release per row (disjoint batches, parallel composition)";
    report.sampling = "one pass over a data-independent permutation in " + std::to_string(m_T) +
                      " disjoint batches of " + std::to_string(m_s) + " rows";
    report.samplingRate = 1.0;
    report.expectedBatch = m_s;
    report.adjacency = "replace-one";
    report.noiseMultiplier = report.noiseMultiplierTheta = m_inputs.noiseMultiplier;
    report.sigmaTheta = m_sigma;
    report.clipTheta = m_clip;
    report.clipDescription = "C = " + formatNumber(m_clip) +
                             " per example (squared-loss gradient, intercept included; clip rule " +
                             kClipRule(m_config) + ")";
    report.protectedData = "every column of each training row (features and target)";
    report.postProcessing = postProcessing;
    for (const DataDerivedSetting& setting : m_config.readFromData) {
        if (setting.name != "clip-norm") continue;
        // The worst-case rule's C depends on the largest row: neighbouring data sets can get
        // different noise scales, so the accountant's ε holds only for a C fixed in advance.
        // Nothing is certified; the value for a public C is kept beside, as a heuristic.
        report.warnings.push_back(
            "C = " + formatNumber(m_clip) +
            " was read from the private training rows (their worst-case Lipschitz bound, "
            "standing in for a public bound on the data's domain): the ε shown is the one a C "
            "fixed before seeing the data would have, not a guarantee for this run");
        privacy::keepAccountingAsHeuristic(report);
    }
    if (recordsDiagnostics(m_config)) {
        report.disclose(
            "the excess risk, measured against the exact non-private least-squares "
            "fit of the training rows (its test MSE is recorded too)",
            {"history.excess_risk", "regression.optimum_mse", "regression.excess_risk"},
            /*diagnostic=*/true);
    }
    report.statement = privacy::renderPrivacyStatement(report, "", "");
    return m_session.finish();
}

}  // namespace pfa
