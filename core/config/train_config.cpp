#include "core/config/train_config.h"

#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

std::string calibrationName(Calibration calibration) {
    return calibration == Calibration::Published ? "published" : "conservative";
}

Calibration parseCalibration(const std::string& text) {
    if (text == "conservative") return Calibration::Conservative;
    if (text == "published") return Calibration::Published;
    throw InputError("unknown calibration '" + text + "': use conservative or published");
}

std::string scopeName(ProtectionScope scope) {
    return scope == ProtectionScope::SensitiveOnly ? "sensitive-only" : "all-features";
}

ProtectionScope parseScope(const std::string& text) {
    if (text == "all-features" || text == "all_features") return ProtectionScope::AllFeatures;
    if (text == "sensitive-only" || text == "sensitive_only") return ProtectionScope::SensitiveOnly;
    throw InputError("unknown protection scope '" + text + "': use all-features or sensitive-only");
}

std::string samplingName(Sampling sampling) {
    switch (sampling) {
        case Sampling::Poisson:
            return "poisson";
        case Sampling::Shuffle:
            return "shuffle";
        case Sampling::Subsample:
            return "subsample";
    }
    return "poisson";
}

bool drawsSharedBatches(const TrainConfig& config) {
    return config.isPrivate() && config.batchSharing == BatchSharing::BySeed && !config.secureNoise;
}

std::string sharedSamplerKey(const TrainConfig& config, long trainingRows) {
    return "sampling=" + (config.sampling ? samplingName(*config.sampling) : std::string("auto")) +
           ";batch=" + std::to_string(config.batchSize) +
           ";epochs=" + std::to_string(config.epochs) + ";rows=" + std::to_string(trainingRows);
}

std::string samplingDescription(Sampling sampling) {
    switch (sampling) {
        case Sampling::Poisson:
            return "Poisson";
        case Sampling::Shuffle:
            return "shuffled batches";
        case Sampling::Subsample:
            return "uniform subsample of m rows";
    }
    return "Poisson";
}

Sampling parseSampling(const std::string& text) {
    if (text == "poisson") return Sampling::Poisson;
    if (text == "shuffle") return Sampling::Shuffle;
    if (text == "subsample") return Sampling::Subsample;
    throw InputError("unknown sampling '" + text + "': use poisson, shuffle or subsample");
}

std::string adjacencyName(privacy::Adjacency adjacency) {
    return adjacency == privacy::Adjacency::Replace ? "replace-one" : "add/remove-one";
}

privacy::Adjacency parseAdjacency(const std::string& text) {
    if (text == "add-remove" || text == "add_remove") return privacy::Adjacency::AddRemove;
    if (text == "replace") return privacy::Adjacency::Replace;
    throw InputError("unknown adjacency '" + text + "': use add-remove or replace");
}

std::string averagingName(IterateAveraging averaging) {
    return averaging == IterateAveraging::PolynomialDecay ? "poly" : "none";
}

IterateAveraging parseAveraging(const std::string& text) {
    if (text == "poly") return IterateAveraging::PolynomialDecay;
    if (text == "none") return IterateAveraging::None;
    throw InputError("unknown iterate averaging '" + text + "': use none or poly");
}

std::string wStreamName(WStream stream) {
    return stream == WStream::GroupMasses ? "masses" : "gradient";
}

WStream parseWStream(const std::string& text) {
    if (text == "masses") return WStream::GroupMasses;
    if (text == "gradient") return WStream::ClippedGradient;
    throw InputError("unknown W stream '" + text + "': use masses or gradient");
}

std::string batchSharingName(BatchSharing sharing) {
    return sharing == BatchSharing::BySeed ? "by-seed" : "own";
}

BatchSharing parseBatchSharing(const std::string& text) {
    if (text == "own") return BatchSharing::Own;
    if (text == "by-seed") return BatchSharing::BySeed;
    throw InputError("unknown batch sharing '" + text + "': use own or by-seed");
}

TrainConfig firstRunConfig() {
    TrainConfig config;  // dp-fermi, demographic parity, ε = 1
    config.lambda = 3.0;
    config.epochs = 400;
    config.lrTheta = 0.05;
    return config;
}

}  // namespace pfa
