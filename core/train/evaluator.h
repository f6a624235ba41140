#pragma once

#include <Eigen/Core>

#include "core/data/dataset.h"
#include "core/fairness/fairness_metrics.h"
#include "core/fairness/fairness_notion.h"
#include "core/model/model.h"
#include "core/train/design_matrix.h"
#include "core/train/run_result.h"

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

    /// Error and every fairness gap of the predictions of the last meanLoss() call.
    FairnessMetrics fairness(int advantagedClass) const;

    /// Soft ERMI of `notion` on the probabilities of the last meanLoss() call.
    double softErmi(FairnessNotion notion, int advantagedClass) const;

private:
    const Dataset& m_data;
    const DesignMatrix& m_design;
    const Model& m_model;
    RowMatrix m_Z, m_F;
    Eigen::VectorXd m_loss;
    RowMatrix m_scoreGradient;
    Eigen::VectorXi m_predicted;
};

/// Test metrics of the linear regression model ŷ = ⟨w, (x, 1)⟩ (`w`: d weights, bias last)
/// against `regressionTargets(data)`: MSE, RMSE and, when the data knows w*, ‖w − w*‖ over
/// the feature weights. NaN everywhere for an empty data set or a non-finite w.
RegressionMetrics evaluateRegression(const Dataset& data, const Eigen::VectorXd& w);

/// FairnessMetrics of a model that has no fairness metrics (regression): `error` holds
/// `headlineError`, every gap and ERMI is NaN (not applicable), no group rows.
FairnessMetrics fairnessNotApplicable(long rows, double headlineError);

}  // namespace pfa
