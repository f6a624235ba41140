#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/feature_matrix.h"

namespace pfa {

/// The nonzero entries of a matrix's rows in column order (compressed sparse rows). Kept beside
/// a design whose entries are mostly zero (one-hot encoded data such as Adult's, about 15 of
/// 103 per row): a sum over a row's entries in column order, one multiplication and one
/// addition at a time from +0, gives the same bits when it skips the zeros (x·θ = ±0 leaves a
/// sum as it is), so products may read these instead of the whole row.
struct SparseRows {
    std::vector<std::int64_t> start;    ///< row i's entries are [start[i], start[i + 1])
    std::vector<std::int32_t> columns;  ///< ascending within a row
    std::vector<double> values;         ///< never 0
    bool empty() const { return start.empty(); }
};

/// The largest share of nonzero entries for which a design keeps its SparseRows (above it, a
/// dense pass over the row is as fast).
constexpr double kSparseRowsShare = 1.0 / 3.0;

/// The nonzero entries of `X`, or empty when more than `share` of its entries are nonzero.
SparseRows sparseRowsOf(const RowMatrix& X, double share = kSparseRowsShare);

/// A model's input rows x̃ = (x, 1): the features with the bias column appended, optionally
/// rescaled so that ‖x̃‖ ≤ B, with the row norms that per-example clipping needs, and the
/// rows' nonzero entries when most entries are zero.
struct DesignMatrix {
    /// The rows x̃_i, n × (d + 1), contiguous: a shared design whose rows are not rescaled
    /// reads the features' own storage (FeatureMatrix::withBias()), any other its own copy.
    const RowMatrix& X() const { return borrowed != nullptr ? *borrowed : owned; }
    Eigen::VectorXd norms;
    Eigen::VectorXd squaredNorms;
    SparseRows sparse;  ///< X's nonzeros when at most kSparseRowsShare of it; else empty

    /// Whether X() is the features' storage rather than a copy.
    bool borrowsFeatures() const { return borrowed != nullptr; }
    /// The nonzero entries to compute with, or nullptr for the dense rows X.
    const SparseRows* sparseRows() const;
    /// For tests: every design computes over its dense rows (the results must not change), or
    /// again over its nonzeros where it keeps them.
    static void useDenseRowsOnly(bool dense);

    const RowMatrix* borrowed = nullptr;  ///< the features' rows with bias, or null
    RowMatrix owned;                      ///< the rows when not borrowed
};

/// The design matrix of `features`, with its own copy of the rows; `bound` > 0 rescales every
/// longer row to norm `bound` (dp-fermi.md §7.3), ≤ 0 leaves rows as they are.
DesignMatrix makeDesignMatrix(const FeatureMatrix& features, double bound);

/// The design matrix of `features` (as makeDesignMatrix), shared: while any caller holds the
/// returned pointer, a call for the same matrix (the same object, size and sampled values) and
/// bound returns the same design instead of building another copy. Runs of a sweep on one data
/// set, on any thread, read one design of each part; it is freed with its last holder. When
/// no row is rescaled the design reads the features' own storage, so no copy of the rows is
/// made at all. Thread-safe. `features` must outlive the design and not change while it is
/// held.
std::shared_ptr<const DesignMatrix> sharedDesignMatrix(const FeatureMatrix& features, double bound);
/// A temporary would not outlive the design that reads it.
std::shared_ptr<const DesignMatrix> sharedDesignMatrix(FeatureMatrix&& features,
                                                       double bound) = delete;
std::shared_ptr<const DesignMatrix> sharedDesignMatrix(const RowMatrix& features,
                                                       double bound) = delete;

/// While alive, the designs sharedDesignMatrix builds for `features` (this object) that read
/// the features' own rows are kept until the scope ends, not only while a caller holds them:
/// the runs of a sweep that follow one another on a data set then share one design instead of
/// building it (norms, nonzeros) for each run. `features` must outlive the scope and not change
/// while it lives. Scopes may nest and overlap, on any thread.
class DesignRetention {
public:
    explicit DesignRetention(const FeatureMatrix& features);
    ~DesignRetention();
    DesignRetention(const DesignRetention&) = delete;
    DesignRetention& operator=(const DesignRetention&) = delete;

private:
    const FeatureMatrix* m_features;
};

/// Requests every cache line of the `count` doubles from `first` ahead of their use.
inline void prefetchValues(const double* first, long count) {
    const char* begin = reinterpret_cast<const char*>(first);
    const char* end = begin + count * static_cast<long>(sizeof(double));
    for (const char* line = begin; line < end; line += 64) __builtin_prefetch(line);
}

/// Requests every cache line of row i of X ahead of its use (rows of a Poisson batch are
/// scattered, so the hardware prefetcher cannot guess them).
inline void prefetchRow(const RowMatrix& X, long i) { prefetchValues(X.row(i).data(), X.cols()); }

/// The same for a data set's features (rows a stride of d + 1 apart).
inline void prefetchRow(const FeatureMatrix& X, long i) {
    prefetchValues(X.row(i).data(), X.cols());
}

}  // namespace pfa
