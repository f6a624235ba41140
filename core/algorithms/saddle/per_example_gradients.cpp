#include "core/algorithms/saddle/per_example_gradients.h"

#include <algorithm>
#include <cmath>

#include "core/engine/clipping.h"
#include "core/model/logistic_functions.h"
#include "core/model/logistic_regression.h"

namespace pfa {

namespace {
/// How many rows ahead of the forward pass to prefetch.
constexpr long kPrefetchRows = 4;
}  // namespace

PerExampleGradients::PerExampleGradients(const Dataset& train, const DesignMatrix& design,
                                         const Model& model, const PenaltyLayout& layout,
                                         double lambda, const PerExampleClipping& clipping)
    : m_train(train),
      m_design(design),
      m_model(model),
      m_layout(layout),
      m_lambda(lambda),
      m_clipping(clipping),
      m_clipThetaSquared(clipping.clipTheta * clipping.clipTheta),
      m_clipLoss(clipping.lossClipShare * clipping.clipTheta),
      m_clipPenalty((1.0 - clipping.lossClipShare) * clipping.clipTheta),
      m_splitClip(clipping.enabled && clipping.lossClipShare > 0.0),
      m_Z(kChunkRows, model.scoreDimension()),
      m_F(kChunkRows, model.classes()),
      m_residual(kChunkRows, model.scoreDimension()),
      m_classWeights(kChunkRows, model.classes()),
      m_penaltyResidual(kChunkRows, model.scoreDimension()),
      m_loss(kChunkRows),
      m_sigmas(kChunkRows),
      m_batchLabels(kChunkRows),
      m_batchCells(static_cast<std::size_t>(kChunkRows), -1),
      m_binaryLogistic(dynamic_cast<const LogisticRegression*>(&model) != nullptr),
      m_cellWeightGap(static_cast<std::size_t>(layout.cells())),
      m_cellDistance(static_cast<std::size_t>(2 * layout.cells())) {}

void PerExampleGradients::begin(const RowMatrix& theta, ErmiPenalty* penalty,
                                RowMatrix& gradTheta) {
    m_theta = &theta;
    m_penalty = penalty;
    m_gradTheta = &gradTheta;
    m_totals = {};
    gradTheta.setZero();
    if (!penalty) return;
    penalty->beginAccumulation();
    if (!m_binaryLogistic) return;
    // What accumulateBinaryRows reads per cell, fixed while W is (during the batch).
    Eigen::RowVector2d weights;
    for (int cell = 0; cell < m_layout.cells(); ++cell) {
        penalty->classWeights(cell, weights);
        m_cellWeightGap[static_cast<std::size_t>(cell)] = weights(1) - weights(0);
        for (int j = 0; j < 2; ++j)
            m_cellDistance[static_cast<std::size_t>(2 * cell + j)] =
                penalty->gradientDistance(cell, j);
    }
}

void PerExampleGradients::addChunk(const std::vector<long>& batch, long b, long c0, long cn) {
    const int p = m_model.scoreDimension();
    const RowMatrix& X = m_design.X();
    const RowMatrix& theta = *m_theta;
    // Rows are processed in small chunks so that each row is still in cache when its
    // gradient is accumulated right after its forward pass (one memory pass per batch).
    // Chunk row k holds batch position c0 + k.
    // Forward: z_i = Θ x̃_i, prefetching the scattered rows of the batch a few ahead. One-hot
    // rows are read by their nonzero entries, in the arithmetic of runs that share batches.
    if (const SparseRows* sparse = m_design.sparseRows()) {
        for (long bi = c0; bi < c0 + cn; ++bi) {
            // Short rows leave the scattered reads' latency to hide: first where each row
            // starts and its label, group and norm, then (rows later) its entries.
            if (bi + 2 * kPrefetchRows < b) {
                const long ahead = batch[static_cast<std::size_t>(bi + 2 * kPrefetchRows)];
                __builtin_prefetch(sparse->start.data() + ahead);
                __builtin_prefetch(m_train.y.data() + ahead);
                __builtin_prefetch(m_train.s.data() + ahead);
                __builtin_prefetch(m_design.squaredNorms.data() + ahead);
            }
            if (bi + kPrefetchRows < b)
                prefetchSparseRow(*sparse, batch[static_cast<std::size_t>(bi + kPrefetchRows)]);
            m_batchLabels(bi - c0) = m_train.y(batch[static_cast<std::size_t>(bi)]);
        }
        for (int a = 0; a < p; ++a) {
            sparseRowScores(*sparse, batch.data() + c0, 0, cn, theta.row(a).data(), m_Z.data() + a,
                            m_Z.cols());
        }
        accumulateChunk(batch, c0, cn, nullptr, 0);
        return;
    }
    for (long bi = c0; bi < c0 + cn; ++bi) {
        if (bi + kPrefetchRows < b)
            prefetchRow(X, batch[static_cast<std::size_t>(bi + kPrefetchRows)]);
        const long i = batch[static_cast<std::size_t>(bi)];
        for (int a = 0; a < p; ++a) m_Z(bi - c0, a) = X.row(i).dot(theta.row(a));
        m_batchLabels(bi - c0) = m_train.y(i);
    }
    accumulateChunk(batch, c0, cn, nullptr, 0);
}

void PerExampleGradients::addSharedChunk(const std::vector<long>& batch, long c0, long cn,
                                         SharedBatchProducts& products, int column) {
    const int p = m_model.scoreDimension();
    for (long bi = c0; bi < c0 + cn; ++bi) {
        for (int a = 0; a < p; ++a) m_Z(bi - c0, a) = products.score(bi - c0, column + a);
        m_batchLabels(bi - c0) = m_train.y(batch[static_cast<std::size_t>(bi)]);
    }
    accumulateChunk(batch, c0, cn, &products, column);
}

void PerExampleGradients::accumulateChunk(const std::vector<long>& batch, long c0, long cn,
                                          SharedBatchProducts* products, int column) {
    if (m_binaryLogistic) {
        accumulateBinaryChunk(batch, c0, cn, products, column);
        return;
    }
    const int p = m_model.scoreDimension();
    const RowMatrix& X = m_design.X();
    const SparseRows* sparse = m_design.sparseRows();
    ErmiPenalty* penalty = m_penalty;
    RowMatrix& gradTheta = *m_gradTheta;
    const double lambda = m_lambda;
    BatchTotals& totals = m_totals;
    // The θ-contribution coefficient·x̃_iᵀ of row bi to score a: added here, or handed to the
    // shared products, which add it in the same arithmetic.
    const auto add = [&](long bi, long i, int a, double coefficient) {
        if (products) {
            products->setCoefficient(bi - c0, column + a, coefficient);
        } else if (sparse) {
            addSparseRow(*sparse, i, coefficient, gradTheta.row(a).data());
        } else {
            gradTheta.row(a) += coefficient * X.row(i);
        }
    };
    auto Zc = m_Z.topRows(cn);
    auto Fc = m_F.topRows(cn);
    auto Rc = m_residual.topRows(cn);
    m_model.probabilities(Zc, Fc);
    if (m_lossNeeded) {
        m_model.lossAndScoreGradient(Zc, Fc, m_batchLabels.head(cn), m_loss.head(cn), Rc);
        totals.lossSum += m_loss.head(cn).sum();
    } else {
        m_model.scoreGradient(Fc, m_batchLabels.head(cn), Rc);
    }

    if (penalty) {
        for (long bi = c0; bi < c0 + cn; ++bi) {
            const long i = batch[static_cast<std::size_t>(bi)];
            const int cell = m_layout.cellOf(m_train.y(i), m_train.s(i));
            m_batchCells[static_cast<std::size_t>(bi - c0)] = cell;
            if (cell >= 0) {
                penalty->classWeights(cell, m_classWeights.row(bi - c0));
            } else {
                m_classWeights.row(bi - c0).setZero();
            }
        }
        m_model.weightedProbabilityScoreGradient(Fc, m_classWeights.topRows(cn),
                                                 m_penaltyResidual.topRows(cn));
        // Split clipping keeps the two parts apart until each row is clipped.
        if (!m_splitClip) Rc += lambda * m_penaltyResidual.topRows(cn);
    }

    // θ-stream: Σ_i κ_i r_i x̃_iᵀ with κ_i = min(1, C_θ/(‖r_i‖·‖x̃_i‖)).
    for (long bi = c0; bi < c0 + cn; ++bi) {
        const long i = batch[static_cast<std::size_t>(bi)];
        double scale = 1.0;
        if (m_splitClip) {
            // ‖r x̃ᵀ‖_F = ‖r‖·‖x̃‖ for each part; the sum of the two clipped parts has norm
            // ≤ C_θ, so the sensitivity and the noise are unchanged.
            const double lossNorm = m_residual.row(bi - c0).norm() * m_design.norms(i);
            double lossScale = 1.0;
            const bool lossClipped = clipScale(lossNorm, m_clipLoss, lossScale);
            double penaltyScale = 0.0;
            if (penalty) {
                const double penaltyNorm =
                    lambda * m_penaltyResidual.row(bi - c0).norm() * m_design.norms(i);
                double penaltyFactor = 1.0;
                totals.clipped += clipScale(penaltyNorm, m_clipPenalty, penaltyFactor);
                penaltyScale = lambda * penaltyFactor;
            } else if (lossClipped) {
                ++totals.clipped;
            }
            for (int a = 0; a < p; ++a) {
                const double combined =
                    lossScale * m_residual(bi - c0, a) +
                    (penalty ? penaltyScale * m_penaltyResidual(bi - c0, a) : 0.0);
                // Through `add` like every other row: in a shared pass the products add it (a
                // row added here would be overwritten by their sums).
                add(bi, i, a, combined);
            }
            continue;
        }
        if (m_clipping.enabled) {
            // Compare squares; the square root is only needed for clipped rows.
            const double squared = m_residual.row(bi - c0).squaredNorm() * m_design.squaredNorms(i);
            totals.clipped +=
                clipScaleFromSquared(squared, m_clipping.clipTheta, m_clipThetaSquared, scale);
        }
        for (int a = 0; a < p; ++a) add(bi, i, a, scale * m_residual(bi - c0, a));
    }

    // W-stream: Σ_i κ'_i λ ∇_W ψ_i with κ'_i = min(1, C_W/‖λ∇_W ψ_i‖), or the unit masses.
    if (penalty) {
        for (long bi = c0; bi < c0 + cn; ++bi) {
            const int cell = m_batchCells[static_cast<std::size_t>(bi - c0)];
            if (cell < 0) continue;
            if (m_clipping.wFromGroupMasses) {
                // Unit weights: each row adds F_i (‖F_i‖ ≤ 1) to its cell's mass.
                penalty->accumulate(cell, m_F.row(bi - c0), 1.0);
                continue;
            }
            double weight = lambda;
            if (m_clipping.enabled) {
                const double norm =
                    lambda * std::sqrt(penalty->wGradientNormSquared(cell, m_F.row(bi - c0)));
                weight = clippedWeight(lambda, norm, m_clipping.clipW);
            }
            penalty->accumulate(cell, m_F.row(bi - c0), weight);
        }
    }
}

void PerExampleGradients::accumulateBinaryChunk(const std::vector<long>& batch, long c0, long cn,
                                                SharedBatchProducts* products, int column) {
    if (!m_splitClip) {
        accumulateBinaryRows(batch, c0, cn, products, column);
        return;
    }
    // accumulateChunk for binary logistic regression (one score, two classes) on plain
    // numbers: every value is computed by the same operations in the same order as there, so
    // the sums are bit for bit the same; only the small-matrix bookkeeping per row is gone.
    const RowMatrix& X = m_design.X();
    const SparseRows* sparse = m_design.sparseRows();
    ErmiPenalty* penalty = m_penalty;
    RowMatrix& gradTheta = *m_gradTheta;
    const double lambda = m_lambda;
    BatchTotals& totals = m_totals;
    double* F = m_F.data();  // row k: F[2k] = 1 − σ, F[2k + 1] = σ
    double* R = m_residual.data();
    double* penaltyResidual = m_penaltyResidual.data();
    const auto add = [&](long k, long i, double coefficient) {
        if (products) {
            products->setCoefficient(k, column, coefficient);
        } else if (sparse) {
            addSparseRow(*sparse, i, coefficient, gradTheta.data());
        } else {
            gradTheta.row(0) += coefficient * X.row(i);
        }
    };
    // Probabilities and score gradient (LogisticRegression's).
    for (long k = 0; k < cn; ++k) {
        const double sigma = sigmoid(m_Z(k, 0));
        F[2 * k] = 1.0 - sigma;
        F[2 * k + 1] = sigma;
    }
    if (m_lossNeeded) {
        auto Zc = m_Z.topRows(cn);
        auto Fc = m_F.topRows(cn);
        m_model.lossAndScoreGradient(Zc, Fc, m_batchLabels.head(cn), m_loss.head(cn),
                                     m_residual.topRows(cn));
        totals.lossSum += m_loss.head(cn).sum();
    } else {
        for (long k = 0; k < cn; ++k) R[k] = F[2 * k + 1] - static_cast<double>(m_batchLabels(k));
    }

    if (penalty) {
        Eigen::RowVector2d weights;
        for (long k = 0; k < cn; ++k) {
            const long i = batch[static_cast<std::size_t>(c0 + k)];
            const int cell = m_layout.cellOf(m_train.y(i), m_train.s(i));
            m_batchCells[static_cast<std::size_t>(k)] = cell;
            if (cell >= 0) {
                penalty->classWeights(cell, weights);
            } else {
                weights.setZero();
            }
            // Σ_j c_j ∂F_j/∂z = (c_1 − c_0)·σ(1 − σ).
            penaltyResidual[k] = (weights(1) - weights(0)) * F[2 * k] * F[2 * k + 1];
        }
    }

    // θ-stream, each part clipped on its own.
    for (long k = 0; k < cn; ++k) {
        const long i = batch[static_cast<std::size_t>(c0 + k)];
        const double lossNorm = std::sqrt(R[k] * R[k]) * m_design.norms(i);
        double lossScale = 1.0;
        const bool lossClipped = clipScale(lossNorm, m_clipLoss, lossScale);
        double penaltyScale = 0.0;
        if (penalty) {
            const double penaltyNorm =
                lambda * std::sqrt(penaltyResidual[k] * penaltyResidual[k]) * m_design.norms(i);
            double penaltyFactor = 1.0;
            totals.clipped += clipScale(penaltyNorm, m_clipPenalty, penaltyFactor);
            penaltyScale = lambda * penaltyFactor;
        } else if (lossClipped) {
            ++totals.clipped;
        }
        add(k, i, lossScale * R[k] + (penalty ? penaltyScale * penaltyResidual[k] : 0.0));
    }

    // W-stream, as accumulateChunk's.
    if (penalty) {
        for (long k = 0; k < cn; ++k) {
            const int cell = m_batchCells[static_cast<std::size_t>(k)];
            if (cell < 0) continue;
            const Eigen::RowVector2d probabilities(F[2 * k], F[2 * k + 1]);
            if (m_clipping.wFromGroupMasses) {
                penalty->accumulate(cell, probabilities, 1.0);
                continue;
            }
            double weight = lambda;
            if (m_clipping.enabled) {
                const double norm =
                    lambda * std::sqrt(penalty->wGradientNormSquared(cell, probabilities));
                weight = clippedWeight(lambda, norm, m_clipping.clipW);
            }
            penalty->accumulate(cell, probabilities, weight);
        }
    }
}

void PerExampleGradients::accumulateBinaryRows(const std::vector<long>& batch, long c0, long cn,
                                               SharedBatchProducts* products, int column) {
    // accumulateChunk for binary logistic regression without split clipping, one row at a time
    // on plain numbers: every value is computed by the same operations as there (the class
    // weights of each cell once per batch, as W is fixed during it), so the sums are bit for
    // bit the same.
    const RowMatrix& X = m_design.X();
    const SparseRows* sparse = m_design.sparseRows();
    ErmiPenalty* penalty = m_penalty;
    const double lambda = m_lambda;
    const bool clip = m_clipping.enabled;
    const bool unitWeights = m_clipping.wFromGroupMasses;
    long clipped = 0;
    double* F = m_F.data();  // row k: F[2k] = 1 − σ, F[2k + 1] = σ
    double* R = m_residual.data();
    double* gradient = m_gradTheta->data();
    // The chunk's σ(z) at once (its exps four at a time), as the lanes compute them.
    sigmoids(m_Z.data(), m_sigmas.data(), cn);
    for (long k = 0; k < cn; ++k) {
        const long i = batch[static_cast<std::size_t>(c0 + k)];
        const int label = m_batchLabels(k);
        const double sigma = m_sigmas(k);
        const double f0 = 1.0 - sigma;
        F[2 * k] = f0;
        F[2 * k + 1] = sigma;
        double r = sigma - static_cast<double>(label);
        if (m_lossNeeded) {
            // The clamped probability of the row's class; its log for the whole chunk below.
            const double clamped = std::clamp(sigma, LogisticRegression::kProbabilityFloor,
                                              1.0 - LogisticRegression::kProbabilityFloor);
            m_loss(k) = label == 1 ? clamped : 1.0 - clamped;
        }
        int cell = -1;
        if (penalty) {
            cell = m_layout.cellOf(label, m_train.s(i));
            // Σ_j c_j ∂F_j/∂z = (c_1 − c_0)·σ(1 − σ); no class weights outside the cells.
            const double gap = cell >= 0 ? m_cellWeightGap[static_cast<std::size_t>(cell)] : 0.0;
            r += lambda * (gap * f0 * sigma);
        }
        R[k] = r;
        // θ-stream: κ_i r_i x̃_i with κ_i = min(1, C_θ/(|r_i|·‖x̃_i‖)).
        double scale = 1.0;
        if (clip) {
            clipped += clipScaleFromSquared((r * r) * m_design.squaredNorms(i),
                                            m_clipping.clipTheta, m_clipThetaSquared, scale);
        }
        const double coefficient = scale * r;
        if (products) {
            products->setCoefficient(k, column, coefficient);
        } else if (sparse) {
            addSparseRow(*sparse, i, coefficient, gradient);
        } else {
            m_gradTheta->row(0) += coefficient * X.row(i);
        }
        // W-stream: κ'_i λ ∇_W ψ_i with κ'_i = min(1, C_W/‖λ∇_W ψ_i‖), or the unit masses.
        if (cell < 0) continue;
        if (unitWeights) {
            penalty->accumulateTwoClasses(cell, f0, sigma, 1.0);
            continue;
        }
        double weight = lambda;
        if (clip) {
            // wGradientNormSquared: 4·Σ_j F_j²·D[cell, j].
            const double* distance = &m_cellDistance[static_cast<std::size_t>(2 * cell)];
            const double squared = 4.0 * ((f0 * f0) * distance[0] + (sigma * sigma) * distance[1]);
            weight = clippedWeight(lambda, lambda * std::sqrt(squared), m_clipping.clipW);
        }
        penalty->accumulateTwoClasses(cell, f0, sigma, weight);
    }
    m_totals.clipped += clipped;
    // The batch loss (a diagnostic, never released) in SIMD, as the Evaluator computes it:
    // the row loop's value up to round-off.
    if (m_lossNeeded) m_totals.lossSum -= m_loss.head(cn).array().log().sum();
}

}  // namespace pfa
