#pragma once
// Clipping of one row's or one unit's contribution to a released sum: the one place that
// compares a norm with its bound. Every loop clips through these, so the sensitivity its release
// states (a multiple of the bound) holds by construction; a source test keeps clipping
// comparisons out of the training files.
//
// Each function does the arithmetic the loops did before, in the same order, so results are
// bit for bit those of the hand-written versions (the golden fingerprints check it). A norm that
// is NaN compares false and is left as it is: divergence detection then sees it.

#include <Eigen/Core>
#include <cmath>
#include <limits>

namespace pfa {

/// The share of contributions clipped, `clipped` of `seen`, for an evaluation's figures: NaN
/// when training diagnostics are not recorded (the share is read from the private rows), 0 when
/// nothing was seen.
inline double clippedShare(long clipped, long seen, bool diagnostics) {
    if (!diagnostics) return std::numeric_limits<double>::quiet_NaN();
    return seen > 0 ? static_cast<double>(clipped) / static_cast<double>(seen) : 0.0;
}

/// Scales `scale` by bound / norm when norm > bound (a contribution `scale`·v of norm `norm`
/// then has norm `bound`); returns whether it clipped. For contributions kept as a scalar times
/// a vector, e.g. a residual times a row: the vector is never materialised.
inline bool clipScale(double norm, double bound, double& scale) {
    if (!(norm > bound)) return false;
    scale *= bound / norm;
    return true;
}

/// The same from a squared norm compared with bound² (`boundSquared`): the square root is taken
/// only for the rows that are clipped.
inline bool clipScaleFromSquared(double squaredNorm, double bound, double boundSquared,
                                 double& scale) {
    if (!(squaredNorm > boundSquared)) return false;
    scale *= bound / std::sqrt(squaredNorm);
    return true;
}

/// Whether laneClipScaleFromSquared clips (squaredNorm > bound²): lanes that learn first which
/// of them clip compute the scales only where one does.
inline bool laneClipsFromSquared(double squaredNorm, double boundSquared) {
    return squaredNorm > boundSquared;
}

/// Whether laneClipScale clips (norm > bound).
inline bool laneClips(double norm, double bound) { return norm > bound; }

/// clipScaleFromSquared from a scale of 1, for one lane of runs stepped together: the same value
/// (bound/√squaredNorm when squaredNorm > bound², else 1), with both sides computed and one
/// kept, so that a loop over lanes vectorises. `clipped` says whether it clipped.
inline double laneClipScaleFromSquared(double squaredNorm, double bound, double boundSquared,
                                       bool& clipped) {
    clipped = laneClipsFromSquared(squaredNorm, boundSquared);
    const double clippedScale = bound / std::sqrt(squaredNorm);
    return clipped ? clippedScale : 1.0;
}

/// clipScale from a scale of 1, for one lane of runs stepped together: the same value
/// (bound/norm when norm > bound, else 1), with both sides computed and one kept. `clipped`
/// is 1 when it clipped, else 0 (a number, so that lanes choose between counts without a
/// branch).
inline double laneClipScale(double norm, double bound, double& clipped) {
    const bool clips = laneClips(norm, bound);
    clipped = clips ? 1.0 : 0.0;
    const double clippedScale = bound / norm;
    return clips ? clippedScale : 1.0;
}

/// weight · min(1, bound / norm), computed as (weight · bound) / norm when clipped: for a
/// contribution weight·v whose norm `norm` already includes the weight (e.g. λ·∇_W ψ_i).
inline double clippedWeight(double weight, double norm, double bound) {
    return norm > bound ? weight * bound / norm : weight;
}

/// clippedWeight for one lane of runs stepped together: the same value, with both sides
/// computed and one kept (a loop over lanes vectorises).
inline double laneClippedWeight(double weight, double norm, double bound) {
    const double clippedValue = weight * bound / norm;
    return norm > bound ? clippedValue : weight;
}

/// Clips the vector v in place to Euclidean norm ≤ bound; returns whether it clipped.
template <typename Derived>
bool clipInPlace(const Eigen::MatrixBase<Derived>& v, double bound) {
    const double norm = v.norm();
    if (!(norm > bound)) return false;
    // (The usual Eigen idiom for writing through an expression passed by const reference.)
    const_cast<Eigen::MatrixBase<Derived>&>(v) *= bound / norm;
    return true;
}

/// coef[i] = weight[i] · min(1, bound / norms[i]) for i < count: the coefficients of a clipped
/// weighted sum Σ_i coef[i]·g_i (a bound of +∞ clips nothing). Returns the number of rows
/// clipped.
inline long clippedCoefficients(const double* norms, long count, double bound, const double* weight,
                                double* coef) {
    long clipped = 0;
    for (long i = 0; i < count; ++i) {
        const bool clip = norms[i] > bound;
        clipped += clip ? 1 : 0;
        coef[i] = weight[i] * (clip ? bound / norms[i] : 1.0);
    }
    return clipped;
}

/// The same for every row i of `norms`. `coef` must have the size of `norms`.
inline long clippedCoefficients(const Eigen::VectorXd& norms, double bound,
                                const Eigen::VectorXd& weight, Eigen::VectorXd& coef) {
    return clippedCoefficients(norms.data(), static_cast<long>(norms.size()), bound, weight.data(),
                               coef.data());
}

}  // namespace pfa
