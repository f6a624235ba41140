#pragma once

#include <Eigen/Core>
#include <array>
#include <string>

#include "core/util/random.h"

/// Differentially private post-processing of a binary classifier for equalized odds, two
/// groups: a noisy table of the training rows' (ŷ, a, y) counts, noisy group rates with their
/// confidence slacks, and the 4-variable linear program of flip probabilities
/// p_{ŷa} = P(ỹ = 1 | ŷ, a), solved exactly by GLPK.
namespace pfa::eo {

/// Counts (or noisy counts) of the 8 cells (ŷ, a, y) ∈ {0,1}³, stored at index 4ŷ + 2a + y.
struct CellTable {
    std::array<double, 8> count{};

    static constexpr int index(int predicted, int group, int label) {
        return 4 * predicted + 2 * group + label;
    }
    double at(int predicted, int group, int label) const {
        return count[static_cast<std::size_t>(index(predicted, group, label))];
    }
    double& at(int predicted, int group, int label) {
        return count[static_cast<std::size_t>(index(predicted, group, label))];
    }
};

/// Counts the rows' cells. Every entry of `predicted`, `group` and `label` must be 0 or 1 and
/// the three vectors equally long; throws InputError otherwise (the method supports two
/// groups and a binary label only).
CellTable countCells(const Eigen::Ref<const Eigen::VectorXi>& predicted,
                     const Eigen::Ref<const Eigen::VectorXi>& group,
                     const Eigen::Ref<const Eigen::VectorXi>& label);

/// Adds Laplace(2/ε) to each of the 8 counts (one record's sensitive attribute moves it
/// between two cells: ℓ1 sensitivity 2), in cell order. ε = ∞ adds nothing.
CellTable addLaplaceNoise(const CellTable& counts, double epsilon, RandomStream& random);

/// What the linear program is built from (baselines §2.1): the clamped shares q̃ = max(ñ, 0)/m,
/// each group's noisy FPR F̃_a and TPR T̃_a and the slacks ζ_F, ζ_T.
struct NoisyRates {
    CellTable share;              ///< q̃(ŷ, a, y)
    std::array<double, 2> fpr{};  ///< F̃_a
    std::array<double, 2> tpr{};  ///< T̃_a
    double slackFpr = 0.0;        ///< ζ_F (0 when ε = ∞)
    double slackTpr = 0.0;        ///< ζ_T (0 when ε = ∞)
};

/// The message of a group/label cell left empty by the noise.
extern const char* const kEmptyCellMessage;

/// q̃, F̃, T̃ and the slacks ζ = 4 ln(8/β)/(m ε min_a q̃(a, y)) from a (noisy) table of `rows`
/// training rows. `epsilonForSlack` = ∞ gives zero slacks (exact counts: the non-private
/// method). Throws InputError(kEmptyCellMessage) when a rate's denominator is 0.
NoisyRates noisyRates(const CellTable& noisy, long rows, double epsilonForSlack, double beta);

/// The linear program of baselines §2.2: minimise c·x subject to A x ≤ b and 0 ≤ x ≤ 1, with
/// x = (p₀₀, p₀₁, p₁₀, p₁₁) (index 2ŷ + a).
struct FlipProgram {
    std::array<double, 4> cost{};                 ///< c: q̃(ŷ,a,0) − q̃(ŷ,a,1)
    double constant = 0.0;                        ///< Σ q̃(·,·,1): cost + constant = error
    std::array<std::array<double, 4>, 4> rows{};  ///< ΔFPR, −ΔFPR, ΔTPR, −ΔTPR
    std::array<double, 4> bound{};                ///< γ + ζ_F, γ + ζ_F, γ + ζ_T, γ + ζ_T
    int rowCount = 4;                             ///< 2 for the "FPR only" variant
};

/// Builds the program for tolerance γ ≥ 0 (may be +∞: no constraint binds); `fprOnly` keeps
/// only the two FPR rows.
FlipProgram buildFlipProgram(const NoisyRates& rates, double gamma, bool fprOnly);

/// Flip probabilities p_{ŷa} = P(ỹ = 1 | ŷ, a) at index 2ŷ + a.
using FlipProbabilities = std::array<double, 4>;

/// The identity (ỹ = ŷ): p = (0, 0, 1, 1).
constexpr FlipProbabilities kIdentityFlips{0.0, 0.0, 1.0, 1.0};

/// An optimum of the program and its value.
struct FlipSolution {
    FlipProbabilities p{};
    double objective = 0.0;  ///< c·p + constant: the expected error on the (noisy) table
};

/// Solves the program with GLPK: the primal simplex with presolve, then the exact (rational
/// arithmetic) simplex from its basis, terminal output off. Throws InputError with a clear
/// message when a coefficient is not finite or GLPK reports no optimum (cannot happen for a
/// program built by buildFlipProgram: x = 0 is feasible and the box bounds it).
FlipSolution solveFlipProgram(const FlipProgram& program);

/// Value of row r of the program at x (A_r·x).
double rowValue(const FlipProgram& program, int r, const FlipProbabilities& x);

/// Expected metrics of the post-processed classifier on a table of exact counts: error rate,
/// per-group FPR, TPR and selection rate, EO gap max(|ΔTPR|, |ΔFPR|) and DP gap.
struct TableMetrics {
    double error = 0.0;
    std::array<double, 2> fpr{}, tpr{}, selection{};
    double eoGap = 0.0;
    double dpGap = 0.0;
};
TableMetrics evaluateOnTable(const CellTable& counts, const FlipProbabilities& p);

/// P(ỹ = 1 | x_i) of each row: p at 2ŷ_i + a_i.
Eigen::VectorXd flipProbabilityPerRow(const Eigen::Ref<const Eigen::VectorXi>& predicted,
                                      const Eigen::Ref<const Eigen::VectorXi>& group,
                                      const FlipProbabilities& p);

}  // namespace pfa::eo
