#include "core/train/trainer_plan.h"

namespace pfa {

std::optional<privacy::RunAccountant> planAccountant(const TrainerPlan& plan, double delta,
                                                     const std::string& unit) {
    if (!plan.noise.isPrivate()) return std::nullopt;
    return privacy::composeRunAccountant(plan.noise.release(), plan.sideReleases, delta, unit);
}

}  // namespace pfa
