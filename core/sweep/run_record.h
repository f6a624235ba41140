#pragma once

#include <string>

#include "core/train/run_result.h"

namespace pfa {

/// Where a run's data came from, stored with every result line.
struct RunContext {
    std::string datasetDescription;
    std::uint64_t splitSeed = 0;
    double testFraction = 0.25;
    long trainRows = 0;
    long testRows = 0;
    long features = 0;
};

/// One result as a single JSON line (no trailing newline). Keys: algorithm, dataset, fairness,
/// calibration, epsilon, delta, lambda, seed, epochs, batch_size, test_error, train_loss,
/// dp_violation, eo_violation, eopp_violation, ermi, epsilon_spent, noise_theta, noise_w,
/// seconds, groups, plus the full resolved configuration, status, privacy details and the
/// per-epoch history. Non-finite numbers are written as "inf"/"-inf", NaN as null.
std::string runRecordJson(const RunResult& result, const RunContext& context);

}  // namespace pfa
