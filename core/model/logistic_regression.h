#pragma once

#include "core/model/model.h"

namespace pfa {

/// Binary logistic regression (dp-fermi.md §3.1): p = 1 score, F = (1 − σ(z), σ(z)).
class LogisticRegression final : public Model {
public:
    std::string name() const override { return "logistic"; }
    int classes() const override { return 2; }
    int scoreDimension() const override { return 1; }
    /// Probabilities are clamped to [floor, 1 − floor] in the loss (a finite loss at σ = 0, 1).
    static constexpr double kProbabilityFloor = 1e-12;

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
};

}  // namespace pfa
