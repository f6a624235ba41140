#include "core/algorithms/registry.h"

#include <stdexcept>

#include "core/config/own_setting.h"
#include "core/config/parameters.h"
#include "core/util/error.h"
#include "core/util/random.h"

namespace pfa {

// The one the project is built around (declared in core/config/train_config.h).
constinit const char* const kDefaultAlgorithm = "dp-fermi";

#define PFA_ALGORITHM(factory, file) std::unique_ptr<Algorithm> factory();
#include "core/algorithms/algorithm_list.h"
#undef PFA_ALGORITHM

std::string ownSettingProblem(const std::vector<std::unique_ptr<Algorithm>>& algorithms,
                              const std::string& name, OwnSettingKind kind) {
    bool declared = false;
    for (const auto& algorithm : algorithms) {
        for (const ParamSpec& spec : algorithm->declaredParameters()) {
            if (spec.name != name) continue;
            const bool number = spec.kind == ParamKind::Real || spec.kind == ParamKind::Integer;
            if (number != (kind == OwnSettingKind::Number)) {
                return "own setting '" + name + "' is read as " +
                       (number ? "a choice" : "a number") + " but " + algorithm->name() +
                       " declares it as " + (number ? "a number" : "a choice");
            }
            declared = true;
        }
    }
    if (!declared) return "own setting '" + name + "' is read but declared by no algorithm";
    return {};
}

namespace {

/// Every own-setting handle names a setting some algorithm declares, of the handle's kind
/// (core/config/own_setting.h): a misspelt name stops the program when the registry is built.
void checkOwnSettings(const std::vector<std::unique_ptr<Algorithm>>& algorithms) {
    for (const OwnSetting* handle : ownSettingHandles()) {
        const std::string problem = ownSettingProblem(algorithms, handle->name(), handle->kind());
        if (!problem.empty()) throw std::logic_error(problem);
    }
}

}  // namespace

const std::vector<std::unique_ptr<Algorithm>>& algorithmRegistry() {
    static const std::vector<std::unique_ptr<Algorithm>> registry = [] {
        std::vector<std::unique_ptr<Algorithm>> list;
#define PFA_ALGORITHM(factory, file) list.push_back(factory());
#include "core/algorithms/algorithm_list.h"
#undef PFA_ALGORITHM
        checkOwnSettings(list);
        return list;
    }();
    return registry;
}

const Algorithm* findAlgorithmOrNull(const std::string& name) {
    for (const auto& algorithm : algorithmRegistry()) {
        if (algorithm->name() == name) return algorithm.get();
    }
    return nullptr;
}

const Algorithm& findAlgorithm(const std::string& name) {
    if (const Algorithm* algorithm = findAlgorithmOrNull(name)) return *algorithm;
    throw InputError("unknown algorithm '" + name + "': choose one of " + algorithmNames());
}

std::string curveSettingOf(const std::string& algorithm) {
    const Algorithm* found = findAlgorithmOrNull(algorithm);
    return found ? found->capabilities().curveSetting : "lambda";
}

std::string algorithmNames() {
    std::string names;
    for (const auto& algorithm : algorithmRegistry()) {
        if (!names.empty()) names += ", ";
        names += algorithm->name();
    }
    return names;
}

const std::vector<ParamSpec>& allParameters() {
    static const std::vector<ParamSpec> list = [] {
        std::vector<ParamSpec> all = commonParameters();
        for (const auto& algorithm : algorithmRegistry()) {
            for (const ParamSpec& spec : algorithm->declaredParameters()) {
                bool known = false;
                for (const ParamSpec& seen : all) known = known || seen.name == spec.name;
                if (!known) all.push_back(spec);
            }
        }
        return all;
    }();
    return list;
}

const ParamSpec* findParameter(const std::string& name) {
    for (const ParamSpec& spec : allParameters()) {
        if (spec.name == name) return &spec;
    }
    for (const ParamSpec& spec : allParameters()) {
        for (const std::string& former : spec.formerNames) {
            if (former == name) return &spec;
        }
    }
    return nullptr;
}

std::string algorithmsReading(const std::string& name) {
    std::string names;
    for (const auto& algorithm : algorithmRegistry()) {
        for (const ParamSpec& spec : algorithm->declaredParameters()) {
            if (spec.name != name) continue;
            names += (names.empty() ? "" : ", ") + algorithm->name();
            break;
        }
    }
    return names;
}

RunResult runAlgorithm(const TrainConfig& config, const DataSplit& data, TrainingObserver& observer,
                       const CancelToken& cancel) {
    const Algorithm& algorithm = findAlgorithm(config.algorithm);
    RunResult result = algorithm.run(prepareRun(algorithm, config, data), data, observer, cancel);
    result.runUid = newRunUid();
    result.constant = constantBaseline(data.test);
    observer.onRunEnd(result);
    return result;
}

std::vector<RunResult> runAlgorithmTogether(const std::vector<TrainConfig>& configs,
                                            const DataSplit& data,
                                            const std::vector<TrainingObserver*>& observers,
                                            const CancelToken& cancel) {
    if (configs.empty()) return {};
    const Algorithm& algorithm = findAlgorithm(configs.front().algorithm);
    std::vector<PreparedConfig> prepared;
    for (const TrainConfig& config : configs) {
        const Algorithm& own = findAlgorithm(config.algorithm);
        if (own.togetherFamily() != algorithm.togetherFamily())
            throw std::logic_error("runs trained together must be of one family of algorithms");
        prepared.push_back(prepareRun(own, config, data));
    }
    std::vector<RunResult> results = algorithm.runTogether(prepared, data, observers, cancel);
    const ConstantBaseline constant = constantBaseline(data.test);  // one test set for all
    for (std::size_t i = 0; i < results.size(); ++i) {
        results[i].runUid = newRunUid();
        results[i].constant = constant;
        observers[i]->onRunEnd(results[i]);
    }
    return results;
}

AlgorithmPresentation presentationOf(const std::string& name) {
    const Algorithm* algorithm = findAlgorithmOrNull(name);
    return algorithm ? algorithm->presentation() : AlgorithmPresentation{};
}

}  // namespace pfa
