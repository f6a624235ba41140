// dp-sgd-linear: DP-SGD for linear regression (thesis-algorithms.md §3): the squared loss
// (ŷ − y)² with an intercept, Poisson-sampled batches, per-example clipping to C, Gaussian
// noise on the mean with the noise multiplier solved by the RDP accountant for the target ε
// (accountant B), optional projection onto a ball, no warm start. The baseline of the
// semi-DP learner (it treats every training row as private) and the "naive clipping" baseline
// for heavy-tailed data. The loop is shared with semi-dp-sgd
// (core/algorithms/linear_sgd/linear_dp_sgd.h).
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "core/algorithms/linear_sgd/linear_dp_sgd.h"
#include "core/config/algorithm.h"
#include "core/config/config_validation.h"
#include "core/engine/run_streams.h"
#include "core/privacy/run_accountant.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

namespace {

class DpSgdLinear final : public LinearSgdAlgorithm {
public:
    std::string name() const override { return "dp-sgd-linear"; }
    std::string description() const override {
        return "Linear regression by differentially private SGD: Poisson batches, each row's "
               "squared-loss gradient clipped, Gaussian noise solved for the target ε.";
    }
    AlgorithmCapabilities capabilities() const override {
        return {.privacy = true, .task = Task::Regression};
    }
    std::vector<ParamSpec> parameters() const override {
        return commonParameters(
            {"epsilon", "delta", "seed", "epochs", "batch-size", "lr-theta", "adjacency",
             "clip-theta", "averaging", "evaluate-every", "secure-noise", "diagnostics",
             "batch-sharing"},
            {domainRadiusParameter(), rowPrecisionParameter(), sharedSampleParameter()});
    }

    void validate(const TrainConfig& config, const DataSplit&) const override {
        requireNoFairness(config);
        validateSharedSample(config);
    }

    /// By-seed runs with the same sampler draw the same batches; with shared-sample nested, the
    /// same nested sample (that of the semi-dp-sgd runs at any public share, too).
    std::string togetherKey(const TrainConfig& config, const Dataset& train) const override {
        const std::string key = Algorithm::togetherKey(config, train);
        const auto n = static_cast<long>(train.rows());
        const double envelope = nestedEnvelopeRate(config, n, n);
        if (key.empty() || !(envelope > 0.0)) return key;
        return key + ";" + nestedSamplePopulation(envelope);
    }

    std::optional<RateShape> theoryRate(const RateInputs& in) const override {
        return centralConvexRate(in, 1.0, "central DP, convex: 1/√n + √(d ln(1/δ))/(ε n)");
    }

private:
    /// The run of `config`: every training row private, its streams and its statement.
    LinearSgdJob job(const TrainConfig& config, const DataSplit& data) const override {
        LinearSgdJob job;
        job.plan = planLinearSgd(config, data.train, splitPublicRows(data.train, 0.0, 0));
        const double envelope = job.plan.setup.envelopeRate;
        const RunStreams streams(config, data.train,
                                 envelope > 0.0 ? nestedSamplePopulation(envelope) : "");
        job.sharedBatches = streams.sharedBatches();
        job.plan.accounting.sharedBatches = job.sharedBatches;
        job.sampling = streams.stream(streams::kSampling);
        job.publicSampling = streams.stream(streams::kShares);  // no public rows
        job.noise = streams.stream(streams::kNoise);
        const bool isPrivate = config.isPrivate();
        const auto accountant = std::make_shared<const privacy::RunAccountant>(job.plan.accounting);
        job.epsilonAfter = [accountant, isPrivate](long steps) {
            return isPrivate ? accountant->after(steps).epsilon : INFINITY;
        };
        job.describe = [this, config, &data](RunResult& result, const LinearSgdPlan& plan) {
            result.config = config;
            result.theoryInputs.clear();
            if (!config.isPrivate()) {
                result.privacy = privacy::nonPrivateReport(name(), result.steps);
                return;
            }
            describeLinearSgdRun(result, plan, data.train, name(),
                                 "every column of each training row (features and target)");
        };
        return job;
    }
};

}  // namespace

std::unique_ptr<Algorithm> makeDpSgdLinear() { return std::make_unique<DpSgdLinear>(); }

}  // namespace pfa
