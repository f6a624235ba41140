#include "test_data.h"

#include <filesystem>

#include "core/algorithms/registry.h"

namespace pfa::test {

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

}  // namespace pfa::test
