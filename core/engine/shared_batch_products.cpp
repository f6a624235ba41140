// Compiled with -ffp-contract=off (core/CMakeLists.txt): a multiplication followed by an
// addition must stay two roundings on every machine, or lanes would differ between the
// baseline and the AVX2 versions (and between runs trained together and alone).
#include "core/engine/shared_batch_products.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/engine/four_lanes.h"
#include "core/engine/linear_rows.h"
#include "core/util/instruction_set.h"

namespace pfa {

namespace {

// Four columns; only 8-byte aligned, so the compiler never assumes aligned vector loads.
using Lanes = double __attribute__((vector_size(32), aligned(8)));

constexpr long kRows = SharedBatchProducts::kChunkRows;

/// z[k][·] = Σ_j x[j][k]·θ[j][·] for rows 0 … rows−1 (a multiple of 4) and `blocks` blocks of
/// four lanes (a multiple of 2). Four rows × two blocks at a time: eight independent sums.
[[gnu::always_inline]] inline void scoresBody(const double* chunk, long width, long rows,
                                              const Lanes* parameters, long blocks, Lanes* scores) {
    for (long k0 = 0; k0 < rows; k0 += 4) {
        for (long b0 = 0; b0 < blocks; b0 += 2) {
            Lanes a00{}, a01{}, a10{}, a11{}, a20{}, a21{}, a30{}, a31{};
            for (long j = 0; j < width; ++j) {
                const Lanes t0 = parameters[j * blocks + b0];
                const Lanes t1 = parameters[j * blocks + b0 + 1];
                const double* x = chunk + j * kRows + k0;
                const Lanes x0 = {x[0], x[0], x[0], x[0]}, x1 = {x[1], x[1], x[1], x[1]};
                const Lanes x2 = {x[2], x[2], x[2], x[2]}, x3 = {x[3], x[3], x[3], x[3]};
                a00 = a00 + x0 * t0;
                a01 = a01 + x0 * t1;
                a10 = a10 + x1 * t0;
                a11 = a11 + x1 * t1;
                a20 = a20 + x2 * t0;
                a21 = a21 + x2 * t1;
                a30 = a30 + x3 * t0;
                a31 = a31 + x3 * t1;
            }
            scores[(k0 + 0) * blocks + b0] = a00;
            scores[(k0 + 0) * blocks + b0 + 1] = a01;
            scores[(k0 + 1) * blocks + b0] = a10;
            scores[(k0 + 1) * blocks + b0 + 1] = a11;
            scores[(k0 + 2) * blocks + b0] = a20;
            scores[(k0 + 2) * blocks + b0 + 1] = a21;
            scores[(k0 + 3) * blocks + b0] = a30;
            scores[(k0 + 3) * blocks + b0 + 1] = a31;
        }
    }
}

/// g[j][·] += Σ_k x[j][k]·s[k][·] in row order, for rows 0 … rows−1 and `blocks` blocks (a
/// multiple of 2). Four features × two blocks at a time: eight independent sums.
[[gnu::always_inline]] inline void gradientBody(const double* chunk, long width, long rows,
                                                const Lanes* coefficients, long blocks,
                                                Lanes* gradient) {
    long j0 = 0;
    for (; j0 + 4 <= width; j0 += 4) {
        for (long b0 = 0; b0 < blocks; b0 += 2) {
            Lanes g00 = gradient[(j0 + 0) * blocks + b0],
                  g01 = gradient[(j0 + 0) * blocks + b0 + 1];
            Lanes g10 = gradient[(j0 + 1) * blocks + b0],
                  g11 = gradient[(j0 + 1) * blocks + b0 + 1];
            Lanes g20 = gradient[(j0 + 2) * blocks + b0],
                  g21 = gradient[(j0 + 2) * blocks + b0 + 1];
            Lanes g30 = gradient[(j0 + 3) * blocks + b0],
                  g31 = gradient[(j0 + 3) * blocks + b0 + 1];
            for (long k = 0; k < rows; ++k) {
                const Lanes s0 = coefficients[k * blocks + b0];
                const Lanes s1 = coefficients[k * blocks + b0 + 1];
                const double v0 = chunk[(j0 + 0) * kRows + k];
                const Lanes x0 = {v0, v0, v0, v0};
                const double v1 = chunk[(j0 + 1) * kRows + k];
                const Lanes x1 = {v1, v1, v1, v1};
                const double v2 = chunk[(j0 + 2) * kRows + k];
                const Lanes x2 = {v2, v2, v2, v2};
                const double v3 = chunk[(j0 + 3) * kRows + k];
                const Lanes x3 = {v3, v3, v3, v3};
                g00 = g00 + x0 * s0;
                g01 = g01 + x0 * s1;
                g10 = g10 + x1 * s0;
                g11 = g11 + x1 * s1;
                g20 = g20 + x2 * s0;
                g21 = g21 + x2 * s1;
                g30 = g30 + x3 * s0;
                g31 = g31 + x3 * s1;
            }
            gradient[(j0 + 0) * blocks + b0] = g00;
            gradient[(j0 + 0) * blocks + b0 + 1] = g01;
            gradient[(j0 + 1) * blocks + b0] = g10;
            gradient[(j0 + 1) * blocks + b0 + 1] = g11;
            gradient[(j0 + 2) * blocks + b0] = g20;
            gradient[(j0 + 2) * blocks + b0 + 1] = g21;
            gradient[(j0 + 3) * blocks + b0] = g30;
            gradient[(j0 + 3) * blocks + b0 + 1] = g31;
        }
    }
    for (; j0 < width; ++j0) {
        for (long b = 0; b < blocks; ++b) {
            Lanes g = gradient[j0 * blocks + b];
            for (long k = 0; k < rows; ++k) {
                const double v = chunk[j0 * kRows + k];
                const Lanes x = {v, v, v, v};
                g = g + x * coefficients[k * blocks + b];
            }
            gradient[j0 * blocks + b] = g;
        }
    }
}

/// scoresBody for a few columns (each its own pass): z[k][c] = Σ_j x[j][k]·θ[j][c] for the
/// kRows rows of the chunk, the lanes across four rows instead of four columns, so no lane is
/// spent on a column nobody uses. Each score is the same sum in the same order (from +0, feature
/// by feature, a multiplication then an addition): the same bits as scoresBody's. Eight
/// independent sums, one per four rows.
[[gnu::always_inline]] inline void fewScoresBody(const double* chunk, long width, int columns,
                                                 const double* parameters, long lanes,
                                                 double* scores) {
    using lanes::FourDoubles;
    for (int c = 0; c < columns; ++c) {
        FourDoubles sum[kRows / 4] = {};
        for (long j = 0; j < width; ++j) {
            const double t = parameters[j * lanes + c];
            const FourDoubles theta = {t, t, t, t};
            const double* x = chunk + j * kRows;
#pragma GCC unroll 8
            for (long q = 0; q < kRows / 4; ++q) sum[q] = sum[q] + lanes::load(x + 4 * q) * theta;
        }
        for (long q = 0; q < kRows / 4; ++q) {
            for (long i = 0; i < 4; ++i) scores[(4 * q + i) * lanes + c] = sum[q][i];
        }
    }
}

/// The sums of kBlocks blocks of four lanes, from b0 on, over the entries [begin, end) of one
/// row, into `out`: kBlocks independent sums.
template <int kBlocks>
[[gnu::always_inline]] inline void sparseBlockScores(const std::int32_t* columns,
                                                     const double* values, std::int64_t begin,
                                                     std::int64_t end, const Lanes* parameters,
                                                     long blocks, long b0, Lanes* out) {
    Lanes sums[kBlocks] = {};
    for (std::int64_t e = begin; e < end; ++e) {
        const double v = values[e];
        const Lanes x = {v, v, v, v};
        const Lanes* t = parameters + columns[e] * blocks + b0;
        for (int b = 0; b < kBlocks; ++b) sums[b] = sums[b] + x * t[b];
    }
    for (int b = 0; b < kBlocks; ++b) out[b] = sums[b];
}

/// Rows ahead of the one being summed whose entries sparseScoresBody requests (about the
/// time of a memory access at 32 runs).
constexpr long kPrefetchRows = 8;

/// scoresBody over the nonzero entries of rows ids[0 … rows−1] of `sparse`: the same sums in
/// the same order without the terms x = 0 (which leave a sum from +0 as it is). Four blocks
/// of four lanes at a time: four independent sums per row. Requests row ids[k + kPrefetchRows]
/// while it sums row k, for ids up to ids[known − 1] (the batch's rows after the chunk).
[[gnu::always_inline]] inline void sparseScoresBody(const SparseRows& sparse, const long* ids,
                                                    long rows, long known, const Lanes* parameters,
                                                    long blocks, Lanes* scores) {
    const std::int32_t* columns = sparse.columns.data();
    const double* values = sparse.values.data();
    for (long k = 0; k < rows; ++k) {
        if (k + kPrefetchRows < known) prefetchSparseRow(sparse, ids[k + kPrefetchRows]);
        const std::int64_t begin = sparse.start[static_cast<std::size_t>(ids[k])];
        const std::int64_t end = sparse.start[static_cast<std::size_t>(ids[k]) + 1];
        long b0 = 0;
        for (; b0 + 4 <= blocks; b0 += 4)
            sparseBlockScores<4>(columns, values, begin, end, parameters, blocks, b0,
                                 scores + k * blocks + b0);
        for (; b0 < blocks; b0 += 2)
            sparseBlockScores<2>(columns, values, begin, end, parameters, blocks, b0,
                                 scores + k * blocks + b0);
    }
}

/// The gradient sums of kBlocks blocks of four lanes, from b0 on, plus row k's terms: the
/// row's coefficients stay in registers while its entries are added.
template <int kBlocks>
[[gnu::always_inline]] inline void sparseBlockGradient(const std::int32_t* columns,
                                                       const double* values, std::int64_t begin,
                                                       std::int64_t end, const Lanes* coefficients,
                                                       long blocks, long b0, Lanes* gradient) {
    Lanes s[kBlocks];
    for (int b = 0; b < kBlocks; ++b) s[b] = coefficients[b0 + b];
    for (std::int64_t e = begin; e < end; ++e) {
        const double v = values[e];
        const Lanes x = {v, v, v, v};
        Lanes* g = gradient + columns[e] * blocks + b0;
        for (int b = 0; b < kBlocks; ++b) g[b] = g[b] + x * s[b];
    }
}

/// gradientBody over the nonzero entries of rows ids[0 … rows−1] of `sparse`: each gradient
/// entry still adds its rows in batch order, without the terms x = 0. Eight blocks of four
/// lanes at a time where there are so many, else two (each entry gets one term per row, so
/// the order of the blocks changes no sum).
[[gnu::always_inline]] inline void sparseGradientBody(const SparseRows& sparse, const long* ids,
                                                      long rows, const Lanes* coefficients,
                                                      long blocks, Lanes* gradient) {
    const std::int32_t* columns = sparse.columns.data();
    const double* values = sparse.values.data();
    for (long k = 0; k < rows; ++k) {
        const std::int64_t begin = sparse.start[static_cast<std::size_t>(ids[k])];
        const std::int64_t end = sparse.start[static_cast<std::size_t>(ids[k]) + 1];
        const Lanes* s = coefficients + k * blocks;
        long b0 = 0;
        for (; b0 + 8 <= blocks; b0 += 8)
            sparseBlockGradient<8>(columns, values, begin, end, s, blocks, b0, gradient);
        for (; b0 < blocks; b0 += 2)
            sparseBlockGradient<2>(columns, values, begin, end, s, blocks, b0, gradient);
    }
}

/// chunk[j·kRows + k] = rows[k][j] for the kRows rows and j < width (a chunk's rows, transposed):
/// four rows × four features at a time, transposed in registers, so that every store writes
/// four values of one feature at once. Moves values only.
[[gnu::always_inline]] inline void transposeBody(const double* const* rows, long width,
                                                 double* chunk, const double* const* ahead) {
    using Mask = long long __attribute__((vector_size(32)));
    const long body = width - width % 4;
    for (long k0 = 0; k0 < kRows; k0 += 4) {
        const double* r0 = rows[k0];
        const double* r1 = rows[k0 + 1];
        const double* r2 = rows[k0 + 2];
        const double* r3 = rows[k0 + 3];
        // The next chunk's rows k0 … k0 + 3 requested a line at a time while these are read, so
        // that the requests never queue up behind one another.
        const double* const* next = ahead ? ahead + k0 : nullptr;
        for (long j = 0; j < body; j += 4) {
            if (next && j % 8 == 0) {
                for (int r = 0; r < 4; ++r) __builtin_prefetch(next[r] + j);
            }
            using lanes::FourDoubles;
            const FourDoubles a0 = lanes::load(r0 + j), a1 = lanes::load(r1 + j);
            const FourDoubles a2 = lanes::load(r2 + j), a3 = lanes::load(r3 + j);
            const FourDoubles t0 = __builtin_shuffle(a0, a1, Mask{0, 4, 2, 6});
            const FourDoubles t1 = __builtin_shuffle(a0, a1, Mask{1, 5, 3, 7});
            const FourDoubles t2 = __builtin_shuffle(a2, a3, Mask{0, 4, 2, 6});
            const FourDoubles t3 = __builtin_shuffle(a2, a3, Mask{1, 5, 3, 7});
            lanes::store(chunk + j * kRows + k0, __builtin_shuffle(t0, t2, Mask{0, 1, 4, 5}));
            lanes::store(chunk + (j + 1) * kRows + k0, __builtin_shuffle(t1, t3, Mask{0, 1, 4, 5}));
            lanes::store(chunk + (j + 2) * kRows + k0, __builtin_shuffle(t0, t2, Mask{2, 3, 6, 7}));
            lanes::store(chunk + (j + 3) * kRows + k0, __builtin_shuffle(t1, t3, Mask{2, 3, 6, 7}));
        }
        if (next) {
            for (int r = 0; r < 4; ++r) __builtin_prefetch(next[r] + width - 1);
        }
        for (long j = body; j < width; ++j) {
            chunk[j * kRows + k0] = r0[j];
            chunk[j * kRows + k0 + 1] = r1[j];
            chunk[j * kRows + k0 + 2] = r2[j];
            chunk[j * kRows + k0 + 3] = r3[j];
        }
    }
}

// The same bodies compiled for the baseline instructions and for AVX2 (chosen at run time).
void transposeBaseline(const double* const* rows, long width, double* chunk,
                       const double* const* ahead) {
    transposeBody(rows, width, chunk, ahead);
}

[[gnu::target("avx2")]] void transposeAvx2(const double* const* rows, long width, double* chunk,
                                           const double* const* ahead) {
    transposeBody(rows, width, chunk, ahead);
}

void scoresBaseline(const double* chunk, long width, long rows, const Lanes* parameters,
                    long blocks, Lanes* scores) {
    scoresBody(chunk, width, rows, parameters, blocks, scores);
}
[[gnu::target("avx2")]] void scoresAvx2(const double* chunk, long width, long rows,
                                        const Lanes* parameters, long blocks, Lanes* scores) {
    scoresBody(chunk, width, rows, parameters, blocks, scores);
}
void gradientBaseline(const double* chunk, long width, long rows, const Lanes* coefficients,
                      long blocks, Lanes* gradient) {
    gradientBody(chunk, width, rows, coefficients, blocks, gradient);
}
[[gnu::target("avx2")]] void gradientAvx2(const double* chunk, long width, long rows,
                                          const Lanes* coefficients, long blocks, Lanes* gradient) {
    gradientBody(chunk, width, rows, coefficients, blocks, gradient);
}

void fewScoresBaseline(const double* chunk, long width, int columns, const double* parameters,
                       long lanes, double* scores) {
    fewScoresBody(chunk, width, columns, parameters, lanes, scores);
}
[[gnu::target("avx2")]] void fewScoresAvx2(const double* chunk, long width, int columns,
                                           const double* parameters, long lanes, double* scores) {
    fewScoresBody(chunk, width, columns, parameters, lanes, scores);
}
void sparseScoresBaseline(const SparseRows& sparse, const long* ids, long rows, long known,
                          const Lanes* parameters, long blocks, Lanes* scores) {
    sparseScoresBody(sparse, ids, rows, known, parameters, blocks, scores);
}
[[gnu::target("avx2")]] void sparseScoresAvx2(const SparseRows& sparse, const long* ids, long rows,
                                              long known, const Lanes* parameters, long blocks,
                                              Lanes* scores) {
    sparseScoresBody(sparse, ids, rows, known, parameters, blocks, scores);
}
void sparseGradientBaseline(const SparseRows& sparse, const long* ids, long rows,
                            const Lanes* coefficients, long blocks, Lanes* gradient) {
    sparseGradientBody(sparse, ids, rows, coefficients, blocks, gradient);
}
[[gnu::target("avx2")]] void sparseGradientAvx2(const SparseRows& sparse, const long* ids,
                                                long rows, const Lanes* coefficients, long blocks,
                                                Lanes* gradient) {
    sparseGradientBody(sparse, ids, rows, coefficients, blocks, gradient);
}

void transposeKernel(const double* const* rows, long width, double* chunk,
                     const double* const* ahead = nullptr) {
    (avx2Enabled() ? transposeAvx2 : transposeBaseline)(rows, width, chunk, ahead);
}

void scoresKernel(const double* chunk, long width, long rows, const Lanes* parameters, long blocks,
                  Lanes* scores) {
    (avx2Enabled() ? scoresAvx2 : scoresBaseline)(chunk, width, rows, parameters, blocks, scores);
}

void gradientKernel(const double* chunk, long width, long rows, const Lanes* coefficients,
                    long blocks, Lanes* gradient) {
    (avx2Enabled() ? gradientAvx2 : gradientBaseline)(chunk, width, rows, coefficients, blocks,
                                                      gradient);
}

void fewScoresKernel(const double* chunk, long width, int columns, const double* parameters,
                     long lanes, double* scores) {
    (avx2Enabled() ? fewScoresAvx2 : fewScoresBaseline)(chunk, width, columns, parameters, lanes,
                                                        scores);
}

void sparseScoresKernel(const SparseRows& sparse, const long* ids, long rows, long known,
                        const Lanes* parameters, long blocks, Lanes* scores) {
    (avx2Enabled() ? sparseScoresAvx2 : sparseScoresBaseline)(sparse, ids, rows, known, parameters,
                                                              blocks, scores);
}

void sparseGradientKernel(const SparseRows& sparse, const long* ids, long rows,
                          const Lanes* coefficients, long blocks, Lanes* gradient) {
    (avx2Enabled() ? sparseGradientAvx2 : sparseGradientBaseline)(sparse, ids, rows, coefficients,
                                                                  blocks, gradient);
}

}  // namespace

double sparseRowScore(const SparseRows& rows, long i, const double* theta) {
    const std::int64_t begin = rows.start[static_cast<std::size_t>(i)];
    const std::int64_t end = rows.start[static_cast<std::size_t>(i) + 1];
    double score = 0.0;
    for (std::int64_t e = begin; e < end; ++e) {
        const double product = rows.values[static_cast<std::size_t>(e)] *
                               theta[rows.columns[static_cast<std::size_t>(e)]];
        score = score + product;
    }
    return score;
}

void sparseRowScores(const SparseRows& rows, const long* ids, long first, long count,
                     const double* theta, double* scores, long scoreStride) {
    const std::int64_t* start = rows.start.data();
    const std::int32_t* columns = rows.columns.data();
    const double* values = rows.values.data();
    const auto row = [&](long k) { return ids ? ids[k] : first + k; };
    long k = 0;
    for (; k + 4 <= count; k += 4) {
        const long i[4] = {row(k), row(k + 1), row(k + 2), row(k + 3)};
        std::int64_t e[4] = {start[i[0]], start[i[1]], start[i[2]], start[i[3]]};
        const std::int64_t end[4] = {start[i[0] + 1], start[i[1] + 1], start[i[2] + 1],
                                     start[i[3] + 1]};
        double sum[4] = {0.0, 0.0, 0.0, 0.0};
        // In step while all four rows have entries left, then each on its own.
        while (e[0] < end[0] && e[1] < end[1] && e[2] < end[2] && e[3] < end[3]) {
            for (int r = 0; r < 4; ++r) {
                const double product = values[e[r]] * theta[columns[e[r]]];
                sum[r] = sum[r] + product;
                ++e[r];
            }
        }
        for (int r = 0; r < 4; ++r) {
            for (; e[r] < end[r]; ++e[r]) {
                const double product = values[e[r]] * theta[columns[e[r]]];
                sum[r] = sum[r] + product;
            }
            scores[(k + r) * scoreStride] = sum[r];
        }
    }
    for (; k < count; ++k) scores[k * scoreStride] = sparseRowScore(rows, row(k), theta);
}

void addSparseRow(const SparseRows& rows, long i, double coefficient, double* gradient) {
    const std::int64_t begin = rows.start[static_cast<std::size_t>(i)];
    const std::int64_t end = rows.start[static_cast<std::size_t>(i) + 1];
    for (std::int64_t e = begin; e < end; ++e) {
        const double product = coefficient * rows.values[static_cast<std::size_t>(e)];
        double& sum = gradient[rows.columns[static_cast<std::size_t>(e)]];
        sum = sum + product;
    }
}

void prefetchSparseRow(const SparseRows& rows, long i) {
    const std::int64_t begin = rows.start[static_cast<std::size_t>(i)];
    const std::int64_t end = rows.start[static_cast<std::size_t>(i) + 1];
    for (std::int64_t e = begin; e < end; e += 8) __builtin_prefetch(rows.values.data() + e);
    for (std::int64_t e = begin; e < end; e += 16) __builtin_prefetch(rows.columns.data() + e);
}

SharedBatchProducts::SharedBatchProducts(const DesignMatrix& design, int columns)
    : m_design(design), m_width(design.X().cols()), m_capacity(columns) {
    const long lanes = (std::max(columns, 1) + 7) / 8 * 8;
    m_parameters.assign(static_cast<std::size_t>(m_width * lanes), 0.0);
    m_gradient.assign(static_cast<std::size_t>(m_width * lanes), 0.0);
    m_chunk.assign(static_cast<std::size_t>(m_width * kRows), 0.0);
    m_scores.assign(static_cast<std::size_t>(kRows * lanes), 0.0);
    m_coefficients.assign(static_cast<std::size_t>(kRows * lanes), 0.0);
    m_chunkIds.assign(static_cast<std::size_t>(kRows), 0);
    m_columnCoefficients.assign(static_cast<std::size_t>(kRows), 0.0);
    m_chunkRowPointers.assign(static_cast<std::size_t>(kRows), nullptr);
    m_nextRowPointers.assign(static_cast<std::size_t>(kRows), nullptr);
    m_zeroRow.assign(static_cast<std::size_t>(m_width), 0.0);
    m_fewGradient.assign(static_cast<std::size_t>(m_width * std::min(columns, kFewColumns)), 0.0);
}

void SharedBatchProducts::begin(int columns) {
    if (columns < 1 || columns > m_capacity)
        throw std::logic_error("SharedBatchProducts: more columns than its capacity");
    m_lanes = (columns + 7) / 8 * 8;
    m_columns = columns;
    // A design with rows' nonzeros keeps the lanes of columns (its sums skip the zeros).
    m_few = columns <= kFewColumns && m_design.sparseRows() == nullptr;
    m_parametersFinite = true;
    if (m_few) std::fill(m_fewGradient.begin(), m_fewGradient.begin() + m_width * columns, 0.0);
    std::fill(m_gradient.begin(), m_gradient.begin() + m_width * m_lanes, 0.0);
    std::fill(m_parameters.begin(), m_parameters.begin() + m_width * m_lanes, 0.0);
    std::fill(m_coefficients.begin(), m_coefficients.begin() + kRows * m_lanes, 0.0);
}

void SharedBatchProducts::setParameters(int first, const RowMatrix& theta) {
    for (Eigen::Index a = 0; a < theta.rows(); ++a) {
        for (long j = 0; j < m_width; ++j) {
            m_parameters[static_cast<std::size_t>(j * m_lanes + first + a)] = theta(a, j);
            // 0·∞ is NaN, not 0: skipping zeros is exact for finite parameters only.
            m_parametersFinite = m_parametersFinite && std::isfinite(theta(a, j));
        }
    }
}

void SharedBatchProducts::forward(const std::vector<long>& batch, long size, long c0, long count) {
    const RowMatrix& X = m_design.X();
    m_chunkRows = count;
    m_chunkSparse = m_parametersFinite ? m_design.sparseRows() : nullptr;
    for (long k = 0; k < count; ++k)
        m_chunkIds[static_cast<std::size_t>(k)] = batch[static_cast<std::size_t>(c0 + k)];
    if (m_chunkSparse) {
        // The batch's ids from the chunk on, so that the kernel requests rows ahead.
        sparseScoresKernel(*m_chunkSparse, batch.data() + c0, count, size - c0,
                           reinterpret_cast<const Lanes*>(m_parameters.data()), m_lanes / 4,
                           reinterpret_cast<Lanes*>(m_scores.data()));
        return;
    }
    // The first chunk's rows requested now; each chunk requests the next one's as it reads
    // its own (transposeKernel).
    if (c0 == 0) {
        for (long k = 0; k < count; ++k) prefetchRow(X, batch[static_cast<std::size_t>(k)]);
    }
    for (long k = 0; k < kRows; ++k) {
        m_chunkRowPointers[static_cast<std::size_t>(k)] =
            k < count ? X.data() + m_chunkIds[static_cast<std::size_t>(k)] * m_width
                      : m_zeroRow.data();
        const long next = c0 + count + k;
        m_nextRowPointers[static_cast<std::size_t>(k)] =
            next < size ? X.data() + batch[static_cast<std::size_t>(next)] * m_width
                        : m_zeroRow.data();
    }
    transposeKernel(m_chunkRowPointers.data(), m_width, m_chunk.data(), m_nextRowPointers.data());
    scoreChunk((count + 3) / 4 * 4);
}

void SharedBatchProducts::scoreChunk(long rows) {
    if (m_few) {
        fewScoresKernel(m_chunk.data(), m_width, m_columns, m_parameters.data(), m_lanes,
                        m_scores.data());
    } else {
        scoresKernel(m_chunk.data(), m_width, rows,
                     reinterpret_cast<const Lanes*>(m_parameters.data()), m_lanes / 4,
                     reinterpret_cast<Lanes*>(m_scores.data()));
    }
}

void SharedBatchProducts::backward() {
    if (m_chunkSparse) {
        sparseGradientKernel(*m_chunkSparse, m_chunkIds.data(), m_chunkRows,
                             reinterpret_cast<const Lanes*>(m_coefficients.data()), m_lanes / 4,
                             reinterpret_cast<Lanes*>(m_gradient.data()));
    } else if (m_few) {
        // Each column's sums add the chunk's rows in order, four features in the lanes: the
        // linear models' addScaledRows, whose terms and order are gradientBody's (the same bits).
        const LinearRows rows{m_design.X().data(), m_width, m_width};
        for (int c = 0; c < m_columns; ++c) {
            for (long k = 0; k < m_chunkRows; ++k)
                m_columnCoefficients[static_cast<std::size_t>(k)] = m_coefficients[index(k, c)];
            addScaledRows(rows, m_chunkIds.data(), m_chunkRows, m_columnCoefficients.data(),
                          m_fewGradient.data() + c * m_width);
        }
    } else {
        gradientKernel(m_chunk.data(), m_width, m_chunkRows,
                       reinterpret_cast<const Lanes*>(m_coefficients.data()), m_lanes / 4,
                       reinterpret_cast<Lanes*>(m_gradient.data()));
    }
    std::fill(m_coefficients.begin(), m_coefficients.begin() + kRows * m_lanes, 0.0);
}

void SharedBatchProducts::getGradient(int first, RowMatrix& gradient) const {
    for (Eigen::Index a = 0; a < gradient.rows(); ++a) {
        for (long j = 0; j < m_width; ++j) {
            gradient(a, j) =
                m_few ? m_fewGradient[static_cast<std::size_t>((first + a) * m_width + j)]
                      : m_gradient[static_cast<std::size_t>(j * m_lanes + first + a)];
        }
    }
}

void SharedBatchProducts::scoreAllRows(const DesignMatrix& design,
                                       const std::vector<const RowMatrix*>& thetas,
                                       const std::vector<RowMatrix*>& scores) {
    if (thetas.empty()) return;
    if (design.X().cols() != m_width)
        throw std::logic_error("SharedBatchProducts: rows of another width");
    const long p = thetas.front()->rows();
    begin(static_cast<int>(thetas.size() * static_cast<std::size_t>(p)));
    for (std::size_t r = 0; r < thetas.size(); ++r)
        setParameters(static_cast<int>(r * static_cast<std::size_t>(p)), *thetas[r]);
    const RowMatrix& X = design.X();
    const long n = X.rows();
    const SparseRows* sparse = m_parametersFinite ? design.sparseRows() : nullptr;
    for (long c0 = 0; c0 < n; c0 += kRows) {
        const long count = std::min(kRows, n - c0);
        if (sparse) {
            for (long k = 0; k < count; ++k) m_chunkIds[static_cast<std::size_t>(k)] = c0 + k;
            sparseScoresKernel(*sparse, m_chunkIds.data(), count, count,
                               reinterpret_cast<const Lanes*>(m_parameters.data()), m_lanes / 4,
                               reinterpret_cast<Lanes*>(m_scores.data()));
        }
        if (!sparse) {
            for (long k = 0; k < kRows; ++k) {
                m_chunkRowPointers[static_cast<std::size_t>(k)] =
                    k < count ? X.data() + (c0 + k) * m_width : m_zeroRow.data();
            }
            transposeKernel(m_chunkRowPointers.data(), m_width, m_chunk.data());
            scoreChunk((count + 3) / 4 * 4);
        }
        for (std::size_t r = 0; r < scores.size(); ++r) {
            for (long k = 0; k < count; ++k) {
                for (long a = 0; a < p; ++a)
                    (*scores[r])(c0 + k, a) = score(k, static_cast<int>(r * p + a));
            }
        }
    }
}

}  // namespace pfa
