#include "core/algorithms/saddle/trainer_plan.h"

#include "core/engine/private_run_report.h"

namespace pfa {

std::optional<privacy::RunAccountant> planAccountant(const TrainerPlan& plan, double delta,
                                                     const std::string& unit) {
    if (!plan.noise.isPrivate()) return std::nullopt;
    return privacy::composeRunAccountant(plan.noise.release(), plan.sideReleases, delta, unit);
}

std::string sharedBatchesOf(const TrainerPlan& plan, const TrainConfig& config,
                            const Dataset& train) {
    if (plan.streams) return plan.streams->sharedBatches();
    // Own batches need no streams (and no pass over the rows) to say so; otherwise the trainer
    // makes the same streams as these when the plan has none.
    if (config.batchSharing != BatchSharing::BySeed) return {};
    return RunStreams(config, train).sharedBatches();
}

void describeClippedGaussianRun(RunResult& result, const TrainerPlan& plan, const Dataset& train) {
    const TrainConfig& config = result.config;
    const privacy::RunAccountant accountant = *planAccountant(plan, config.delta, train.unitName);
    describePrivateRun(result, accountant, train);
    privacy::PrivacyReport& report = result.privacy;
    report.accounting.sharedBatches = sharedBatchesOf(plan, config, train);
    if (const auto& poisson = plan.noise.poissonAssumed()) {
        report.epsilonPoissonAssumed =
            privacy::composeRunAccountant(*poisson, plan.sideReleases, config.delta, train.unitName)
                .after(result.steps)
                .epsilon;
    }
    describeNoise(report, plan.noise);
    report.samplingRate = plan.sampler.samplingRate();
    report.expectedBatch = plan.sampler.batchSize;
    report.sampling = samplingDescription(plan.sampler.mode);
    report.mechanism = plan.noise.description();
    report.adjacency = adjacencyName(accountant.inputs().adjacency);
    report.protectedData = wholeRecordProtection(train);
}

}  // namespace pfa
