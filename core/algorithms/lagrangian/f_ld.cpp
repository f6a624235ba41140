// f-ld: Lagrangian-dual fair training, not private ("Differentially Private and Fair Deep
// Learning: A Lagrangian Dual Approach", its non-private form, on a logistic model). Adam on
// mean loss + Σ_j λ_j·|vB_j| over each shuffled batch, one multiplier per constraint cell;
// after every epoch λ_j ← max(0, λ_j + s·(|v_j| − τ)) from the whole training set.
#include "core/algorithms/lagrangian/lagrangian_dual.h"
#include "core/config/algorithm.h"
#include "core/config/config_validation.h"

namespace pfa {

namespace {

class FLd final : public Algorithm {
public:
    std::string name() const override { return "f-ld"; }
    std::string description() const override {
        return "Lagrangian-dual fair training: one multiplier per group constraint grows while "
               "the constraint is violated (not private).";
    }
    AlgorithmCapabilities capabilities() const override {
        // The multipliers replace λ: the fairness weight is not read; the curve runs over the
        // dual step instead.
        return {.curveSetting = "dual-step"};
    }
    std::vector<ParamSpec> parameters() const override {
        return commonParameters(
            {"fairness", "seed", "epochs", "batch-size", "l2", "advantaged-class", "evaluate-every",
             "averaging"},
            {ld::adamLearningRateParameter(), ld::dualStepParameter(), ld::dualToleranceParameter(),
             ld::dualClipParameter(), ld::constraintParameter()});
    }
    void validate(const TrainConfig& config, const DataSplit& data) const override {
        requireNoFairness(config);
        requireNonPrivate(config);
        ld::validate(name(), ld::settingsOf(ld::Mode::NonPrivate, config), config, data);
    }
    /// A diamond like pf-ld, its private counterpart (colour tells ε = ∞ apart).
    AlgorithmPresentation presentation() const override { return {.marker = ChartMarker::Diamond}; }

    RunResult run(const PreparedConfig& prepared, const DataSplit& data, TrainingObserver& observer,
                  const CancelToken& cancel) const override {
        const TrainConfig& config = prepared.config();
        return ld::run(name(), ld::settingsOf(ld::Mode::NonPrivate, config), config, data, observer,
                       cancel);
    }
};

}  // namespace

std::unique_ptr<Algorithm> makeFLd() { return std::make_unique<FLd>(); }

}  // namespace pfa
