#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "core/algorithms/saddle/trainer_plan.h"
#include "core/config/algorithm.h"
#include "core/config/cancel_token.h"
#include "core/config/run_result.h"
#include "core/data/dataset.h"

namespace pfa {

/// Executes the descent–ascent loop described by a TrainerPlan on a data split: samples
/// batches, computes per-example gradients in vectorised form (clipping from ‖r_i‖·‖x̃_i‖
/// without materialising them), adds noise, updates θ and W, evaluates at epoch ends and
/// reports to the observer. All per-step buffers are allocated before the first step.
///
/// Deterministic: the same config, plan and data give bit-identical results.
RunResult runSaddlePointTrainer(const TrainConfig& config, const TrainerPlan& plan,
                                const DataSplit& data, TrainingObserver& observer,
                                const CancelToken& cancel);

/// One run of a group trained together: its resolved config, its plan and its observer (all
/// referenced; they must outlive the call).
struct SaddleRunRequest {
    const TrainConfig* config = nullptr;
    const TrainerPlan* plan = nullptr;
    TrainingObserver* observer = nullptr;
};

/// Trains runs that draw the same batches (batch-sharing by-seed: one sampler, one feature
/// scaling) in lockstep: each batch is drawn once, and each chunk of its rows is read once for
/// all runs while it is in cache. Every run's noise, steps, evaluation and stopping stay its
/// own, so each result is bit for bit what runSaddlePointTrainer gives for that run alone.
/// Results in the order of `runs`. Throws std::logic_error when the runs do not share batches.
std::vector<RunResult> runSaddlePointGroup(const std::vector<SaddleRunRequest>& runs,
                                           const DataSplit& data, const CancelToken& cancel);

/// A saddle-point run made ready by its algorithm: the plan, the streams it references and
/// what the algorithm adds to the result afterwards (its privacy report). Not movable: the
/// plan points at the streams and `describe` may refer to the plan.
struct PlannedSaddleRun {
    PlannedSaddleRun() = default;
    PlannedSaddleRun(const PlannedSaddleRun&) = delete;
    PlannedSaddleRun& operator=(const PlannedSaddleRun&) = delete;

    TrainerPlan plan;
    std::unique_ptr<RunStreams> streams;  ///< plan.streams points here
    std::function<void(RunResult&)> describe;
};

/// Trains a planned run alone (runSaddlePointTrainer) and adds its algorithm's report.
RunResult runPlanned(const TrainConfig& config, const PlannedSaddleRun& planned,
                     const DataSplit& data, TrainingObserver& observer, const CancelToken& cancel);

/// An algorithm's planner: the planned run for a configuration, or null for a run its
/// algorithm trains otherwise (e.g. a non-private one).
using SaddlePlanner = std::function<std::unique_ptr<PlannedSaddleRun>(const TrainConfig&)>;

/// Algorithm::runTogether for the saddle-point family: the runs `planner` plans and that
/// share a sample (RunStreams::sharedBatches) are trained together by runSaddlePointGroup;
/// the other planned runs train alone (runPlanned), each planned once; the runs it does not
/// plan go to `algorithm.run`.
std::vector<RunResult> runPlannedTogether(const Algorithm& algorithm,
                                          const std::vector<PreparedConfig>& runs,
                                          const DataSplit& data,
                                          const std::vector<TrainingObserver*>& observers,
                                          const CancelToken& cancel, const SaddlePlanner& planner);

}  // namespace pfa
