#pragma once

#include <Eigen/Core>
#include <vector>

#include "core/algorithms/saddle/per_example_clipping.h"
#include "core/data/dataset.h"
#include "core/engine/design_matrix.h"
#include "core/engine/shared_batch_products.h"
#include "core/fairness/ermi_penalty.h"
#include "core/fairness/penalty_layout.h"
#include "core/model/model.h"

namespace pfa {

/// What one batch's accumulation reports besides the sums.
struct BatchTotals {
    double lossSum = 0.0;  ///< Σ ℓ_i over the batch rows (a diagnostic)
    long clipped = 0;      ///< rows whose θ-contribution was clipped
};

/// The per-unit gradient step of the saddle-point trainers: for the rows of a batch, the
/// forward pass, the per-row θ-gradients of ℓ_i + λ·ψ_i (clipped from ‖r_i‖·‖x̃_i‖ without
/// materialising them) summed into a p × (d+1) matrix, and the per-row W-contributions summed
/// into the penalty's accumulator. Vectorised per chunk of rows; the buffers hold one chunk
/// (kChunkRows rows) and are allocated at construction, so no batch allocates.
///
/// A batch is begin(), then addChunk() (or addSharedChunk()) for each chunk in order, then
/// totals(): runs that share a batch (runSaddlePointGroup) interleave their chunks, so each
/// chunk of rows is read from memory once for all of them while it is in cache. A run's sums
/// are bit for bit the same whether its chunks are interleaved with other runs' or not.
class PerExampleGradients {
public:
    /// Rows per chunk: the shared products' chunk (32 rows of ~100 features stay in L1/L2
    /// between the forward and the backward pass, and across the runs that share a batch).
    static constexpr long kChunkRows = SharedBatchProducts::kChunkRows;

    /// References `train`, `design`, `model` and `layout`; they must outlive this object.
    PerExampleGradients(const Dataset& train, const DesignMatrix& design, const Model& model,
                        const PenaltyLayout& layout, double lambda,
                        const PerExampleClipping& clipping);

    /// Starts a batch: zeroes `gradTheta` and restarts the penalty's accumulation. `theta`,
    /// `penalty` and `gradTheta` must stay valid until the batch's last addChunk.
    void begin(const RowMatrix& theta, ErmiPenalty* penalty, RowMatrix& gradTheta);
    /// Adds rows [first, first + count) of the `size` rows in `batch` (count ≤ kChunkRows).
    void addChunk(const std::vector<long>& batch, long size, long first, long count);
    /// Like addChunk, for a run whose batch is shared with other runs: its scores are read from
    /// `products` (columns column … column + p − 1, after products.forward of the chunk) and
    /// its θ-contributions are handed back to them as coefficients (products.backward adds
    /// them), in the same arithmetic for every run of the pass. The W-stream is this run's.
    void addSharedChunk(const std::vector<long>& batch, long first, long count,
                        SharedBatchProducts& products, int column);
    /// Whether BatchTotals::lossSum is computed (true unless set off: nobody shows it).
    void setLossNeeded(bool needed) { m_lossNeeded = needed; }
    /// What the batch's chunks so far reported.
    const BatchTotals& totals() const { return m_totals; }

private:
    friend class SharedBinaryRows;

    /// The chunk's rows from their scores (in m_Z) on: losses, penalty, clipping, the
    /// θ-contributions (added, or handed to `products`) and the W-stream.
    void accumulateChunk(const std::vector<long>& batch, long first, long count,
                         SharedBatchProducts* products, int column);
    /// accumulateChunk for binary logistic regression, bit for bit, without the per-row
    /// small-matrix expressions: with split clipping here, otherwise accumulateBinaryRows.
    void accumulateBinaryChunk(const std::vector<long>& batch, long first, long count,
                               SharedBatchProducts* products, int column);

    const Dataset& m_train;
    /// accumulateBinaryChunk without split clipping: one pass over the chunk's rows.
    void accumulateBinaryRows(const std::vector<long>& batch, long first, long count,
                              SharedBatchProducts* products, int column);

    const DesignMatrix& m_design;
    const Model& m_model;
    const PenaltyLayout& m_layout;
    double m_lambda;
    PerExampleClipping m_clipping;
    double m_clipThetaSquared;
    double m_clipLoss, m_clipPenalty;
    bool m_splitClip;
    bool m_lossNeeded = true;
    // The current batch (begin … addChunk).
    const RowMatrix* m_theta = nullptr;
    ErmiPenalty* m_penalty = nullptr;
    RowMatrix* m_gradTheta = nullptr;
    BatchTotals m_totals;
    // One chunk of rows.
    RowMatrix m_Z, m_F, m_residual, m_classWeights, m_penaltyResidual;
    Eigen::VectorXd m_loss;
    Eigen::VectorXd m_sigmas;  // σ(z) of a chunk's rows (binary logistic)
    Eigen::VectorXi m_batchLabels;
    std::vector<int> m_batchCells;
    bool m_binaryLogistic;  ///< the model is LogisticRegression: accumulateBinaryChunk
    // Per cell, for the current batch (binary logistic regression with a penalty): c_1 − c_0
    // of its class weights, and D[cell, 0 … 1] of the W-gradient's norm.
    std::vector<double> m_cellWeightGap, m_cellDistance;
};

}  // namespace pfa
