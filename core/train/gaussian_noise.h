#pragma once

#include <Eigen/Core>

#include "core/data/dataset.h"
#include "core/util/random.h"

namespace pfa {

/// Adds independent N(0, σ²) draws to every entry of a row-major target, row by row (σ ≤ 0:
/// nothing). The order of the draws is part of a run's reproducibility.
inline void addGaussianNoise(Eigen::Ref<RowMatrix> target, double sigma, RandomStream& random) {
    if (sigma <= 0.0) return;
    for (Eigen::Index i = 0; i < target.rows(); ++i) {
        for (Eigen::Index j = 0; j < target.cols(); ++j) target(i, j) += sigma * random.normal();
    }
}

/// The same for a column-major matrix, column by column.
inline void addGaussianNoise(Eigen::MatrixXd& target, double sigma, RandomStream& random) {
    if (sigma <= 0.0) return;
    for (Eigen::Index j = 0; j < target.cols(); ++j) {
        for (Eigen::Index i = 0; i < target.rows(); ++i) target(i, j) += sigma * random.normal();
    }
}

}  // namespace pfa
