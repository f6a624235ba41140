#include "core/fairness/ermi_penalty.h"

namespace pfa {

ErmiPenalty::ErmiPenalty(const PenaltyLayout& layout, const Eigen::VectorXd& shares)
    : m_layout(layout),
      m_shares(shares),
      m_invSqrtShares(shares.array().rsqrt()),
      m_W(Eigen::MatrixXd::Zero(layout.cells(), layout.classes())),
      m_columnSquares(Eigen::MatrixXd::Zero(layout.blocks(), layout.classes())),
      m_gradientDistance(Eigen::MatrixXd::Zero(layout.cells(), layout.classes())),
      m_cellMass(Eigen::MatrixXd::Zero(layout.cells(), layout.classes())),
      m_blockMass(Eigen::MatrixXd::Zero(layout.blocks(), layout.classes())) {
    setW(m_W);
}

void ErmiPenalty::setW(const Eigen::MatrixXd& W) {
    m_W = W;
    const int k = m_layout.groups();
    for (int block = 0; block < m_layout.blocks(); ++block) {
        m_columnSquares.row(block) = W.middleRows(block * k, k).colwise().squaredNorm();
    }
    // D[cell, j] = Σ_r W[r,j]² − 2·W[cell,j]/√π_cell + 1/π_cell (expanding the square).
    for (int cell = 0; cell < m_layout.cells(); ++cell) {
        const int block = m_layout.blockOfCell(cell);
        m_gradientDistance.row(cell) =
            m_columnSquares.row(block) - 2.0 * m_invSqrtShares(cell) * W.row(cell);
        m_gradientDistance.row(cell).array() += 1.0 / m_shares(cell);
    }
}

void ErmiPenalty::beginAccumulation() {
    m_cellMass.setZero();
    m_blockMass.setZero();
}

void ErmiPenalty::finishAccumulation(Eigen::MatrixXd& gradient) const {
    for (int cell = 0; cell < m_layout.cells(); ++cell) {
        const int block = m_layout.blockOfCell(cell);
        gradient.row(cell) = 2.0 * (m_invSqrtShares(cell) * m_cellMass.row(cell).array() -
                                    m_W.row(cell).array() * m_blockMass.row(block).array())
                                       .matrix();
    }
}

}  // namespace pfa
