#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "core/algorithms/saddle/per_example_clipping.h"
#include "core/config/run_result.h"
#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/engine/gaussian_mechanism.h"
#include "core/engine/run_streams.h"
#include "core/privacy/accounting_inputs.h"
#include "core/privacy/run_accountant.h"
#include "core/privacy/sampling.h"

namespace pfa {

/// The resolved mechanics of one run, produced by an algorithm from its TrainConfig and
/// executed by SaddlePointTrainer. Every algorithm is a special case of the noisy stochastic
/// descent–ascent step
///     a_i = ∇θ ℓ_i + λ·∇θ ψ_i            (clipped to C_θ if `clipping.enabled`)
///     b_i = λ·∇_W ψ_i                    (clipped to C_W if `clipping.enabled`)
///     θ ← θ − η_θ·( Σ a_i / m + u + l2·θ_w ),      u ~ N(0, σ_θ² I)   (`noise`)
///     W ← Proj( W + η_w·( Σ b_i / m + V ) ),        V ~ N(0, σ_W² I)   (`noise`)
/// with m the nominal (expected) batch size of `sampler` in every sampling mode, never the
/// realised one.
/// Variants: `clipping.lossClipShare` clips ∇ℓ_i and λ∇ψ_i separately;
/// `clipping.wFromGroupMasses` releases the noisy per-cell sums of F_i instead of clipped b_i
/// and derives λ∇_W from them. Like the step sizes, the reported model
/// (TrainConfig::averaging) is read from the run's settings.
struct TrainerPlan {
    bool penalty = false;  ///< λ > 0: the W-player and ψ are active
    double lambda = 0.0;
    Eigen::VectorXd shares;  ///< π per cell used inside ψ (exact or privatised)
    /// Per-example clipping of both streams (`enabled` for private runs); `wFromGroupMasses`:
    /// the W-gradient is computed from noised per-cell batch sums of probabilities
    /// (WStream::GroupMasses) instead of clipped per-row gradients plus noise.
    PerExampleClipping clipping;
    /// The step's Gaussian noise: σ_θ of u and σ_W of V (on the batch mean; on the group masses
    /// with `clipping.wFromGroupMasses`), and how the release is charged. Default: no noise,
    /// not private.
    GaussianMechanism noise;
    /// Pure-DP releases the plan uses besides the steps (e.g. the privatised group shares),
    /// charged on top by basic composition.
    std::vector<privacy::PureRelease> sideReleases;
    /// The sampler the loop draws its batches from; the accountant's q and T come from it too.
    SamplerSpec sampler;
    double radius = 0.0;  ///< projection radius R (≤ 0: no projection)
    Projection projection = Projection::Ball;
    double featureBound = 0.0;  ///< > 0: rescale rows so that ‖x̃‖ ≤ B (train and test)
    /// Starting point (default θ_0 = 0, W_0 = 0; dp-fermi.md §6.1). Shapes must match
    /// p × (d+1) and cells × l.
    std::optional<RowMatrix> initialTheta;
    std::optional<Eigen::MatrixXd> initialW;
    /// The run's random streams when the algorithm already made them (e.g. for its privatised
    /// shares); null: the trainer makes them from the config and the training data.
    const RunStreams* streams = nullptr;
};

/// The privacy ledger of a plan's run, composed from the mechanisms the run uses: the step's
/// Gaussian release as `plan.noise` charges it (for the sampler the loop runs), repeated over
/// the steps executed, plus `plan.sideReleases`, at δ = `delta` for one `unit` of privacy.
/// Nothing for a plan whose noise is not charged (a non-private run: ε = +∞).
std::optional<privacy::RunAccountant> planAccountant(const TrainerPlan& plan, double delta,
                                                     const std::string& unit);

/// The shared sample a run of `plan` with resolved `config` drew its batches from
/// (RunStreams::sharedBatches; the ledger composes such runs jointly), or empty: its own.
std::string sharedBatchesOf(const TrainerPlan& plan, const TrainConfig& config,
                            const Dataset& train);

/// describePrivateRun for a whole-record clipped-Gaussian run (dp-sgd, dp-fermi
/// conservative) of `plan`, with the accountant composed from the plan's mechanisms, plus
/// describeNoise, sampling, adjacency, mechanism, what is protected and the Poisson
/// approximation for non-Poisson sampling.
void describeClippedGaussianRun(RunResult& result, const TrainerPlan& plan, const Dataset& train);

}  // namespace pfa
