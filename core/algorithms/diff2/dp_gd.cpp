// dp-gd: differentially private full-batch gradient descent: every round the noisy mean of the
// records' clipped gradients (clip C1, silo-weighted when the data has silos), σ in closed form
// σ = √(4AR/(nmin²P²ε)), A = 1 + ⌈2 ln(1/δ)/ε⌉; the ε stated is the RDP accountant's for it.
// The baseline DIFF2 (diff2) is measured against: it is DIFF2 with restart period T = 1 and runs
// the same loop (core/algorithms/diff2/diff2_rounds.h), bit for bit. Record unit, replace-one
// adjacency.
#include "core/algorithms/diff2/diff2_rounds.h"
#include "core/config/algorithm.h"
#include "core/config/config_validation.h"
#include "core/config/own_setting.h"

namespace pfa {

namespace {

// The own settings this file reads (checked against the declarations at start).
const OwnNumber kFullClip{"full-clip"};
const OwnNumber kGdRounds{"gd-rounds"};
const OwnNumber kGdStep{"gd-step"};
const OwnChoice kModel{"model"};

class DpGd final : public diff2::RoundsAlgorithm {
public:
    std::string name() const override { return "dp-gd"; }
    std::string description() const override {
        return "DP-GD: private full-batch gradient descent with clipped per-record gradients "
               "(differentially private per training record).";
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
            {diff2::roundsParameter(), diff2::stepParameter(), diff2::fullClipParameter(),
             diff2::modelParameter()});
    }
    void validate(const TrainConfig& config, const DataSplit& data) const override {
        requireNoFairness(config);
        diff2::requireSuitableData(name(), data);
        diff2::requireWithinBudget(name(), config, data.train, static_cast<long>(kGdRounds(config)),
                                   1, 1.0);
    }
    /// Non-convex, the squared gradient norm: √d/(nmin·P·ε), constants unknown (sizes as
    /// DIFF2's).
    std::optional<RateShape> theoryRate(const RateInputs& in) const override {
        return diff2::gradientNormRate(
            in, "DP-GD gradient-norm² rate, constants unknown: √d/(nmin·P·ε)",
            [](double d, double records, double eps) { return std::sqrt(d) / (records * eps); });
    }

private:
    diff2::RoundSettings settingsOf(const TrainConfig& config) const override {
        diff2::RoundSettings s;
        s.rounds = static_cast<long>(kGdRounds(config));
        s.period = 1;
        s.step = kGdStep(config);
        s.fullClip = kFullClip(config);
        s.model = kModel(config) == "mlp" ? diff2::ModelKind::Mlp : diff2::ModelKind::Linear;
        return s;
    }
};

}  // namespace

std::unique_ptr<Algorithm> makeDpGd() { return std::make_unique<DpGd>(); }

}  // namespace pfa
