#include "core/algorithms/saddle/adversary_step.h"

namespace pfa {

void projectAdversary(Eigen::MatrixXd& W, int groups, double radius, Projection projection) {
    if (radius <= 0.0) return;
    if (projection == Projection::Box) {
        W = W.cwiseMax(-radius).cwiseMin(radius);
        return;
    }
    for (Eigen::Index start = 0; start < W.rows(); start += groups) {
        auto block = W.middleRows(start, groups);
        const double norm = block.norm();
        if (norm > radius) block *= radius / norm;
    }
}

AdversaryStep::AdversaryStep(double lambda, const GaussianMechanism& noise, bool fromGroupMasses,
                             double batchSize, double learningRate, int groups, double radius,
                             Projection projection, Eigen::Index cells, Eigen::Index classes)
    : m_lambda(lambda),
      m_noise(noise),
      m_fromGroupMasses(fromGroupMasses),
      m_batchSize(batchSize),
      m_learningRate(learningRate),
      m_groups(groups),
      m_radius(radius),
      m_projection(projection),
      m_gradient(Eigen::MatrixXd::Zero(cells, classes)) {}

void AdversaryStep::apply(ErmiPenalty& penalty, Eigen::MatrixXd& W, RandomStream& noise) {
    if (m_fromGroupMasses) {
        // Release the noisy masses (σ on the sum = σ_W·m); λ∇_W is computed from them.
        privacy::ReleaseSpec spec = m_noise.releaseSpec(GaussianMechanism::Stream::W);
        spec.channel = "w-cell-masses";
        spec.sensitivity *= m_batchSize;  // on the sums, not the mean
        spec.noiseScale =
            m_noise.isPrivate() ? m_noise.sigmaOnSum(GaussianMechanism::Stream::W) : 0.0;
        penalty.releaseCellMasses(spec, noise);
        penalty.finishAccumulation(m_gradient);
        m_gradient *= m_lambda / m_batchSize;
    } else {
        penalty.finishAccumulation(m_gradient);
        m_gradient /= m_batchSize;
        m_noise.addNoise(GaussianMechanism::Stream::W, m_gradient, noise);
    }
    W += m_learningRate * m_gradient;
    projectAdversary(W, m_groups, m_radius, m_projection);
    penalty.setW(W);
}

}  // namespace pfa
