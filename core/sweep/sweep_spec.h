#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/config/parameters.h"
#include "core/config/train_config.h"
#include "core/fairness/fairness_notion.h"
#include "core/util/json_value.h"

namespace pfa {

class Algorithm;

/// An extra sweep axis over a parameter declared sweepable (sweepParameterNames()): numbers for
/// a Real or Integer parameter, choice names for a Choice parameter (e.g. the trust model of
/// training across silos: central, isrl, local), never both.
struct SweepAxis {
    std::string parameter;
    std::vector<double> values;        ///< numeric parameter: its values
    std::vector<std::string> choices;  ///< choice parameter: its values' names

    /// Number of values of the axis.
    std::size_t size() const { return values.size() + choices.size(); }
};

/// How a sweep pays for choosing among its candidate settings. Every λ value and every
/// hyper-parameter trial is a separate training run on the same rows, so "the best point of
/// the grid" is never free.
enum class Tuning {
    /// Every run spends the grid's full ε; a model picked by its results is only covered by
    /// the composed cost of all candidates (the privacy ledger's total). Said in the statement.
    NotCovered,
    /// The K candidates of each (data set, algorithm, notion, ε, seed) split ε evenly: each
    /// runs at ε/K, so the whole grid spends ε on the training rows by composition.
    SplitBudget,
};

std::string tuningName(Tuning tuning);  ///< "not-covered", "split-budget"
Tuning parseTuning(const std::string& text);

/// One run of a sweep: which data set, the full configuration, and its identity.
struct SweepRun {
    std::size_t index = 0;  ///< position in the sweep's deterministic order
    std::string dataset;    ///< data-set key understood by the sweep's DatasetProvider
    TrainConfig config;
    std::string key;  ///< run key: identical settings ⇔ identical key (resume, merge)
    Tuning tuning = Tuning::NotCovered;
    int tuningCandidates = 1;  ///< K: settings that share this run's (ε, seed) in the grid
    double gridEpsilon = 0.0;  ///< the ε the grid was given (config.epsilon × K when split)
};

/// A grid over data set × algorithm × fairness notion × extra axes × ε × λ × seed on top of
/// a base configuration. The expansion order is fixed, so run indices (and shards) are
/// reproducible.
struct SweepSpec {
    std::vector<std::string> datasets{"synthetic"};
    std::vector<std::string> algorithms{kDefaultAlgorithm};
    std::vector<FairnessNotion> notions{FairnessNotion::DemographicParity};
    std::vector<SweepAxis> axes;
    std::vector<double> epsilons{1.0};
    std::vector<double> lambdas{1.0};
    std::vector<std::uint64_t> seeds{0};
    TrainConfig base;
    /// Settings for one algorithm only, over `base` (a preset's "algorithm_config": e.g. PF-LD's
    /// own epochs and batch size beside DP-FERMI's): algorithm name → JSON object of settings
    /// by their declared names.
    std::map<std::string, JsonValue> algorithmConfig;
    Tuning tuning = Tuning::NotCovered;

    /// Every run, data set outermost and seed innermost. Algorithms that are not private run
    /// only at ε = ∞ and those without a fairness term only at λ = 0.
    std::vector<SweepRun> expand() const;
    /// Number of runs.
    std::size_t size() const;
};

/// Sets `parameter` (see SweepAxis) in `config`; throws InputError for an unknown name or a
/// value of the wrong kind (e.g. a fractional number of epochs).
void applySweepParameter(TrainConfig& config, const std::string& parameter, double value);
/// As above for a value given as text (a choice name, or a number as text).
void applySweepParameter(TrainConfig& config, const std::string& parameter,
                         const std::string& value);
/// Whether `parameter` is a sweepable choice parameter (its axis lists names, not numbers).
bool isChoiceSweepParameter(const std::string& parameter);

/// Names accepted by applySweepParameter.
std::vector<std::string> sweepParameterNames();

/// The run key: the data-set key plus every setting of `config`, numbers written exactly.
std::string runKey(const std::string& dataset, const TrainConfig& config);

}  // namespace pfa
