#include "ui/runs/run_variants.h"

#include "core/algorithms/registry.h"
#include "core/config/parameters.h"

namespace pfa::ui {

RunVariants::RunVariants(const std::vector<const pfa::TrainConfig*>& runs) {
    for (const pfa::TrainConfig* run : runs) {
        for (const auto& [name, value] : run->extra) m_values[run->algorithm][name].insert(value);
    }
}

std::string RunVariants::of(const pfa::TrainConfig& run) const {
    const auto algorithm = m_values.find(run.algorithm);
    if (algorithm == m_values.end()) return {};
    const std::string curve = pfa::curveSettingOf(run.algorithm);
    std::string text;
    for (const auto& [name, values] : algorithm->second) {
        if (values.size() < 2 || name == curve) continue;
        const auto value = run.extra.find(name);
        text += (text.empty() ? "" : ", ") + name + " = " +
                (value == run.extra.end() ? std::string("–") : pfa::shortValueText(value->second));
    }
    return text;
}

std::string RunVariants::label(const pfa::TrainConfig& run) const {
    const std::string variant = of(run);
    return variant.empty() ? run.algorithm : run.algorithm + " (" + variant + ")";
}

}  // namespace pfa::ui
