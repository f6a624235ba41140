// dp-sgd: per-example clipping, Gaussian noise, Poisson sampling; the noise multiplier is
// solved from the target ε with the RDP accountant (thesis-algorithms.md §3, accounting per
// privacy-accounting.md §5–§7). No fairness term.
#include "core/algorithms/saddle/saddle_point_trainer.h"
#include "core/config/algorithm.h"
#include "core/config/config_validation.h"
#include "core/engine/batch_sampler.h"
#include "core/engine/gaussian_mechanism.h"
#include "core/engine/private_run_report.h"
#include "core/privacy/clipped_gaussian_calibration.h"
#include "core/util/format.h"

namespace pfa {

namespace {

class DpSgd final : public Algorithm {
public:
    std::string name() const override { return "dp-sgd"; }
    std::string description() const override {
        return "Differentially private SGD: clips each example's gradient and adds Gaussian "
               "noise; no fairness term.";
    }
    AlgorithmCapabilities capabilities() const override { return {.privacy = true}; }
    std::vector<ParamSpec> parameters() const override {
        return commonParameters({"fairness", "epsilon", "delta", "seed", "epochs", "batch-size",
                                 "lr-theta", "l2", "adjacency", "sampling", "clip-theta",
                                 "averaging", "advantaged-class", "evaluate-every", "secure-noise",
                                 "diagnostics", "batch-sharing"});
    }

    void validate(const TrainConfig& config, const DataSplit&) const override {
        requireNoFairness(config);
        requireShareableBatches(config);
    }

    AlgorithmPresentation presentation() const override {
        return {
            .marker = ChartMarker::Triangle,
            .colour = 0xD55E00,
            .plainWords =
                "<b>DP-SGD</b> trains for accuracy only, privately: each row's gradient is clipped "
                "and Gaussian noise is added to every minibatch step; the accountant tracks the ε "
                "spent. It has no fairness term, so it shows the price of privacy alone."};
    }

    std::optional<RateShape> theoryRate(const RateInputs& in) const override {
        return centralConvexRate(in, 1.0, "central DP, convex: 1/√n + √(d ln(1/δ))/(ε n)");
    }

    RunResult run(const PreparedConfig& prepared, const DataSplit& data, TrainingObserver& observer,
                  const CancelToken& cancel) const override {
        const TrainConfig& config = prepared.config();
        if (const auto planned = planPrivate(config, data))
            return runPlanned(config, *planned, data, observer, cancel);
        TrainerPlan plan;
        plan.sampler = rowSampler(config, data.train);
        RunResult result = runSaddlePointTrainer(config, plan, data, observer, cancel);
        result.privacy = privacy::nonPrivateReport(name(), result.steps);
        return result;
    }

    std::vector<RunResult> runTogether(const std::vector<PreparedConfig>& runs,
                                       const DataSplit& data,
                                       const std::vector<TrainingObserver*>& observers,
                                       const CancelToken& cancel) const override {
        return runPlannedTogether(
            *this, runs, data, observers, cancel,
            [&](const TrainConfig& config) { return planPrivate(config, data); });
    }

private:
    /// A private run's plan, and its report for the result; null for a non-private run.
    std::unique_ptr<PlannedSaddleRun> planPrivate(const TrainConfig& config,
                                                  const DataSplit& data) const {
        if (!config.isPrivate()) return nullptr;
        auto planned = std::make_unique<PlannedSaddleRun>();
        TrainerPlan& plan = planned->plan;
        plan.sampler = rowSampler(config, data.train);
        planned->streams = std::make_unique<RunStreams>(config, data.train);
        plan.streams = planned->streams.get();
        // The noise is solved for the sampler that runs; one clipped stream gets all of it.
        const privacy::ClippedGaussianCalibration calibration = privacy::calibrateClippedGaussian(
            plan.sampler, config.adjacency, config.epsilon, config.delta);
        plan.clipping.enabled = true;
        plan.clipping.clipTheta = config.clipTheta;
        plan.noise = GaussianMechanism::calibrated(calibration, config.clipTheta);
        planned->describe = [this, &plan, &train = data.train](RunResult& result) {
            describeClippedGaussianRun(result, plan, train);
            privacy::PrivacyReport& report = result.privacy;
            report.algorithm = name();
            report.calibration = "RDP-calibrated";
            report.clipTheta = result.config.clipTheta;
            report.clipDescription =
                "C = " + formatNumber(result.config.clipTheta) + " per example";
            report.statement = privacy::renderPrivacyStatement(report, "", "");
        };
        return planned;
    }
};

}  // namespace

std::unique_ptr<Algorithm> makeDpSgd() { return std::make_unique<DpSgd>(); }

}  // namespace pfa
