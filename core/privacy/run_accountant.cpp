#include "core/privacy/run_accountant.h"

#include <utility>

namespace pfa::privacy {

RunAccountant::RunAccountant(AccountingInputs inputs)
    : m_inputs(std::move(inputs)),
      m_grid(orderGridNamed(m_inputs.grid)),
      m_releaseCurve(releaseCurve(m_grid, m_inputs)) {}

RdpCurve RunAccountant::curveAfter(long steps) const {
    const AccountingInputs at = m_inputs.afterSteps(steps);
    RdpCurve curve = scaled(m_releaseCurve, static_cast<double>(at.releases()));
    const long interim = at.interimReleases();
    if (interim > 0) {
        const RdpCurve extra = interimReleaseCurve(m_grid, m_inputs);
        for (std::size_t k = 0; k < curve.size(); ++k)
            curve[k] += static_cast<double>(interim) * extra[k];
    }
    addGaussianReleases(m_grid, m_inputs, steps, curve);
    return curve;
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
