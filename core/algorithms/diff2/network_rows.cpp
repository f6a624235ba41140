// Compiled with -ffp-contract=off, -fno-math-errno, -fno-trapping-math and -fopenmp-simd
// (core/CMakeLists.txt): no fused multiply-add, so the AVX2 form rounds as the baseline one does;
// without errno the square roots vectorise, without trapping math both sides of a choice may be
// computed, and `omp simd` vectorises loops whose arrays GCC cannot prove apart (no loop here
// carries a value from one row to the next). None of these changes a value.
#include "core/algorithms/diff2/network_rows.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/algorithms/diff2/diff2_rounds.h"
#include "core/engine/clipping.h"
#include "core/engine/four_lanes.h"
#include "core/engine/vector_math.h"
#include "core/util/instruction_set.h"

namespace pfa::diff2 {

namespace {

constexpr long H = kHiddenUnits;
/// Rows per block: a block's arrays (about 12 of 64 × 10 doubles) fit the first-level cache.
constexpr long kBlockRows = 64;
/// Running sums per parameter: rows 4q + l go into sum l.
constexpr long kSumLanes = 4;

/// The parameters the sum has: W1, b1, w2, b2.
long parameterCount(long features) { return H * features + 2 * H + 1; }

/// Four running sums (one per lane), as one vector.
using Lanes = lanes::FourDoubles;
using lanes::load;
using lanes::store;
static_assert(kSumLanes == 4);

/// Where one block's rows are read and written (networkRows): the job's arrays or padded copies;
/// arrays the job does not have point to scratch (outputs) or to zeros (inputs).
struct BlockArrays {
    long first;  ///< the block's first row
    long count;  ///< its rows
    long width;  ///< count rounded up to a multiple of four; rows beyond count are zero padding
    const double* y;
    const double* weight;
    const double* inputNorms;
    const double* rBefore;
    const double* hiddenBefore[H];
    const double* deltaBefore[H];
    double* scores;
    double* loss;
    double* r;
    double* hidden[H];
    double* delta[H];
    double* norms;
    double* coef;
};

/// The rows of `io` (see NetworkRows for what each step computes); returns the rows clipped.
[[gnu::always_inline]] inline long blockBody(const NetworkRows& job, NetworkScratch::Buffers& s,
                                             const BlockArrays& io) {
    const long d = job.features, w = io.width, m = io.count, i0 = io.first;
    double* __restrict inputs = s.inputs;
    double* __restrict in = s.in;
    double* __restrict sigmoid = s.sigmoid;
    double* __restrict score = io.scores;
    // The block's rows, transposed (feature k of row b at k·w + b), padded with zero rows.
    for (long b = 0; b < m; ++b) {
        const double* row = job.X + (i0 + b) * job.stride;
        for (long k = 0; k < d; ++k) inputs[k * w + b] = row[k];
    }
    for (long k = 0; k < d; ++k)
        for (long b = m; b < w; ++b) inputs[k * w + b] = 0.0;
    // a_ij = (Σ_k x_ik·W1_jk) + b1_j, the sum in feature order from +0; then h_ij = softplus(a_ij)
    // and sigmoid(a_ij).
    for (long j = 0; j < H; ++j) {
        double* __restrict a = in + j * w;
        const double* __restrict weights = job.W1 + j * d;
        const double bias = job.b1[j];
        // Four rows per vector, two vectors at a time (w is a multiple of four).
        const Lanes zero = {0.0, 0.0, 0.0, 0.0};
        long q = 0;
        for (; q + 8 <= w; q += 8) {
            Lanes s0 = zero, s1 = zero;
            for (long k = 0; k < d; ++k) {
                const double weight = weights[k];
                s0 = s0 + load(inputs + k * w + q) * weight;
                s1 = s1 + load(inputs + k * w + q + 4) * weight;
            }
            store(a + q, s0 + bias);
            store(a + q + 4, s1 + bias);
        }
        for (; q < w; q += 4) {
            Lanes s0 = zero;
            for (long k = 0; k < d; ++k) s0 = s0 + load(inputs + k * w + q) * weights[k];
            store(a + q, s0 + bias);
        }
        vector_math::softplusAndSigmoid(a, w, s.exp, s.onePlus, io.hidden[j], sigmoid + j * w);
    }
    // s_i = (Σ_j h_ij·w2_j) + b2, in unit order from +0.
    for (long b = 0; b < w; ++b) score[b] = 0.0;
    for (long j = 0; j < H; ++j) {
        const double weight = job.w2[j];
        const double* __restrict h = io.hidden[j];
        for (long b = 0; b < w; ++b) score[b] = score[b] + h[b] * weight;
    }
    for (long b = 0; b < w; ++b) score[b] = score[b] + job.b2;
    if (!job.y) return 0;

    // ∂ℓ/∂s and the loss.
    double* __restrict r = io.r;
    double* __restrict loss = io.loss;
    const double* __restrict y = io.y;
    if (job.logistic) {
        // softplus(s) and sigmoid(s): the loss log(1 + e^s) − y·s and r = sigmoid(s) − y.
        vector_math::softplusAndSigmoid(score, w, s.scoreExp, s.scoreOnePlus, loss, r);
        for (long b = 0; b < w; ++b) {
            r[b] = r[b] - y[b];
            loss[b] = loss[b] - y[b] * score[b];
        }
    } else {
        for (long b = 0; b < w; ++b) {
            r[b] = score[b] - y[b];
            loss[b] = 0.5 * (r[b] * r[b]);
        }
    }
    // δ_ij = (sigmoid(a_ij)·r_i)·w2_j.
    for (long j = 0; j < H; ++j) {
        const double weight = job.w2[j];
        const double* __restrict sig = sigmoid + j * w;
        double* __restrict dj = io.delta[j];
        for (long b = 0; b < w; ++b) dj[b] = (sig[b] * r[b]) * weight;
    }
    if (!job.agg) return 0;

    // The record's gradient (difference) is [dδ_i ⊗ x_i, dδ_i, d(r·h)_i, dr_i], d the difference
    // from the previous iterate's factors (zero without them): its squared norm is
    // Σ_j dδ_ij²·(‖x_i‖² + 1) + Σ_j d(r·h)_ij² + dr_i².
    const double* __restrict rBefore = io.rBefore;
    double* __restrict dDelta = s.dDelta;
    double* __restrict dOutput = s.dOutput;
    double* __restrict sumDelta = s.sumDelta;
    double* __restrict sumOutput = s.sumOutput;
    for (long b = 0; b < w; ++b) sumDelta[b] = sumOutput[b] = 0.0;
    for (long j = 0; j < H; ++j) {
        const double* __restrict dj = io.delta[j];
        const double* __restrict db = io.deltaBefore[j];
        const double* __restrict hj = io.hidden[j];
        const double* __restrict hb = io.hiddenBefore[j];
        double* __restrict dd = dDelta + j * w;
        double* __restrict dout = dOutput + j * w;
#pragma omp simd
        for (long b = 0; b < w; ++b) {
            dd[b] = dj[b] - db[b];
            dout[b] = hj[b] * r[b] - hb[b] * rBefore[b];
            sumDelta[b] = sumDelta[b] + dd[b] * dd[b];
            sumOutput[b] = sumOutput[b] + dout[b] * dout[b];
        }
    }
    const double* __restrict inputNorms = io.inputNorms;
    double* __restrict dr = s.dr;
    double* __restrict norms = io.norms;
#pragma omp simd
    for (long b = 0; b < w; ++b) {
        dr[b] = r[b] - rBefore[b];
        norms[b] = std::sqrt(dr[b] * dr[b] + (sumDelta[b] * inputNorms[b] + sumOutput[b]));
    }
    // Padding rows have weight 0: their coefficients are 0 and they add nothing.
    double* __restrict coef = io.coef;
    const long clipped = clippedCoefficients(norms, m, job.bound, io.weight, coef);
    for (long b = m; b < w; ++b) coef[b] = 0.0;

    // The sums: W1 gets Σ_i coef_i·dδ_ij·x_ik, b1 Σ_i coef_i·dδ_ij, w2 Σ_i coef_i·d(r·h)_ij and
    // b2 Σ_i coef_i·dr_i. Each has four running sums, row 4q + l into sum l; the loops go over
    // the rows' fours outermost, so that the sums' additions are independent of each other.
    for (long j = 0; j < H; ++j) {
        double* __restrict dd = dDelta + j * w;
        double* __restrict dout = dOutput + j * w;
#pragma omp simd
        for (long b = 0; b < w; ++b) {
            dd[b] = coef[b] * dd[b];
            dout[b] = coef[b] * dout[b];
        }
    }
#pragma omp simd
    for (long b = 0; b < w; ++b) dr[b] = coef[b] * dr[b];
    // Per unit j, the running sums of W1's row j (four features at a time), of b1_j and of w2_j,
    // each in a register through the block's rows.
    double* sumsW1 = s.sums;
    double* sumsB1 = s.sums + H * d * kSumLanes;
    double* sumsW2 = sumsB1 + H * kSumLanes;
    double* sumB2 = sumsW2 + H * kSumLanes;
    for (long j = 0; j < H; ++j) {
        const double* dd = dDelta + j * w;
        const double* dout = dOutput + j * w;
        Lanes b1 = load(sumsB1 + j * kSumLanes), w2 = load(sumsW2 + j * kSumLanes);
        for (long q = 0; q < w; q += kSumLanes) {
            b1 = b1 + load(dd + q);
            w2 = w2 + load(dout + q);
        }
        store(sumsB1 + j * kSumLanes, b1);
        store(sumsW2 + j * kSumLanes, w2);
        long k = 0;
        for (; k + 4 <= d; k += 4) {
            double* lanes = sumsW1 + (j * d + k) * kSumLanes;
            Lanes s0 = load(lanes), s1 = load(lanes + 4), s2 = load(lanes + 8),
                  s3 = load(lanes + 12);
            const double* x0 = inputs + k * w;
            const double *x1 = x0 + w, *x2 = x1 + w, *x3 = x2 + w;
            for (long q = 0; q < w; q += kSumLanes) {
                const Lanes c = load(dd + q);
                s0 = s0 + c * load(x0 + q);
                s1 = s1 + c * load(x1 + q);
                s2 = s2 + c * load(x2 + q);
                s3 = s3 + c * load(x3 + q);
            }
            store(lanes, s0);
            store(lanes + 4, s1);
            store(lanes + 8, s2);
            store(lanes + 12, s3);
        }
        for (; k < d; ++k) {
            double* lanes = sumsW1 + (j * d + k) * kSumLanes;
            Lanes s0 = load(lanes);
            const double* x0 = inputs + k * w;
            for (long q = 0; q < w; q += kSumLanes) s0 = s0 + load(dd + q) * load(x0 + q);
            store(lanes, s0);
        }
    }
    Lanes b2 = load(sumB2);
    for (long q = 0; q < w; q += kSumLanes) b2 = b2 + load(dr + q);
    store(sumB2, b2);
    return clipped;
}

long blockBaseline(const NetworkRows& job, NetworkScratch::Buffers& s, const BlockArrays& io) {
    return blockBody(job, s, io);
}

[[gnu::target("avx2")]] long blockAvx2(const NetworkRows& job, NetworkScratch::Buffers& s,
                                       const BlockArrays& io) {
    return blockBody(job, s, io);
}

}  // namespace

void NetworkScratch::reset(long features) {
    m_features = features;
    const long row = kBlockRows, units = H * kBlockRows;
    Buffers& b = m_buffers;
    const std::pair<double**, long> arrays[] = {{&b.inputs, features * row},
                                                {&b.in, units},
                                                {&b.exp, row},
                                                {&b.onePlus, row},
                                                {&b.sigmoid, units},
                                                {&b.dDelta, units},
                                                {&b.dOutput, units},
                                                {&b.sumDelta, row},
                                                {&b.sumOutput, row},
                                                {&b.dr, row},
                                                {&b.scoreExp, row},
                                                {&b.scoreOnePlus, row},
                                                {&b.zeros, row},
                                                {&b.y, row},
                                                {&b.weight, row},
                                                {&b.inputNorms, row},
                                                {&b.rBefore, row},
                                                {&b.hiddenBefore, units},
                                                {&b.deltaBefore, units},
                                                {&b.scores, row},
                                                {&b.loss, row},
                                                {&b.r, row},
                                                {&b.hidden, units},
                                                {&b.delta, units},
                                                {&b.norms, row},
                                                {&b.coef, row},
                                                {&b.sums, parameterCount(features) * kSumLanes}};
    long total = 0;
    for (const auto& [array, size] : arrays) total += size;
    // One allocation, every array a multiple of 64 doubles from its start.
    m_storage.assign(static_cast<std::size_t>(total), 0.0);
    double* next = m_storage.data();
    for (const auto& [array, size] : arrays) {
        *array = next;
        next += size;
    }
}

long networkRows(const NetworkRows& job, NetworkScratch& scratch) {
    if (scratch.features() != job.features) scratch.reset(job.features);
    const auto body = avx2Enabled() ? blockAvx2 : blockBaseline;
    NetworkScratch::Buffers& s = scratch.m_buffers;
    const long parameters = parameterCount(job.features);
    const bool sum = job.agg != nullptr;
    if (sum) std::fill(s.sums, s.sums + parameters * kSumLanes, 0.0);
    const bool before = sum && job.rBefore;
    const long ld = job.leading;
    long clipped = 0;
    for (long first = 0; first < job.rows; first += kBlockRows) {
        BlockArrays io{};
        io.first = first;
        io.count = std::min(kBlockRows, job.rows - first);
        io.width = (io.count + 3) / 4 * 4;
        const long m = io.count, w = io.width;
        // A block of whole fours reads and writes the job's arrays themselves; the last rows
        // otherwise go through padded copies in the scratch (their values copied back after).
        const bool padded = m != w;
        auto input = [&](const double* array, double* spare) -> const double* {
            if (!padded) return array + first;
            std::copy(array + first, array + first + m, spare);
            std::fill(spare + m, spare + w, 0.0);
            return spare;
        };
        auto output = [&](double* array, double* spare) {
            return array && !padded ? array + first : spare;
        };
        io.y = job.y ? input(job.y, s.y) : nullptr;
        io.weight = sum ? input(job.weight, s.weight) : nullptr;
        io.inputNorms = sum ? input(job.inputNormsSquared, s.inputNorms) : nullptr;
        io.rBefore = before ? input(job.rBefore, s.rBefore) : s.zeros;
        for (long j = 0; j < H; ++j) {
            io.hiddenBefore[j] =
                before ? input(job.hiddenBefore + j * ld, s.hiddenBefore + j * w) : s.zeros;
            io.deltaBefore[j] =
                before ? input(job.deltaBefore + j * ld, s.deltaBefore + j * w) : s.zeros;
            io.hidden[j] = output(job.hidden ? job.hidden + j * ld : nullptr, s.hidden + j * w);
            io.delta[j] = output(job.delta ? job.delta + j * ld : nullptr, s.delta + j * w);
        }
        io.scores = output(job.scores, s.scores);
        io.loss = output(job.loss, s.loss);
        io.r = output(job.r, s.r);
        io.norms = output(job.norms, s.norms);
        io.coef = output(job.coef, s.coef);
        clipped += body(job, s, io);
        if (!padded) continue;
        auto copyBack = [&](const double* from, double* array) {
            if (array) std::copy(from, from + m, array + first);
        };
        copyBack(io.scores, job.scores);
        copyBack(io.loss, job.loss);
        copyBack(io.r, job.r);
        copyBack(io.norms, job.norms);
        copyBack(io.coef, job.coef);
        for (long j = 0; j < H; ++j) {
            copyBack(io.hidden[j], job.hidden ? job.hidden + j * ld : nullptr);
            copyBack(io.delta[j], job.delta ? job.delta + j * ld : nullptr);
        }
    }
    if (sum) {
        for (long p = 0; p < parameters; ++p) {
            const double* lanes = s.sums + p * kSumLanes;
            job.agg[p] = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
        }
    }
    return clipped;
}

}  // namespace pfa::diff2
