#pragma once

#include <cstdint>
#include <vector>

#include "core/privacy/order_grid.h"

/// Per-release Rényi-DP values ρ(α) and RDP curves over an OrderGrid
/// (privacy-accounting spec §2). All functions are thread-safe. Invalid arguments (q outside
/// [0, 1], z < 0, α ≤ 1, NaN) throw pfa::InputError with a message naming the value.
namespace pfa::privacy {

/// ρ[k] at order grid[k]; curves of releases compose by adding them (spec §3).
using RdpCurve = std::vector<double>;

/// Which form of the fractional-order SGM series to use (spec §2.2).
enum class SeriesSign {
    Signed,    ///< Opacus's signed series: exact, the app default
    Unsigned,  ///< dp_accounting's |terms| series: an upper bound on Signed
};

/// Neighbouring relation between data sets (spec §1).
enum class Adjacency {
    AddRemove,  ///< one unit present or absent
    Replace,    ///< one unit's content changed
};

// ---- log-space helpers ---------------------------------------------------------------------

/// ln(e^a + e^b); −∞ stands for the empty sum (0).
double logAdd(double a, double b);

/// ln(e^a − e^b) for a ≥ b (−∞ when a == b). Returns NaN when a < b, i.e. when the difference
/// would be negative.
double logSub(double a, double b);

/// ln(erfc(x)), using the asymptotic expansion for x ≥ 25 where erfc underflows (spec §2.2).
double lnErfc(double x);

// ---- single orders ---------------------------------------------------------------------------

/// Gaussian mechanism without sampling (spec §2.1): α / (2z²); +∞ for z = 0.
double rdpGaussian(double z, double alpha);

/// The zCDP budget of a target (ε, δ): ρ(ε, δ) = (√(ln(1/δ) + ε) − √(ln(1/δ)))², the exact
/// inverse of ε = ρ + 2√(ρ ln(1/δ)). Gaussian noise with σ = Δ·√(u/(2ρ)) on u releases of
/// sensitivity Δ spends exactly ρ (the calibration of the one-pass and per-silo trainers).
double zcdpRho(double epsilon, double delta);

/// Poisson-subsampled Gaussian mechanism, add/remove adjacency (spec §2.2): sampling rate q,
/// noise multiplier z, order α (+∞ allowed). Integer α uses the exact binomial sum, fractional α
/// the series selected by `sign`. If a signed log-subtraction would go negative the order is
/// recomputed with the unsigned series and signedSeriesFallbackCount() is incremented.
double rdpSubsampledGaussian(double q, double z, double alpha,
                             SeriesSign sign = SeriesSign::Signed);

/// Replace-one adjacency under Poisson sampling by the group-of-two bound (spec §2.5):
/// ((2α−1)/(2α−2))·ρ_SGM(q, z, 2α) + ρ_SGM(q, z, 2α−1), with z = S/C (C = norm bound of one
/// unit's contribution). For q = 1 there is no sampling to amplify, so the exact replace-one
/// Gaussian with sensitivity 2C is returned instead: α·(2C)²/(2S²) = 2α/z² (spec §2.5, last
/// paragraph).
double rdpReplaceGroupOfTwo(double q, double z, double alpha);

/// Linear amplification bound (spec §2.5): ln(1 − q + q·exp(α(α−1)/(2z²))) / (α − 1), with
/// z = S/Δ (Δ = bound on the difference of one unit's two possible contributions).
/// Equals α/(2z²) at q = 1.
double rdpLinearAmplification(double q, double z, double alpha);

/// Laplace mechanism with pure-DP parameter ε₀ = Δ₁/b (spec §2.4), exact.
double rdpLaplace(double eps0, double alpha);

/// Number of (q, z, α) evaluations, process-wide since start-up, in which the signed series
/// would have gone negative and the unsigned series was used instead (spec §2.2: expected to
/// stay 0; a non-zero value deserves a warning in the log).
std::uint64_t signedSeriesFallbackCount();

// ---- several Gaussian releases on one batch (spec §2.3) ---------------------------------------

/// One noisy sum released in a step: ℓ2 bound Δ of one unit's contribution and noise std S.
struct GaussianBlock {
    double sensitivity;  ///< Δ_s
    double noiseStd;     ///< S_s
};

/// Effective noise multiplier of k Gaussian releases built from the same sampled units:
/// 1/z_eff² = Σ_s (Δ_s/S_s)². +∞ when no block carries information (all Δ_s = 0), 0 when
/// some block has Δ_s > 0 and S_s = 0.
double jointNoiseMultiplier(const std::vector<GaussianBlock>& blocks);

// ---- curves ----------------------------------------------------------------------------------

/// ρ_SGM(q, z, α) at every grid order (spec §2.2).
RdpCurve sgmCurve(const OrderGrid& grid, double q, double z, SeriesSign sign = SeriesSign::Signed);

/// Group-of-two replace-one bound at every grid order (spec §2.5).
RdpCurve replaceCurve(const OrderGrid& grid, double q, double z);

/// Linear amplification bound at every grid order (spec §2.5).
RdpCurve linearCurve(const OrderGrid& grid, double q, double z);

/// Unsampled Gaussian α/(2z²) at every grid order (spec §2.1).
RdpCurve gaussianCurve(const OrderGrid& grid, double z);

/// Laplace mechanism with pure ε₀ at every grid order (spec §2.4).
RdpCurve laplaceCurve(const OrderGrid& grid, double eps0);

/// The curve of `steps` repetitions of one release: steps·ρ (0 for steps = 0, even where ρ is
/// +∞). Throws pfa::InputError for negative or non-finite steps.
RdpCurve scaled(const RdpCurve& curve, double steps);

/// Adds `add` to `into` order by order (composition) and returns `into`.
/// Throws std::invalid_argument when the sizes differ.
RdpCurve& accumulate(RdpCurve& into, const RdpCurve& add);

/// Per-step curve of a Poisson-subsampled Gaussian release under the given adjacency:
/// AddRemove → sgmCurve (signed series), Replace → replaceCurve (group-of-two).
/// Results are memoised per (q, z, adjacency, grid orders) in a small process-wide cache,
/// because a run asks for the same pair at every step (spec §4.3).
RdpCurve subsampledGaussianStepCurve(const OrderGrid& grid, double q, double z,
                                     Adjacency adjacency);

}  // namespace pfa::privacy
