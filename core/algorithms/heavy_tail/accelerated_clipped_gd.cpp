// accelerated-clipped-gd: accelerated noisy clipped gradient descent for linear regression on
// heavy-tailed data (thesis-algorithms.md §4.2, smooth convex version): one pass over T disjoint
// batches of s = ⌊n/T⌋ rows, the squared-loss gradient at w_md clipped per example to C, Gaussian
// noise σ = 2C/(s√(2ρ)) on each batch mean (zCDP, one release per row), the accelerated
// stochastic approximation steps (AcceleratedIterates) and the output w_ag. T, C and η̄ follow
// §4.2; the ε stated is the RDP accountant's for what ran.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/algorithms/heavy_tail/heavy_tail_steps.h"
#include "core/config/algorithm.h"
#include "core/config/config_validation.h"
#include "core/config/own_setting.h"
#include "core/privacy/rdp_mechanisms.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

namespace {

// The own settings this file reads (checked against the declarations at start).
const OwnNumber kClipNorm{"clip-norm"};
const OwnChoice kClipRule{"clip-rule"};
const OwnNumber kDomainRadius{"domain-radius"};
const OwnNumber kMomentBound{"moment-bound"};
const OwnNumber kSmoothness{"smoothness"};
const OwnNumber kSteps{"steps"};
const OwnNumber kTailIndex{"tail-index"};

class AcceleratedClippedGd final : public HeavyTailAlgorithm {
public:
    std::string name() const override { return "accelerated-clipped-gd"; }
    std::string description() const override {
        return "Linear regression for heavy-tailed data: one pass of accelerated noisy clipped "
               "gradient "
               "descent over disjoint batches, for smooth convex losses (differentially private "
               "per "
               "training row).";
    }
    std::vector<ParamSpec> parameters() const override {
        return commonParameters(
            {"epsilon", "delta", "seed", "evaluate-every", "secure-noise", "diagnostics"},
            heavyTailParameters({"tail-index", "moment-bound", "smoothness", "domain-radius",
                                 "steps", "clip-norm", "clip-rule"}));
    }

    TrainConfig resolve(const TrainConfig& requested, const DataSplit& data) const override {
        TrainConfig c = resolveDefaults(requested, data);
        const double n = static_cast<double>(data.train.rows());
        const double d = static_cast<double>(data.train.features() + 1);  // with the intercept
        const double k = kTailIndex(c), rk = kMomentBound(c);
        const double beta = kSmoothness(c), D = ruleRadius(c);
        const double epsilonZ =
            c.isPrivate() ? std::sqrt(2.0 * privacy::zcdpRho(c.epsilon, c.delta)) : INFINITY;
        if (kSteps(c) == 0) {
            // T = min{(βD/r_k)^{2k/(5k−1)} (ε_z n/√d)^{(2k−2)/(5k−1)}, √(βD/r_k) n^{1/4}} (the
            // first term is ∞ without privacy), clamped to [1, n].
            const double ratio = beta * D / rk;
            const double privateTerm =
                std::pow(ratio, 2.0 * k / (5.0 * k - 1.0)) *
                std::pow(epsilonZ * n / std::sqrt(d), (2.0 * k - 2.0) / (5.0 * k - 1.0));
            const double statisticalTerm = std::sqrt(ratio) * std::pow(n, 0.25);
            const double t = std::clamp(std::ceil(std::min(privateTerm, statisticalTerm)), 1.0, n);
            c.extra["steps"] = std::to_string(static_cast<long>(t));
        }
        if (kClipNorm(c) == 0) {
            const double t = kSteps(c);
            const double tailClip = rk * std::pow(epsilonZ * n / (std::sqrt(d) * t), 1.0 / k);
            applyRuleClip(c, tailClip, data);
        }
        return c;
    }

    /// η̄ = max(2β, T^{3/2} √(Σ² + B²)/D) with B = r_k^k/((k−1)C^{k−1}) and Σ² = dσ² + r₂²T/n
    /// (r₂ ≤ r_k).
    static double etaBar(const TrainConfig& c, const HeavyTailRun& run, double n) {
        const double k = kTailIndex(c), rk = kMomentBound(c);
        const double T = static_cast<double>(run.steps());
        const double bias = clippedMeanBiasBound(rk, k, run.clip());
        const double variance =
            static_cast<double>(run.dimension()) * run.sigma() * run.sigma() + rk * rk * T / n;
        return std::max(2.0 * kSmoothness(c),
                        std::pow(T, 1.5) * std::sqrt(variance + bias * bias) / ruleRadius(c));
    }

    /// Heavy tails, smooth convex, at the run's tail index k (2 when absent): 1/√n +
    /// max{((βD/r_k)^{1/4} √d/(εn))^{4(k−1)/(5k−1)}, (√d/(εn))^{(k−1)/k}} with the run's β, r_k
    /// and D (D = 10 when the domain is unbounded, as the algorithm's own rules).
    std::optional<RateShape> theoryRate(const RateInputs& in) const override {
        const double n = in.n, d = in.d;
        if (n <= 0.0 || d <= 0.0) return std::nullopt;
        const double k = in.numberSetting("tail-index", 2.0);
        if (!(k > 1.0)) return std::nullopt;
        const double beta = in.numberSetting("smoothness", 2.0),
                     rk = in.numberSetting("moment-bound", 1.0);
        double radius = in.numberSetting("domain-radius", INFINITY);
        if (!std::isfinite(radius)) radius = 10.0;
        if (!(beta > 0.0) || !(rk > 0.0)) return std::nullopt;
        const double ratio = std::pow(beta * radius / rk, 0.25);
        return RateShape{
            "heavy tails, smooth convex, accelerated (k = " + formatNumber(k) +
                "): 1/√n + max{((βD/r_k)^{1/4}√d/(ε n))^{4(k−1)/(5k−1)}, (√d/(ε n))^{(k−1)/k}}",
            [=](double eps) {
                const double first =
                    std::pow(ratio * std::sqrt(d) / (eps * n), 4.0 * (k - 1.0) / (5.0 * k - 1.0));
                const double second = std::pow(std::sqrt(d) / (eps * n), (k - 1.0) / k);
                return 1.0 / std::sqrt(n) + std::max(first, second);
            }};
    }

    RunResult run(const PreparedConfig& prepared, const DataSplit& data, TrainingObserver& observer,
                  const CancelToken& cancel) const override {
        const TrainConfig& config = prepared.config();
        HeavyTailRun run(*this, prepared, data, observer, cancel, 0.0, nullptr);
        run.setDivergenceHint(
            "the accelerated steps t/(2·eta_bar) assume a beta-smooth loss, which rows with huge "
            "norms break "
            "when they are not clipped; set clip-norm or domain-radius, or raise smoothness");
        const double bar = etaBar(config, run, static_cast<double>(data.train.rows()));
        AcceleratedIterates iterates(run.dimension(), bar, kDomainRadius(config));
        Eigen::VectorXd g(run.dimension());
        for (long t = 0; t < run.steps(); ++t) {
            if (run.cancelled(t)) break;
            run.noisyGradient(t, iterates.query(t + 1), g);
            iterates.update(t + 1, g);
            if (!run.afterStep(t, iterates.iterate(),
                               [&]() -> const Eigen::VectorXd& { return iterates.output(); }))
                break;
        }
        return run.finish(
            iterates.output(), "the accelerated average w_ag of the iterates",
            "T = " + std::to_string(run.steps()) + " steps and η̄ = " + formatNumber(bar) +
                " by the accelerated rules (with D = " + formatNumber(ruleRadius(config)) +
                "); C by the clip rule " + kClipRule(config) +
                " (tail-calibrated: r_k·(√(2ρ) n/(√d T))^{1/k}).");
    }
};

}  // namespace

std::unique_ptr<Algorithm> makeAcceleratedClippedGd() {
    return std::make_unique<AcceleratedClippedGd>();
}

}  // namespace pfa
