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

/// The scores of R rows (1 ≤ R ≤ 8) at once: eight rows keep eight independent running sums in
/// flight, so the additions' latency does not bound the loop as it did with four.
template <int R>
[[gnu::always_inline]] inline void scoreRows(const LinearRows& X, const long* rows, const double* w,
                                             double* scores) {
    const long d = X.features, body = d - d % 4;
    const double* x[R];
    Lanes sum[R];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
        x[r] = X.data + rows[r] * X.stride;
        sum[r] = Lanes{0.0, 0.0, 0.0, 0.0};
    }
    for (long j = 0; j < body; j += 4) {
        const Lanes wj = load(w + j);
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) sum[r] = sum[r] + load(x[r] + j) * wj;
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
        double s = (sum[r][0] + sum[r][1]) + (sum[r][2] + sum[r][3]);
        for (long j = body; j < d; ++j) s = s + x[r][j] * w[j];
        scores[r] = s;
    }
}

/// g += scales[k]·x_k for R rows (1 ≤ R ≤ 8), in row order for every entry; rows in single
/// precision are converted to double exactly as they are read.
template <int R, typename Value>
[[gnu::always_inline]] inline void addRows(const LinearRowsOf<Value>& X, const long* rows,
                                           const double* scales, double* g) {
    const long d = X.features, body = d - d % 4;
    const Value* x[R];
    Lanes scale[R];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
        x[r] = X.data + rows[r] * X.stride;
        scale[r] = Lanes{scales[r], scales[r], scales[r], scales[r]};
    }
    for (long j = 0; j < body; j += 4) {
        Lanes gj = load(g + j);
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) gj = gj + scale[r] * load(x[r] + j);
        store(g + j, gj);
    }
    for (long j = body; j < d; ++j) {
        double gj = g[j];
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) gj = gj + scales[r] * x[r][j];
        g[j] = gj;
    }
}

/// kernel.template rows<R>(k) for the rows k … k + R − 1 of 0 … count − 1: `Most` at a time,
/// then the last ones together; every row once, in order.
template <int Most, typename Kernel>
[[gnu::always_inline]] inline void byGroups(long count, const Kernel& kernel) {
    long k = 0;
    for (; k + Most <= count; k += Most) kernel.template rows<Most>(k);
    const long left = count - k;
    if constexpr (Most > 4) {
        if (left >= 4) {
            kernel.template rows<4>(k);
            k += 4;
        }
    }
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

/// linearRowScores' work for byGroups. (A struct, not a lambda: a lambda inside the AVX2 form
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

/// addScaledRows' (and addScaledSingleRows') work for byGroups.
template <typename Value>
struct AddKernel {
    const LinearRowsOf<Value>& X;
    const long* batch;
    const double* scales;
    double* g;
    template <int R>
    [[gnu::always_inline]] void rows(long k) const {
        addRows<R>(X, batch + k, scales + k, g);
    }
};

/// Eight floats as one vector (one AVX2 operation, two halves of four without).
using EightFloats = float __attribute__((vector_size(8 * sizeof(float))));

/// The eight floats from p (any alignment).
[[gnu::always_inline]] inline EightFloats loadEight(const float* p) {
    EightFloats v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

/// The single-precision scores of R rows (1 ≤ R ≤ 8), as linearRowScoresSingle states.
template <int R>
[[gnu::always_inline]] inline void scoreSingleRows(const SingleLinearRows& X, const long* rows,
                                                   const float* w, double* scores) {
    const long d = X.features, body = d - d % 8;
    const float* x[R];
    EightFloats sum[R];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
        x[r] = X.data + rows[r] * X.stride;
        sum[r] = EightFloats{};
    }
    for (long j = 0; j < body; j += 8) {
        const EightFloats wj = loadEight(w + j);
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) sum[r] = sum[r] + loadEight(x[r] + j) * wj;
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
        const EightFloats v = sum[r];
        float s = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
        for (long j = body; j < d; ++j) s = s + x[r][j] * w[j];
        scores[r] = static_cast<double>(s);
    }
}

/// linearRowScoresSingle's work for byGroups.
struct SingleScoreKernel {
    const SingleLinearRows& X;
    const long* batch;
    const float* w;
    double* scores;
    template <int R>
    [[gnu::always_inline]] void rows(long k) const {
        scoreSingleRows<R>(X, batch + k, w, scores + k);
    }
};

void singleScoresBaseline(const SingleLinearRows& X, const long* rows, long count, const float* w,
                          double* scores) {
    byGroups<8>(count, SingleScoreKernel{X, rows, w, scores});
}

[[gnu::target("avx2")]] void singleScoresAvx2(const SingleLinearRows& X, const long* rows,
                                              long count, const float* w, double* scores) {
    byGroups<8>(count, SingleScoreKernel{X, rows, w, scores});
}

void singleAddBaseline(const SingleLinearRows& X, const long* rows, long count,
                       const double* scales, double* g) {
    byGroups<8>(count, AddKernel<float>{X, rows, scales, g});
}

[[gnu::target("avx2")]] void singleAddAvx2(const SingleLinearRows& X, const long* rows, long count,
                                           const double* scales, double* g) {
    byGroups<8>(count, AddKernel<float>{X, rows, scales, g});
}

void scoresBaseline(const LinearRows& X, const long* rows, long count, const double* w,
                    double* scores) {
    byGroups<8>(count, ScoreKernel{X, rows, w, scores});
}

[[gnu::target("avx2")]] void scoresAvx2(const LinearRows& X, const long* rows, long count,
                                        const double* w, double* scores) {
    byGroups<8>(count, ScoreKernel{X, rows, w, scores});
}

void addBaseline(const LinearRows& X, const long* rows, long count, const double* scales,
                 double* g) {
    byGroups<8>(count, AddKernel<double>{X, rows, scales, g});
}

[[gnu::target("avx2")]] void addAvx2(const LinearRows& X, const long* rows, long count,
                                     const double* scales, double* g) {
    byGroups<8>(count, AddKernel<double>{X, rows, scales, g});
}

/// unpackRows' work: one row after another, four values at a time.
[[gnu::always_inline]] inline void unpack(const SingleLinearRows& X, const long* rows, long count,
                                          double* out, long outStride) {
    const long d = X.features, body = d - d % 4;
    for (long k = 0; k < count; ++k) {
        const float* x = X.data + rows[k] * X.stride;
        double* to = out + k * outStride;
        for (long j = 0; j < body; j += 4) store(to + j, load(x + j));
        for (long j = body; j < d; ++j) to[j] = static_cast<double>(x[j]);
    }
}

void unpackBaseline(const SingleLinearRows& X, const long* rows, long count, double* out,
                    long outStride) {
    unpack(X, rows, count, out, outStride);
}

[[gnu::target("avx2")]] void unpackAvx2(const SingleLinearRows& X, const long* rows, long count,
                                        double* out, long outStride) {
    unpack(X, rows, count, out, outStride);
}

}  // namespace

void unpackRows(const SingleLinearRows& X, const long* rows, long count, double* out,
                long outStride) {
    (avx2Enabled() ? unpackAvx2 : unpackBaseline)(X, rows, count, out, outStride);
}

void linearRowScores(const LinearRows& X, const long* rows, long count, const double* w,
                     double* scores) {
    (avx2Enabled() ? scoresAvx2 : scoresBaseline)(X, rows, count, w, scores);
}

void addScaledRows(const LinearRows& X, const long* rows, long count, const double* scales,
                   double* g) {
    (avx2Enabled() ? addAvx2 : addBaseline)(X, rows, count, scales, g);
}

void linearRowScoresSingle(const SingleLinearRows& X, const long* rows, long count, const float* w,
                           double* scores) {
    (avx2Enabled() ? singleScoresAvx2 : singleScoresBaseline)(X, rows, count, w, scores);
}

double singleRowScoreInDouble(const SingleLinearRows& X, long row, const double* w) {
    const float* x = X.data + row * X.stride;
    double s = 0.0;
    for (long j = 0; j < X.features; ++j) s = s + static_cast<double>(x[j]) * w[j];
    return s;
}

void addScaledSingleRows(const SingleLinearRows& X, const long* rows, long count,
                         const double* scales, double* g) {
    (avx2Enabled() ? singleAddAvx2 : singleAddBaseline)(X, rows, count, scales, g);
}

}  // namespace pfa
