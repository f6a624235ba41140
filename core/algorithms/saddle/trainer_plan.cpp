#include "core/algorithms/saddle/trainer_plan.h"

#include "core/engine/private_run_report.h"

namespace pfa {

std::optional<privacy::RunAccountant> planAccountant(const TrainerPlan& plan, double delta,
                                                     const std::string& unit) {
    if (!plan.noise.isPrivate()) return std::nullopt;
    return privacy::composeRunAccountant(plan.noise.release(), plan.sideReleases, delta, unit);
}

void describeClippedGaussianRun(RunResult& result, const TrainerPlan& plan, const Dataset& train) {
    const TrainConfig& config = result.config;
    const privacy::RunAccountant accountant = *planAccountant(plan, config.delta, train.unitName);
    describePrivateRun(result, accountant, train);
    privacy::PrivacyReport& report = result.privacy;
    // The shared sample the batches came from, if any (the ledger composes such runs jointly).
    if (plan.streams) {
        report.accounting.sharedBatches = plan.streams->sharedBatches();
    } else if (config.batchSharing == BatchSharing::BySeed && !config.secureNoise) {
        report.accounting.sharedBatches = RunStreams(config, train).sharedBatches();
    }
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
