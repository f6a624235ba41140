#include "core/privacy/rdp_accountant.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/util/error.h"

namespace pfa::privacy {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kMinConversionOrder = 1.01;  // the §4.1 bound is unstable as α → 1
constexpr double kMaxNoiseMultiplier = 1e6;

std::string formatNumber(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

void requireCurveMatches(const OrderGrid& grid, const RdpCurve& curve) {
    if (curve.size() != grid.size()) {
        throw std::invalid_argument("RDP curve has " + std::to_string(curve.size()) +
                                    " values for a grid of " + std::to_string(grid.size()) +
                                    " orders");
    }
}

void requireOpenUnitDelta(double delta) {
    if (!(delta > 0.0 && delta < 1.0)) {
        throw InputError("delta = " + formatNumber(delta) + " must be in (0, 1)");
    }
}

void requireNonNegative(const char* what, double value) {
    if (!(value >= 0.0)) {
        throw InputError(std::string(what) + " = " + formatNumber(value) + " must be non-negative");
    }
}

}  // namespace

EpsilonResult epsilonFromRdp(const OrderGrid& grid, const RdpCurve& curve, double delta) {
    requireCurveMatches(grid, curve);
    if (!(delta >= 0.0 && delta < 1.0)) {
        throw InputError("delta = " + formatNumber(delta) + " must be in [0, 1)");
    }
    for (std::size_t k = 0; k < curve.size(); ++k) {
        if (!(curve[k] >= 0.0)) {
            throw std::invalid_argument("RDP value " + formatNumber(curve[k]) + " at order " +
                                        formatNumber(grid[k]) + " is negative or NaN");
        }
    }

    if (delta == 0.0) {
        // Only pure (ε = 0) privacy survives δ = 0 under this conversion.
        const bool allZero =
            std::all_of(curve.begin(), curve.end(), [](double r) { return r == 0.0; });
        return allZero ? EpsilonResult{0.0, grid[0], false} : EpsilonResult{kInf, kNaN, false};
    }

    const double lnDelta = std::log(delta);
    double best = kInf;
    std::size_t bestIndex = 0;
    for (std::size_t k = 0; k < grid.size(); ++k) {
        const double alpha = grid[k];
        const double rho = curve[k];
        double eps;
        if (delta * delta + std::expm1(-rho) > 0.0) {
            // δ ≥ √(1 − e^{−KL}) bound: the guarantee holds with ε = 0.
            eps = 0.0;
        } else if (alpha > kMinConversionOrder && std::isfinite(rho)) {
            eps = std::isinf(alpha) ? rho  // limit of the correction terms as α → ∞
                                    : rho + std::log1p(-1.0 / alpha) -
                                          (lnDelta + std::log(alpha)) / (alpha - 1.0);
        } else {
            eps = kInf;
        }
        if (eps < best) {
            best = eps;
            bestIndex = k;
        }
    }

    if (std::isinf(best)) return EpsilonResult{kInf, kNaN, false};
    const double epsilon = std::max(0.0, best);
    const bool atEdge = epsilon > 0.0 && (bestIndex == 0 || bestIndex + 1 == grid.size());
    return EpsilonResult{epsilon, grid[bestIndex], atEdge};
}

MultiplierSolution solveNoiseMultiplier(const std::function<RdpCurve(double z)>& totalCurve,
                                        const OrderGrid& grid, double targetEpsilon, double delta,
                                        double tol) {
    if (!(std::isfinite(targetEpsilon) && targetEpsilon > 0.0)) {
        throw InputError("target epsilon = " + formatNumber(targetEpsilon) +
                         " must be a positive finite number");
    }
    requireOpenUnitDelta(delta);
    if (!(tol >= 0.0)) tol = std::min(0.01, 0.01 * targetEpsilon);

    auto epsilonAt = [&](double z) {
        const RdpCurve curve = totalCurve(z);
        return epsilonFromRdp(grid, curve, delta).epsilon;
    };

    double zLo = 0.0;
    double zHi = 10.0;
    double epsHi = kInf;
    while (!(epsHi <= targetEpsilon)) {
        zHi *= 2.0;
        if (zHi > kMaxNoiseMultiplier) {
            throw InputError("privacy budget too small for this many steps: target epsilon = " +
                             formatNumber(targetEpsilon) + " at delta = " + formatNumber(delta) +
                             " is not reached even with noise multiplier " +
                             formatNumber(zHi / 2.0));
        }
        epsHi = epsilonAt(zHi);
    }

    while (targetEpsilon - epsHi > tol) {
        const double z = 0.5 * (zLo + zHi);
        if (z <= zLo || z >= zHi) break;  // bracket exhausted in floating point (tol ≈ 0)
        const double eps = epsilonAt(z);
        if (eps < targetEpsilon) {
            zHi = z;
            epsHi = eps;
        } else {
            zLo = z;
        }
    }
    return MultiplierSolution{zHi, epsHi};
}

MultiplierSolution solveSgmMultiplier(const OrderGrid& grid, double q, long steps,
                                      double targetEpsilon, double delta, Adjacency adjacency) {
    if (!(q > 0.0 && q <= 1.0)) {
        throw InputError("sampling rate q = " + formatNumber(q) +
                         " must be in (0, 1] to calibrate noise");
    }
    if (steps < 1) {
        throw InputError("number of steps T = " + std::to_string(steps) + " must be at least 1");
    }
    const double stepCount = static_cast<double>(steps);
    // Uncached builders: bisection visits each z once, and would only evict the run's own pair.
    auto curveFn = [&](double z) {
        return scaled(
            adjacency == Adjacency::AddRemove ? sgmCurve(grid, q, z) : replaceCurve(grid, q, z),
            stepCount);
    };
    return solveNoiseMultiplier(curveFn, grid, targetEpsilon, delta);
}

PrivacyLedger::PrivacyLedger(OrderGrid grid)
    : m_grid(std::move(grid)), m_curve(m_grid.size(), 0.0) {}

void PrivacyLedger::addRun(const RdpCurve& runCurve, double basicEpsilon, double extraPureEpsilon,
                           double basicDelta) {
    requireCurveMatches(m_grid, runCurve);
    requireNonNegative("run epsilon", basicEpsilon);
    requireNonNegative("extra pure epsilon", extraPureEpsilon);
    if (!(basicDelta >= 0.0 && basicDelta <= 1.0)) {
        throw InputError("run delta = " + formatNumber(basicDelta) + " must be in [0, 1]");
    }
    accumulate(m_curve, runCurve);
    m_basicEpsilonSum += basicEpsilon;
    m_basicDeltaSum += basicDelta;
    m_extraPureEpsilon += extraPureEpsilon;
    ++m_runCount;
}

EpsilonResult PrivacyLedger::total(double delta) const {
    EpsilonResult result = epsilonFromRdp(m_grid, m_curve, delta);
    result.epsilon += m_extraPureEpsilon;
    return result;
}

}  // namespace pfa::privacy
