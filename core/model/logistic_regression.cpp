#include "core/model/logistic_regression.h"

#include <algorithm>
#include <cmath>

#include "core/model/logistic_functions.h"

namespace pfa {

void LogisticRegression::probabilities(const Eigen::Ref<const RowMatrix>& Z,
                                       Eigen::Ref<RowMatrix> F) const {
    for (Eigen::Index i = 0; i < Z.rows(); ++i) {
        const double sigma = sigmoid(Z(i, 0));
        F(i, 0) = 1.0 - sigma;
        F(i, 1) = sigma;
    }
}

void LogisticRegression::lossAndScoreGradient(const Eigen::Ref<const RowMatrix>& /*Z*/,
                                              const Eigen::Ref<const RowMatrix>& F,
                                              const Eigen::Ref<const Eigen::VectorXi>& y,
                                              Eigen::Ref<Eigen::VectorXd> loss,
                                              Eigen::Ref<RowMatrix> lossScoreGradient) const {
    for (Eigen::Index i = 0; i < F.rows(); ++i) {
        const double sigma = F(i, 1);
        const double clamped = std::clamp(sigma, kProbabilityFloor, 1.0 - kProbabilityFloor);
        loss(i) = y(i) == 1 ? -std::log(clamped) : -std::log1p(-clamped);
        lossScoreGradient(i, 0) = sigma - static_cast<double>(y(i));
    }
}

void LogisticRegression::scoreGradient(const Eigen::Ref<const RowMatrix>& F,
                                       const Eigen::Ref<const Eigen::VectorXi>& y,
                                       Eigen::Ref<RowMatrix> lossScoreGradient) const {
    for (Eigen::Index i = 0; i < F.rows(); ++i)
        lossScoreGradient(i, 0) = F(i, 1) - static_cast<double>(y(i));
}

void LogisticRegression::weightedProbabilityScoreGradient(const Eigen::Ref<const RowMatrix>& F,
                                                          const Eigen::Ref<const RowMatrix>& C,
                                                          Eigen::Ref<RowMatrix> out) const {
    // ∂F_1/∂z = σ(1−σ), ∂F_0/∂z = −σ(1−σ)  ⇒  Σ_j c_j ∂F_j/∂z = (c_1 − c_0)·σ(1−σ).
    for (Eigen::Index i = 0; i < F.rows(); ++i) {
        out(i, 0) = (C(i, 1) - C(i, 0)) * F(i, 0) * F(i, 1);
    }
}

}  // namespace pfa
