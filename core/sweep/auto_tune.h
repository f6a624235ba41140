#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/privacy/accounting_inputs.h"
#include "core/sweep/sweep_runner.h"
#include "core/sweep/sweep_spec.h"
#include "core/train/cancel_token.h"
#include "core/train/run_result.h"
#include "core/train/train_config.h"

/// Auto-tune: the step-size protocol private optimisers are usually compared with ("DIFF2"
/// paper, §3.5 of our notes). For each candidate setting (e.g. restart period × clips) the step
/// is tried from the largest down (1, 1/2, 1/4, …) on a validation split carved from the
/// training rows; a step is abandoned when the training loss is NaN or has exceeded
/// factor × its best so far at `patience` evaluations in a row; the first step that survives
/// every round is the candidate's. The candidate with the best final criterion (training loss by
/// default) is chosen and run once more on all training rows; its test metrics are reported.
/// Every trial is a private run on training rows: the selection is NOT covered by the chosen
/// run's ε; the record says so and states the ε all trials and the final run compose to.
namespace pfa {

/// What the candidates are ranked by (final values of the surviving step).
enum class TuneCriterion {
    TrainLoss,     ///< final training loss on the tuning part (the paper's choice)
    GradientNorm,  ///< final ‖∇f‖² on the tuning part (for the gradient-norm comparison)
    Validation,    ///< final error on the validation rows (MSE, or error rate)
};
std::string tuneCriterionName(
    TuneCriterion criterion);  ///< "train-loss", "gradient-norm", "validation"
TuneCriterion parseTuneCriterion(const std::string& text);  ///< throws InputError

struct AutoTuneOptions {
    std::string stepSetting = "gd-step";  ///< the setting halved
    std::vector<double> steps{1.0,     0.5,      0.25,      0.125,      0.0625,
                              0.03125, 0.015625, 0.0078125, 0.00390625, 0.001953125};
    double abandonFactor = 1.05;
    int abandonPatience = 5;
    TuneCriterion criterion = TuneCriterion::TrainLoss;
    double validationFraction = 0.2;  ///< of the training rows
    std::uint64_t validationSeed = 0;
};

/// The abandon rule of one trial, fed the training loss of each evaluation in turn.
class AbandonRule {
public:
    AbandonRule(double factor, int patience) : m_factor(factor), m_patience(patience) {}
    /// True when the trial is to be abandoned: a NaN (or infinite) loss, or the `patience`-th
    /// evaluation in a row with loss > factor × best so far. A new best resets the count, and
    /// so does any evaluation that is not above the threshold (the row is broken).
    bool observe(double loss);
    /// Why it abandoned ("" while it has not).
    const std::string& reason() const { return m_reason; }

private:
    double m_factor;
    int m_patience;
    double m_best = std::numeric_limits<double>::infinity();
    int m_above = 0;
    long m_seen = 0;
    std::string m_reason;
};

/// `data` with a `fraction` of its training rows (seeded shuffle) moved into the test part,
/// which then holds the validation rows only; silos, users and targets follow their rows.
/// Throws InputError when either part would be empty.
DataSplit carveValidation(const DataSplit& data, double fraction, std::uint64_t seed);

/// One trial: a candidate at one step.
struct TuneTrial {
    TrainConfig config;         ///< the candidate's settings with the trial's step
    std::size_t candidate = 0;  ///< position in the candidate list
    RunStatus status = RunStatus::Completed;
    bool abandoned = false;  ///< stopped by the abandon rule
    bool survived = false;   ///< ran every round without being abandoned: kept
    std::string reason;      ///< why it was abandoned or failed
    double trainLoss = std::numeric_limits<double>::quiet_NaN();
    double gradientNormSquared = std::numeric_limits<double>::quiet_NaN();
    double validationError = std::numeric_limits<double>::quiet_NaN();
    bool isPrivate = false;
    privacy::AccountingInputs accounting;  ///< what the trial spent (private trials)
};

/// Progress of a tuning problem, reported after each trial.
struct TuneProgress {
    std::size_t trials = 0;     ///< trials run so far
    std::size_t candidate = 0;  ///< the candidate being tried
    std::size_t candidates = 0;
    std::string last;  ///< the last trial in words
};

struct AutoTuneOutcome {
    std::vector<TuneTrial> trials;
    std::optional<std::size_t> chosen;  ///< index into trials of the chosen (candidate, step)
    RunResult final;  ///< the chosen setting on all training rows (status Failed if none survived)
    double composedEpsilon = 0.0;  ///< all trials and the final run composed (private runs)
    bool cancelled = false;
};

/// Runs the protocol for `candidates` (configurations that differ in the settings being tuned,
/// not in the step) on `data`. The final result's statement and record say that the selection
/// is not covered and give composedEpsilon.
AutoTuneOutcome autoTune(const std::vector<TrainConfig>& candidates, const DataSplit& data,
                         const AutoTuneOptions& options, const CancelToken& cancel,
                         const std::function<void(const TuneProgress&)>& progress = {});

/// The tuning problems of a sweep: its runs grouped by everything but the extra axes (data set,
/// algorithm, notion, ε, λ, seed), in sweep order.
std::vector<std::vector<SweepRun>> tuningGroups(const SweepSpec& spec,
                                                const std::vector<SweepRun>& runs);

/// A sweep run with auto-tune: the sweep's extra axes become the candidates of each (data set,
/// algorithm, notion, ε, λ, seed), which are tuned and written as ONE record each (run key
/// "auto-tune|" + the first candidate's key; resumed when present). Runs groups in parallel
/// (options.threads). onRunFinished is called per tuned group with its first candidate run.
SweepOutcome runAutoTuneSweep(const SweepSpec& spec, const DatasetProvider& provider,
                              const SweepOptions& options, const AutoTuneOptions& tune,
                              const CancelToken& cancel);

}  // namespace pfa
