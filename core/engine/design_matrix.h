#pragma once

#include <Eigen/Core>

#include "core/data/dataset.h"

namespace pfa {

/// A model's input rows x̃ = (x, 1): the features with the bias column appended, optionally
/// rescaled so that ‖x̃‖ ≤ B, with the row norms that per-example clipping needs.
struct DesignMatrix {
    RowMatrix X;
    Eigen::VectorXd norms;
    Eigen::VectorXd squaredNorms;
};

/// The design matrix of `features`; `bound` > 0 rescales every longer row to norm `bound`
/// (dp-fermi.md §7.3), ≤ 0 leaves rows as they are.
DesignMatrix makeDesignMatrix(const RowMatrix& features, double bound);

/// Requests every cache line of row i of X ahead of its use (rows of a Poisson batch are
/// scattered, so the hardware prefetcher cannot guess them).
inline void prefetchRow(const RowMatrix& X, long i) {
    const char* begin = reinterpret_cast<const char*>(X.data() + i * X.cols());
    const char* end = begin + X.cols() * static_cast<long>(sizeof(double));
    for (const char* line = begin; line < end; line += 64) __builtin_prefetch(line);
}

}  // namespace pfa
