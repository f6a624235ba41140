#pragma once

#include "core/data/dataset.h"
#include "core/privacy/clipped_gaussian_calibration.h"
#include "core/train/run_result.h"

namespace pfa {

/// Fills the fields of `result.privacy` shared by every whole-record clipped-Gaussian run
/// (dp-sgd, dp-fermi conservative): certified ε for the steps executed, order, δ, sampling,
/// accountant, adjacency, what is protected, and warnings. The caller sets the algorithm,
/// calibration, noise levels and clip description, then renders the statement.
void describeClippedGaussianRun(RunResult& result,
                                const privacy::ClippedGaussianCalibration& calibration,
                                const Dataset& train);

/// "every column of each training record (features, label and the sensitive attribute 'x')".
std::string wholeRecordProtection(const Dataset& train);

}  // namespace pfa
