#pragma once

#include <Eigen/Core>
#include <string>

#include "core/privacy/accounting_inputs.h"
#include "core/privacy/noisy_release.h"
#include "core/util/random.h"

namespace pfa {

/// A pure ε₀-DP release of a vector (e.g. per-cell counts): Laplace noise of scale Δ₁/ε₀ on
/// every entry, where Δ₁ bounds the ℓ1 change one unit can make to the vector. Charged by
/// basic composition (privacy-accounting.md §2.4, §3): release() is what the run's accountant
/// adds to its ε.
class LaplaceMechanism {
public:
    /// ℓ1 sensitivity Δ₁ > 0 and budget ε₀ > 0; `entry` names one entry of the released vector
    /// (e.g. "cell").
    LaplaceMechanism(double l1Sensitivity, double epsilon, std::string entry);

    /// b = Δ₁/ε₀.
    double scale() const { return m_scale; }
    double epsilon() const { return m_epsilon; }

    /// Adds Laplace(b) to every entry of `values`, in order.
    void addNoise(Eigen::Ref<Eigen::VectorXd> values, RandomStream& random) const {
        privacy::releaseLaplace(releaseSpec(), values, random);
    }
    /// The release as the noise is drawn: ℓ1 bound Δ₁ and scale b.
    privacy::ReleaseSpec releaseSpec() const {
        return privacy::ReleaseSpec::laplace(m_channel.c_str(), m_sensitivity, m_scale);
    }

    /// The side release for the accountant: {what, "Laplace(Δ₁/ε₀) per <entry>", ε₀}.
    privacy::PureRelease release(const std::string& what) const;

private:
    double m_sensitivity;
    double m_epsilon;
    double m_scale;
    std::string m_entry;
    std::string m_channel;
};

}  // namespace pfa
