#include "core/model/softmax_regression.h"

#include <algorithm>
#include <cmath>

namespace pfa {

SoftmaxRegression::SoftmaxRegression(int classes) : m_classes(classes) {}

void SoftmaxRegression::probabilities(const Eigen::Ref<const RowMatrix>& Z,
                                      Eigen::Ref<RowMatrix> F) const {
    for (Eigen::Index i = 0; i < Z.rows(); ++i) {
        // Subtracting the maximum keeps exp() in range without changing the result.
        const double top = Z.row(i).maxCoeff();
        F.row(i) = (Z.row(i).array() - top).exp();
        F.row(i) /= F.row(i).sum();
    }
}

void SoftmaxRegression::lossAndScoreGradient(const Eigen::Ref<const RowMatrix>& /*Z*/,
                                             const Eigen::Ref<const RowMatrix>& F,
                                             const Eigen::Ref<const Eigen::VectorXi>& y,
                                             Eigen::Ref<Eigen::VectorXd> loss,
                                             Eigen::Ref<RowMatrix> lossScoreGradient) const {
    lossScoreGradient = F;
    for (Eigen::Index i = 0; i < F.rows(); ++i) {
        loss(i) = -std::log(std::max(F(i, y(i)), 1e-12));
        lossScoreGradient(i, y(i)) -= 1.0;
    }
}

void SoftmaxRegression::scoreGradient(const Eigen::Ref<const RowMatrix>& F,
                                      const Eigen::Ref<const Eigen::VectorXi>& y,
                                      Eigen::Ref<RowMatrix> lossScoreGradient) const {
    lossScoreGradient = F;
    for (Eigen::Index i = 0; i < F.rows(); ++i) lossScoreGradient(i, y(i)) -= 1.0;
}

void SoftmaxRegression::weightedProbabilityScoreGradient(const Eigen::Ref<const RowMatrix>& F,
                                                         const Eigen::Ref<const RowMatrix>& C,
                                                         Eigen::Ref<RowMatrix> out) const {
    // ∂F_j/∂z_a = F_j(1[j=a] − F_a)  ⇒  g_a = F_a (c_a − c̄), c̄ = Σ_j F_j c_j.
    for (Eigen::Index i = 0; i < F.rows(); ++i) {
        const double mean = F.row(i).dot(C.row(i));
        out.row(i) = F.row(i).array() * (C.row(i).array() - mean);
    }
}

}  // namespace pfa
