#pragma once

// The pieces the heavy-tail regression algorithms share (noisy-clipped-gd,
// accelerated-clipped-gd, proximal-clipped-gd): their common settings, declared once; the
// zCDP calibration of one noisy clipped mean per disjoint batch; the batch loop's bookkeeping
// (cancellation, divergence, progress, evaluation with the exact excess risk); and the privacy
// statement. Each algorithm keeps only its update rule and its T and C rules.
#include <Eigen/Core>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/config/algorithm.h"
#include "core/config/parameters.h"
#include "core/config/run_result.h"
#include "core/data/dataset.h"
#include "core/engine/evaluator.h"
#include "core/engine/regression_factor.h"
#include "core/engine/run_session.h"
#include "core/engine/run_streams.h"
#include "core/privacy/accounting_inputs.h"
#include "core/util/random.h"

namespace pfa {

/// The declaration of a setting the heavy-tail algorithms share: "tail-index", "moment-bound",
/// "ridge", "loss-curvature", "smoothness", "domain-radius", "steps", "clip-norm" or
/// "clip-rule" (throws
/// std::logic_error for another name). One declaration, so every algorithm that reads the
/// name reads the same setting.
ParamSpec heavyTailParameter(const std::string& name);
/// The family's settings called `names`, in that order (see heavyTailParameter).
std::vector<ParamSpec> heavyTailParameters(const std::vector<std::string>& names);

/// Bias bound of one clipped mean when only the k-th moment r_k = (E‖g‖^k)^{1/k} is bounded:
/// min(r_k, r_k^k / ((k−1) C^{k−1})) (k > 1; r_k for C = 0, 0 for C = ∞): the tail bound, and
/// never more than E‖g‖ ≤ r_k, since clipping moves a gradient towards 0 by at most its norm.
double clippedMeanBiasBound(double momentBound, double tailIndex, double clip);

/// Variance bound of one noisy clipped mean of s rows in dimension d: d σ² + r₂²/s.
double clippedMeanVarianceBound(double dimension, double sigma, double secondMoment,
                                double batchRows);

/// σ of the Gaussian noise on the mean of s per-example gradients clipped to C, one release per
/// row, under replace-one neighbours (sensitivity 2C/s): σ = 2C/(s √(2ρ)). 0 when ρ = ∞.
double heavyTailSigma(double clip, long batchRows, double rho);

/// The radius the step and clip rules use: the domain radius D, or 10 when the domain is
/// unbounded [ours] (the distance from w₀ = 0 to the optimum is of order 1–10 for standardised
/// features).
double ruleRadius(const TrainConfig& config);

/// The worst-case Lipschitz bound of the squared loss (wᵀx̃ − y)² over the training rows and the
/// ball ‖w‖ ≤ D around w₀ = 0: max_i sup ‖2(wᵀx̃_i − y_i)x̃_i‖ = max_i 2(|y_i| + D‖x̃_i‖)‖x̃_i‖
/// (x̃ with the intercept). Read from the rows: a stand-in for a public bound on the domain.
double worstCaseLipschitz(const Dataset& train, double radius);

/// Sets an automatic "clip-norm" by the "clip-rule": "tail-calibrated" gives `tailCalibrated`
/// (the algorithm's formula; +∞, no clipping, when the run is not private), "naive" gives 1
/// (the hand-set C of DP-SGD on standardised features), "worst-case" the worst-case Lipschitz
/// bound of the training rows on the domain ‖w‖ ≤ D (no clipping bias, the noise of the worst
/// case), which is named in `readFromData` (it reads the rows' values); an unbounded domain
/// becomes D = ruleRadius (set as the run's domain radius, so the iterates stay in it).
void applyRuleClip(TrainConfig& c, double tailCalibrated, const DataSplit& data);

/// The heavy-tail algorithms' data rule: no fairness weight, and at most one step per training
/// row (each step takes a fresh disjoint batch). Throws InputError naming the value.
void validateHeavyTailRun(const TrainConfig& config, const DataSplit& data);

/// The strongly convex schedule (§4.1, also the proximal loop's): automatic T = clamp(⌈4κ ln n⌉,
/// 1, n) with κ = β/(µ_f + µ), then automatic C by the clip rule, the tail-calibrated C being
/// r_k·(2ρ n²/(d T))^{1/(2k)} (d with the intercept). `c` has its defaults resolved.
TrainConfig resolveStronglyConvexSchedule(TrainConfig c, const DataSplit& data);

/// The rate of the strongly convex heavy-tail algorithms (noisy- and proximal-clipped-gd) at the
/// run's tail index k ("tail-index", 2 when absent): 1/n + (√d/(εn))^{(2k−2)/k}.
std::optional<RateShape> stronglyConvexHeavyTailRate(const RateInputs& in);

/// What every heavy-tail algorithm declares alike: private, regression, the family's data rule
/// (validateHeavyTailRun). An algorithm adds its name, settings, schedule and step.
class HeavyTailAlgorithm : public Algorithm {
public:
    AlgorithmCapabilities capabilities() const override {
        return {.privacy = true,
                .task = Task::Regression,
                .progressUnit = "step",
                .progressSetting = "steps"};
    }
    void validate(const TrainConfig& config, const DataSplit& data) const override {
        validateHeavyTailRun(config, data);
    }
};

/// A heavy-tail algorithm for strongly convex losses (noisy- and proximal-clipped-gd): the
/// strongly convex schedule (resolveStronglyConvexSchedule) and rate
/// (stronglyConvexHeavyTailRate).
class StronglyConvexHeavyTailAlgorithm : public HeavyTailAlgorithm {
public:
    TrainConfig resolve(const TrainConfig& requested, const DataSplit& data) const override;
    std::optional<RateShape> theoryRate(const RateInputs& in) const override {
        return stronglyConvexHeavyTailRate(in);
    }
};

/// The iterates of the accelerated stochastic approximation loop for smooth convex losses:
/// w_ag = w = 0; at step t = 1 … T, with α = 2/(t+1) and η_t = 4η̄/(t(t+1)),
///     w_md = (1−α) w_ag + α w              (query(t): where the gradient g is taken)
///     w    = proj(w − (α/η_t) g, 0, D)     (update(t, g); α/η_t = t/(2η̄))
///     w_ag = α w + (1−α) w_ag
/// and w_ag is the output. With exact gradients of a β-smooth convex loss and η̄ ≥ 2β the gap
/// of w_ag shrinks like 1/T². No allocation after construction.
class AcceleratedIterates {
public:
    /// `radius` = D (∞: no projection).
    AcceleratedIterates(Eigen::Index dimension, double etaBar, double radius);
    /// w_md of step t (1-based).
    const Eigen::VectorXd& query(long t);
    /// The step t (1-based) with gradient `g` taken at query(t).
    void update(long t, const Eigen::VectorXd& g);
    const Eigen::VectorXd& output() const { return m_ag; }  ///< w_ag
    const Eigen::VectorXd& iterate() const { return m_w; }  ///< w

private:
    double m_etaBar, m_radius;
    Eigen::VectorXd m_w, m_ag, m_md;
};

/// The soft-threshold prox of λ‖·‖₁ on the feature weights (the last coordinate, the
/// intercept, is not penalised), then the projection onto the ball of radius D around 0 (∞:
/// none): the prox of λ‖w_{1:d}‖₁ + the ball's indicator, in place.
void softThresholdAndProject(Eigen::VectorXd& w, double threshold, double radius);

/// One run of a heavy-tail algorithm: T disjoint batches of s = ⌊n/T⌋ rows of a
/// data-independent permutation, per-example squared-loss gradients clipped to C, Gaussian
/// noise of std σ = 2C/(s√(2ρ)) on each batch mean. The algorithm drives the loop:
///
///     HeavyTailRun run(...);
///     for (long t = 0; t < run.steps(); ++t) {
///         if (run.cancelled(t)) break;
///         run.noisyGradient(t, query, g);   // + its own update
///         if (!run.afterStep(t, iterate, [&] { return reportedModel; })) break;
///     }
///     return run.finish(reportedModel, postProcessing);
class HeavyTailRun {
public:
    /// Reads T ("steps"), C ("clip-norm"), ε and δ of the resolved configuration. `ridge` is
    /// the µ of the algorithm's (µ/2)‖w‖² term (0: none): the exact optimum the excess risk is
    /// measured against has the same term. `penalty(w)` is the rest of the training objective
    /// besides the mean squared loss (shown as the training objective; may be null).
    HeavyTailRun(const Algorithm& algorithm, const PreparedConfig& prepared, const DataSplit& data,
                 TrainingObserver& observer, const CancelToken& cancel, double ridge,
                 std::function<double(const Eigen::VectorXd&)> penalty);

    Eigen::Index dimension() const { return m_d + 1; }  ///< model size: d weights and the intercept
    long steps() const { return m_T; }
    long batchRows() const { return m_s; }
    double clip() const { return m_clip; }
    double sigma() const { return m_sigma; }
    double rho() const { return m_rho; }

    /// Whether cancellation was requested before step t (0-based); marks the result then.
    bool cancelled(long t) { return m_session.cancelled(t); }

    /// g ← (1/s) Σ_{rows of batch t} clip(∇(⟨w, x̃⟩ − y)², C) + N(0, σ² I): the noisy clipped
    /// mean of batch t (0-based). No allocation.
    void noisyGradient(long t, const Eigen::VectorXd& w, Eigen::VectorXd& g);

    /// After step t (0-based): stops on a diverged `iterate` (with `divergenceHint` in the
    /// message), reports the step, and every ~T/50 steps evaluates the model `reported()`
    /// would release (train MSE, test MSE, excess risk over the exact optimum, clip fraction).
    /// False when the loop must stop (diverged, or the observer asked to stop).
    template <typename Reported>
    bool afterStep(long t, const Eigen::VectorXd& iterate, Reported&& reported);

    /// The result of the run for the released model `reported`, with its privacy statement.
    /// `postProcessing` says which model is released (average, last iterate, …);
    /// `calibration` what set T and C (appended to the σ calibration).
    RunResult finish(const Eigen::VectorXd& reported, const std::string& postProcessing,
                     const std::string& calibration);

    /// The message used when an iterate diverges (names the settings that help).
    void setDivergenceHint(std::string hint) { m_divergenceHint = std::move(hint); }

private:
    bool diverged(long t, const Eigen::VectorXd& iterate);
    bool report(long t, const Eigen::VectorXd& reported);

    const Algorithm& m_algorithm;
    const TrainConfig& m_config;
    const DataSplit& m_data;
    RunSession m_session;
    std::function<double(const Eigen::VectorXd&)> m_penalty;
    Eigen::Index m_n = 0, m_d = 0;
    long m_T = 1, m_s = 1;
    double m_clip = 0.0, m_rho = 0.0, m_sigma = 0.0;
    privacy::AccountingInputs m_inputs;
    Eigen::VectorXd m_y, m_xi;
    std::vector<Eigen::Index> m_order;
    RunStreams m_streams;
    RandomStream m_noise;
    ExcessRiskReference m_reference;
    // The rows' factors for the evaluations during the run (null: a pass over the rows).
    std::shared_ptr<const RegressionFactor> m_trainFactor, m_testFactor;
    long m_clippedSince = 0, m_seenSince = 0;
    double m_batchLoss = 0.0;
    std::string m_divergenceHint;
};

template <typename Reported>
bool HeavyTailRun::afterStep(long t, const Eigen::VectorXd& iterate, Reported&& reported) {
    m_session.result().steps = t + 1;  // a diverged step counts: its noise was drawn
    if (diverged(t, iterate)) return false;
    StepInfo info;
    info.step = t + 1;
    info.epoch = 1;
    info.batchRows = m_s;
    info.batchLoss = m_batchLoss / static_cast<double>(m_s);
    bool stop = m_session.stepped(info);
    if (RunSession::evaluationDue(t + 1, m_T, m_config.evaluateEvery))
        stop = report(t, reported()) || stop;
    return !m_session.stopRequested(stop, t + 1, m_T);
}

}  // namespace pfa
