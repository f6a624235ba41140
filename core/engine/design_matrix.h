#pragma once

#include <Eigen/Core>
#include <memory>

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

/// The design matrix of `features` (as makeDesignMatrix), shared: while any caller holds the
/// returned pointer, a call for the same matrix (the same object, size and sampled values) and
/// bound returns the same design instead of building another copy. Runs of a sweep on one data
/// set, on any thread, read one design of each part; it is freed with its last holder.
/// Thread-safe. `features` must not change while a design of it is held.
std::shared_ptr<const DesignMatrix> sharedDesignMatrix(const RowMatrix& features, double bound);

/// Requests every cache line of row i of X ahead of its use (rows of a Poisson batch are
/// scattered, so the hardware prefetcher cannot guess them).
inline void prefetchRow(const RowMatrix& X, long i) {
    const char* begin = reinterpret_cast<const char*>(X.data() + i * X.cols());
    const char* end = begin + X.cols() * static_cast<long>(sizeof(double));
    for (const char* line = begin; line < end; line += 64) __builtin_prefetch(line);
}

}  // namespace pfa
