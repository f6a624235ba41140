#include "core/privacy/rdp_mechanisms.h"

#include <math.h>  // lgamma_r (glibc)

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <deque>
#include <limits>
#include <mutex>
#include <numbers>
#include <stdexcept>
#include <string>

#include "core/util/error.h"

namespace pfa::privacy {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kMaxSeriesTerms = 1000;  // spec §2.2: the fractional series stops at i = 1000
constexpr double kSeriesCutoff = -30.0;

std::atomic<std::uint64_t> g_signedFallbacks{0};

std::string formatNumber(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

void requireSamplingRate(double q) {
    if (!(q >= 0.0 && q <= 1.0)) {
        throw InputError("sampling rate q = " + formatNumber(q) + " is outside [0, 1]");
    }
}

void requireNoiseMultiplier(double z) {
    if (!(z >= 0.0)) {
        throw InputError("noise multiplier z = " + formatNumber(z) + " must be non-negative");
    }
}

void requireOrder(double alpha) {
    if (!(alpha > 1.0)) {
        throw InputError("order alpha = " + formatNumber(alpha) + " must be greater than 1");
    }
}

/// ln|Γ(x)|. glibc's plain lgamma writes the global `signgam`, a data race when accountants
/// run on several threads (sweeps); lgamma_r does not.
double lnAbsGamma(double x) {
#if defined(__GLIBC__)
    int sign = 0;
    return ::lgamma_r(x, &sign);
#else
    return std::lgamma(x);
#endif
}

/// ln(n!) for the series index; tabulated because every order of every curve needs the same
/// values (thread-safe: function-local static initialisation).
double lnFactorial(double n) {
    static const std::array<double, kMaxSeriesTerms + 1> table = [] {
        std::array<double, kMaxSeriesTerms + 1> t{};
        for (int i = 0; i <= kMaxSeriesTerms; ++i) t[i] = lnAbsGamma(i + 1.0);
        return t;
    }();
    return n <= kMaxSeriesTerms ? table[static_cast<std::size_t>(n)] : lnAbsGamma(n + 1.0);
}

/// ln A_α for integer α ≥ 2: the exact binomial sum (identical in both series variants).
double logAInteger(double q, double z, double alpha) {
    const double lnQ = std::log(q);
    const double ln1mQ = std::log1p(-q);
    const double twoZ2 = 2.0 * z * z;
    const double lnAlphaFactorial = lnFactorial(alpha);
    const long n = static_cast<long>(alpha);
    double logA = -kInf;
    for (long k = 0; k <= n; ++k) {
        const double i = static_cast<double>(k);
        const double lnBinom = lnAlphaFactorial - lnFactorial(i) - lnFactorial(alpha - i);
        const double term = lnBinom + i * lnQ + (alpha - i) * ln1mQ + (i * i - i) / twoZ2;
        logA = logAdd(logA, term);
    }
    return logA;
}

/// ln A_α for fractional α: the two-sided series of spec §2.2. Returns NaN when `signedSeries`
/// and a log-subtraction would go negative (the caller then falls back to the unsigned form).
double logAFractional(double q, double z, double alpha, bool signedSeries) {
    const double lnQ = std::log(q);
    const double ln1mQ = std::log1p(-q);
    const double twoZ2 = 2.0 * z * z;
    const double sqrt2Z = std::sqrt(2.0) * z;
    const double lnHalf = -std::log(2.0);
    const double z0 = z * z * (ln1mQ - lnQ) + 0.5;  // ln(1/q − 1) without cancellation
    const double lnGammaAlpha1 = lnAbsGamma(alpha + 1.0);
    // C(α, i) > 0 while every factor (α − k), k < i, is positive; afterwards the sign alternates.
    const double lastPositive = std::floor(alpha) + 1.0;

    double a0 = -kInf;
    double a1 = -kInf;
    for (int k = 0;; ++k) {
        const double i = k;
        const double j = alpha - i;
        const bool positive = i <= lastPositive || std::fmod(i - lastPositive, 2.0) == 0.0;
        const double lnAbsBinom = lnGammaAlpha1 - lnFactorial(i) - lnAbsGamma(j + 1.0);

        const double lnT0 = lnAbsBinom + i * lnQ + j * ln1mQ;
        const double lnT1 = lnAbsBinom + j * lnQ + i * ln1mQ;
        const double lnE0 = lnHalf + lnErfc((i - z0) / sqrt2Z);
        const double lnE1 = lnHalf + lnErfc((z0 - j) / sqrt2Z);
        const double lnS0 = lnT0 + (i * i - i) / twoZ2 + lnE0;
        const double lnS1 = lnT1 + (j * j - j) / twoZ2 + lnE1;

        if (positive || !signedSeries) {
            a0 = logAdd(a0, lnS0);
            a1 = logAdd(a1, lnS1);
        } else {
            a0 = logSub(a0, lnS0);
            a1 = logSub(a1, lnS1);
            if (std::isnan(a0) || std::isnan(a1)) return std::numeric_limits<double>::quiet_NaN();
        }
        if (std::max(lnS0, lnS1) < kSeriesCutoff || k >= kMaxSeriesTerms) break;
    }
    return logAdd(a0, a1);
}

/// ρ_SGM without argument checks (callers validate once per curve).
double sgmUnchecked(double q, double z, double alpha, SeriesSign sign) {
    if (q == 0.0) return 0.0;
    if (z == 0.0) return kInf;
    if (std::isinf(z)) return 0.0;
    if (q == 1.0) return alpha / (2.0 * z * z);
    if (std::isinf(alpha)) return kInf;

    double logA;
    if (alpha == std::floor(alpha)) {
        logA = logAInteger(q, z, alpha);
    } else {
        logA = logAFractional(q, z, alpha, sign == SeriesSign::Signed);
        if (std::isnan(logA)) {
            g_signedFallbacks.fetch_add(1, std::memory_order_relaxed);
            logA = logAFractional(q, z, alpha, false);
        }
    }
    const double rho = logA / (alpha - 1.0);
    // A_α ≥ 1 exactly; rounding can leave ln A_α a hair below 0.
    return rho < 0.0 ? 0.0 : rho;
}

double replaceUnchecked(double q, double z, double alpha) {
    if (q == 0.0) return 0.0;
    if (z == 0.0 || std::isinf(alpha)) return kInf;
    if (q == 1.0) return 2.0 * alpha / (z * z);
    const double twoAlpha = 2.0 * alpha;
    return (twoAlpha - 1.0) / (twoAlpha - 2.0) * sgmUnchecked(q, z, twoAlpha, SeriesSign::Signed) +
           sgmUnchecked(q, z, twoAlpha - 1.0, SeriesSign::Signed);
}

double linearUnchecked(double q, double z, double alpha) {
    if (q == 0.0) return 0.0;
    if (z == 0.0 || std::isinf(alpha)) return kInf;
    const double x = alpha * (alpha - 1.0) / (2.0 * z * z);
    // Two forms of ln(1 − q + q·e^x): the first loses nothing for small x, the second avoids
    // overflowing e^x.
    const double logMoment = x <= 30.0 ? std::log1p(q * std::expm1(x))
                                       : x + std::log(q) + std::log1p((1.0 - q) * std::exp(-x) / q);
    return logMoment / (alpha - 1.0);
}

double laplaceUnchecked(double eps0, double alpha) {
    if (eps0 == 0.0) return 0.0;
    if (std::isinf(eps0)) return kInf;
    if (std::isinf(alpha)) return eps0;
    return eps0 + std::log1p((alpha - 1.0) * std::expm1(eps0 * (1.0 - 2.0 * alpha)) /
                             (2.0 * alpha - 1.0)) /
                      (alpha - 1.0);
}

// ---- step-curve cache ---------------------------------------------------------------------

struct CacheEntry {
    double q;
    double z;
    Adjacency adjacency;
    std::vector<double> orders;
    RdpCurve curve;
};

constexpr std::size_t kCacheCapacity = 16;  // a few concurrent runs; one pair each
std::mutex g_cacheMutex;
std::deque<CacheEntry> g_cache;  // oldest first

}  // namespace

// ---- log-space helpers ---------------------------------------------------------------------

double logAdd(double a, double b) {
    if (a == -kInf) return b;
    if (b == -kInf) return a;
    if (a == kInf || b == kInf) return kInf;
    const double hi = std::max(a, b);
    const double lo = std::min(a, b);
    return hi + std::log1p(std::exp(lo - hi));
}

double logSub(double a, double b) {
    if (std::isnan(a) || std::isnan(b) || a < b) return std::numeric_limits<double>::quiet_NaN();
    if (b == -kInf) return a;
    if (a == b) return -kInf;
    const double d = b - a;  // < 0
    // ln(1 − e^d): expm1 is the accurate form near d = 0, log1p further out.
    return a + (d > -std::log(2.0) ? std::log(-std::expm1(d)) : std::log1p(-std::exp(d)));
}

double lnErfc(double x) {
    const double r = std::erfc(x);
    if (r > 0.0 && x < 25.0) return std::log(r);
    const double x2 = x * x;
    const double x4 = x2 * x2;
    const double x6 = x4 * x2;
    const double x8 = x4 * x4;
    return -x2 - std::log(x) - 0.5 * std::log(std::numbers::pi) +
           std::log1p(-1.0 / (2.0 * x2) + 3.0 / (4.0 * x4) - 15.0 / (8.0 * x6) +
                      105.0 / (16.0 * x8));
}

// ---- single orders ---------------------------------------------------------------------------

double rdpGaussian(double z, double alpha) {
    requireNoiseMultiplier(z);
    requireOrder(alpha);
    if (z == 0.0) return kInf;
    if (std::isinf(z)) return 0.0;
    return alpha / (2.0 * z * z);
}

double zcdpRho(double epsilon, double delta) {
    const double l = std::log(1.0 / delta);
    const double r = std::sqrt(l + epsilon) - std::sqrt(l);
    return r * r;
}

double rdpSubsampledGaussian(double q, double z, double alpha, SeriesSign sign) {
    requireSamplingRate(q);
    requireNoiseMultiplier(z);
    requireOrder(alpha);
    return sgmUnchecked(q, z, alpha, sign);
}

double rdpReplaceGroupOfTwo(double q, double z, double alpha) {
    requireSamplingRate(q);
    requireNoiseMultiplier(z);
    requireOrder(alpha);
    return replaceUnchecked(q, z, alpha);
}

double rdpLinearAmplification(double q, double z, double alpha) {
    requireSamplingRate(q);
    requireNoiseMultiplier(z);
    requireOrder(alpha);
    return linearUnchecked(q, z, alpha);
}

double rdpLaplace(double eps0, double alpha) {
    if (!(eps0 >= 0.0)) {
        throw InputError("Laplace privacy parameter epsilon0 = " + formatNumber(eps0) +
                         " must be non-negative");
    }
    requireOrder(alpha);
    return laplaceUnchecked(eps0, alpha);
}

std::uint64_t signedSeriesFallbackCount() {
    return g_signedFallbacks.load(std::memory_order_relaxed);
}

double jointNoiseMultiplier(const std::vector<GaussianBlock>& blocks) {
    double inverseZ2 = 0.0;
    for (const GaussianBlock& b : blocks) {
        if (!(b.sensitivity >= 0.0)) {
            throw InputError("sensitivity = " + formatNumber(b.sensitivity) +
                             " must be non-negative");
        }
        if (!(b.noiseStd >= 0.0)) {
            throw InputError("noise std = " + formatNumber(b.noiseStd) + " must be non-negative");
        }
        if (b.sensitivity == 0.0) continue;  // releases nothing about the unit, even if S = 0
        const double ratio = b.sensitivity / b.noiseStd;
        inverseZ2 += ratio * ratio;
    }
    return 1.0 / std::sqrt(inverseZ2);  // +∞ for 0, 0 for +∞
}

// ---- curves ----------------------------------------------------------------------------------

RdpCurve sgmCurve(const OrderGrid& grid, double q, double z, SeriesSign sign) {
    requireSamplingRate(q);
    requireNoiseMultiplier(z);
    RdpCurve curve(grid.size());
    for (std::size_t k = 0; k < grid.size(); ++k) curve[k] = sgmUnchecked(q, z, grid[k], sign);
    return curve;
}

RdpCurve replaceCurve(const OrderGrid& grid, double q, double z) {
    requireSamplingRate(q);
    requireNoiseMultiplier(z);
    RdpCurve curve(grid.size());
    for (std::size_t k = 0; k < grid.size(); ++k) curve[k] = replaceUnchecked(q, z, grid[k]);
    return curve;
}

RdpCurve linearCurve(const OrderGrid& grid, double q, double z) {
    requireSamplingRate(q);
    requireNoiseMultiplier(z);
    RdpCurve curve(grid.size());
    for (std::size_t k = 0; k < grid.size(); ++k) curve[k] = linearUnchecked(q, z, grid[k]);
    return curve;
}

RdpCurve gaussianCurve(const OrderGrid& grid, double z) {
    RdpCurve curve(grid.size());
    for (std::size_t k = 0; k < grid.size(); ++k) curve[k] = rdpGaussian(z, grid[k]);
    return curve;
}

RdpCurve laplaceCurve(const OrderGrid& grid, double eps0) {
    RdpCurve curve(grid.size());
    for (std::size_t k = 0; k < grid.size(); ++k) curve[k] = rdpLaplace(eps0, grid[k]);
    return curve;
}

RdpCurve scaled(const RdpCurve& curve, double steps) {
    if (!(steps >= 0.0) || std::isinf(steps)) {
        throw InputError("number of steps = " + formatNumber(steps) +
                         " must be a non-negative finite number");
    }
    RdpCurve out(curve.size(), 0.0);
    if (steps == 0.0) return out;  // no release, even where ρ = +∞ (avoids 0·∞ = NaN)
    for (std::size_t k = 0; k < curve.size(); ++k) out[k] = steps * curve[k];
    return out;
}

RdpCurve& accumulate(RdpCurve& into, const RdpCurve& add) {
    if (into.size() != add.size()) {
        throw std::invalid_argument("accumulate: RDP curves of different lengths (" +
                                    std::to_string(into.size()) + " and " +
                                    std::to_string(add.size()) + ")");
    }
    for (std::size_t k = 0; k < into.size(); ++k) into[k] += add[k];
    return into;
}

RdpCurve subsampledGaussianStepCurve(const OrderGrid& grid, double q, double z,
                                     Adjacency adjacency) {
    requireSamplingRate(q);
    requireNoiseMultiplier(z);
    {
        std::lock_guard<std::mutex> lock(g_cacheMutex);
        for (const CacheEntry& e : g_cache) {
            if (e.q == q && e.z == z && e.adjacency == adjacency && e.orders == grid.orders()) {
                return e.curve;
            }
        }
    }
    // Computed outside the lock: two threads racing on the same key just do the work twice.
    RdpCurve curve =
        adjacency == Adjacency::AddRemove ? sgmCurve(grid, q, z) : replaceCurve(grid, q, z);
    std::lock_guard<std::mutex> lock(g_cacheMutex);
    if (g_cache.size() >= kCacheCapacity) g_cache.pop_front();
    g_cache.push_back(CacheEntry{q, z, adjacency, grid.orders(), curve});
    return curve;
}

}  // namespace pfa::privacy
