#pragma once

#include <memory>
#include <string>

#include "core/data/dataset.h"
#include "core/train/cancel_token.h"
#include "core/train/run_result.h"
#include "core/train/train_config.h"

namespace pfa {

/// A training algorithm. Implementations live one per file in core/algorithms/ and are listed
/// in core/algorithms/algorithm_list.h.
class Algorithm {
public:
    virtual ~Algorithm() = default;

    /// Registry name used on the command line ("dp-fermi").
    virtual std::string name() const = 0;
    /// One plain-language line for menus and --help.
    virtual std::string description() const = 0;
    /// True if the algorithm accepts a finite ε.
    virtual bool supportsPrivacy() const = 0;
    /// True if the algorithm uses the fairness weight λ.
    virtual bool usesFairness() const = 0;

    /// Checks `config` against `data`; throws InputError whose message names the offending
    /// value and the rule it breaks.
    virtual void validate(const TrainConfig& config, const DataSplit& data) const = 0;

    /// Validates, trains and returns the result (also for cancelled or diverged runs).
    /// Observer hooks run on the calling thread; `cancel` is checked before every minibatch.
    virtual RunResult run(const TrainConfig& config, const DataSplit& data,
                          TrainingObserver& observer, const CancelToken& cancel) const = 0;
};

}  // namespace pfa
