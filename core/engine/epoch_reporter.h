#pragma once

#include "core/config/run_result.h"
#include "core/config/train_config.h"
#include "core/engine/evaluator.h"

namespace pfa {

/// The evaluation side of a classification loop: the metrics of an epoch (test metrics always,
/// training-set diagnostics when recorded; the run session adds the certified ε so far and the
/// time) and the final metrics of a run, for the reported model (the last iterate or an
/// average).
class EpochReporter {
public:
    /// `penalty`: the run's objective has the fairness term λ·ERMI. Referenced, not copied.
    EpochReporter(const TrainConfig& config, Evaluator& train, Evaluator& test, bool penalty,
                  double lambda);

    /// The metrics of the model `reported` at the end of `epoch` after `step` steps, with the
    /// epoch's clip count over `seen` rows.
    EpochMetrics measure(int epoch, long step, const RowMatrix& reported, long clipped, long seen);
    /// measure() when the evaluators' scores() already hold the reported model's scores (the
    /// training set's only when trainScoresNeeded()).
    EpochMetrics measureScored(int epoch, long step, long clipped, long seen);
    /// Whether measure() reads the training set (the diagnostics are recorded).
    bool trainScoresNeeded() const { return m_diagnostics; }

    /// Final training loss and test metrics of `result.theta` (NaN for a diverged run).
    void finish(RunResult& result);

private:
    EpochMetrics measureWith(int epoch, long step, const RowMatrix* reported, long clipped,
                             long seen);

    const TrainConfig& m_config;
    Evaluator& m_train;
    Evaluator& m_test;
    bool m_penalty;
    double m_lambda;
    bool m_diagnostics;
};

}  // namespace pfa
