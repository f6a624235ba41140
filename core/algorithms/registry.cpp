#include "core/algorithms/registry.h"

#include "core/util/error.h"
#include "core/util/random.h"

namespace pfa {

#define PFA_ALGORITHM(factory, file) std::unique_ptr<Algorithm> factory();
#include "core/algorithms/algorithm_list.h"
#undef PFA_ALGORITHM

const std::vector<std::unique_ptr<Algorithm>>& algorithmRegistry() {
    static const std::vector<std::unique_ptr<Algorithm>> registry = [] {
        std::vector<std::unique_ptr<Algorithm>> list;
#define PFA_ALGORITHM(factory, file) list.push_back(factory());
#include "core/algorithms/algorithm_list.h"
#undef PFA_ALGORITHM
        return list;
    }();
    return registry;
}

const Algorithm& findAlgorithm(const std::string& name) {
    for (const auto& algorithm : algorithmRegistry()) {
        if (algorithm->name() == name) return *algorithm;
    }
    throw InputError("unknown algorithm '" + name + "': choose one of " + algorithmNames());
}

std::string curveSettingOf(const std::string& algorithm) {
    for (const std::unique_ptr<Algorithm>& candidate : algorithmRegistry()) {
        if (candidate->name() == algorithm) return candidate->capabilities().curveSetting;
    }
    return "lambda";
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
            for (const ParamSpec& spec : algorithm->parameters()) {
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
        for (const ParamSpec& spec : algorithm->parameters()) {
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
    observer.onRunEnd(result);
    return result;
}

AlgorithmPresentation presentationOf(const std::string& name) {
    for (const auto& algorithm : algorithmRegistry())
        if (algorithm->name() == name) return algorithm->presentation();
    return {};
}

}  // namespace pfa
