#include "core/privacy/run_accountant.h"

#include <mutex>
#include <utility>

namespace pfa::privacy {

struct RunAccountant::LastAnswer {
    std::mutex mutex;
    long releases = -1, interim = -1;
    EpsilonResult result{};
};

RunAccountant::RunAccountant(AccountingInputs inputs)
    : m_inputs(std::move(inputs)),
      m_grid(orderGridNamed(m_inputs.grid)),
      m_releaseCurve(releaseCurve(m_grid, m_inputs)),
      m_last(std::make_shared<LastAnswer>()) {}

RdpCurve RunAccountant::curveAfter(long steps) const {
    RdpCurve curve = scaled(m_releaseCurve, static_cast<double>(m_inputs.releasesAfter(steps)));
    const long interim = m_inputs.interimReleasesAfter(steps);
    if (interim > 0) {
        const RdpCurve extra = interimReleaseCurve(m_grid, m_inputs);
        for (std::size_t k = 0; k < curve.size(); ++k)
            curve[k] += static_cast<double>(interim) * extra[k];
    }
    addGaussianReleases(m_grid, m_inputs, steps, curve);
    return curve;
}

EpsilonResult RunAccountant::after(long steps) const {
    // Without scheduled releases, ε depends on the steps only through the two release counts,
    // which change every few steps where a release spans several (a silo's epoch of rounds,
    // asked after every round): the answer for the same counts is the same, so it is reused.
    const bool byCounts = m_inputs.gaussianReleases.empty();
    const long releases = m_inputs.releasesAfter(steps);
    const long interim = m_inputs.interimReleasesAfter(steps);
    if (byCounts) {
        const std::lock_guard<std::mutex> lock(m_last->mutex);
        if (m_last->releases == releases && m_last->interim == interim) return m_last->result;
    }
    EpsilonResult result = epsilonFromRdp(m_grid, curveAfter(steps), m_inputs.delta);
    result.epsilon += m_inputs.pureEpsilon();
    if (byCounts) {
        const std::lock_guard<std::mutex> lock(m_last->mutex);
        m_last->releases = releases;
        m_last->interim = interim;
        m_last->result = result;
    }
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
