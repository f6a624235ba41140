#pragma once

/// The shape of the convergence bound of personalised private SGD (global model plus per-user
/// offsets, full participation, squared loss) as a function of the personalisation, for a
/// theory overlay next to measured curves. It carries one free constant (set to 1), so it
/// predicts where curves cross and how they bend, not their values.
namespace pfa {

/// What the bound needs to know about the problem and the run.
struct PpsgdTheoryInputs {
    long users = 0;              ///< N (every user takes part in every round)
    long rounds = 0;             ///< n
    int dimension = 0;           ///< d
    double smoothness = 1.0;     ///< L: per-sample smoothness (largest feature variance)
    double clip = 0.0;           ///< C (the bound's gradient bound G)
    double gradientNoise = 0.0;  ///< σ̄²: variance of one user's averaged gradient at the optimum
    double epsilon = 0.0;        ///< target ε of the global model's release (∞: not private)
    double delta = 0.0;          ///< δ
    double sumSquaredOptima = 0.0;    ///< Σ_i ‖θ*_i‖²
    double squaredMeanOptimum = 0.0;  ///< ‖θ̄*‖², θ̄* = (1/N) Σ_i θ*_i
};

/// ‖z*‖²_α of the minimum-α-norm split of the optimum (w + θ_i = θ*_i): w = αN/(αN+1)·θ̄*,
/// θ_i = θ*_i − w, ‖z*‖²_α = ‖w‖²/α + Σ_i ‖θ_i‖². Tends to Σ‖θ*_i‖² as α → 0 and to
/// Σ‖θ*_i − θ̄*‖² as α → ∞ (both limits are returned exactly).
double ppsgdOptimumNorm2(const PpsgdTheoryInputs& in, double alpha);

/// bound(α) = 4·L·max(α, 1/N)·‖z*‖²_α / n + 3·‖z*‖_α·√((α+1)σ̄²/(N n) + α d C² ln(1/δ)/(N² ε²)),
/// with α the ratio of global to local step size divided by the number of users (a = α·N).
/// α = ∞ is +∞ except without privacy noise and without gradient noise.
double ppsgdBound(const PpsgdTheoryInputs& in, double alpha);

/// The number of rounds n* = N(N−1)·σ̄²·ε² / (d·C²·ln(1/δ)) above which more local learning
/// (smaller α) lowers the bound's variance term, and below which more global learning helps
/// (homogeneous users). +∞ when ε is.
double ppsgdCrossoverRounds(const PpsgdTheoryInputs& in);

}  // namespace pfa
