// pf-ld: private Lagrangian-dual fair training ("Differentially Private and Fair Deep Learning:
// A Lagrangian Dual Approach", structure; details ours, on a logistic model). DP-SGD steps
// (Poisson sampling, per-row clipping to C_p, Gaussian noise, Adam) on mean loss + the
// multipliers' term, whose per-row weights κ_i come from released state only: the multipliers,
// the signs of the noisy violations and Laplace-noised cell counts. After every epoch the
// per-cell sums of the clipped values are released with Gaussian noise and the multipliers
// move toward the violated constraints. Noise: ε_cnt = count-share·ε for the counts; z_d so that
// the dual releases alone would cost dual-share·ε; z_p solved on the total RDP curve for the
// rest. Whole records protected, add/remove (default) or replace adjacency.
#include "core/algorithms/lagrangian/lagrangian_dual.h"
#include "core/config/algorithm.h"
#include "core/config/config_validation.h"

namespace pfa {

namespace {

class PfLd final : public Algorithm {
public:
    std::string name() const override { return "pf-ld"; }
    std::string description() const override {
        return "Private Lagrangian-dual fair training: DP-SGD steps plus one multiplier per "
               "group constraint, updated from noisy group sums (differentially private per "
               "training record).";
    }
    AlgorithmCapabilities capabilities() const override {
        // The multipliers replace λ: the fairness weight is not read; the curve runs over the
        // dual step instead.
        return {.privacy = true, .curveSetting = "dual-step"};
    }
    std::vector<ParamSpec> parameters() const override {
        return commonParameters(
            {"fairness", "epsilon", "delta", "seed", "epochs", "batch-size", "l2", "adjacency",
             "clip-theta", "advantaged-class", "evaluate-every", "secure-noise", "diagnostics",
             "averaging", "batch-sharing"},
            {ld::adamLearningRateParameter(), ld::dualStepParameter(), ld::dualToleranceParameter(),
             ld::dualClipParameter(), ld::dualShareParameter(), ld::countShareParameter(),
             ld::constraintParameter()});
    }
    void validate(const TrainConfig& config, const DataSplit& data) const override {
        requireNoFairness(config);
        ld::validate(name(), ld::settingsOf(ld::Mode::Private, config), config, data);
    }
    AlgorithmPresentation presentation() const override { return {.marker = ChartMarker::Diamond}; }

    RunResult run(const PreparedConfig& prepared, const DataSplit& data, TrainingObserver& observer,
                  const CancelToken& cancel) const override {
        const TrainConfig& config = prepared.config();
        return ld::run(name(), ld::settingsOf(ld::Mode::Private, config), config, data, observer,
                       cancel);
    }
    /// Runs sharing batches by seed train in lockstep, one pass over each batch for all.
    std::vector<RunResult> runTogether(const std::vector<PreparedConfig>& runs,
                                       const DataSplit& data,
                                       const std::vector<TrainingObserver*>& observers,
                                       const CancelToken& cancel) const override {
        std::vector<ld::Settings> settings;
        for (const PreparedConfig& run : runs)
            settings.push_back(ld::settingsOf(ld::Mode::Private, run.config()));
        return ld::runTogether(name(), settings, runs, data, observers, cancel);
    }
};

}  // namespace

std::unique_ptr<Algorithm> makePfLd() { return std::make_unique<PfLd>(); }

}  // namespace pfa
