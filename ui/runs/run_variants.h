#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/config/train_config.h"

namespace pfa::ui {

/// What tells runs of one algorithm apart when they differ in its own settings (isrl-dp-sgd's
/// trust model, ppsgd's personalisation): among the runs given, the own settings whose values
/// differ between runs of the same algorithm, except the setting that traces its curve (γ, a
/// dual step), which is a point of one curve, not a variant.
class RunVariants {
public:
    explicit RunVariants(const std::vector<const pfa::TrainConfig*>& runs);

    /// "trust = local" (settings by name, values as typed, comma-separated); empty when the
    /// run's algorithm has no differing own setting among the runs.
    std::string of(const pfa::TrainConfig& run) const;
    /// "isrl-dp-sgd (trust = local)", or the algorithm alone.
    std::string label(const pfa::TrainConfig& run) const;

private:
    std::map<std::string, std::map<std::string, std::set<std::string>>> m_values;
};

}  // namespace pfa::ui
