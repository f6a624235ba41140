#pragma once

#include <cstdint>
#include <functional>
#include <vector>

/// Mean estimation with public and private samples: the weighted-Gaussian estimator
///   A_r(X) = r Σ_priv x + ((1 − n_priv r)/n_pub) Σ_pub x + N(0, σ_r² I_d),  σ_r = √2·B·r/√ρ,
/// r ∈ [0, 1/n_priv], which is ρ-zCDP for the private samples (replace-one: r Σ_priv x moves by
/// at most 2Br) and gives the public samples no protection. Its mean squared error for samples
/// with ‖x‖ ≤ B and total variance V² (E‖x − m‖² = V²), its best weight r*, the two baselines
/// r = 0 (public average) and r = 1/n (the Gaussian mechanism on all samples), and a Monte-Carlo
/// check. The gradient form of r* is semi-dp-sgd's automatic α (α = r·K_priv).
namespace pfa::privacy {

/// One mean-estimation problem.
struct WeightedMeanProblem {
    double privateSamples = 9900;  ///< n_priv
    double publicSamples = 100;    ///< n_pub
    double dimension = 100;        ///< d
    double normBound = 25;         ///< B: ‖x‖ ≤ B
    double spread = 1;             ///< V: E‖x − m‖² = V² (V ≤ B)
    double rho = 1;                ///< zCDP ρ of the private samples
};

/// MSE(r) = 2dB²r²/ρ + n_priv r² V² + (1 − n_priv r)² V²/n_pub (the last term is absent when
/// n_pub = 0, where only r = 1/n_priv is unbiased).
double weightedMeanMse(const WeightedMeanProblem& problem, double r);
/// r* = (n_priv V²/n_pub) / (2dB²/ρ + n_priv V² + n_priv² V²/n_pub), the minimiser of MSE(r)
/// (1/n_priv when there are no public samples, 0 when there are no private ones).
double optimalWeight(const WeightedMeanProblem& problem);
/// MSE of the public average (r = 0): V²/n_pub.
double publicOnlyMse(const WeightedMeanProblem& problem);
/// MSE of the Gaussian mechanism on all n = n_priv + n_pub samples (r = 1/n, everything
/// protected): 2dB²/(ρ n²) + V²/n.
double gaussianAllMse(const WeightedMeanProblem& problem);

/// A Monte-Carlo estimate of MSE(r) at one r: the mean squared error over the repetitions and
/// its standard error.
struct MonteCarloPoint {
    double r = 0.0;
    double mse = 0.0;
    double standardError = 0.0;
};

/// Monte-Carlo check of weightedMeanMse: each repetition draws n_priv + n_pub samples
/// x = m + V·u with u uniform on the unit sphere and ‖m‖ = B − V (so ‖x‖ ≤ B, total variance V²),
/// and the Gaussian noise, and measures ‖A_r(X) − m‖² at every r of `weights` (the same draws for
/// every r). Seeded and reproducible. `progress(done, total)` is called after each repetition;
/// it returns false to stop early (the points then use the repetitions done). Sizes are rounded
/// to whole samples.
std::vector<MonteCarloPoint> monteCarloWeightedMean(
    const WeightedMeanProblem& problem, const std::vector<double>& weights, int repetitions,
    std::uint64_t seed, const std::function<bool(int, int)>& progress = {});

}  // namespace pfa::privacy
