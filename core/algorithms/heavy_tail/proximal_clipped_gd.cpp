// proximal-clipped-gd: proximal noisy clipped gradient descent for linear regression on
// heavy-tailed data (thesis-algorithms.md §4.3): the loop of noisy-clipped-gd (T disjoint
// batches, T and C as there, σ = 2C/(s√(2ρ)), ridge after clipping) where only the smooth
// part's gradients are clipped and the non-smooth part f₁ = λ₁‖w‖₁ + the indicator of the ball
// of radius D enters through its prox: w_{t+1} = prox_{η f₁}(w_t − η g), η = 1/(2β); the last
// iterate is released. With λ₁ = 0 this is the plain projected loop.
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
const OwnNumber kL1Penalty{"l1-penalty"};
const OwnNumber kRidge{"ridge"};
const OwnNumber kSmoothness{"smoothness"};

class ProximalClippedGd final : public StronglyConvexHeavyTailAlgorithm {
public:
    std::string name() const override { return "proximal-clipped-gd"; }
    std::string description() const override {
        return "Sparse (ℓ₁) or constrained linear regression for heavy-tailed data: one pass of "
               "proximal "
               "noisy clipped gradient descent over disjoint batches (differentially private per "
               "training "
               "row).";
    }
    std::vector<ParamSpec> parameters() const override {
        std::vector<ParamSpec> own =
            heavyTailParameters({"tail-index", "moment-bound", "ridge", "loss-curvature",
                                 "smoothness", "domain-radius", "steps", "clip-norm", "clip-rule"});
        own.push_back(declare("l1-penalty", "ℓ₁ penalty λ₁", ParamKind::Real,
                              "λ₁‖w‖₁ on the feature weights (not the intercept), applied by "
                              "soft-thresholding after each step, never clipped (0: none)")
                          .defaultValue("0")
                          .atLeast(0.0)
                          .sweepable());
        return commonParameters(
            {"epsilon", "delta", "seed", "evaluate-every", "secure-noise", "diagnostics"},
            std::move(own));
    }

    RunResult run(const PreparedConfig& prepared, const DataSplit& data, TrainingObserver& observer,
                  const CancelToken& cancel) const override {
        const TrainConfig& config = prepared.config();
        const double mu = kRidge(config);
        const double lambda1 = kL1Penalty(config);
        const double radius = kDomainRadius(config);
        const double eta = 1.0 / (2.0 * kSmoothness(config));
        HeavyTailRun run(
            *this, prepared, data, observer, cancel, mu, [mu, lambda1](const Eigen::VectorXd& w) {
                return 0.5 * mu * w.squaredNorm() + lambda1 * w.head(w.size() - 1).lpNorm<1>();
            });
        run.setDivergenceHint(
            "the step 1/(2 beta) assumes a beta-smooth loss, which rows with huge norms break when "
            "they are not "
            "clipped; set clip-norm or domain-radius, or raise smoothness");
        Eigen::VectorXd w = Eigen::VectorXd::Zero(run.dimension()), g(run.dimension());
        for (long t = 0; t < run.steps(); ++t) {
            if (run.cancelled(t)) break;
            run.noisyGradient(t, w, g);
            g += mu * w;  // ridge: part of the smooth loss, added after clipping, never clipped
            w -= eta * g;
            softThresholdAndProject(w, eta * lambda1, radius);
            if (!run.afterStep(t, w, [&]() -> const Eigen::VectorXd& { return w; })) break;
        }
        return run.finish(
            w, "the last iterate",
            "T = " + std::to_string(run.steps()) +
                " steps of size η = 1/(2β) = " + formatNumber(eta) +
                ", each followed by the prox of λ₁‖w‖₁ (λ₁ = " + formatNumber(lambda1) +
                ") and the projection onto the ball of radius D; C by the clip rule " +
                kClipRule(config) + " (tail-calibrated: r_k·(2ρ n²/(d T))^{1/(2k)}).");
    }
};

}  // namespace

std::unique_ptr<Algorithm> makeProximalClippedGd() { return std::make_unique<ProximalClippedGd>(); }

}  // namespace pfa
