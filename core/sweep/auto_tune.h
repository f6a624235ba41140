#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/config/cancel_token.h"
#include "core/config/run_result.h"
#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/privacy/accounting_inputs.h"
#include "core/privacy/dataset_ledger.h"
#include "core/sweep/sweep_runner.h"
#include "core/sweep/sweep_spec.h"

/// Auto-tune: the step-size protocol private optimisers are usually compared with ("DIFF2"
/// paper, §3.5 of our notes). For each candidate setting (e.g. restart period × clips) the step
/// is tried from the largest down (1, 1/2, 1/4, …) on a validation split carved from the
/// training rows; a step is abandoned when the training loss is NaN or has exceeded
/// factor × its best so far at `patience` evaluations in a row; the first step that survives
/// every round is the candidate's. The candidate with the best final criterion (training loss by
/// default) is chosen and run once more on all training rows; its test metrics are reported.
/// Every trial is a private run on training rows, charged to the privacy ledger like any run.
/// Trials are abandoned and ranked on exact (not noisy) training statistics, so the selection
/// is NOT covered by any ε — neither the chosen run's nor the composed one; the record says so,
/// states the ε all trials and the final run compose to, and lists every trial's accounting
/// (`tuning_trials`), from which the ledger of a results file charges them.
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

struct TuneTrial;

struct AutoTuneOptions {
    std::string stepSetting = "gd-step";  ///< the setting halved
    std::vector<double> steps{1.0,     0.5,      0.25,      0.125,      0.0625,
                              0.03125, 0.015625, 0.0078125, 0.00390625, 0.001953125};
    double abandonFactor = 1.05;
    int abandonPatience = 5;
    TuneCriterion criterion = TuneCriterion::TrainLoss;
    double validationFraction = 0.2;  ///< of the training rows
    std::uint64_t validationSeed = 0;
    /// Called after each trial, as soon as it ends (on the thread that tunes): every trial
    /// touched the rows, so the privacy ledger charges it at once.
    std::function<void(const TuneTrial&)> onTrial;
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
    std::string runUid;                    ///< the trial's execution (charged once)
    double epsilon = 0.0;                  ///< the trial's own certified ε (private trials)
    double delta = 0.0;
};

/// "kept", "abandoned", or the run status of a trial that failed or was cancelled.
std::string trialOutcome(const TuneTrial& trial);

/// The ledger entry of a private trial (label: the trial's settings and outcome; status: its
/// outcome); nullopt for a trial that is not private.
std::optional<privacy::LedgerEntry> trialLedgerEntry(const TuneTrial& trial,
                                                     const std::string& stepSetting);

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
    /// All trials and the final run composed by the ledger's accountant (DatasetLedger: RDP
    /// curves added, converted at the largest δ among them, plus pure releases).
    double composedEpsilon = 0.0;
    double composedDelta = 0.0;
    bool cancelled = false;
};

/// The ledger entries of a tuning problem: every private trial, then the final run when it ran
/// and is private. What the privacy ledger charges for it.
std::vector<privacy::LedgerEntry> autoTuneLedgerEntries(const AutoTuneOutcome& outcome,
                                                        const std::string& stepSetting);

/// A record line of runRecordJson (one JSON object) with the trials of its tuning problem
/// added as `tuning_trials`: per trial its candidate, setting, outcome, run uid, certified
/// (ε, δ) and accounting inputs. Which trials ran and how many steps each made depend on exact
/// training losses: the statement names the field as not protected.
std::string withTuningTrials(const std::string& recordLine, const std::vector<TuneTrial>& trials,
                             const std::string& stepSetting);

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
