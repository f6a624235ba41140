#include "core/engine/evaluator.h"

#include <Eigen/QR>
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>

#include "core/engine/run_streams.h"
#include "core/engine/shared_batch_products.h"
#include "core/engine/vector_math.h"
#include "core/fairness/ermi.h"
#include "core/model/logistic_regression.h"
#include "core/util/recent_results.h"

namespace pfa {

Evaluator::Evaluator(const Dataset& data, const DesignMatrix& design, const Model& model)
    : m_data(data),
      m_design(design),
      m_model(model),
      m_Z(data.rows(), model.scoreDimension()),
      m_F(data.rows(), model.classes()),
      m_loss(data.rows()),
      m_scoreGradient(data.rows(), model.scoreDimension()),
      m_predicted(data.rows()),
      m_binaryLogistic(dynamic_cast<const LogisticRegression*>(&model) != nullptr) {
    if (m_binaryLogistic) {
        m_sigma.resize(data.rows());
        m_labels = data.y.cast<double>();
    }
}

double Evaluator::meanLoss(const RowMatrix& theta) {
    if (m_data.rows() == 0) return std::numeric_limits<double>::quiet_NaN();
    score(theta);
    return meanLossOfScores();
}

void Evaluator::predict(const RowMatrix& theta) {
    if (m_data.rows() == 0) return;
    score(theta);
    predictFromScores();
}

void Evaluator::predictFromScores() {
    if (m_data.rows() == 0) return;
    if (!m_binaryLogistic) {
        m_model.probabilities(m_Z, m_F);
        Model::predict(m_F, m_predicted);
        return;
    }
    vector_math::logisticProbabilities(m_Z.data(), m_Z.rows(), m_sigma.data());
    predictBinary();
}

void Evaluator::score(const RowMatrix& theta) {
    if (const SparseRows* sparse = m_design.sparseRows()) {
        // One-hot rows: their nonzero entries, in the arithmetic of runs trained together.
        for (Eigen::Index a = 0; a < theta.rows(); ++a) {
            sparseRowScores(*sparse, nullptr, 0, static_cast<long>(m_Z.rows()), theta.row(a).data(),
                            m_Z.data() + a, static_cast<long>(m_Z.cols()));
        }
    } else {
        m_Z.noalias() = m_design.X() * theta.transpose();
    }
}

double Evaluator::meanLossOfScores() {
    if (m_data.rows() == 0) return std::numeric_limits<double>::quiet_NaN();
    if (m_binaryLogistic) return binaryLogisticMeanLoss();
    m_model.probabilities(m_Z, m_F);
    m_model.lossAndScoreGradient(m_Z, m_F, m_data.y, m_loss, m_scoreGradient);
    Model::predict(m_F, m_predicted);
    return m_loss.mean();
}

double Evaluator::binaryLogisticMeanLoss() {
    // The metrics of every row at once in SIMD (vectorised exp and log, no select: it would
    // fall back to scalar code): the same quantities as LogisticRegression's row loop up to
    // round-off, which training keeps for its bits.
    vector_math::logisticProbabilitiesAndLosses(m_Z.data(), m_labels.data(), m_Z.rows(),
                                                LogisticRegression::kProbabilityFloor,
                                                m_sigma.data(), m_loss.data());
    predictBinary();
    return m_loss.mean();
}

void Evaluator::predictBinary() {
    // The probabilities (1 − σ, σ) are formed only for softErmi(): fairness() counts from σ.
    m_predicted = (m_sigma.array() >= 0.5).cast<int>().matrix();
}

FairnessMetrics Evaluator::fairness(int advantagedClass) const {
    if (m_binaryLogistic) {
        return evaluateBinaryFairness(m_sigma, m_data.y, m_data.s, m_data.groupNames,
                                      advantagedClass);
    }
    return evaluateFairness(m_predicted, m_F, m_data.y, m_data.s, m_data.groupNames,
                            m_data.numClasses(), advantagedClass);
}

double Evaluator::softErmi(FairnessNotion notion, int advantagedClass) const {
    if (m_binaryLogistic) {
        m_F.col(1) = m_sigma;
        m_F.col(0).array() = 1.0 - m_sigma.array();
    }
    return Ermi::soft(notion, m_F, m_data.s, m_data.y, m_data.numGroups(), advantagedClass);
}

RegressionMetrics evaluateRegression(const Dataset& data, const Eigen::VectorXd& w) {
    RegressionMetrics out;
    out.known = true;
    const Eigen::Index d = data.features();
    if (data.rows() == 0 || w.size() != d + 1 || !w.allFinite()) return out;
    // Into one vector, without a copy of the targets: each evaluation reads all the rows,
    // and a run may evaluate at every step.
    Eigen::VectorXd residual(data.rows());
    residual.noalias() = data.X * w.head(d);
    if (data.isRegression())
        residual.array() = (residual.array() + w(d)) - data.target.array();
    else
        residual.array() = (residual.array() + w(d)) - data.y.cast<double>().array();
    out.testMse = residual.squaredNorm() / static_cast<double>(data.rows());
    out.testRmse = std::sqrt(out.testMse);
    if (data.trueWeights.size() == d + 1)
        out.weightError = (w.head(d) - data.trueWeights.head(d)).norm();
    return out;
}

Eigen::VectorXd leastSquaresOptimum(const Dataset& train, double ridge) {
    const Eigen::Index n = train.rows(), d = train.features();
    if (n == 0 || !(ridge >= 0.0) || !std::isfinite(ridge)) return {};
    const Eigen::VectorXd y = regressionTargets(train);
    // [X̃; √(nµ/2) I] w ≈ [y; 0]: its normal equations are (X̃ᵀX̃ + (nµ/2) I) w = X̃ᵀy, those of
    // the objective times n.
    const Eigen::Index extra = ridge > 0.0 ? d + 1 : 0;
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n + extra, d + 1);
    Eigen::VectorXd b = Eigen::VectorXd::Zero(n + extra);
    A.topLeftCorner(n, d) = train.X;
    A.col(d).head(n).setOnes();
    b.head(n) = y;
    if (extra > 0) {
        A.bottomRows(extra).diagonal().setConstant(std::sqrt(static_cast<double>(n) * ridge / 2.0));
    }
    if (!A.allFinite() || !b.allFinite()) return {};
    // Columns that the rows do not tell apart leave a pivot at rounding level (about √n·ε of
    // the largest): treated as rank loss, not as a direction with a 1e15 coefficient.
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
    cod.setThreshold(1e-11);
    cod.compute(A);
    return cod.solve(b);
}

void ExcessRiskReference::apply(RegressionMetrics& metrics) const {
    metrics.optimumMse = optimumMse;
    metrics.excessRisk = metrics.testMse - optimumMse;
}

ExcessRiskReference excessRiskReference(const Dataset& train, const Dataset& test, double ridge) {
    // The same data and ridge give the same reference: runs of a sweep (every ε, clip and
    // seed) solve it once. Keyed by the data's fingerprints (free inside a sweep, which knows
    // them); the few most recent are kept.
    using Key = std::tuple<std::uint64_t, std::uint64_t, double>;
    static RecentResults<Key, ExcessRiskReference> recent(16);
    const Key key{knownOrNewFingerprint(train), knownOrNewFingerprint(test), ridge};
    return recent.get(key, [&] {
        ExcessRiskReference reference;
        reference.optimum = leastSquaresOptimum(train, ridge);
        if (reference.optimum.size() > 0)
            reference.optimumMse = evaluateRegression(test, reference.optimum).testMse;
        return reference;
    });
}

double unitErrorSpread(const Dataset& data, const UnitIndex& units,
                       const Eigen::VectorXi& predicted) {
    if (units.units() == 0) return std::numeric_limits<double>::quiet_NaN();
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (long u = 0; u < units.units(); ++u) {
        long wrong = 0;
        for (const long row : units.rowsOf(u)) wrong += predicted(row) != data.y(row);
        const double error = static_cast<double>(wrong) / static_cast<double>(units.rowCount(u));
        lo = std::min(lo, error);
        hi = std::max(hi, error);
    }
    return hi - lo;
}

FairnessMetrics fairnessNotApplicable(long rows, double headlineError) {
    const double na = std::numeric_limits<double>::quiet_NaN();
    FairnessMetrics out;
    out.rows = rows;
    out.error = headlineError;
    out.dpGap = out.dpGapVsMarginal = out.eoGap = out.eoppGap = na;
    out.ermiDpHard = out.ermiDpSoft = out.ermiEoHard = out.ermiEoSoft = out.ermiEoppHard =
        out.ermiEoppSoft = na;
    return out;
}

}  // namespace pfa
