#include "core/engine/gaussian_mechanism.h"

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "core/privacy/noisy_release.h"

namespace pfa {

namespace {

/// z = S/Δ of a stream whose noise is given on the batch mean of m units.
void completeStream(NoiseStream& stream, double batchSize) {
    stream.noiseMultiplier =
        stream.sensitivity > 0.0 ? stream.sigma * batchSize / stream.sensitivity : 0.0;
}

}  // namespace

GaussianMechanism GaussianMechanism::calibrated(
    const privacy::ClippedGaussianCalibration& calibration, double thetaSensitivity,
    std::optional<double> wSensitivity) {
    GaussianMechanism mechanism;
    mechanism.m_private = true;
    mechanism.m_sampler = calibration.sampler;
    mechanism.m_hasW = wSensitivity.has_value();
    const double z = calibration.noiseMultiplier;
    const double streams = mechanism.m_hasW ? 2.0 : 1.0;
    const double streamMultiplier = std::sqrt(streams) * z;
    const double m = static_cast<double>(calibration.sampler.batchSize);
    auto stream = [&](double sensitivity) {
        NoiseStream s;
        s.sensitivity = sensitivity;
        s.noiseMultiplier = streamMultiplier;
        s.sigma = streamMultiplier * sensitivity / m;
        return s;
    };
    mechanism.m_theta = stream(thetaSensitivity);
    if (wSensitivity) mechanism.m_w = stream(*wSensitivity);
    mechanism.m_noiseMultiplier = z;
    mechanism.m_release = calibration.release;
    mechanism.m_poissonAssumed = calibration.poissonAssumed;
    mechanism.m_description = calibration.mechanism;
    return mechanism;
}

GaussianMechanism GaussianMechanism::withNoise(const SamplerSpec& sampler,
                                               privacy::AccountingInputs release,
                                               std::string description, NoiseStream theta,
                                               std::optional<NoiseStream> w) {
    GaussianMechanism mechanism;
    mechanism.m_private = true;
    mechanism.m_sampler = sampler;
    const double m = static_cast<double>(sampler.batchSize);
    completeStream(theta, m);
    mechanism.m_theta = theta;
    std::vector<privacy::GaussianBlock> blocks{{theta.sensitivity, theta.sigma * m}};
    if (w) {
        completeStream(*w, m);
        mechanism.m_w = *w;
        mechanism.m_hasW = true;
        blocks.push_back({w->sensitivity, w->sigma * m});
    }
    mechanism.m_noiseMultiplier = privacy::jointNoiseMultiplier(blocks);
    if (release.kind != privacy::ReleaseKind::NoRelease &&
        release.kind != privacy::ReleaseKind::Uncertifiable) {
        release.noiseMultiplier = mechanism.m_noiseMultiplier;
    }
    mechanism.m_release = std::move(release);
    mechanism.m_description = std::move(description);
    return mechanism;
}

privacy::RdpCurve GaussianMechanism::rdpCurve(const privacy::OrderGrid& grid) const {
    if (!m_private) return privacy::RdpCurve(grid.size(), std::numeric_limits<double>::infinity());
    return privacy::releaseCurve(grid, m_release);
}

privacy::ReleaseSpec GaussianMechanism::releaseSpec(Stream which) const {
    const NoiseStream& s = stream(which);
    privacy::ReleaseSpec spec;
    spec.channel = which == Stream::Theta ? "theta-gradient" : "w-gradient";
    // The value noised is scale × the batch mean: one unit moves it by scale·Δ/m, and a
    // replaced unit (a clip norm out, another in) by twice that; a linear-amplification bound
    // is already a bound on the difference.
    const bool replacedContribution = m_release.adjacency == privacy::Adjacency::Replace &&
                                      m_release.kind != privacy::ReleaseKind::LinearAmplification;
    spec.sensitivity = (replacedContribution ? 2.0 : 1.0) * s.scale * s.sensitivity /
                       static_cast<double>(m_sampler.batchSize);
    spec.noiseScale = m_private ? s.drawnSigma() : 0.0;
    return spec;
}

void GaussianMechanism::addNoise(Stream which, Eigen::Ref<RowMatrix> mean,
                                 RandomStream& random) const {
    if (!m_private) return;
    privacy::releaseGaussian(releaseSpec(which), mean, random);
}

void GaussianMechanism::addNoise(Stream which, Eigen::MatrixXd& mean, RandomStream& random) const {
    if (!m_private) return;
    privacy::releaseGaussian(releaseSpec(which), mean, random, /*columnOrder=*/true);
}

}  // namespace pfa
