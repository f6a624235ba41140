#pragma once

#include <Eigen/Core>

#include "core/data/dataset.h"
#include "core/engine/gaussian_mechanism.h"
#include "core/privacy/sampling.h"

namespace pfa {

/// White-box access to a clipped-gradient step, for the privacy audit's gradient canaries
/// (core/audit/one_run_audit.h): a trainer whose step clips per-example θ-gradients and adds the
/// Gaussian mechanism's noise calls it between the batch's clipped sum and its noise, and again
/// with the released noisy mean. A run is handed a hook by its observer
/// (TrainingObserver::gradientAudit); without one, or in a run that neither clips nor noises,
/// nothing is called and the run is exactly what it was.
class GradientAuditHook {
public:
    virtual ~GradientAuditHook() = default;
    /// Once, before the first step of a private clipped run: the step's mechanism (its θ-stream's
    /// bound Δ and noise), the sampler it was calibrated for, and the θ-gradient's shape.
    virtual void start(const GaussianMechanism& noise, const SamplerSpec& sampler,
                       Eigen::Index rows, Eigen::Index cols) = 0;
    /// Step `step` (from 1): the batch's clipped θ-sum before noise. The hook may change it, e.g.
    /// remove the rows' contributions and add the canaries drawn into this step.
    virtual void beforeNoise(long step, RowMatrix& clippedSum) = 0;
    /// The same step's released θ-gradient: the noisy batch mean the descent step uses.
    virtual void released(long step, const RowMatrix& noisyMean) = 0;
};

}  // namespace pfa
