#pragma once

#include <vector>

#include "core/algorithms/saddle/per_example_gradients.h"

namespace pfa {

/// The per-row work of binary logistic runs that share a batch (each run's
/// PerExampleGradients::addSharedChunk), done for all of them at once: run r is lane r, and
/// every step of a row — σ(z), the residual, the fairness term, the clip scale, the gradient
/// coefficient and the W-stream's masses — is one vector operation over the runs, with each
/// run's own λ, clip bounds and per-cell class weights in its lane. Each lane computes what
/// accumulateBinaryRows computes for its run, by the same operations in the same order (e^x
/// by tableExps in both), so every run's sums are bit for bit the same. Runs without a
/// penalty (λ = 0) or without clipping take neutral values in their lanes (a class-weight gap
/// of 0, an infinite bound), which leave their numbers as they are. All buffers are
/// allocated at construction; no batch allocates.
class SharedBinaryRows {
public:
    /// For up to `runs` runs on the rows of `train` (its design `design`), with the cells of
    /// `layout`; references all three.
    SharedBinaryRows(const Dataset& train, const DesignMatrix& design, const PenaltyLayout& layout,
                     int runs);

    /// Whether `runs` can be stepped here: binary logistic regression, the same cells, all or
    /// none with split clipping, and no batch loss to report.
    static bool applies(const std::vector<const PerExampleGradients*>& runs);

    /// Starts a batch of `runs` (lane r is run r, whose score is column r of the products),
    /// after each run's begin(): reads their settings and per-cell tables.
    void begin(const std::vector<PerExampleGradients*>& runs);
    /// Rows [first, first + count) of `batch`, whose scores `products` computed (forward): sets
    /// every run's gradient coefficients and adds its W-stream masses.
    void addChunk(const std::vector<long>& batch, long first, long count,
                  SharedBatchProducts& products);
    /// Ends the batch: each run's penalty receives its masses and its totals the clipped rows.
    void finish();

    /// For tests: step every run on its own (PerExampleGradients::addSharedChunk) instead,
    /// which must give the same bits; or again here.
    static void stepRunsOneByOne(bool oneByOne);
    /// Whether tests asked for stepRunsOneByOne.
    static bool runsOneByOne();

private:
    const Dataset& m_train;
    const DesignMatrix& m_design;
    const PenaltyLayout m_layout;
    long m_capacity;  // lanes allocated (runs rounded up to a multiple of 4)
    long m_lanes = 0;
    std::vector<PerExampleGradients*> m_runs;
    // Per lane.
    std::vector<double> m_lambda, m_clipTheta, m_clipThetaSquared, m_clipW, m_unitWeight;
    std::vector<double> m_clipLoss, m_clipPenalty, m_hasPenalty;  // split clipping
    bool m_split = false;           // the batch's runs clip their two parts on their own
    bool m_anyPenalty = false;      // a run of the batch has a fairness penalty (rows need cells)
    bool m_unitWeights = false;     // every run with a penalty weighs its masses by 1
    std::vector<double> m_clipped;  // counts, exact in a double
    // Per cell (or block) and lane.
    std::vector<double> m_gap, m_distance0, m_distance1;
    std::vector<double> m_cellMass0, m_cellMass1, m_blockMass0, m_blockMass1;
    // Per lane, one row at a time.
    std::vector<double> m_exp, m_clips, m_lossNorms, m_penaltyNorms;
    std::vector<double> m_zeros;  // a row in no cell: no class-weight gap
};

}  // namespace pfa
