#include "test_data.h"

#include <cmath>
#include <filesystem>

#include "core/algorithms/registry.h"
#include "core/data/builtin_datasets.h"
#include "core/data/linear_gaussian.h"
#include "core/data/silo_splitters.h"
#include "core/engine/run_streams.h"
#include "core/generators/dataset_loading.h"
#include "core/util/error.h"
#include "core/util/instruction_set.h"

namespace pfa::test {

DataSplit linearSplit(long rows, long features) {
    DatasetRequest request;
    request.name = "synthetic-linear";
    request.knobs<LinearGaussianOptions>().rows = rows;
    request.knobs<LinearGaussianOptions>().features = features;
    return splitDatasetRequest(loadBuiltinDataset(request), request);
}

RunResult trainLinearSetup(const LinearSgdSetup& setup, const DataSplit& data,
                           const TrainConfig& resolved, const Dataset& streamRows) {
    const RunStreams streams(resolved, streamRows);
    RandomStream sampling = streams.stream(streams::kSampling),
                 noise = streams.stream(streams::kNoise), publicSampling = streams.stream(2);
    TrainingObserver observer;
    CancelToken cancel;
    return runLinearSgd(
        setup, data, {sampling, publicSampling, noise}, [](long) { return 0.0; }, observer, cancel);
}

std::string sharedDatasetPath(const std::string& relative) {
    const std::filesystem::path path = sharedDatasetsRoot() / relative;
    return std::filesystem::exists(path) ? path.string() : std::string();
}

std::string missingDatasetReason(const std::string& relative) {
    return (sharedDatasetsRoot() / relative).string() +
           " is not present (the offline copy of the data set; PFA_SHARED_DATASETS)";
}

TrainConfig quickConfig(const std::string& algorithm, double epsilon, double lambda) {
    TrainConfig config;
    config.algorithm = algorithm;
    config.epsilon = epsilon;
    config.lambda = lambda;
    config.epochs = 20;
    config.batchSize = 256;
    return config;
}

RunResult runQuietly(const TrainConfig& config, const DataSplit& data) {
    TrainingObserver observer;
    CancelToken cancel;
    return runAlgorithm(config, data, observer, cancel);
}

std::vector<RunResult> runTogetherAsSweep(const std::vector<TrainConfig>& configs,
                                          const DataSplit& data) {
    struct NoBatchLoss : TrainingObserver {
        bool showsBatchLoss() const override { return false; }
    };
    std::vector<NoBatchLoss> observers(configs.size());
    std::vector<TrainingObserver*> pointers;
    for (NoBatchLoss& observer : observers) pointers.push_back(&observer);
    CancelToken cancel;
    return runAlgorithmTogether(configs, data, pointers, cancel);
}

LanesThreeWays runTogetherThreeWays(const std::vector<TrainConfig>& configs, const DataSplit& data,
                                    void (*stepOneByOne)(bool)) {
    LanesThreeWays out;
    out.lanes = runTogetherAsSweep(configs, data);
    stepOneByOne(true);
    out.oneByOne = runTogetherAsSweep(configs, data);
    stepOneByOne(false);
    useBaselineInstructionsOnly(true);
    out.baseline = runTogetherAsSweep(configs, data);
    useBaselineInstructionsOnly(false);
    return out;
}

DataSplit syntheticUserSplit() {
    SyntheticOptions options;
    options.rows = 2400;
    options.users = 300;
    return splitAndEncode(generateSynthetic(options));
}

DataSplit syntheticSiloSplit() {
    DataSplit data = syntheticSplit(800);
    SiloOptions silos;
    silos.silos = 4;
    assignSilos(data, makeSilos(data, silos));
    return data;
}

const DataSplit& tinyRunData(const Algorithm& algorithm) {
    static const DataSplit users = syntheticUserSplit();
    static const DataSplit silos = syntheticSiloSplit();
    return algorithm.capabilities().unit == PrivacyUnit::User ? users : silos;
}

namespace {

/// Whether a private run of `c` is refused for protecting whole records: the algorithm protects
/// only the sensitive attribute (its message then names the sensitive-only scope).
bool refusesAllFeatures(const Algorithm& algorithm, const TrainConfig& c) {
    if (!algorithm.supportsPrivacy()) return false;
    static const DataSplit data = syntheticSplit(400);
    try {
        prepareRun(algorithm, c, data);
    } catch (const InputError& e) {
        return std::string(e.what()).find("sensitive-only") != std::string::npos;
    }
    return false;
}

}  // namespace

TrainConfig tinyConfig(const Algorithm& algorithm) {
    TrainConfig c = quickConfig(algorithm.name(), algorithm.supportsPrivacy() ? 1.0 : INFINITY,
                                algorithm.usesFairness() ? 1.0 : 0.0);
    c.epochs = 2;
    c.batchSize = 100;
    c.seed = 3;
    return c;
}

TrainConfig tinyRunConfig(const Algorithm& algorithm) {
    TrainConfig c = tinyConfig(algorithm);
    // Post-processing for equalized odds knows no other notion (it refuses the default).
    if (algorithm.name() == "dp-postprocessing") c.fairness = FairnessNotion::EqualizedOdds;
    if (refusesAllFeatures(algorithm, c)) c.scope = ProtectionScope::SensitiveOnly;
    return c;
}

DataSplit zeroFeatureData(int rows, int features, int label) {
    DataSplit data;
    for (Dataset* part : {&data.train, &data.test}) {
        part->name = "zero-features";
        part->X = RowMatrix::Zero(rows, features);
        part->y.resize(rows);
        part->s.resize(rows);
        for (int i = 0; i < rows; ++i) {
            part->y(i) = label < 0 ? i % 2 : label;
            part->s(i) = (i / 2) % 2;
        }
        part->classNames = {"0", "1"};
        part->groupNames = {"a", "b"};
        part->sensitiveDescription = "s";
    }
    return data;
}

PreparedDatasetPtr preparedSynthetic(int rows) {
    DatasetRequest request;
    request.knobs<SyntheticOptions>().rows = rows;
    return prepareDataset(request);
}

privacy::LedgerEntry ledgerEntryOf(const std::string& uid, const privacy::AccountingInputs& in) {
    privacy::LedgerEntry entry;
    entry.runUid = uid;
    entry.accounting = in;
    entry.delta = in.delta;
    entry.epsilon = privacy::certifiedEpsilon(in).epsilon;
    entry.status = "completed";
    return entry;
}

}  // namespace pfa::test
