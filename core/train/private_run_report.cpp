#include "core/train/private_run_report.h"

namespace pfa {

std::string wholeRecordProtection(const Dataset& train) {
    return "every column of each training record (features, label and the sensitive attribute '" +
           train.sensitiveDescription + "')";
}

void describeClippedGaussianRun(RunResult& result,
                                const privacy::ClippedGaussianCalibration& calibration,
                                const Dataset& train) {
    const TrainConfig& config = result.config;
    privacy::PrivacyReport& report = result.privacy;
    report.isPrivate = true;
    report.epsilonTarget = config.epsilon;
    report.epsilonNominal = config.epsilon;
    const privacy::EpsilonResult spent = calibration.certified.after(result.steps);
    report.epsilonSpent = spent.epsilon;
    report.optimalOrder = spent.order;
    report.orderAtGridEdge = spent.orderAtGridEdge;
    if (calibration.poissonAssumed) {
        report.epsilonPoissonAssumed = calibration.poissonAssumed->after(result.steps).epsilon;
    }
    report.delta = config.delta;
    report.noiseMultiplier = calibration.noiseMultiplier;
    report.samplingRate = static_cast<double>(config.batchSize) / static_cast<double>(train.rows());
    report.expectedBatch = config.batchSize;
    report.sampling = samplingDescription(config.sampling.value_or(Sampling::Poisson));
    report.steps = result.steps;
    report.accountant = "Rényi-DP accountant";
    report.mechanism = calibration.mechanism;
    report.adjacency = calibration.adjacency;
    report.orderGrid = calibration.certified.grid().describe();
    report.sensitiveColumn = train.sensitiveDescription;
    report.protectedData = wholeRecordProtection(train);
    if (spent.orderAtGridEdge) {
        report.warnings.push_back("the optimal RDP order is at the edge of the grid; the bound "
                                  "may be loose");
    }
    if (result.status == RunStatus::Cancelled) {
        report.warnings.push_back("run stopped early: ε covers the " +
                                  std::to_string(result.steps) + " steps executed");
    }
}

}  // namespace pfa
