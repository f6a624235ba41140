#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/config/algorithm.h"
#include "core/config/own_setting.h"

namespace pfa {

/// All registered algorithms, in menu order (see algorithm_list.h).
const std::vector<std::unique_ptr<Algorithm>>& algorithmRegistry();

/// What is wrong with an own-setting handle of `name` and `kind` (core/config/own_setting.h)
/// given `algorithms`' declarations ("" when one declares it, of that kind). The registry
/// checks every handle so when it is built and stops the program on the first problem.
std::string ownSettingProblem(const std::vector<std::unique_ptr<Algorithm>>& algorithms,
                              const std::string& name, OwnSettingKind kind);

/// The algorithm called `name`; throws InputError listing the known names otherwise.
const Algorithm& findAlgorithm(const std::string& name);
/// The algorithm called `name`, or nullptr when this version has none (a record of another
/// version): for readers that fall back rather than refuse.
const Algorithm* findAlgorithmOrNull(const std::string& name);

/// The setting that traces `algorithm`'s tradeoff curve (AlgorithmCapabilities::curveSetting);
/// "lambda" for a name no algorithm has (e.g. from a results file of another version).
std::string curveSettingOf(const std::string& algorithm);

/// Comma-separated names of all algorithms ("erm, fermi, dp-fermi, dp-sgd").
std::string algorithmNames();

/// Every parameter: the common ones in run-key order, then each algorithm's own (in registry
/// order, each name once). What the CLI offers and presets, sessions and records may hold.
const std::vector<ParamSpec>& allParameters();

/// The parameter called `name` or once called so (common or an algorithm's own); nullptr
/// when there is none.
const ParamSpec* findParameter(const std::string& name);

/// The algorithms that read parameter `name` ("dp-fermi, dp-sgd").
std::string algorithmsReading(const std::string& name);

/// How the algorithm called `name` is drawn and explained; the default presentation for a name
/// no algorithm has (e.g. an old record's).
AlgorithmPresentation presentationOf(const std::string& name);

/// Looks up config.algorithm and runs it; calls observer.onRunEnd with the result.
RunResult runAlgorithm(const TrainConfig& config, const DataSplit& data, TrainingObserver& observer,
                       const CancelToken& cancel);

/// Runs configurations of one algorithm on `data` together (Algorithm::runTogether: runs that
/// share their batches take one pass over each batch); calls each observer's onRunEnd with its
/// result. Results in the order of `configs`.
std::vector<RunResult> runAlgorithmTogether(const std::vector<TrainConfig>& configs,
                                            const DataSplit& data,
                                            const std::vector<TrainingObserver*>& observers,
                                            const CancelToken& cancel);

}  // namespace pfa
