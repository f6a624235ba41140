// Compiled with -ffp-contract=off, -fno-math-errno, -fno-trapping-math and -fopenmp-simd
// (core/CMakeLists.txt): every lane must round as the scalar code of PerExampleGradients does
// (no fused multiply-add), on the baseline and the AVX2 version alike. Without errno the square
// roots vectorise, without trapping math both sides of a choice may be computed, and `omp simd`
// vectorises the lanes' loop in every variant; none of these changes a value (IEEE division and
// square root are correctly rounded, and no lane's operations are reordered).
#include "core/algorithms/saddle/shared_binary_rows.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include "core/engine/clipping.h"
#include "core/model/logistic_functions.h"
#include "core/model/logistic_regression.h"
#include "core/util/instruction_set.h"

namespace pfa {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::atomic<bool> oneByOne{false};

/// What one row's lanes read and write.
struct Lanes {
    long count;
    const double* lambda;
    const double* clipTheta;
    const double* clipThetaSquared;
    const double* clipW;
    const double* unitWeight;
    const double* clipLoss;
    const double* clipPenalty;
    const double* hasPenalty;
    double* clipped;
    double* exp;
    double* clips;         ///< per lane: 1 where the row clips in this lane, else 0
    double* lossNorms;     ///< per lane, split clipping: the loss part's norm
    double* penaltyNorms;  ///< per lane, split clipping: the fairness part's norm
};

/// What one row brings: its label, norms, and its cell's tables and masses.
struct RowData {
    double label;
    double squaredNorm;
    double norm;
    const double* gap;        ///< class-weight gaps c_1 − c_0 of the row's cell (0: none)
    const double* distance0;  ///< the W-gradient's norm tables of the cell
    const double* distance1;
    double* cellMass0;  ///< the cell's and block's masses (nullptr: the row is in no cell)
    double* cellMass1;
    double* blockMass0;
    double* blockMass1;
};

/// One row for every lane: scores `z`, gradient coefficients out and, with `kMasses`, the
/// W-stream's masses; with `kSplit`, the loss and fairness parts clipped on their own; with
/// `kUnitWeights`, every lane with a penalty weighs its masses by 1 (the W-player learns from
/// group masses), so no lane needs the W-gradient's norm. Every lane's values are computed as
/// in PerExampleGradients' binary logistic code for its run. A lane's unclipped coefficient is
/// its clipped one with a scale of exactly 1 (1·r = r), so the scales' square roots and
/// divisions are computed only for rows where some lane clips, and then for every lane with
/// both sides of the choice computed and one kept, which the vector units do without a branch.
template <bool kMasses, bool kSplit, bool kUnitWeights>
[[gnu::always_inline]] inline void rowBody(const Lanes& t, const double* __restrict z,
                                           double* __restrict coefficients, const RowData& row) {
    const long count = t.count;
    const double* __restrict lambdas = t.lambda;
    const double* __restrict clipTheta = t.clipTheta;
    const double* __restrict clipThetaSquared = t.clipThetaSquared;
    const double* __restrict clipW = t.clipW;
    const double* __restrict unitWeight = t.unitWeight;
    const double* __restrict clipLoss = t.clipLoss;
    const double* __restrict clipPenalty = t.clipPenalty;
    const double* __restrict hasPenalty = t.hasPenalty;
    double* __restrict clippedRows = t.clipped;
    const double* __restrict gap = row.gap;
    const double* __restrict distance0 = row.distance0;
    const double* __restrict distance1 = row.distance1;
    double* __restrict cellMass0 = row.cellMass0;
    double* __restrict cellMass1 = row.cellMass1;
    double* __restrict blockMass0 = row.blockMass0;
    double* __restrict blockMass1 = row.blockMass1;
    const double label = row.label, squaredNorm = row.squaredNorm, norm = row.norm;
    // σ as the run's own code computes it (tableExps: tableExp's bits, four at a time).
    double* __restrict sigmas = t.exp;
    double* __restrict clips = t.clips;
    double* __restrict lossNorms = t.lossNorms;
    double* __restrict penaltyNorms = t.penaltyNorms;
    sigmoids(z, sigmas, count);
    // The θ-stream's unclipped coefficients, which lanes clip, and the W-stream's masses.
    int anyClipped = 0;
#pragma omp simd reduction(| : anyClipped)
    for (long l = 0; l < count; ++l) {
        const double sigma = sigmas[l];
        const double f0 = 1.0 - sigma;
        const double lambda = lambdas[l];
        if constexpr (kSplit) {
            // Each part clipped on its own; a run with a penalty counts its fairness part's
            // clips, one without its loss part's.
            const double r = sigma - label;
            const double penaltyResidual = gap[l] * f0 * sigma;
            const double lossNorm = std::sqrt(r * r) * norm;
            const double penaltyNorm = lambda * std::sqrt(penaltyResidual * penaltyResidual) * norm;
            lossNorms[l] = lossNorm;
            penaltyNorms[l] = penaltyNorm;
            // Counts as numbers, without a branch: the loop stays vectorised.
            const double lossClipped = laneClips(lossNorm, clipLoss[l]) ? 1.0 : 0.0;
            const double penaltyClipped = laneClips(penaltyNorm, clipPenalty[l]) ? 1.0 : 0.0;
            clippedRows[l] += hasPenalty[l] != 0.0 ? penaltyClipped : lossClipped;
            const double eitherClipped = std::max(lossClipped, penaltyClipped);
            clips[l] = eitherClipped;
            anyClipped |= eitherClipped != 0.0 ? 1 : 0;
            coefficients[l] = r + lambda * penaltyResidual;
        } else {
            const double r = (sigma - label) + lambda * (gap[l] * f0 * sigma);
            const bool clipsTheta =
                laneClipsFromSquared((r * r) * squaredNorm, clipThetaSquared[l]);
            clippedRows[l] += clipsTheta ? 1.0 : 0.0;
            clips[l] = clipsTheta ? 1.0 : 0.0;
            anyClipped |= clipsTheta ? 1 : 0;
            coefficients[l] = r;
        }
        // The W-stream's masses.
        if constexpr (kMasses) {
            double weight;
            if constexpr (kUnitWeights) {
                weight = unitWeight[l];  // 1 with a penalty; a lane without one keeps no masses
            } else {
                const double wSquared =
                    4.0 * ((f0 * f0) * distance0[l] + (sigma * sigma) * distance1[l]);
                const double wNorm = lambda * std::sqrt(wSquared);
                const double clipped = laneClippedWeight(lambda, wNorm, clipW[l]);
                weight = unitWeight[l] != 0.0 ? 1.0 : clipped;
            }
            cellMass0[l] += weight * f0;
            cellMass1[l] += weight * sigma;
            blockMass0[l] += weight * f0;
            blockMass1[l] += weight * sigma;
        }
    }
    if (!anyClipped) return;
    // Some lane clips: the coefficients of each four lanes with one that clips, with their
    // scales, as the runs' own code has them (`count` is a multiple of four).
    for (long l0 = 0; l0 < count; l0 += 4) {
        if (clips[l0] + clips[l0 + 1] + clips[l0 + 2] + clips[l0 + 3] == 0.0) continue;
#pragma omp simd
        for (long l = l0; l < l0 + 4; ++l) {
            if constexpr (kSplit) {
                // The parts as the first loop has them; their norms are kept from there.
                const double sigma = sigmas[l];
                const double r = sigma - label;
                const double penaltyResidual = gap[l] * (1.0 - sigma) * sigma;
                const double lambda = lambdas[l];
                double lossClipped = 0.0, penaltyClipped = 0.0;
                const double lossScale = laneClipScale(lossNorms[l], clipLoss[l], lossClipped);
                const double penaltyFactor =
                    laneClipScale(penaltyNorms[l], clipPenalty[l], penaltyClipped);
                const double penaltyScale = lambda * penaltyFactor;
                coefficients[l] = lossScale * r + penaltyScale * penaltyResidual;
            } else {
                const double r = coefficients[l];
                bool clip = false;
                const double scale = laneClipScaleFromSquared((r * r) * squaredNorm, clipTheta[l],
                                                              clipThetaSquared[l], clip);
                coefficients[l] = scale * r;
            }
        }
    }
}

/// rowBody for a row in a cell or in none, with or without split clipping and unit weights.
[[gnu::always_inline]] inline void rowOfCell(const Lanes& t, bool split, bool unitWeights,
                                             const double* z, double* coefficients,
                                             const RowData& row) {
    if (row.cellMass0) {
        if (split) {
            if (unitWeights) {
                rowBody<true, true, true>(t, z, coefficients, row);
            } else {
                rowBody<true, true, false>(t, z, coefficients, row);
            }
        } else if (unitWeights) {
            rowBody<true, false, true>(t, z, coefficients, row);
        } else {
            rowBody<true, false, false>(t, z, coefficients, row);
        }
    } else if (split) {
        rowBody<false, true, false>(t, z, coefficients, row);
    } else {
        rowBody<false, false, false>(t, z, coefficients, row);
    }
}

void rowBaseline(const Lanes& t, bool split, bool unitWeights, const double* z,
                 double* coefficients, const RowData& row) {
    rowOfCell(t, split, unitWeights, z, coefficients, row);
}

[[gnu::target("avx2")]] void rowAvx2(const Lanes& t, bool split, bool unitWeights, const double* z,
                                     double* coefficients, const RowData& row) {
    rowOfCell(t, split, unitWeights, z, coefficients, row);
}

}  // namespace

void SharedBinaryRows::stepRunsOneByOne(bool oneByOneAsked) {
    oneByOne.store(oneByOneAsked, std::memory_order_relaxed);
}

bool SharedBinaryRows::runsOneByOne() { return oneByOne.load(std::memory_order_relaxed); }

SharedBinaryRows::SharedBinaryRows(const Dataset& train, const DesignMatrix& design,
                                   const PenaltyLayout& layout, int runs)
    : m_train(train), m_design(design), m_layout(layout), m_capacity((runs + 3) / 4 * 4) {
    const auto lanes = static_cast<std::size_t>(m_capacity);
    const auto cells = static_cast<std::size_t>(layout.cells());
    const auto blocks = static_cast<std::size_t>(layout.blocks());
    m_runs.reserve(lanes);
    for (auto* perLane : {&m_lambda, &m_clipTheta, &m_clipThetaSquared, &m_clipW, &m_unitWeight,
                          &m_clipLoss, &m_clipPenalty, &m_hasPenalty, &m_clipped, &m_exp, &m_clips,
                          &m_lossNorms, &m_penaltyNorms, &m_zeros})
        perLane->assign(lanes, 0.0);
    for (auto* perCell : {&m_gap, &m_distance0, &m_distance1, &m_cellMass0, &m_cellMass1})
        perCell->assign(cells * lanes, 0.0);
    for (auto* perBlock : {&m_blockMass0, &m_blockMass1}) perBlock->assign(blocks * lanes, 0.0);
}

bool SharedBinaryRows::applies(const std::vector<const PerExampleGradients*>& runs) {
    if (runs.empty()) return false;
    for (const PerExampleGradients* run : runs) {
        if (!run->m_binaryLogistic || run->m_splitClip != runs.front()->m_splitClip ||
            run->m_lossNeeded || !(run->m_layout == runs.front()->m_layout))
            return false;
    }
    return true;
}

void SharedBinaryRows::begin(const std::vector<PerExampleGradients*>& runs) {
    m_runs = runs;
    m_split = !runs.empty() && runs.front()->m_splitClip;
    m_anyPenalty = std::any_of(runs.begin(), runs.end(),
                               [](const PerExampleGradients* run) { return run->m_penalty; });
    m_lanes = (static_cast<long>(runs.size()) + 3) / 4 * 4;
    m_unitWeights = true;
    const long cells = m_layout.cells();
    for (long l = 0; l < m_lanes; ++l) {
        const PerExampleGradients* run =
            l < static_cast<long>(runs.size()) ? runs[static_cast<std::size_t>(l)] : nullptr;
        const auto lane = static_cast<std::size_t>(l);
        // A lane without a run, a penalty or clipping gets values that change nothing: no
        // fairness term (gap 0), bounds no norm exceeds.
        const bool clipping = run && run->m_clipping.enabled;
        const bool penalty = run && run->m_penalty;
        m_lambda[lane] = run ? run->m_lambda : 0.0;
        m_clipTheta[lane] = clipping ? run->m_clipping.clipTheta : kInfinity;
        m_clipThetaSquared[lane] = clipping ? run->m_clipThetaSquared : kInfinity;
        m_clipW[lane] = clipping ? run->m_clipping.clipW : kInfinity;
        m_unitWeight[lane] = run && run->m_clipping.wFromGroupMasses ? 1.0 : 0.0;
        m_clipLoss[lane] = run && run->m_splitClip ? run->m_clipLoss : kInfinity;
        m_clipPenalty[lane] = run && run->m_splitClip ? run->m_clipPenalty : kInfinity;
        m_hasPenalty[lane] = penalty ? 1.0 : 0.0;
        // Masses of a lane without a penalty are never read (finish()).
        m_unitWeights = m_unitWeights && (!penalty || m_unitWeight[lane] != 0.0);
        m_clipped[lane] = 0.0;
        for (long cell = 0; cell < cells; ++cell) {
            const auto at = static_cast<std::size_t>(cell * m_lanes + l);
            const auto entry = static_cast<std::size_t>(cell);
            m_gap[at] = penalty ? run->m_cellWeightGap[entry] : 0.0;
            m_distance0[at] = penalty ? run->m_cellDistance[2 * entry] : 0.0;
            m_distance1[at] = penalty ? run->m_cellDistance[2 * entry + 1] : 0.0;
        }
    }
    std::fill(m_cellMass0.begin(), m_cellMass0.end(), 0.0);
    std::fill(m_cellMass1.begin(), m_cellMass1.end(), 0.0);
    std::fill(m_blockMass0.begin(), m_blockMass0.end(), 0.0);
    std::fill(m_blockMass1.begin(), m_blockMass1.end(), 0.0);
}

void SharedBinaryRows::addChunk(const std::vector<long>& batch, long c0, long cn,
                                SharedBatchProducts& products) {
    const auto row = avx2Enabled() ? rowAvx2 : rowBaseline;
    const Lanes lanes{m_lanes,
                      m_lambda.data(),
                      m_clipTheta.data(),
                      m_clipThetaSquared.data(),
                      m_clipW.data(),
                      m_unitWeight.data(),
                      m_clipLoss.data(),
                      m_clipPenalty.data(),
                      m_hasPenalty.data(),
                      m_clipped.data(),
                      m_exp.data(),
                      m_clips.data(),
                      m_lossNorms.data(),
                      m_penaltyNorms.data()};
    for (long k = 0; k < cn; ++k) {
        const long i = batch[static_cast<std::size_t>(c0 + k)];
        const int label = m_train.y(i);
        const int cell = m_anyPenalty ? m_layout.cellOf(label, m_train.s(i)) : -1;
        RowData data{static_cast<double>(label),
                     m_design.squaredNorms(i),
                     m_design.norms(i),
                     m_zeros.data(),
                     m_zeros.data(),
                     m_zeros.data(),
                     nullptr,
                     nullptr,
                     nullptr,
                     nullptr};
        if (cell >= 0) {
            // No cell (equal opportunity's other label): no fairness term (a gap of 0) and no
            // mass; else the cell's.
            const long at = cell * m_lanes;
            const long block = m_layout.blockOfCell(cell) * m_lanes;
            data.gap = m_gap.data() + at;
            data.distance0 = m_distance0.data() + at;
            data.distance1 = m_distance1.data() + at;
            data.cellMass0 = m_cellMass0.data() + at;
            data.cellMass1 = m_cellMass1.data() + at;
            data.blockMass0 = m_blockMass0.data() + block;
            data.blockMass1 = m_blockMass1.data() + block;
        }
        row(lanes, m_split, m_unitWeights, products.scoresOfRow(k), products.coefficientsOfRow(k),
            data);
    }
}

void SharedBinaryRows::finish() {
    for (std::size_t r = 0; r < m_runs.size(); ++r) {
        PerExampleGradients& run = *m_runs[r];
        run.m_totals.clipped += static_cast<long>(m_clipped[r]);
        if (!run.m_penalty) continue;
        for (int cell = 0; cell < m_layout.cells(); ++cell) {
            const auto at = static_cast<std::size_t>(cell * m_lanes) + r;
            run.m_penalty->setCellMass(cell, 0, m_cellMass0[at]);
            run.m_penalty->setCellMass(cell, 1, m_cellMass1[at]);
        }
        for (int block = 0; block < m_layout.blocks(); ++block) {
            const auto at = static_cast<std::size_t>(block * m_lanes) + r;
            run.m_penalty->setBlockMass(block, 0, m_blockMass0[at]);
            run.m_penalty->setBlockMass(block, 1, m_blockMass1[at]);
        }
    }
}

}  // namespace pfa
