// diff2: differentially private optimisation from gradient differences ("DIFF2: Differential
// Private Optimization via Gradient Differences for Nonconvex Distributed Learning"), GD
// routine. Every T rounds (a restart) the silos release the noisy mean of clipped per-record
// gradients; in the rounds between they release the noisy mean of clipped per-record gradient
// DIFFERENCES ∇ℓ(x_r) − ∇ℓ(x_{r−1}), clipped to C2·‖x_r − x_{r−1}‖, which are added to a running
// estimate v. The differences' clip (and so their noise) shrinks with the step, which is the
// method's claim against DP-GD (dp-gd, its T = 1 case, run by the same loop). Noise calibrated
// in closed form at the RDP order A = 1 + ⌈2 ln(1/δ)/ε⌉ (σ1 for restarts, σ2 for differences,
// split u); the ε stated is the RDP accountant's for the two release kinds composed. Record unit,
// replace-one adjacency; silos are the data's (P = 1 without).
#include "core/algorithms/diff2/diff2_rounds.h"
#include "core/config/algorithm.h"
#include "core/config/config_validation.h"
#include "core/config/own_setting.h"
#include "core/privacy/accounting_inputs.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

namespace {

// The own settings this file reads (checked against the declarations at start).
const OwnNumber kDifferenceClipRatio{"difference-clip-ratio"};
const OwnNumber kFullClip{"full-clip"};
const OwnNumber kGdRounds{"gd-rounds"};
const OwnNumber kGdStep{"gd-step"};
const OwnChoice kModel{"model"};
const OwnNumber kNoiseSplit{"noise-split"};
const OwnNumber kRestartPeriod{"restart-period"};

class Diff2 final : public diff2::RoundsAlgorithm {
public:
    std::string name() const override { return "diff2"; }
    std::string description() const override {
        return "DIFF2: private gradient descent that sends clipped gradient differences between "
               "full gradients every T rounds (differentially private per training record).";
    }
    AlgorithmCapabilities capabilities() const override {
        return {.privacy = true,
                .task = Task::Regression,
                .progressUnit = "round",
                .progressSetting = "gd-rounds"};
    }
    std::vector<ParamSpec> parameters() const override {
        return commonParameters(
            {"epsilon", "delta", "seed", "evaluate-every", "secure-noise", "diagnostics"},
            {diff2::roundsParameter(), diff2::restartPeriodParameter(), diff2::stepParameter(),
             diff2::fullClipParameter(), diff2::clipRatioParameter(), diff2::noiseSplitParameter(),
             diff2::modelParameter()});
    }
    void validate(const TrainConfig& config, const DataSplit& data) const override {
        requireNoFairness(config);
        diff2::requireSuitableData(name(), data);
        diff2::requireWithinBudget(name(), config, data.train, static_cast<long>(kGdRounds(config)),
                                   static_cast<long>(kRestartPeriod(config)), kNoiseSplit(config));
        const long rounds = static_cast<long>(kGdRounds(config));
        const long period = static_cast<long>(kRestartPeriod(config));
        if (period > rounds) {
            throw InputError("restart-period = " + std::to_string(period) +
                             " is invalid: at most the number of rounds (" +
                             std::to_string(rounds) + ")");
        }
    }
    TrainConfig resolve(const TrainConfig& requested, const DataSplit& data) const override {
        TrainConfig c = resolveDefaults(requested, data);
        const long rounds = static_cast<long>(kGdRounds(c));
        c.extra["restart-period"] =
            std::to_string(diff2::resolvedRestartPeriod(kRestartPeriod(c), rounds));
        return c;
    }
    /// Non-convex, the squared gradient norm after tuned rounds: d^(2/3)/(nmin·P·ε)^(4/3), L, G
    /// and the logarithms folded into the one fitted constant (d = the model's parameters,
    /// nmin·P = smallest silo × silos, recorded by the run).
    std::optional<RateShape> theoryRate(const RateInputs& in) const override {
        return diff2::gradientNormRate(
            in, "DIFF2 gradient-norm² rate, constants unknown: d^(2/3)/(nmin·P·ε)^(4/3)",
            [](double d, double records, double eps) {
                return std::pow(d, 2.0 / 3.0) / std::pow(records * eps, 4.0 / 3.0);
            });
    }

private:
    diff2::RoundSettings settingsOf(const TrainConfig& config) const override {
        diff2::RoundSettings s;
        s.rounds = static_cast<long>(kGdRounds(config));
        s.period = static_cast<long>(kRestartPeriod(config));
        s.step = kGdStep(config);
        s.fullClip = kFullClip(config);
        s.clipRatio = kDifferenceClipRatio(config);
        s.split = kNoiseSplit(config);
        s.model = kModel(config) == "mlp" ? diff2::ModelKind::Mlp : diff2::ModelKind::Linear;
        return s;
    }
};

}  // namespace

std::unique_ptr<Algorithm> makeDiff2() { return std::make_unique<Diff2>(); }

}  // namespace pfa
