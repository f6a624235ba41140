// noisy-clipped-gd: noisy clipped gradient descent for ridge-regularised linear regression on
// heavy-tailed data (thesis-algorithms.md §4.1, strongly convex version): one pass over
// disjoint batches of s = ⌊n/T⌋ rows, per-example gradients of the squared loss clipped to C,
// Gaussian noise on the batch mean, ridge term added after clipping, step sizes and weighted
// averaging as §4.1 [ours]. σ is calibrated in zCDP (§2.3A); the ε reported is the RDP
// accountant's for what ran (privacy-accounting.md §2.1, §4.1): each row is in one release.
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
const OwnChoice kClipRule{"clip-rule"};
const OwnNumber kDomainRadius{"domain-radius"};
const OwnNumber kLossCurvature{"loss-curvature"};
const OwnNumber kRidge{"ridge"};
const OwnNumber kSmoothness{"smoothness"};

class NoisyClippedGd final : public StronglyConvexHeavyTailAlgorithm {
public:
    std::string name() const override { return "noisy-clipped-gd"; }
    std::string description() const override {
        return "Ridge linear regression for heavy-tailed data: one pass of noisy clipped gradient "
               "descent over disjoint batches (differentially private per training row).";
    }
    std::vector<ParamSpec> parameters() const override {
        return commonParameters(
            {"epsilon", "delta", "seed", "evaluate-every", "secure-noise", "diagnostics"},
            heavyTailParameters({"tail-index", "moment-bound", "ridge", "loss-curvature",
                                 "smoothness", "domain-radius", "steps", "clip-norm",
                                 "clip-rule"}));
    }

    RunResult run(const PreparedConfig& prepared, const DataSplit& data, TrainingObserver& observer,
                  const CancelToken& cancel) const override {
        const TrainConfig& config = prepared.config();
        const double mu = kRidge(config);
        // The objective's strong convexity: the loss's own (stated) and the ridge's.
        const double strongConvexity = kLossCurvature(config) + mu;
        const double kappa = kSmoothness(config) / strongConvexity;
        const double radius = kDomainRadius(config);
        HeavyTailRun run(*this, prepared, data, observer, cancel, mu,
                         [mu](const Eigen::VectorXd& w) { return 0.5 * mu * w.squaredNorm(); });
        // The step sizes assume β-smoothness; unclipped heavy-tailed rows break it and the
        // iterates then grow without bound long before they overflow.
        run.setDivergenceHint(
            "the step sizes 2/((mu_f + mu)(t + a)) assume a beta-smooth loss, which rows with huge "
            "norms "
            "break when they "
            "are not clipped; set clip-norm or domain-radius, or raise smoothness");

        const long T = run.steps();
        const double a = std::max(1.0, 4.0 * kappa);
        Eigen::VectorXd w = Eigen::VectorXd::Zero(run.dimension()), average = w, g(run.dimension());
        double weightSum = 0.0;
        for (long t = 0; t < T; ++t) {
            if (run.cancelled(t)) break;
            run.noisyGradient(t, w, g);
            g += mu * w;  // ridge after clipping, never clipped (w₀ = 0)
            const double eta = 2.0 / (strongConvexity * (static_cast<double>(t) + a));
            w -= eta * g;
            if (std::isfinite(radius) && w.norm() > radius) w *= radius / w.norm();
            const double zeta = static_cast<double>(t) + a;
            average += zeta * w;
            weightSum += zeta;
            if (!run.afterStep(t, w, [&] { return Eigen::VectorXd(average / weightSum); })) break;
        }
        const Eigen::VectorXd reported = weightSum > 0 ? Eigen::VectorXd(average / weightSum) : w;
        return run.finish(reported,
                          "the weighted average Σ ζ_t w_{t+1} / Σ ζ_t of the iterates, ζ_t = t + " +
                              formatNumber(a),
                          "T = " + std::to_string(T) + " steps; C by the clip rule " +
                              kClipRule(config) +
                              " (tail-calibrated: r_k·(2ρ n²/(d T))^{1/(2k)}).");
    }
};

}  // namespace

std::unique_ptr<Algorithm> makeNoisyClippedGd() { return std::make_unique<NoisyClippedGd>(); }

}  // namespace pfa
