#pragma once

#include <Eigen/Core>
#include <memory>

#include "core/data/dataset.h"

namespace pfa {

/// The mean squared error of any linear regression model ŷ = ⟨w, (x, 1)⟩ on a fixed set of
/// rows without reading them again: the triangular factor R of the rows' augmented design
/// A = [X, 1, y] (AᵀA = RᵀR), so that ‖X̃w − y‖² = ‖R·(w, −1)‖², O(d²) per model instead of
/// O(n·d). R comes from Householder QR a block of rows at a time, which is backward stable:
/// the value is the exact MSE of rows within rounding of the real ones, as a pass over them
/// is, with no squared condition number (unlike the normal equations' X̃ᵀX̃) and no
/// cancellation where a model fits the rows almost exactly. It agrees with evaluateRegression's
/// pass to rounding (about 1e-14 relative), not bit for bit. Memory: (d + 2)² doubles, and a
/// block of rows while it is built.
class RegressionFactor {
public:
    /// The factor of the rows of `rows` against regressionTargets(rows) (one pass over them).
    explicit RegressionFactor(const Dataset& rows);

    /// (1/n)‖X̃w − y‖² for `w` (d weights, bias last); NaN for a non-finite w, a w of the wrong
    /// size or no rows, as evaluateRegression. No allocation; safe on several threads at once.
    double meanSquaredError(const Eigen::VectorXd& w) const;

    Eigen::Index rows() const { return m_rows; }

private:
    Eigen::Index m_rows = 0;
    Eigen::MatrixXd m_r;  // (d + 2) × (d + 2), upper triangular
};

/// Features up to which a run's evaluations during training go through the rows' factor: its
/// QR costs about 2(d + 2) passes over the rows, which the evaluations of one run (about 50,
/// each O(d²) then) repay at this width, and a sweep's runs share it.
inline constexpr Eigen::Index kFactorMaxFeatures = 30;

/// The factor of `rows` for the evaluations of runs during training (their histories), when
/// they have at most kFactorMaxFeatures features and at least one row; else null (evaluate with
/// a pass). Shared: the runs on the same rows (by their data fingerprint, free inside a sweep)
/// get the same factor, built once.
std::shared_ptr<const RegressionFactor> regressionFactorFor(const Dataset& rows);

/// The MSE of `w` on `rows`: through `factor` (the rows' own) when there is one, else
/// evaluateRegression's pass over the rows.
double evaluationMse(const RegressionFactor* factor, const Dataset& rows, const Eigen::VectorXd& w);

}  // namespace pfa
