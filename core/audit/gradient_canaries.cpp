#include "core/audit/gradient_canaries.h"

#include <stdexcept>

#include "core/audit/one_run_audit.h"
#include "core/util/error.h"

namespace pfa::audit {

namespace {
constexpr std::uint64_t kCanarySamplingStream = 0xA0D1'7003;
}

GradientCanaries::GradientCanaries(std::vector<bool> included, std::uint64_t seed)
    : m_included(std::move(included)),
      m_scores(m_included.size(), 0.0),
      m_sampling(seed, kCanarySamplingStream) {}

void GradientCanaries::start(const GaussianMechanism& noise, const SamplerSpec& sampler,
                             Eigen::Index rows, Eigen::Index cols) {
    if (static_cast<std::size_t>(rows * cols) < m_included.size())
        throw std::logic_error("more gradient canaries than coordinates of θ");
    const NoiseStream& theta = noise.stream(GaussianMechanism::Stream::Theta);
    if (theta.scale != 1.0 || !(theta.sensitivity > 0.0)) {
        throw InputError(
            "the white-box audit needs a θ-gradient released unscaled with a known bound");
    }
    m_bound = theta.sensitivity;
    m_rate = sampler.samplingRate();
    m_batch = static_cast<double>(sampler.batchSize);
    m_noiseOnSum = theta.drawnSigma() * m_batch;
    m_started = true;
}

void GradientCanaries::beforeNoise(long, RowMatrix& clippedSum) {
    clippedSum.setZero();  // the rows' gradients: removed (the hardest data for the claim)
    double* sum = clippedSum.data();
    for (std::size_t i = 0; i < m_included.size(); ++i) {
        if (m_included[i] && m_sampling.uniformOpen() < m_rate) sum[i] += m_bound;
    }
}

void GradientCanaries::released(long, const RowMatrix& noisyMean) {
    const double* mean = noisyMean.data();
    for (std::size_t i = 0; i < m_included.size(); ++i) {
        m_scores[i] += gradientCanaryStepScore(mean[i] * m_batch, m_bound, m_noiseOnSum, m_rate);
    }
}

}  // namespace pfa::audit
