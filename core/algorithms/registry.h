#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/train/algorithm.h"

namespace pfa {

/// All registered algorithms, in menu order (see algorithm_list.h).
const std::vector<std::unique_ptr<Algorithm>>& algorithmRegistry();

/// The algorithm called `name`; throws InputError listing the known names otherwise.
const Algorithm& findAlgorithm(const std::string& name);

/// Comma-separated names of all algorithms ("erm, fermi, dp-fermi, dp-sgd").
std::string algorithmNames();

/// Looks up config.algorithm and runs it; calls observer.onRunEnd with the result.
RunResult runAlgorithm(const TrainConfig& config, const DataSplit& data,
                       TrainingObserver& observer, const CancelToken& cancel);

}  // namespace pfa
