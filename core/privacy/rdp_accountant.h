#pragma once

#include <cstddef>
#include <functional>

#include "core/privacy/order_grid.h"
#include "core/privacy/rdp_mechanisms.h"

/// RDP → (ε, δ) conversion, noise calibration for a target ε, and the per-dataset ledger
/// (privacy-accounting spec §3–§5).
namespace pfa::privacy {

/// An (ε, δ) guarantee read off an RDP curve.
struct EpsilonResult {
    double epsilon;        ///< ε ≥ 0; +∞ when no order gives a finite bound
    double order;          ///< the optimal order α*; NaN when ε = +∞
    bool orderAtGridEdge;  ///< α* is the smallest or largest grid order and 0 < ε < ∞:
                           ///< the UI should suggest widening the grid
};

/// Converts a (composed) RDP curve to ε at the given δ with the tightened bound of spec §4.1:
/// ε(α) = ρ(α) + ln(1 − 1/α) − (ln δ + ln α)/(α − 1), minimised over orders α > 1.01 with finite
/// ρ, clamped at 0; ε = 0 as soon as δ² + expm1(−ρ(α)) > 0 for some order. δ = 0 gives +∞
/// unless the whole curve is 0 (then ε = 0).
/// Throws pfa::InputError for δ outside [0, 1), std::invalid_argument when the curve does not
/// match the grid or holds a NaN or negative value.
EpsilonResult epsilonFromRdp(const OrderGrid& grid, const RdpCurve& curve, double delta);

/// A calibrated noise multiplier and the ε it achieves (never above the target).
struct MultiplierSolution {
    double noiseMultiplier;  ///< z
    double epsilon;          ///< ε(z) at the requested δ
};

/// Smallest-found noise multiplier z with ε(totalCurve(z)) ≤ targetEpsilon (spec §5): doubles
/// z_hi from 10 (first evaluation at 20) until the target is met, then bisects on [0, z_hi]
/// until target − ε(z_hi) ≤ tol, and returns z_hi. `totalCurve(z)` must return the run's whole
/// curve for a common multiplier z and be decreasing in z. tol < 0 selects the default
/// min(0.01, 0.01·target).
/// Throws pfa::InputError for a non-finite or non-positive target, δ outside (0, 1), or
/// "privacy budget too small for this many steps" when z would have to exceed 1e6.
MultiplierSolution solveNoiseMultiplier(const std::function<RdpCurve(double z)>& totalCurve,
                                        const OrderGrid& grid, double targetEpsilon, double delta,
                                        double tol = -1.0);

/// solveNoiseMultiplier for `steps` Poisson-subsampled Gaussian steps at rate q: the per-step
/// curve is subsampledGaussianStepCurve (signed SGM for add/remove, group-of-two for replace).
/// Throws pfa::InputError for q outside (0, 1], steps < 1, and as solveNoiseMultiplier.
MultiplierSolution solveSgmMultiplier(const OrderGrid& grid, double q, long steps,
                                      double targetEpsilon, double delta,
                                      Adjacency adjacency = Adjacency::AddRemove);

/// Privacy spent on one data set across runs (spec §3): the sum of the runs' RDP curves (the
/// headline total) and, for comparison, the naive sums of the runs' own (ε, δ).
/// Not synchronised: guard it externally when several threads add runs.
class PrivacyLedger {
public:
    /// An empty ledger whose curves live on `grid`.
    explicit PrivacyLedger(OrderGrid grid);

    /// Charges one run (a cancelled run: the curve of the steps it executed).
    /// `runCurve`: the run's composed RDP curve on grid(); `basicEpsilon`, `basicDelta`: the
    /// (ε, δ) the run reported on its own, summed by basic composition for naiveSum();
    /// `extraPureEpsilon`: pure-DP releases charged by adding ε₀ after conversion rather than
    /// as a Laplace curve (spec §2.4). Throws pfa::InputError for negative or NaN amounts,
    /// std::invalid_argument when the curve does not match the grid.
    void addRun(const RdpCurve& runCurve, double basicEpsilon, double extraPureEpsilon = 0.0,
                double basicDelta = 0.0);

    /// RDP-composed total at δ: epsilonFromRdp of the summed curve plus every extraPureEpsilon.
    EpsilonResult total(double delta) const;

    /// Σ of the runs' basicEpsilon (simple addition).
    double naiveSum() const { return m_basicEpsilonSum; }

    /// Σ of the runs' basicDelta (simple addition).
    double naiveDeltaSum() const { return m_basicDeltaSum; }

    /// Σ of the runs' extraPureEpsilon.
    double extraPureEpsilon() const { return m_extraPureEpsilon; }

    /// The summed RDP curve.
    const RdpCurve& curve() const { return m_curve; }

    /// The grid the curves live on.
    const OrderGrid& grid() const { return m_grid; }

    /// Number of runs charged.
    std::size_t runCount() const { return m_runCount; }

private:
    OrderGrid m_grid;
    RdpCurve m_curve;
    double m_basicEpsilonSum = 0.0;
    double m_basicDeltaSum = 0.0;
    double m_extraPureEpsilon = 0.0;
    std::size_t m_runCount = 0;
};

}  // namespace pfa::privacy
