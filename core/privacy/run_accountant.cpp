#include "core/privacy/run_accountant.h"

#include <utility>

namespace pfa::privacy {

RunAccountant::RunAccountant(AccountingInputs inputs)
    : m_inputs(std::move(inputs)),
      m_grid(orderGridNamed(m_inputs.grid)),
      m_releaseCurve(releaseCurve(m_grid, m_inputs)) {}

RdpCurve RunAccountant::curveAfter(long steps) const {
    return scaled(m_releaseCurve, static_cast<double>(m_inputs.afterSteps(steps).releases()));
}

EpsilonResult RunAccountant::after(long steps) const {
    EpsilonResult result = epsilonFromRdp(m_grid, curveAfter(steps), m_inputs.delta);
    result.epsilon += m_inputs.pureEpsilon();
    return result;
}

RunAccountant composeRunAccountant(AccountingInputs release, std::vector<PureRelease> side,
                                   double delta, const std::string& unit) {
    release.unit = unit;
    release.delta = delta;
    release.pureReleases = std::move(side);
    return RunAccountant(std::move(release));
}

}  // namespace pfa::privacy
