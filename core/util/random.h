#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include "core/util/mersenne_twister64.h"
#include "core/util/table_math.h"
#include "core/util/table_sincos.h"

namespace pfa {

/// Random source for one run. Either deterministic (MT19937-64 seeded from a seed, a stream
/// label and an optional 256-bit digest) or secure (ChaCha20 keyed from the operating
/// system's entropy through libsodium: nobody, including the user, can regenerate it).
/// The standard library's distributions are implementation-defined, so every sample is
/// derived from the raw 64-bit output with our own formulas: the same seed gives the same
/// numbers on every compiler and platform.
class RandomStream {
public:
    /// A 256-bit digest mixed into a deterministic stream's seed (e.g. of a run's settings).
    using Digest = std::array<std::uint8_t, 32>;

    /// Seeds the stream from a run seed and a stream label (e.g. "sampling", "noise"), so
    /// that the streams of one run are independent and each is reproducible on its own.
    RandomStream(std::uint64_t seed, std::uint64_t streamLabel);
    /// As above, with `digest` mixed in: streams of runs whose digests differ are independent
    /// even when they share the seed.
    RandomStream(std::uint64_t seed, std::uint64_t streamLabel, const Digest& digest);

    /// A stream keyed with 256 bits of operating-system entropy (libsodium randombytes_buf)
    /// and expanded with the ChaCha20 stream cipher. Throws std::runtime_error when libsodium
    /// cannot be initialised.
    static RandomStream secure();
    /// True for a stream made by secure().
    bool isSecure() const { return m_secure; }

    /// Uniform in the open interval (0, 1); never returns exactly 0 or 1.
    double uniformOpen() {
        // 53 random bits, shifted by half an ulp so that 0 cannot occur.
        return (static_cast<double>(next64() >> 11) + 0.5) * 0x1.0p-53;
    }

    /// Uniform integer in [0, bound) without modulo bias (Lemire's method). Inline: a shuffle
    /// calls it once per element.
    std::uint64_t uniformIndex(std::uint64_t bound) {
        // Lemire's nearly divisionless method with rejection, 128-bit product.
        Uint128 product = static_cast<Uint128>(next64()) * bound;
        if (static_cast<std::uint64_t>(product) < bound)
            product = rejectBelowThreshold(product, bound);
        return static_cast<std::uint64_t>(product >> 64);
    }

    /// Standard normal sample (Box–Muller; the second value of each pair is kept). ln u is
    /// tableLog's and the angle's sine and cosine tableSinCos's (std::log's, std::sin's and
    /// std::cos's bits where those are glibc's with FMA), so that fillNormals can take them for
    /// many pairs at once and draw the same values.
    double normal() {
        if (m_hasSpare) {
            m_hasSpare = false;
            return m_spare;
        }
        const double u1 = uniformOpen();
        double sine = 0.0, cosine = 0.0;
        tableSinCos(boxMullerAngle(uniformOpen()), sine, cosine);
        return boxMuller(tableLog(u1), sine, cosine);
    }

    /// out[0 … n − 1] = n calls of normal(), the same values and the same state after; the
    /// pairs' logarithms, sines and cosines are taken four at a time (tableLogs,
    /// tableSinCoss). For a vector of noise.
    void fillNormals(double* out, long n);

    /// Fills every coefficient v(0), …, v(size − 1) of a vector with a standard normal draw, in
    /// order: a direction uniform on the sphere once divided by its norm. For randomness that
    /// protects nothing (e.g. smoothing points); privacy noise goes through the mechanisms of
    /// core/privacy/noisy_release.h.
    template <typename Vector>
    void fillStandardNormal(Vector& v) {
        for (long k = 0; k < static_cast<long>(v.size()); ++k) v(k) = normal();
    }

    /// Gamma(shape, 1) sample for shape > 0 (Marsaglia and Tsang's squeeze method; a shape
    /// below 1 is boosted from shape + 1 by U^(1/shape)).
    double gamma(double shape);

    /// The first coordinate of a point uniform in the unit ball of R^`dimension` (≥ 1). By
    /// rotational symmetry ⟨y, x⟩ for y uniform in the r-ball is distributed as r·‖x‖ times
    /// this: two draws (a normal and a gamma) instead of `dimension` normals, a uniform, the
    /// norm and the dot product.
    double unitBallCoordinate(long dimension);

    /// Laplace(0, scale) by inverse CDF.
    double laplace(double scale) {
        const double u = uniformOpen() - 0.5;
        return -scale * (u < 0 ? -1.0 : 1.0) * std::log1p(-2.0 * std::fabs(u));
    }

    /// Number of failures before the first success of a Bernoulli(p) sequence, p in (0, 1]
    /// (`logOneMinusP` = ln(1 − p)). Used to draw Poisson-sampled batches in O(q·n) per step.
    /// ln u is tableLog's (std::log's bits where that is glibc's with FMA), so that a sampler
    /// taking the logarithms of many draws at once (tableLogs) gets the same skips.
    std::uint64_t geometricSkip(double logOneMinusP) {
        if (logOneMinusP == -INFINITY) return 0;  // p = 1
        return geometricSkipOf(tableLog(uniformOpen()), logOneMinusP);
    }

    /// The skip that geometricSkip makes of ln u = `logUniform` (p < 1).
    static std::uint64_t geometricSkipOf(double logUniform, double logOneMinusP) {
        const double skip = std::floor(logUniform / logOneMinusP);
        return skip >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(skip);
    }

    /// The next 64 raw random bits.
    std::uint64_t next64() {
        if (!m_secure) return m_engine();
        if (m_used == m_block.size()) refillSecureBlock();
        return m_block[m_used++];
    }

private:
    __extension__ typedef unsigned __int128 Uint128;  // GCC/Clang builtin, pedantic-clean

    RandomStream() = default;
    void refillSecureBlock();
    /// uniformIndex's rare case: the low half of `product` is below `bound`; draws again while
    /// it is below 2^64 mod bound.
    Uint128 rejectBelowThreshold(Uint128 product, std::uint64_t bound);
    /// Box–Muller's angle θ = 2π·u2.
    static double boxMullerAngle(double u2) { return 2.0 * 3.14159265358979323846 * u2; }
    /// The Box–Muller pair of ln u1 = `logU1` and the angle's `sine` and `cosine`: returns
    /// r·cos θ and keeps r·sin θ as the spare (r = √(−2 ln u1)).
    double boxMuller(double logU1, double sine, double cosine) {
        const double radius = std::sqrt(-2.0 * logU1);
        m_spare = radius * sine;
        m_hasSpare = true;
        return radius * cosine;
    }

    MersenneTwister64 m_engine;
    double m_spare = 0.0;
    bool m_hasSpare = false;
    // Secure mode: ChaCha20 key, block counter used as the nonce, and the current block.
    bool m_secure = false;
    std::array<std::uint8_t, 32> m_key{};
    std::uint64_t m_nonce = 0;
    std::array<std::uint64_t, 64> m_block{};
    std::size_t m_used = 0;
};

/// 128 bits of operating-system entropy as 32 hex digits: a unique id for an executed run.
std::string newRunUid();

/// Stream labels used by the trainers. Fixed values: changing them changes every result.
namespace streams {
inline constexpr std::uint64_t kSampling = 0x53414d504c494e47ULL;   // batches
inline constexpr std::uint64_t kNoise = 0x4e4f495345000000ULL;      // gradient noise
inline constexpr std::uint64_t kShares = 0x5348415245530000ULL;     // group-share Laplace noise
inline constexpr std::uint64_t kInit = 0x494e495400000000ULL;       // parameter initialisation
inline constexpr std::uint64_t kSplit = 0x53504c4954000000ULL;      // train/test split
inline constexpr std::uint64_t kSynthetic = 0x53594e5448000000ULL;  // synthetic data
}  // namespace streams

}  // namespace pfa
