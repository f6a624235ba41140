#include "core/privacy/run_accountant.h"

#include <deque>
#include <mutex>
#include <utility>

namespace pfa::privacy {

struct RunAccountant::Answers {
    /// Answers kept; past it the oldest go (a run asks for at most one per evaluation).
    static constexpr std::size_t kKept = 256;
    struct Answer {
        long releases, interim;
        EpsilonResult result;
    };
    std::mutex mutex;
    std::deque<Answer> known;
};

RunAccountant::RunAccountant(AccountingInputs inputs)
    : m_inputs(std::move(inputs)),
      m_grid(orderGridNamed(m_inputs.grid)),
      m_releaseCurve(releaseCurve(m_grid, m_inputs)),
      m_answers(std::make_shared<Answers>()) {}

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
    // asked after every round), and runs sharing an accountant ask for the same counts: the
    // answer for the same counts is the same, so it is reused.
    const bool byCounts = m_inputs.gaussianReleases.empty();
    const long releases = m_inputs.releasesAfter(steps);
    const long interim = m_inputs.interimReleasesAfter(steps);
    if (byCounts) {
        const std::lock_guard<std::mutex> lock(m_answers->mutex);
        for (const Answers::Answer& known : m_answers->known)
            if (known.releases == releases && known.interim == interim) return known.result;
    }
    EpsilonResult result = epsilonFromRdp(m_grid, curveAfter(steps), m_inputs.delta);
    result.epsilon += m_inputs.pureEpsilon();
    if (byCounts) {
        const std::lock_guard<std::mutex> lock(m_answers->mutex);
        m_answers->known.push_back({releases, interim, result});
        if (m_answers->known.size() > Answers::kKept) m_answers->known.pop_front();
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
