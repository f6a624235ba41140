#include "core/algorithms/registry.h"

#include "core/util/error.h"
#include "core/util/random.h"

namespace pfa {

#define PFA_ALGORITHM(factory) std::unique_ptr<Algorithm> factory();
#include "core/algorithms/algorithm_list.h"
#undef PFA_ALGORITHM

const std::vector<std::unique_ptr<Algorithm>>& algorithmRegistry() {
    static const std::vector<std::unique_ptr<Algorithm>> registry = [] {
        std::vector<std::unique_ptr<Algorithm>> list;
#define PFA_ALGORITHM(factory) list.push_back(factory());
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

std::string algorithmNames() {
    std::string names;
    for (const auto& algorithm : algorithmRegistry()) {
        if (!names.empty()) names += ", ";
        names += algorithm->name();
    }
    return names;
}

RunResult runAlgorithm(const TrainConfig& config, const DataSplit& data,
                       TrainingObserver& observer, const CancelToken& cancel) {
    RunResult result = findAlgorithm(config.algorithm).run(config, data, observer, cancel);
    result.runUid = newRunUid();
    observer.onRunEnd(result);
    return result;
}

}  // namespace pfa
