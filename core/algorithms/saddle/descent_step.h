#pragma once

#include "core/data/dataset.h"

namespace pfa {

/// The θ-player's optimizer step, θ ← θ − η·(g + l2·θ_w): plain gradient descent on the
/// released (clipped, normalised, noised) gradient g, plus the ridge term on the weights but
/// not on the bias column. The ridge term is added after the noise because it depends on θ
/// alone, which is already public: it needs neither clipping nor noise.
class DescentStep {
public:
    /// Step size η > 0 and ridge weight l2 ≥ 0 (0: none).
    DescentStep(double learningRate, double l2) : m_learningRate(learningRate), m_l2(l2) {}

    /// One step of θ along `gradient` (p × (d+1), bias last), to which the ridge term is
    /// added in place. Allocates nothing.
    void apply(RowMatrix& theta, RowMatrix& gradient) const {
        const Eigen::Index weights = theta.cols() - 1;
        if (m_l2 > 0.0) gradient.leftCols(weights) += m_l2 * theta.leftCols(weights);
        theta -= m_learningRate * gradient;
    }

private:
    double m_learningRate;
    double m_l2;
};

}  // namespace pfa
