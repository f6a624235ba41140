#include "core/sweep/sweep_spec.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

#include "core/algorithms/registry.h"
#include "core/sweep/parameter_json.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

namespace {}  // namespace

std::vector<std::string> sweepParameterNames() {
    std::vector<std::string> names;
    for (const ParamSpec& spec : allParameters()) {
        if (spec.sweepable) names.push_back(spec.name);
    }
    return names;
}

namespace {

const ParamSpec& sweepableSpec(const std::string& parameter) {
    const ParamSpec* spec = findParameter(parameter);
    if (!spec || !spec->sweepable || spec->name != parameter) {
        std::string names;
        for (const std::string& name : sweepParameterNames())
            names += (names.empty() ? "" : ", ") + name;
        throw InputError("unknown sweep parameter '" + parameter + "': use one of " + names);
    }
    // Axes are lists of numbers or words; free text has no list syntax that could not clash.
    if (spec->kind == ParamKind::Text)
        throw InputError(parameter + " is a text setting: it cannot be a sweep axis");
    return *spec;
}

}  // namespace

void applySweepParameter(TrainConfig& c, const std::string& parameter, double value) {
    const ParamSpec& spec = sweepableSpec(parameter);
    spec.set(c, parseParameter(spec, value));
}

void applySweepParameter(TrainConfig& c, const std::string& parameter, const std::string& value) {
    const ParamSpec& spec = sweepableSpec(parameter);
    spec.set(c, parseParameter(spec, value));
}

bool isChoiceSweepParameter(const std::string& parameter) {
    const ParamSpec* spec = findParameter(parameter);
    return spec && spec->sweepable && spec->kind == ParamKind::Choice;
}

std::string tuningName(Tuning tuning) {
    return tuning == Tuning::SplitBudget ? "split-budget" : "not-covered";
}

Tuning parseTuning(const std::string& text) {
    if (text == "split-budget") return Tuning::SplitBudget;
    if (text == "not-covered") return Tuning::NotCovered;
    throw InputError("unknown tuning '" + text + "': use not-covered or split-budget");
}

std::string runKey(const std::string& dataset, const TrainConfig& c) {
    return "dataset=" + dataset + ";" + settingsKey(c);
}

std::size_t SweepSpec::size() const { return expand().size(); }

std::vector<SweepRun> SweepSpec::expand() const {
    std::vector<SweepRun> runs;
    // Recursion over the extra axes, innermost loops ε × λ × seed.
    std::function<void(const std::string&, TrainConfig, std::size_t)> expandAxes =
        [&](const std::string& dataset, TrainConfig config, std::size_t axis) {
            if (axis < axes.size()) {
                // An axis over a setting this algorithm does not read would only repeat its
                // runs (dp-sgd beside a trust-model axis): it runs once, the axis left out.
                if (!readsParameter(findAlgorithm(config.algorithm), axes[axis].parameter)) {
                    expandAxes(dataset, config, axis + 1);
                    return;
                }
                for (double value : axes[axis].values) {
                    TrainConfig next = config;
                    applySweepParameter(next, axes[axis].parameter, value);
                    expandAxes(dataset, next, axis + 1);
                }
                for (const std::string& choice : axes[axis].choices) {
                    TrainConfig next = config;
                    applySweepParameter(next, axes[axis].parameter, choice);
                    expandAxes(dataset, next, axis + 1);
                }
                return;
            }
            // A non-private algorithm runs once at ε = ∞, one without a fairness term once at
            // λ = 0, instead of repeating identical runs for every value of those axes.
            const Algorithm& algorithm = findAlgorithm(config.algorithm);
            const std::vector<double> runEpsilons =
                algorithm.supportsPrivacy() ? epsilons : std::vector<double>{INFINITY};
            const std::vector<double> runLambdas =
                algorithm.usesFairness() ? lambdas : std::vector<double>{0.0};
            // Candidates that share one (ε, seed): every λ × every combination of extra axes.
            std::size_t axisCombinations = 1;
            for (const SweepAxis& axis : axes) {
                if (readsParameter(algorithm, axis.parameter))
                    axisCombinations *= std::max<std::size_t>(1, axis.size());
            }
            const int candidates = static_cast<int>(axisCombinations * runLambdas.size());
            for (double epsilon : runEpsilons) {
                const bool split = tuning == Tuning::SplitBudget && std::isfinite(epsilon);
                for (double lambda : runLambdas) {
                    for (std::uint64_t seed : seeds) {
                        SweepRun run;
                        run.index = runs.size();
                        run.dataset = dataset;
                        run.config = config;
                        run.config.epsilon = split ? epsilon / candidates : epsilon;
                        run.tuning = tuning;
                        run.tuningCandidates = candidates;
                        run.gridEpsilon = epsilon;
                        run.config.lambda = lambda;
                        run.config.seed = seed;
                        run.key = runKey(dataset, run.config);
                        runs.push_back(std::move(run));
                    }
                }
            }
        };
    for (const std::string& dataset : datasets) {
        for (const std::string& algorithm : algorithms) {
            for (FairnessNotion notion : notions) {
                TrainConfig config = base;
                config.algorithm = algorithm;
                if (const auto own = algorithmConfig.find(algorithm);
                    own != algorithmConfig.end()) {
                    applyParametersJson(config, own->second, UnknownKeys::Refuse);
                }
                // Its own parameters at their defaults unless given; other algorithms' dropped.
                config = withOwnParameters(findAlgorithm(algorithm), std::move(config));
                config.fairness = notion;
                expandAxes(dataset, config, 0);
            }
        }
    }
    return runs;
}

}  // namespace pfa
