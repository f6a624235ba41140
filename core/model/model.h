#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>

#include "core/data/dataset.h"

namespace pfa {

/// A linear probability model F(x̃, Θ) over l classes with scores z = Θ x̃ ∈ R^p.
/// Parameters Θ are p × (d+1) (bias in the last column). Every method works on a block of rows
/// at once (vectorised, no allocation: all outputs are written into caller-owned buffers), so
/// per-example losses and gradients cost one pass over the batch.
///
/// The per-example gradient of any objective that depends on x̃ only through z is
/// ∇_Θ f_i = r_i x̃_iᵀ with r_i = ∂f_i/∂z_i ∈ R^p, so its norm is ‖r_i‖·‖x̃_i‖: the trainers clip
/// per-example gradients from r and precomputed row norms, without materialising them.
class Model {
public:
    virtual ~Model() = default;

    /// Short name ("logistic", "softmax").
    virtual std::string name() const = 0;
    /// Number of classes l.
    virtual int classes() const = 0;
    /// Number of score rows p of Θ (1 for binary logistic regression, l for softmax).
    virtual int scoreDimension() const = 0;

    /// F (rows × l) from scores Z (rows × p).
    virtual void probabilities(const Eigen::Ref<const RowMatrix>& Z,
                               Eigen::Ref<RowMatrix> F) const = 0;

    /// Cross-entropy loss per row and its gradient with respect to the scores (rows × p).
    virtual void lossAndScoreGradient(const Eigen::Ref<const RowMatrix>& Z,
                                      const Eigen::Ref<const RowMatrix>& F,
                                      const Eigen::Ref<const Eigen::VectorXi>& y,
                                      Eigen::Ref<Eigen::VectorXd> loss,
                                      Eigen::Ref<RowMatrix> lossScoreGradient) const = 0;

    /// The gradient of the cross-entropy with respect to the scores alone (what
    /// lossAndScoreGradient gives, bit for bit, without the losses' logarithms).
    virtual void scoreGradient(const Eigen::Ref<const RowMatrix>& F,
                               const Eigen::Ref<const Eigen::VectorXi>& y,
                               Eigen::Ref<RowMatrix> lossScoreGradient) const = 0;

    /// Gradient with respect to the scores of Σ_j c_ij F_ij for given class weights C
    /// (rows × l), i.e. J_F(z_i)ᵀ c_i per row (used by the ERMI penalty, dp-fermi.md §5.3).
    virtual void weightedProbabilityScoreGradient(const Eigen::Ref<const RowMatrix>& F,
                                                  const Eigen::Ref<const RowMatrix>& C,
                                                  Eigen::Ref<RowMatrix> out) const = 0;

    /// Hard prediction per row (argmax, ties to the lowest index; binary: σ ≥ 0.5 → 1).
    static void predict(const Eigen::Ref<const RowMatrix>& F, Eigen::Ref<Eigen::VectorXi> out);
};

/// Binary logistic regression for l = 2, softmax regression for l > 2.
std::unique_ptr<Model> makeModelForClasses(int classes);

}  // namespace pfa
