#pragma once

#include <Eigen/Core>
#include <limits>

#include "core/config/run_result.h"
#include "core/data/dataset.h"
#include "core/engine/design_matrix.h"
#include "core/fairness/fairness_metrics.h"
#include "core/fairness/fairness_notion.h"
#include "core/model/model.h"

namespace pfa {

/// Metrics of a model on one data set (the test set, or the training set for diagnostics),
/// with full-pass buffers allocated once per run. Any algorithm can evaluate with it.
class Evaluator {
public:
    /// Keeps references to `data`, `design` and `model`: they must outlive the evaluator.
    Evaluator(const Dataset& data, const DesignMatrix& design, const Model& model);

    /// Mean cross-entropy at θ; leaves probabilities and hard predictions in the buffers for
    /// fairness() and softErmi(). NaN on an empty data set.
    double meanLoss(const RowMatrix& theta);
    /// The scores buffer (rows × p), for a caller that computes X·θᵀ itself (runs trained
    /// together compute every run's scores in one pass: SharedBatchProducts::scoreAllRows).
    RowMatrix& scores() { return m_Z; }
    /// meanLoss from the scores already in scores().
    double meanLossOfScores();

    /// The probabilities and hard predictions at θ, as meanLoss() leaves them, without the
    /// losses: for a set whose loss is not reported (the test rows).
    void predict(const RowMatrix& theta);
    /// predict() from the scores already in scores().
    void predictFromScores();

    /// The hard predictions (a class per row) of the last meanLoss() or predict().
    const Eigen::VectorXi& predictions() const { return m_predicted; }

    /// Error and every fairness gap of the predictions of the last meanLoss() or predict().
    FairnessMetrics fairness(int advantagedClass) const;

    /// Soft ERMI of `notion` on the probabilities of the last meanLoss() or predict().
    double softErmi(FairnessNotion notion, int advantagedClass) const;

private:
    double binaryLogisticMeanLoss();
    /// X·θᵀ into the scores buffer.
    void score(const RowMatrix& theta);
    /// The hard predictions from the probabilities of a binary logistic model.
    void predictBinary();

    const Dataset& m_data;
    const DesignMatrix& m_design;
    const Model& m_model;
    RowMatrix m_Z;
    /// Class probabilities of every row; for a binary logistic model formed by softErmi() from
    /// m_sigma, its only reader.
    mutable RowMatrix m_F;
    Eigen::VectorXd m_loss;
    RowMatrix m_scoreGradient;
    Eigen::VectorXi m_predicted;
    /// The model is binary logistic regression: metrics by binaryLogisticMeanLoss.
    bool m_binaryLogistic;
    Eigen::VectorXd m_sigma;   ///< σ(z) of every row (binary logistic only)
    Eigen::VectorXd m_labels;  ///< the labels as 0.0 / 1.0 (binary logistic only)
};

/// Test metrics of the linear regression model ŷ = ⟨w, (x, 1)⟩ (`w`: d weights, bias last)
/// against `regressionTargets(data)`: MSE, RMSE and, when the data knows w*, ‖w − w*‖ over
/// the feature weights. NaN everywhere for an empty data set or a non-finite w.
RegressionMetrics evaluateRegression(const Dataset& data, const Eigen::VectorXd& w);

/// The exact minimiser of the training objective of that linear regression model,
/// (1/n) Σ_i (⟨w, x̃_i⟩ − y_i)² + (µ/2)‖w‖² with x̃ = (x, 1) and µ = `ridge` ≥ 0 (the
/// intercept is penalised too, as the algorithms that use a ridge term do). It solves the
/// normal equations (X̃ᵀX̃/n + (µ/2) I) w = X̃ᵀy/n as the least-squares problem
/// [X̃; √(nµ/2) I] w ≈ [y; 0] with a complete orthogonal decomposition: no squared condition
/// number (heavy-tailed rows make X̃ᵀX̃ badly conditioned), and the minimum-norm solution
/// when the rows do not determine w. Empty for an empty data set or non-finite values.
Eigen::VectorXd leastSquaresOptimum(const Dataset& train, double ridge = 0.0);

/// The non-private reference of a regression run: the exact optimum of its training objective
/// (leastSquaresOptimum) and that optimum's test MSE, computed once per run. Display only:
/// it reads the private training rows and is never released with the model.
struct ExcessRiskReference {
    Eigen::VectorXd optimum;
    double optimumMse = std::numeric_limits<double>::quiet_NaN();  ///< test MSE of `optimum`
    /// Fills `metrics.optimumMse` and `metrics.excessRisk` (= testMse − optimumMse).
    void apply(RegressionMetrics& metrics) const;
};

/// The reference of a model trained on `train` with ridge µ = `ridge`, evaluated on `test`.
ExcessRiskReference excessRiskReference(const Dataset& train, const Dataset& test, double ridge);

/// Worst minus best error over the units of `units` (the rows of `data` by user or silo), each
/// unit's counted from `predicted`, a class per row of `data` (Evaluator::predictions() of the
/// evaluation just made): no second pass over the rows' features. NaN without units.
double unitErrorSpread(const Dataset& data, const UnitIndex& units,
                       const Eigen::VectorXi& predicted);

/// FairnessMetrics of a model that has no fairness metrics (regression): `error` holds
/// `headlineError`, every gap and ERMI is NaN (not applicable), no group rows.
FairnessMetrics fairnessNotApplicable(long rows, double headlineError);

}  // namespace pfa
