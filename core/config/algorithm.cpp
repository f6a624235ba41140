#include "core/config/algorithm.h"

#include "core/config/config_validation.h"
#include "core/util/format.h"

namespace pfa {

std::string privacyUnitName(PrivacyUnit unit) {
    switch (unit) {
        case PrivacyUnit::Record:
            return "record";
        case PrivacyUnit::User:
            return "user";
        case PrivacyUnit::Silo:
            return "silo";
    }
    return "record";
}

std::string taskName(Task task) {
    return task == Task::Regression ? "regression" : "classification";
}

const std::vector<ParamSpec>& Algorithm::declaredParameters() const {
    std::call_once(m_declaredOnce, [this] { m_declared = parameters(); });
    return m_declared;
}

TrainConfig Algorithm::resolve(const TrainConfig& config, const DataSplit& data) const {
    return resolveDefaults(config, data);
}

namespace {

/// The parameters `algorithm` declares beyond the common ones (kept in TrainConfig::extra).
std::vector<ParamSpec> ownParametersOf(const Algorithm& algorithm) {
    std::vector<ParamSpec> own;
    for (const ParamSpec& spec : algorithm.declaredParameters()) {
        if (!findCommonParameter(spec.name)) own.push_back(spec);
    }
    return own;
}

}  // namespace

std::vector<RunResult> Algorithm::runTogether(const std::vector<PreparedConfig>& runs,
                                              const DataSplit& data,
                                              const std::vector<TrainingObserver*>& observers,
                                              const CancelToken& cancel) const {
    std::vector<RunResult> results;
    for (std::size_t i = 0; i < runs.size(); ++i)
        results.push_back(run(runs[i], data, *observers[i], cancel));
    return results;
}

std::string Algorithm::togetherKey(const TrainConfig& config, const Dataset& train) const {
    if (!drawsSharedBatches(config)) return "";
    if (!readsParameter(*this, "batch-sharing")) return "";
    return "seed=" + std::to_string(config.seed) + ";" +
           sharedSamplerKey(config, static_cast<long>(train.rows()));
}

bool readsParameter(const Algorithm& algorithm, const std::string& parameter) {
    for (const ParamSpec& spec : algorithm.declaredParameters()) {
        if (spec.name == parameter) return true;
    }
    return false;
}

TrainConfig withOwnParameters(const Algorithm& algorithm, TrainConfig config) {
    std::map<std::string, std::string> own;
    for (const ParamSpec& spec : ownParametersOf(algorithm)) {
        const auto given = config.extra.find(spec.name);
        own[spec.name] = given != config.extra.end() ? given->second : spec.defaultValue;
    }
    config.extra = std::move(own);
    // A setting the algorithm does not read does not name its runs either (prepareRun resets it
    // the same way): a preset's batch-sharing is no part of its baselines' run keys.
    if (!readsParameter(algorithm, "batch-sharing")) config.batchSharing = BatchSharing::Own;
    return config;
}

PreparedConfig prepareRun(const Algorithm& algorithm, const TrainConfig& requested,
                          const DataSplit& data) {
    TrainConfig config = withOwnParameters(algorithm, requested);
    // Every value in range, whether the algorithm reads it or not: a record stores them all.
    validateParameters(config, commonParameters());
    validateParameters(config, ownParametersOf(algorithm));
    validateCommonConfig(config, data, algorithm.capabilities().task == Task::Classification);
    // resolve may name settings whose automatic value it read from the data in a way the
    // declarations cannot tell (one rule of several); the declared ones follow.
    config.readFromData.clear();
    TrainConfig resolved = algorithm.resolve(config, data);
    // Shared batches only where the algorithm declares them (and so trains them together and
    // reports them to the ledger): beside it in a sweep, another algorithm keeps its own sample.
    if (!readsParameter(algorithm, "batch-sharing")) resolved.batchSharing = BatchSharing::Own;
    algorithm.validate(resolved, data);
    const auto named = [&](const std::string& name) {
        for (const DataDerivedSetting& s : resolved.readFromData)
            if (s.name == name) return true;
        return false;
    };
    for (const ParamSpec& spec : algorithm.declaredParameters()) {
        if (spec.autoReads == AutoReads::Nothing || !spec.isAuto(spec.get(config))) continue;
        if (named(spec.name)) continue;
        resolved.readFromData.push_back({spec.name, spec.get(resolved), spec.autoMeaning,
                                         spec.autoReads == AutoReads::Content});
    }
    return PreparedConfig(std::move(resolved));
}

}  // namespace pfa

namespace pfa {

namespace {

/// The setting's value as text ("auto" when automatic), or "" when the algorithm has none.
std::string progressSettingText(const Algorithm& algorithm, const TrainConfig& config) {
    const std::string& name = algorithm.capabilities().progressSetting;
    for (const ParamSpec& spec : algorithm.declaredParameters()) {
        if (spec.name != name) continue;
        const std::string text = spec.get(config);
        return spec.isAuto(text) ? std::string("auto") : text;
    }
    return {};
}

std::string plural(const std::string& unit, const std::string& count) {
    return count == "1" ? unit : unit + "s";
}

}  // namespace

std::string progressText(const Algorithm& algorithm, const TrainConfig& config, long done) {
    const std::string unit = algorithm.capabilities().progressUnit;
    const std::string total = progressSettingText(algorithm, config);
    if (total.empty() || total == "auto")
        return std::to_string(done) + " " + plural(unit, std::to_string(done));
    return std::to_string(done) + " of " + total + " " + plural(unit, total);
}

long plannedProgress(const Algorithm& algorithm, const TrainConfig& config) {
    const std::string total = progressSettingText(algorithm, config);
    double value = 0.0;
    return parsePortable(total, value) && value > 0 ? static_cast<long>(value) : 0;
}

long progressAt(const Algorithm& algorithm, const EpochMetrics& metrics) {
    return algorithm.capabilities().progressUnit == "epoch" ? static_cast<long>(metrics.epoch)
                                                            : metrics.step;
}

std::string lengthText(const Algorithm& algorithm, const TrainConfig& config) {
    const std::string unit = algorithm.capabilities().progressUnit;
    const std::string total = progressSettingText(algorithm, config);
    if (total.empty()) return unit + "s: n/a";
    return total + " " + plural(unit, total);
}

}  // namespace pfa
