#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>

#include "core/data/dataset.h"
#include "core/privacy/accounting_inputs.h"
#include "core/privacy/clipped_gaussian_calibration.h"
#include "core/privacy/noisy_release.h"
#include "core/privacy/order_grid.h"
#include "core/privacy/rdp_mechanisms.h"
#include "core/privacy/sampling.h"
#include "core/util/random.h"

namespace pfa {

/// One noised sum a training step releases (a stream, e.g. the θ-gradient): the bound on one
/// unit's contribution to it and the Gaussian noise on it.
struct NoiseStream {
    double sensitivity = 0.0;      ///< Δ: ℓ2 bound of one unit's contribution (0: none known)
    double noiseMultiplier = 0.0;  ///< z = S/Δ, S the noise std on the sum (0 without a Δ)
    double sigma = 0.0;            ///< S/m: the noise std on the batch mean
    /// The trainer uses scale × the noisy mean (post-processing, e.g. the published update's
    /// λ·(g_ψ + u)), so the std it draws on its own mean is scale·σ.
    double scale = 1.0;

    /// The std the trainer adds to each entry of its batch mean.
    double drawnSigma() const { return scale * sigma; }
};

/// The Gaussian mechanism of a training step: the noisy sums the step releases from one sampled
/// batch (the θ-stream and, with a fairness penalty, the W-stream), the noise each one gets,
/// and how the release is charged, i.e. its RDP curve (privacy-accounting.md §2, §2.3). The
/// trainer draws its noise through it and the run's accountant is composed from it
/// (planAccountant), so the noise that is charged is the noise that is drawn. Built for one
/// SamplerSpec: the charge's q and steps per release are that sampler's.
class GaussianMechanism {
public:
    enum class Stream { Theta, W };

    /// No noise and no charge: the mechanism of a non-private run.
    GaussianMechanism() = default;

    /// Streams sharing the calibrated joint multiplier z equally (privacy-accounting.md §8
    /// "rdp"): with k streams each gets z_s = √k·z, so that Σ 1/z_s² = 1/z², and
    /// σ_s = z_s·Δ_s/m. Charged as `calibration.release`, for `calibration.sampler`.
    static GaussianMechanism calibrated(const privacy::ClippedGaussianCalibration& calibration,
                                        double thetaSensitivity,
                                        std::optional<double> wSensitivity = std::nullopt);

    /// Streams with given noise (closed-form calibrations), each as {Δ, σ, scale}: their
    /// multipliers follow, and so does the joint one (§2.3), at which `release` is charged
    /// unless its curve needs none (NoRelease, Uncertifiable). `release` holds the curve's
    /// kind, adjacency, q, steps per release and the bound its z refers to, for `sampler`;
    /// `description` names the mechanism for the statement.
    static GaussianMechanism withNoise(const SamplerSpec& sampler,
                                       privacy::AccountingInputs release, std::string description,
                                       NoiseStream theta,
                                       std::optional<NoiseStream> w = std::nullopt);

    /// True when the mechanism is charged (a private run), false for the default one.
    bool isPrivate() const { return m_private; }
    /// The sampler the charge was made for.
    const SamplerSpec& sampler() const { return m_sampler; }
    /// Whether the step releases `stream`.
    bool has(Stream stream) const { return stream == Stream::Theta || m_hasW; }
    /// The stream's bound and noise (all zero for a stream the step does not release).
    const NoiseStream& stream(Stream stream) const {
        return stream == Stream::Theta ? m_theta : m_w;
    }
    /// z_eff of the step's joint release (§2.3); +∞ when no stream has a bound.
    double noiseMultiplier() const { return m_noiseMultiplier; }
    /// How one release is charged (kind, q, z of the curve, steps per release, adjacency).
    const privacy::AccountingInputs& release() const { return m_release; }
    /// The charge if Poisson sampling were assumed (shuffle, subsample), an approximation.
    const std::optional<privacy::AccountingInputs>& poissonAssumed() const {
        return m_poissonAssumed;
    }
    /// The mechanism in words, for the statement.
    const std::string& description() const { return m_description; }

    /// The RDP curve of one release on `grid` (what the accountant adds per release); +∞
    /// everywhere for a mechanism that is not charged.
    privacy::RdpCurve rdpCurve(const privacy::OrderGrid& grid) const;

    /// Adds the stream's noise to a batch mean, N(0, (scale·σ)²) per entry, row by row (σ = 0:
    /// no draws). Allocates nothing.
    void addNoise(Stream stream, Eigen::Ref<RowMatrix> mean, RandomStream& random) const;
    /// The same for a column-major mean, column by column.
    void addNoise(Stream stream, Eigen::MatrixXd& mean, RandomStream& random) const;
    /// The stream's release as the noise is drawn: its bound on the (scaled) batch mean, one
    /// unit's Δ·scale/m, and the std drawn on it.
    privacy::ReleaseSpec releaseSpec(Stream stream) const;
    /// The std of the stream's noise on the batch sum, scale·σ·m (for sums the trainer noises
    /// before normalising them, e.g. the group masses).
    double sigmaOnSum(Stream stream) const {
        return this->stream(stream).drawnSigma() * static_cast<double>(m_sampler.batchSize);
    }

private:
    bool m_private = false;
    SamplerSpec m_sampler;
    NoiseStream m_theta;
    NoiseStream m_w;
    bool m_hasW = false;
    double m_noiseMultiplier = 0.0;
    privacy::AccountingInputs m_release;
    std::optional<privacy::AccountingInputs> m_poissonAssumed;
    std::string m_description;
};

}  // namespace pfa
