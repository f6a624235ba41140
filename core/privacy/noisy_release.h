#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

namespace pfa::privacy {

/// The norm in which a release's bound is measured: ℓ2 for Gaussian noise, ℓ1 for Laplace.
enum class SensitivityNorm { L2, L1 };

/// What one noisy release says about itself, at the point where its noise is drawn: the bound
/// Δ on how far its noise-free value can move between two neighbouring data sets under the
/// run's adjacency (one unit added or removed, or replaced: then twice a clip norm), in the
/// units of the value as it is noised (after any normalisation), and the noise scale on each
/// entry. The run's accountant charges the release for noise/Δ; the neighbour tests check
/// that Δ holds.
struct ReleaseSpec {
    const char* channel = "";  ///< what is released, e.g. "θ-gradient" (stable, for tests)
    double sensitivity = 0.0;  ///< Δ: bound on the change between neighbours (0: none claimed)
    SensitivityNorm norm = SensitivityNorm::L2;
    double noiseScale = 0.0;  ///< Gaussian std or Laplace scale per entry (0: no noise)

    /// A Gaussian release: bound Δ in ℓ2, noise std per entry.
    static ReleaseSpec gaussian(const char* channel, double sensitivity, double noiseStd) {
        return {channel, sensitivity, SensitivityNorm::L2, noiseStd};
    }
    /// A Laplace release: bound Δ₁ in ℓ1, noise scale per entry.
    static ReleaseSpec laplace(const char* channel, double l1Sensitivity, double scale) {
        return {channel, l1Sensitivity, SensitivityNorm::L1, scale};
    }
};

/// Watches the noisy releases and the sampled batches of the runs on this thread. Production
/// runs have none; the neighbour tests install one to run an algorithm on two neighbouring
/// data sets with the noise switched off, the batches coupled and each release's noise-free
/// value compared (tests/core/neighbour_test.cpp).
/// One step's draw of a sampler, as a tap sees it: which sampler, over how many units, at what
/// rate (each unit's inclusion probability under Poisson sampling; the share of the units one
/// step takes for shuffled or uniform batches). The rate is the q the accountant must charge.
struct BatchDraw {
    const char* sampler = "";  ///< "rows", "users", "silos", "private-rows", "silo-rows"
    long population = 0;       ///< units that can be drawn: positions 0 … population − 1
    double rate = 1.0;
};

class ReleaseTap {
public:
    virtual ~ReleaseTap() = default;
    /// Called with a release's noise-free value before its noise is drawn. The tap may change
    /// `value` (a coupled run continues from the other run's release). Returns whether to draw
    /// the noise (false: the value is released as it is, and no noise is drawn).
    virtual bool onRelease(const ReleaseSpec& spec, Eigen::Ref<Eigen::VectorXd> value) = 0;
    /// Called with the units (positions 0 … draw.population − 1) a sampler drew for one
    /// step, `members[0, size)`; the tap may replace them (capacity: population).
    virtual void onBatch(const BatchDraw& draw, std::vector<long>& members, long& size) = 0;
    /// A fingerprint to key the run's random streams with instead of the training data's, so
    /// that two neighbouring data sets draw the same samples (nullopt: the data's own).
    virtual std::optional<std::uint64_t> dataFingerprint() const { return std::nullopt; }
};

/// The tap of this thread (nullptr: none, the normal case).
ReleaseTap* activeReleaseTap();

/// Installs `tap` on this thread for its lifetime (restoring the previous one after).
class ScopedReleaseTap {
public:
    explicit ScopedReleaseTap(ReleaseTap& tap);
    ~ScopedReleaseTap();
    ScopedReleaseTap(const ScopedReleaseTap&) = delete;
    ScopedReleaseTap& operator=(const ScopedReleaseTap&) = delete;

private:
    ReleaseTap* m_previous;
};

namespace detail {
/// Shows `value` (any dense Eigen object) to the tap through a vector copy; returns whether
/// to draw the noise.
template <typename Value>
bool showToTap(ReleaseTap& tap, const ReleaseSpec& spec, Value& value) {
    Eigen::VectorXd flat(value.size());
    Eigen::Index k = 0;
    for (Eigen::Index i = 0; i < value.rows(); ++i)
        for (Eigen::Index j = 0; j < value.cols(); ++j) flat(k++) = value(i, j);
    const bool noise = tap.onRelease(spec, flat);
    k = 0;
    for (Eigen::Index i = 0; i < value.rows(); ++i)
        for (Eigen::Index j = 0; j < value.cols(); ++j) value(i, j) = flat(k++);
    return noise;
}
}  // namespace detail

/// The Gaussian mechanism on `value`: N(0, spec.noiseScale²) on every entry, drawn from
/// `random` row by row (column by column when `columnOrder`; the order is part of a run's
/// reproducibility). Every Gaussian release of a training run goes through here, so the noise
/// that is drawn is the noise the release declares. Allocates nothing (unless a tap watches).
template <typename Value, typename Random>
void releaseGaussian(const ReleaseSpec& spec, Value&& value, Random& random,
                     bool columnOrder = false) {
    if (ReleaseTap* tap = activeReleaseTap()) {
        if (!detail::showToTap(*tap, spec, value)) return;
    }
    const double sigma = spec.noiseScale;
    if (!(sigma > 0.0)) return;
    // The draws of normal() entry by entry, a block of them at a time (fillNormals).
    constexpr long kBlock = 64;
    std::array<double, kBlock> draws;
    const Eigen::Index outer = columnOrder ? value.cols() : value.rows();
    const Eigen::Index inner = columnOrder ? value.rows() : value.cols();
    long used = kBlock, left = static_cast<long>(outer * inner);
    for (Eigen::Index a = 0; a < outer; ++a) {
        for (Eigen::Index b = 0; b < inner; ++b) {
            if (used == kBlock) {
                random.fillNormals(draws.data(), std::min(kBlock, left));
                left -= std::min(kBlock, left);
                used = 0;
            }
            (columnOrder ? value(b, a) : value(a, b)) +=
                sigma * draws[static_cast<std::size_t>(used++)];
        }
    }
}

/// `count` Gaussian releases of `spec` whose noise-free values were summed into `sum` before
/// their noise, when nothing but their sum is used: the sum of their independent N(0, σ²) noises
/// on every entry, drawn at once as N(0, count·σ²) — the same distribution as `count`
/// releaseGaussian calls summed, with `count` times fewer draws. For a simulation of local noise
/// (each record noises its own contribution; the aggregator sees only the total). A tap sees
/// the sum, against spec.sensitivity: one contributor differs between neighbours.
template <typename Value, typename Random>
void releaseGaussianSum(const ReleaseSpec& spec, long count, Value&& sum, Random& random) {
    if (count <= 0) return;
    ReleaseSpec total = spec;
    total.noiseScale = spec.noiseScale * std::sqrt(static_cast<double>(count));
    releaseGaussian(total, sum, random);
}

/// The Laplace mechanism on `value`: Laplace(spec.noiseScale) on every entry, in order.
template <typename Value, typename Random>
void releaseLaplace(const ReleaseSpec& spec, Value&& value, Random& random) {
    if (ReleaseTap* tap = activeReleaseTap()) {
        if (!detail::showToTap(*tap, spec, value)) return;
    }
    const double scale = spec.noiseScale;
    if (!(scale > 0.0)) return;
    for (Eigen::Index i = 0; i < value.rows(); ++i)
        for (Eigen::Index j = 0; j < value.cols(); ++j) value(i, j) += random.laplace(scale);
}

/// One scalar through the Laplace mechanism (e.g. a sparse-vector comparison's score).
template <typename Random>
double releaseLaplace(const ReleaseSpec& spec, double value, Random& random) {
    Eigen::Matrix<double, 1, 1> one;
    one(0) = value;
    releaseLaplace(spec, one, random);
    return one(0);
}

/// Lets the tap see (and couple) the units a sampler drew for one step.
inline void observeBatch(const BatchDraw& draw, std::vector<long>& members, long& size) {
    if (ReleaseTap* tap = activeReleaseTap()) tap->onBatch(draw, members, size);
}

}  // namespace pfa::privacy
