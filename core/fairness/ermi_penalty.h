#pragma once

#include <Eigen/Core>

#include "core/data/dataset.h"
#include "core/fairness/penalty_layout.h"
#include "core/privacy/noisy_release.h"

namespace pfa {

/// The per-row saddle function of dp-fermi.md §5,
///     ψ_i(θ, W) = Σ_j F_ij·c_ij − 1,   c_ij = 2·W[cell_i, j]/√π_cell − Σ_{r ∈ block} W[r, j]²,
/// evaluated on blocks of rows with preallocated buffers. Its W-gradient is
///     (∇_W ψ_i)[r, j] = 2·F_ij·(1[r = cell_i]/√π_r − W[r, j])   for r in the row's block,
/// so a weighted sum over rows only needs per-cell and per-block sums of F (see accumulate).
class ErmiPenalty {
public:
    /// `shares` holds π per cell (all > 0).
    ErmiPenalty(const PenaltyLayout& layout, const Eigen::VectorXd& shares);

    const PenaltyLayout& layout() const { return m_layout; }
    const Eigen::VectorXd& shares() const { return m_shares; }

    /// Recomputes the quantities that depend on W only; call after every W change.
    void setW(const Eigen::MatrixXd& W);

    /// Class-weight row c_i for a row in `cell` (cell ≥ 0).
    template <typename RowOut>
    void classWeights(int cell, RowOut&& out) const {
        const int block = m_layout.blockOfCell(cell);
        out = 2.0 * m_invSqrtShares(cell) * m_W.row(cell) - m_columnSquares.row(block);
    }

    /// ‖∇_W ψ_i‖_F² for probabilities F_i (a row) in `cell`: 4·Σ_j F_ij²·D[cell, j] with
    /// D[cell, j] = Σ_{r ∈ block} (1[r = cell]/√π_r − W[r, j])².
    template <typename Row>
    double wGradientNormSquared(int cell, const Row& F) const {
        return 4.0 * (F.array().square() * m_gradientDistance.row(cell).array()).sum();
    }

    /// D[cell, j] of wGradientNormSquared.
    double gradientDistance(int cell, int j) const { return m_gradientDistance(cell, j); }
    /// Starts a new weighted sum Σ_i w_i·∇_W ψ_i.
    void beginAccumulation();
    /// Adds w·∇_W ψ_i for a row with probabilities F (a row) in `cell`.
    template <typename Row>
    void accumulate(int cell, const Row& F, double weight) {
        m_cellMass.row(cell) += weight * F;
        m_blockMass.row(m_layout.blockOfCell(cell)) += weight * F;
    }
    /// accumulate for two classes, on plain numbers (the same operations, the same bits).
    void accumulateTwoClasses(int cell, double f0, double f1, double weight) {
        const int block = m_layout.blockOfCell(cell);
        m_cellMass(cell, 0) += weight * f0;
        m_cellMass(cell, 1) += weight * f1;
        m_blockMass(block, 0) += weight * f0;
        m_blockMass(block, 1) += weight * f1;
    }
    /// Sets an accumulated entry (cell or block mass, class j) that another object summed for
    /// this penalty, from zero and in the order accumulate() would have (the same bits).
    void setCellMass(int cell, int j, double mass) { m_cellMass(cell, j) = mass; }
    void setBlockMass(int block, int j, double mass) { m_blockMass(block, j) = mass; }
    /// Writes the accumulated Σ_i w_i·∇_W ψ_i into `gradient` (cells × l).
    void finishAccumulation(Eigen::MatrixXd& gradient) const;
    /// Releases the accumulated cell masses (Σ w_i·F_i per cell) through the Gaussian
    /// mechanism `spec` (noise drawn column by column) and recomputes the block masses from the
    /// noisy cells, so that finishAccumulation returns a gradient that is a function of the
    /// noisy masses only (the per-row sensitivity is ‖F_i‖ ≤ 1 with unit weights).
    template <typename Random>
    void releaseCellMasses(const privacy::ReleaseSpec& spec, Random& random) {
        privacy::releaseGaussian(spec, m_cellMass, random, /*columnOrder=*/true);
        m_blockMass.setZero();
        for (int cell = 0; cell < m_layout.cells(); ++cell) {
            m_blockMass.row(m_layout.blockOfCell(cell)) += m_cellMass.row(cell);
        }
    }

private:
    PenaltyLayout m_layout;
    Eigen::VectorXd m_shares;
    Eigen::VectorXd m_invSqrtShares;
    Eigen::MatrixXd m_W;
    Eigen::MatrixXd m_columnSquares;     // blocks × l: Σ_{r∈block} W[r, j]²
    Eigen::MatrixXd m_gradientDistance;  // cells × l: D above
    Eigen::MatrixXd m_cellMass;          // cells × l
    Eigen::MatrixXd m_blockMass;         // blocks × l
};

}  // namespace pfa
