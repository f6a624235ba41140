#pragma once

#include <vector>

#include "core/engine/design_matrix.h"

namespace pfa {

/// x̃_iᵀθ over the nonzero entries of row i of `rows`, summed in feature order one
/// multiplication and one addition at a time from +0: the lanes' arithmetic below for one run
/// (`theta` holds d + 1 values).
double sparseRowScore(const SparseRows& rows, long i, const double* theta);
/// sparseRowScore of rows ids[0 … count − 1] (or first … first + count − 1 when `ids` is
/// nullptr) into scores[k·scoreStride], four rows at a time (each row's sum unchanged: the
/// four sums only overlap in time).
void sparseRowScores(const SparseRows& rows, const long* ids, long first, long count,
                     const double* theta, double* scores, long scoreStride);
/// gradient += coefficient·x̃_i over the nonzero entries of row i (the other entries would add
/// ±0, which leaves them as they are).
void addSparseRow(const SparseRows& rows, long i, double coefficient, double* gradient);
/// Requests the nonzero entries of row i of `rows` ahead of their use.
void prefetchSparseRow(const SparseRows& rows, long i);

/// The two matrix products of a batch that several runs share, computed for all of them in one
/// pass over each chunk of its rows: the scores z_{k,c} = x̃_kᵀθ_c of every row k and column c
/// (a column is one score of one run: runs × p columns), and the gradient sums
/// g_c += Σ_k s_{k,c} x̃_k of the per-row coefficients the runs computed from their scores.
///
/// Columns are laid out in lanes of four, so one vector operation serves four runs (a batch of
/// at most kFewColumns columns over whole rows puts four rows, or four features, in the lanes
/// instead, with the same sums in the same order). Each lane's
/// arithmetic is fixed: a score is Σ_j x_kj·θ_cj summed in feature order, a gradient entry adds
/// its rows in batch order, every step a multiplication then an addition (never fused). So a
/// column's values do not depend on which other columns share the pass, how many there are, or
/// which instruction set the machine has (an AVX2 version is chosen at run time, with the same
/// results as the baseline one): a run trained with others equals the run trained alone, bit
/// for bit. Where the design keeps its rows' nonzero entries (DesignMatrix::sparse), the sums
/// skip the zero terms, which leaves every bit as it is and reads a fraction of each row (while
/// every parameter is finite; otherwise the whole rows are read, as 0·∞ is not 0). All buffers are
/// allocated at construction; no batch allocates.
class SharedBatchProducts {
public:
    /// Rows per chunk (the chunk of PerExampleGradients).
    static constexpr long kChunkRows = 32;
    /// Up to this many columns, a batch over whole rows puts four rows (or four features) in the
    /// lanes instead of four columns: the same sums, without lanes of columns nobody uses.
    static constexpr int kFewColumns = 4;

    /// For rows of `design` (referenced; it must outlive this object) and up to `columns`
    /// columns.
    SharedBatchProducts(const DesignMatrix& design, int columns);

    /// Starts a batch with `columns` columns (≤ the capacity): zeroes the gradient sums.
    void begin(int columns);
    /// Sets the parameters of columns first … first + rows − 1 from the rows of `theta`.
    void setParameters(int first, const RowMatrix& theta);

    /// Reads rows [c0, c0 + count) of the `size` rows in `batch` (count ≤ kChunkRows) and
    /// computes their scores for every column.
    void forward(const std::vector<long>& batch, long size, long c0, long count);
    /// Score of chunk row k (0-based in the chunk) and column c.
    double score(long k, int column) const { return m_scores[index(k, column)]; }
    /// The scores of chunk row k, one per column (column c at index c).
    const double* scoresOfRow(long k) const { return m_scores.data() + index(k, 0); }
    /// The gradient coefficients of chunk row k, one per column, to set.
    double* coefficientsOfRow(long k) { return m_coefficients.data() + index(k, 0); }
    /// Sets the gradient coefficient of chunk row k and column c (zero unless set).
    void setCoefficient(long k, int column, double value) {
        m_coefficients[index(k, column)] = value;
    }
    /// Adds Σ_k coefficient_{k,c} x̃_k of the chunk read by forward() to every column's sums,
    /// and clears the coefficients.
    void backward();

    /// The gradient sums of columns first … first + rows − 1, into the rows of `gradient`.
    void getGradient(int first, RowMatrix& gradient) const;

    /// The scores of every row of `design` (any rows with the same columns, e.g. the test
    /// set's) for the models `thetas` (p × (d+1) each, at most the capacity's columns in all),
    /// into `scores` (rows × p each), in the lanes' arithmetic: what runs trained together
    /// evaluate their models with, one pass over the rows for all of them. Uses this object's
    /// buffers (not during a batch).
    void scoreAllRows(const DesignMatrix& design, const std::vector<const RowMatrix*>& thetas,
                      const std::vector<RowMatrix*>& scores);

private:
    /// The current chunk's scores from its transposed rows (`rows`: a multiple of 4).
    void scoreChunk(long rows);
    std::size_t index(long k, int column) const {
        return static_cast<std::size_t>(k * m_lanes + column);
    }

    const DesignMatrix& m_design;
    long m_width;        // d + 1
    int m_capacity;      // columns
    long m_lanes = 0;    // columns of the current batch, rounded up to a multiple of 8
    int m_columns = 0;   // columns of the current batch
    bool m_few = false;  // kFewColumns or fewer over a design without its rows' nonzeros
    long m_chunkRows = 0;
    std::vector<double> m_parameters;               // [j][lane]
    std::vector<double> m_gradient;                 // [j][lane]
    std::vector<double> m_fewGradient;              // [column][j], when m_few
    std::vector<double> m_chunk;                    // [j][k]: the chunk's rows, transposed
    std::vector<double> m_scores;                   // [k][lane]
    std::vector<double> m_coefficients;             // [k][lane]
    std::vector<long> m_chunkIds;                   // [k]: the chunk's rows
    std::vector<double> m_columnCoefficients;       // [k]: one column's, when m_few
    std::vector<const double*> m_chunkRowPointers;  // [k]: the chunk's dense rows (or zeros)
    std::vector<const double*> m_nextRowPointers;   // [k]: the next chunk's (or zeros)
    std::vector<double> m_zeroRow;                  // the rows beyond a chunk's last
    const SparseRows* m_chunkSparse = nullptr;      // the chunk's nonzeros (forward), or dense
    bool m_parametersFinite = true;                 // every parameter set since begin() is finite
};

}  // namespace pfa
