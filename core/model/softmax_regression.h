#pragma once

#include "core/model/model.h"

namespace pfa {

/// Multinomial (softmax) logistic regression (dp-fermi.md §3.2): p = l scores.
class SoftmaxRegression final : public Model {
public:
    explicit SoftmaxRegression(int classes);

    std::string name() const override { return "softmax"; }
    int classes() const override { return m_classes; }
    int scoreDimension() const override { return m_classes; }

    void probabilities(const Eigen::Ref<const RowMatrix>& Z,
                       Eigen::Ref<RowMatrix> F) const override;
    void lossAndScoreGradient(const Eigen::Ref<const RowMatrix>& Z,
                              const Eigen::Ref<const RowMatrix>& F,
                              const Eigen::Ref<const Eigen::VectorXi>& y,
                              Eigen::Ref<Eigen::VectorXd> loss,
                              Eigen::Ref<RowMatrix> lossScoreGradient) const override;
    void scoreGradient(const Eigen::Ref<const RowMatrix>& F,
                       const Eigen::Ref<const Eigen::VectorXi>& y,
                       Eigen::Ref<RowMatrix> lossScoreGradient) const override;
    void weightedProbabilityScoreGradient(const Eigen::Ref<const RowMatrix>& F,
                                          const Eigen::Ref<const RowMatrix>& C,
                                          Eigen::Ref<RowMatrix> out) const override;

private:
    int m_classes;
};

}  // namespace pfa
