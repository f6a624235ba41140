#pragma once

#include <Eigen/Core>

#include "core/config/train_config.h"
#include "core/engine/gaussian_mechanism.h"
#include "core/fairness/ermi_penalty.h"
#include "core/util/random.h"

namespace pfa {

/// Projects W onto its set (dp-fermi.md §6.4): a Frobenius ball of `radius` per block of
/// `groups` rows (one block per label for equalized odds), or an entry box. radius ≤ 0: none.
void projectAdversary(Eigen::MatrixXd& W, int groups, double radius, Projection projection);

/// The release and ascent step of the W-player, after a batch's W-contributions were
/// accumulated in the penalty. The noise is the W-stream of the step's mechanism:
///  * group masses: N(0, (σ_W·m)²) on every cell's mass Σ F_i, then λ∇_W from the noisy masses;
///  * clipped gradients: the summed λ∇_W ψ_i / m plus N(0, σ_W²);
/// then W ← Proj(W + η_w·gradient), and the penalty is told the new W.
class AdversaryStep {
public:
    /// `noise` (the step's mechanism) is referenced and must outlive this object; m is the
    /// sampler's nominal batch size.
    AdversaryStep(double lambda, const GaussianMechanism& noise, bool fromGroupMasses,
                  double batchSize, double learningRate, int groups, double radius,
                  Projection projection, Eigen::Index cells, Eigen::Index classes);

    /// One step; draws its noise from `noise` (after the θ-noise of the same step).
    void apply(ErmiPenalty& penalty, Eigen::MatrixXd& W, RandomStream& noise);

private:
    double m_lambda;
    const GaussianMechanism& m_noise;
    bool m_fromGroupMasses;
    double m_batchSize, m_learningRate;
    int m_groups;
    double m_radius;
    Projection m_projection;
    Eigen::MatrixXd m_gradient;  ///< allocated once
};

}  // namespace pfa
