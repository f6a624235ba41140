#pragma once

#include "core/algorithms/saddle/trainer_plan.h"
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

}  // namespace pfa
