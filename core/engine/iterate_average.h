#pragma once

#include "core/data/dataset.h"

namespace pfa {

/// Shamir & Zhang's (2013) polynomial-decay average of the iterates with η = 3:
/// θ̄_t = θ̄_{t−1} + 4/(t + 3)·(θ_t − θ̄_{t−1}), weighted toward recent iterates. A function of
/// the released iterates only (post-processing). Its buffer is allocated once.
class PolynomialDecayAverage {
public:
    explicit PolynomialDecayAverage(const RowMatrix& start) : m_average(start) {}

    /// Folds in the iterate after step `step` (1-based).
    void add(long step, const RowMatrix& theta) {
        const double weight = 4.0 / (static_cast<double>(step) + 3.0);
        m_average += weight * (theta - m_average);
    }

    const RowMatrix& value() const { return m_average; }

private:
    RowMatrix m_average;
};

}  // namespace pfa
