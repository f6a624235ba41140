#pragma once

#include <vector>

namespace pfa::diff2 {

/// One pass of the softplus network (GradientModel's MLP: H = kHiddenUnits units) over rows,
/// and, when asked, the round's clipped weighted sum of the records' gradients, computed a block
/// of rows at a time so that everything a row needs stays in the first-level cache: its
/// activations, score, loss derivative r_i, the back-propagated δ_ij = (sigmoid(a_ij)·r_i)·w2_j,
/// its gradient's norm (or its gradient difference's, from the factors of the previous iterate),
/// its clipped coefficient and its share of the sum. No rows × parameters or rows × units matrix
/// is formed beyond the factors the next round reads.
///
/// Every value is fixed by the rows' order alone: a_ij and the score are summed over features
/// and units in order, and each entry of the sum over rows is four running sums (rows 4q + l into
/// sum l), added pairwise at the end. So the results do not depend on the instruction set (an
/// AVX2 form is chosen at run time, the same bits as the baseline one) nor on the block size.
struct NetworkRows {
    // The network: W1 (H × d, row-major), b1 (H), w2 (H), b2.
    const double* W1 = nullptr;
    const double* b1 = nullptr;
    const double* w2 = nullptr;
    double b2 = 0.0;
    long features = 0;  ///< d
    // The rows: n rows of d features, row i at X + i·stride.
    const double* X = nullptr;
    long stride = 0;
    long rows = 0;
    /// Targets (regression value, or class 0/1); null: only the scores are computed.
    const double* y = nullptr;
    bool logistic = false;  ///< logistic loss on the score, else squared loss

    // Outputs, each optional (null: not computed or not kept).
    double* scores = nullptr;  ///< the network's output per row
    double* loss = nullptr;    ///< ℓ(x; z_i): ½(s − y)², or log(1 + e^s) − y·s
    double* r = nullptr;       ///< ∂ℓ/∂s per row (needs y)
    /// h_ij and δ_ij, column-major rows × H with leading dimension `leading` (needs y).
    double* hidden = nullptr;
    double* delta = nullptr;
    long leading = 0;

    // The clipped weighted sum agg = Σ_i coef_i·(g_i − g'_i) (needs r, hidden and delta):
    // g'_i from the factors `rBefore`, `hiddenBefore`, `deltaBefore` (same layout), or 0 where
    // they are null; coef_i = weight_i·min(1, bound/‖g_i − g'_i‖) (the engine's
    // clippedCoefficients). `agg` null: no sum.
    const double* rBefore = nullptr;
    const double* hiddenBefore = nullptr;
    const double* deltaBefore = nullptr;
    const double* inputNormsSquared = nullptr;  ///< ‖x_i‖² + 1
    const double* weight = nullptr;
    double bound = 0.0;       ///< +∞: no clipping
    double* norms = nullptr;  ///< out: each record's norm
    double* coef = nullptr;   ///< out: each record's coefficient
    /// out: [W1 (H × d, row-major), b1, w2, b2], the parameters' layout.
    double* agg = nullptr;
};

/// The buffers of networkRows for rows of `features` features, allocated once (a job with
/// another number of features allocates them again).
class NetworkScratch {
public:
    explicit NetworkScratch(long features = 0) { reset(features); }
    NetworkScratch(const NetworkScratch&) = delete;
    NetworkScratch& operator=(const NetworkScratch&) = delete;
    long features() const { return m_features; }

    /// The arrays of one block (see network_rows.cpp): its work, and where the job has no
    /// array of its own or the block needs padding.
    struct Buffers {
        double *inputs, *in, *exp, *onePlus, *sigmoid, *dDelta, *dOutput, *sumDelta, *sumOutput,
            *dr, *scoreExp, *scoreOnePlus, *zeros, *sums;
        double *y, *weight, *inputNorms, *rBefore, *hiddenBefore, *deltaBefore, *scores, *loss, *r,
            *hidden, *delta, *norms, *coef;
    };

private:
    friend long networkRows(const NetworkRows& job, NetworkScratch& scratch);
    void reset(long features);

    long m_features = 0;
    std::vector<double> m_storage;
    Buffers m_buffers{};
};

/// Runs `job` (see NetworkRows); returns how many records were clipped (0 without a sum).
long networkRows(const NetworkRows& job, NetworkScratch& scratch);

}  // namespace pfa::diff2
