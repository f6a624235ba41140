#include "core/privacy/run_accountant.h"

namespace pfa::privacy {

RunAccountant::RunAccountant(OrderGrid grid, RdpCurve releaseCurve, long stepsPerRelease,
                             double delta, double pureEpsilon)
    : m_grid(std::move(grid)),
      m_releaseCurve(std::move(releaseCurve)),
      m_stepsPerRelease(stepsPerRelease < 1 ? 1 : stepsPerRelease),
      m_delta(delta),
      m_pureEpsilon(pureEpsilon) {}

RdpCurve RunAccountant::curveAfter(long steps) const {
    const long releases = (steps + m_stepsPerRelease - 1) / m_stepsPerRelease;
    return scaled(m_releaseCurve, static_cast<double>(releases));
}

EpsilonResult RunAccountant::after(long steps) const {
    EpsilonResult result = epsilonFromRdp(m_grid, curveAfter(steps), m_delta);
    result.epsilon += m_pureEpsilon;
    return result;
}

}  // namespace pfa::privacy
