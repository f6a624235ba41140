#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "core/config/run_result.h"
#include "core/engine/gradient_audit_hook.h"
#include "core/util/random.h"

namespace pfa::audit {

/// White-box access to one run (the audit's observer): its gradient canaries, coordinates
/// 0 … count − 1 of θ (row-major), each Poisson-sampled into the steps like a record when it is
/// in; the rows' own gradients are removed from the sum in every step, so that a run with a
/// canary and one without differ by that canary alone. Scores each canary by its summed
/// log-likelihood ratio (gradientCanaryStepScore).
class GradientCanaries final : public TrainingObserver, public GradientAuditHook {
public:
    /// One canary per entry of `included`, in when true; its sampling draws come from a
    /// stream of `seed` that no run uses.
    GradientCanaries(std::vector<bool> included, std::uint64_t seed);

    GradientAuditHook* gradientAudit() override { return this; }
    bool showsBatchLoss() const override { return false; }

    void start(const GaussianMechanism& noise, const SamplerSpec& sampler, Eigen::Index rows,
               Eigen::Index cols) override;
    void beforeNoise(long step, RowMatrix& clippedSum) override;
    void released(long step, const RowMatrix& noisyMean) override;

    /// Whether the run reached a clipped, noised step (start was called).
    bool started() const { return m_started; }
    /// Each canary's score, in canary order.
    const std::vector<double>& scores() const { return m_scores; }

private:
    std::vector<bool> m_included;
    std::vector<double> m_scores;
    RandomStream m_sampling;
    double m_bound = 0.0, m_rate = 0.0, m_batch = 1.0, m_noiseOnSum = 0.0;
    bool m_started = false;
};

}  // namespace pfa::audit
