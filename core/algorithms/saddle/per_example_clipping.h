#pragma once

namespace pfa {

/// How one row's contributions are bounded before they are summed (the sensitivity of the
/// released sums). Part of a run's TrainerPlan; read by the per-example gradient step and, for
/// the choice of W-stream, by the adversary step.
struct PerExampleClipping {
    bool enabled = false;        ///< off: rows are summed as they are (non-private runs)
    double clipTheta = 0.0;      ///< C_θ on a row's θ-gradient
    double clipW = 0.0;          ///< C_W on a row's λ·∇_W ψ_i (clipped-gradient W-stream)
    double lossClipShare = 0.0;  ///< > 0: ∇ℓ_i to share·C_θ and λ∇ψ_i to (1 − share)·C_θ
    bool wFromGroupMasses = false;  ///< W-stream: unit-weight masses Σ F_i per cell, no clip
};

}  // namespace pfa
