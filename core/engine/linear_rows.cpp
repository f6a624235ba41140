// Compiled with -ffp-contract=off, -fno-math-errno and -fno-trapping-math (core/CMakeLists.txt):
// no fused multiply-add, so the AVX2 form rounds as the baseline one does.
#include "core/engine/linear_rows.h"

#include "core/engine/four_lanes.h"
#include "core/util/instruction_set.h"

namespace pfa {

namespace {

using Lanes = lanes::FourDoubles;
using lanes::load;
using lanes::store;

/// The scores of R rows (1 ≤ R ≤ 4) at once.
template <int R>
[[gnu::always_inline]] inline void scoreRows(const LinearRows& X, const long* rows, const double* w,
                                             double* scores) {
    const long d = X.features, body = d - d % 4;
    const double* x[R];
    Lanes sum[R];
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
        x[r] = X.data + rows[r] * X.stride;
        sum[r] = Lanes{0.0, 0.0, 0.0, 0.0};
    }
    for (long j = 0; j < body; j += 4) {
        const Lanes wj = load(w + j);
#pragma GCC unroll 4
        for (int r = 0; r < R; ++r) sum[r] = sum[r] + load(x[r] + j) * wj;
    }
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
        double s = (sum[r][0] + sum[r][1]) + (sum[r][2] + sum[r][3]);
        for (long j = body; j < d; ++j) s = s + x[r][j] * w[j];
        scores[r] = s;
    }
}

/// g += scales[k]·x_k for R rows (1 ≤ R ≤ 4), in row order for every entry.
template <int R>
[[gnu::always_inline]] inline void addRows(const LinearRows& X, const long* rows,
                                           const double* scales, double* g) {
    const long d = X.features, body = d - d % 4;
    const double* x[R];
    Lanes scale[R];
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
        x[r] = X.data + rows[r] * X.stride;
        scale[r] = Lanes{scales[r], scales[r], scales[r], scales[r]};
    }
    for (long j = 0; j < body; j += 4) {
        Lanes gj = load(g + j);
#pragma GCC unroll 4
        for (int r = 0; r < R; ++r) gj = gj + scale[r] * load(x[r] + j);
        store(g + j, gj);
    }
    for (long j = body; j < d; ++j) {
        double gj = g[j];
#pragma GCC unroll 4
        for (int r = 0; r < R; ++r) gj = gj + scales[r] * x[r][j];
        g[j] = gj;
    }
}

/// kernel.template rows<R>(k) for the rows k … k + R − 1 of 0 … count − 1: four at a time, then
/// the last one to three together; every row once, in order.
template <typename Kernel>
[[gnu::always_inline]] inline void byFours(long count, const Kernel& kernel) {
    long k = 0;
    for (; k + 4 <= count; k += 4) kernel.template rows<4>(k);
    switch (count - k) {
        case 3:
            kernel.template rows<3>(k);
            break;
        case 2:
            kernel.template rows<2>(k);
            break;
        case 1:
            kernel.template rows<1>(k);
            break;
        default:
            break;
    }
}

/// linearRowScores' work for byFours. (A struct, not a lambda: a lambda inside the AVX2 form
/// would be compiled without AVX2.)
struct ScoreKernel {
    const LinearRows& X;
    const long* batch;
    const double* w;
    double* scores;
    template <int R>
    [[gnu::always_inline]] void rows(long k) const {
        scoreRows<R>(X, batch + k, w, scores + k);
    }
};

/// addScaledRows' work for byFours.
struct AddKernel {
    const LinearRows& X;
    const long* batch;
    const double* scales;
    double* g;
    template <int R>
    [[gnu::always_inline]] void rows(long k) const {
        addRows<R>(X, batch + k, scales + k, g);
    }
};

void scoresBaseline(const LinearRows& X, const long* rows, long count, const double* w,
                    double* scores) {
    byFours(count, ScoreKernel{X, rows, w, scores});
}

[[gnu::target("avx2")]] void scoresAvx2(const LinearRows& X, const long* rows, long count,
                                        const double* w, double* scores) {
    byFours(count, ScoreKernel{X, rows, w, scores});
}

void addBaseline(const LinearRows& X, const long* rows, long count, const double* scales,
                 double* g) {
    byFours(count, AddKernel{X, rows, scales, g});
}

[[gnu::target("avx2")]] void addAvx2(const LinearRows& X, const long* rows, long count,
                                     const double* scales, double* g) {
    byFours(count, AddKernel{X, rows, scales, g});
}

}  // namespace

void linearRowScores(const LinearRows& X, const long* rows, long count, const double* w,
                     double* scores) {
    (avx2Enabled() ? scoresAvx2 : scoresBaseline)(X, rows, count, w, scores);
}

void addScaledRows(const LinearRows& X, const long* rows, long count, const double* scales,
                   double* g) {
    (avx2Enabled() ? addAvx2 : addBaseline)(X, rows, count, scales, g);
}

}  // namespace pfa
