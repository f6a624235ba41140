#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/config/cancel_token.h"
#include "core/config/parameters.h"
#include "core/config/run_result.h"
#include "core/config/theory_rate.h"
#include "core/config/train_config.h"
#include "core/data/dataset.h"

namespace pfa {

/// Whose data one unit of privacy is: a neighbouring data set differs in one of these.
enum class PrivacyUnit { Record, User, Silo };
/// What an algorithm learns.
enum class Task { Classification, Regression };
/// How an algorithm trains: by steps (epochs, live curves, a per-step ε) or by one fit.
enum class TrainingStyle { Steps, OneShot };

std::string privacyUnitName(PrivacyUnit unit);  ///< "record", "user", "silo"
std::string taskName(Task task);                ///< "classification", "regression"

/// What an algorithm can do; read by the CLI, the GUI, sweeps and the conformance test.
struct AlgorithmCapabilities {
    bool privacy = false;   ///< accepts a finite ε
    bool fairness = false;  ///< uses the fairness weight λ
    PrivacyUnit unit = PrivacyUnit::Record;
    Task task = Task::Classification;
    TrainingStyle training = TrainingStyle::Steps;
    /// The setting whose values trace this algorithm's fairness–accuracy curve in the tradeoff
    /// view: the fairness weight λ for penalty methods, a dual step, a tolerance, or a setting
    /// a run sweeps itself (RunResult::curve, e.g. post-processing's γ).
    std::string curveSetting = "lambda";
    /// What a run's history counts (EpochMetrics::epoch) and the setting that says how many: an
    /// epoch over the training rows of `epochs` for most, a round or a step of the algorithm's
    /// own setting for the others. Views name a run's progress by it ("35 of 300 rounds"), not
    /// by an epochs setting the algorithm does not read.
    std::string progressUnit = "epoch";
    std::string progressSetting = "epochs";
};

/// The marker of an algorithm's points in every tradeoff chart and in the report.
enum class ChartMarker { Pentagon, Circle, Square, Triangle, Star, Diamond };

/// How an algorithm is drawn and explained, declared with it so that every chart, the report
/// and the teaching panel agree, and no view names an algorithm.
struct AlgorithmPresentation {
    ChartMarker marker = ChartMarker::Pentagon;
    /// 0xRRGGBB of its series where colour tells algorithms apart (the privacy-price view);
    /// the Okabe–Ito palette keeps the colours distinguishable with colour-blindness.
    std::uint32_t colour = 0xCC79A7;
    /// A plain-words paragraph (HTML) for the teaching panel; empty: the description is shown.
    std::string plainWords{};
};

class Algorithm;

/// A configuration checked and completed for one algorithm and one data split: the
/// algorithm's own parameters present (defaults filled, foreign ones dropped), every value in
/// range, the data-dependent rules checked and every automatic value resolved. Only
/// prepareRun makes one, so an algorithm never sees unchecked settings and never resolves
/// them twice.
class PreparedConfig {
public:
    const TrainConfig& config() const { return m_config; }

private:
    friend PreparedConfig prepareRun(const Algorithm&, const TrainConfig&, const DataSplit&);
    explicit PreparedConfig(TrainConfig config) : m_config(std::move(config)) {}
    TrainConfig m_config;
};

/// A training algorithm. Implementations live one per file in core/algorithms/ and are listed
/// in core/algorithms/algorithm_list.h.
class Algorithm {
public:
    virtual ~Algorithm() = default;

    /// Registry name used on the command line ("dp-fermi").
    virtual std::string name() const = 0;
    /// One plain-language line for menus and --help.
    virtual std::string description() const = 0;
    virtual AlgorithmCapabilities capabilities() const = 0;
    /// The parameters this algorithm reads, each declared once: common ones picked by name
    /// (commonParameters({...})) and its own (ownParameter). The CLI options, the GUI form,
    /// sweep axes, presets, run keys and records follow from them.
    virtual std::vector<ParamSpec> parameters() const = 0;
    /// parameters(), built on the first call and kept: declarations never change, and a sweep
    /// reads them several times for every run it prepares and records. Safe from several
    /// threads at once.
    const std::vector<ParamSpec>& declaredParameters() const;

    /// How charts draw it and the teaching panel explains it (default: a pentagon, reddish
    /// purple, the description).
    virtual AlgorithmPresentation presentation() const { return {}; }

    /// The shape of the rate its analysis gives for a run with these inputs, for the tradeoff
    /// views' theory overlay; none when the analysis gives none or a size it needs is missing.
    virtual std::optional<RateShape> theoryRate(const RateInputs& /*inputs*/) const {
        return std::nullopt;
    }

    bool supportsPrivacy() const { return capabilities().privacy; }
    bool usesFairness() const { return capabilities().fairness; }

    /// The rules that need the data or several values at once (ranges of single values are
    /// checked from the declarations before). Receives the resolved configuration; throws
    /// InputError whose message names the offending value and the rule it breaks.
    virtual void validate(const TrainConfig& config, const DataSplit& data) const = 0;

    /// Turns automatic values into concrete ones (default: resolveDefaults).
    virtual TrainConfig resolve(const TrainConfig& config, const DataSplit& data) const;

    /// Trains and returns the result (also for cancelled or diverged runs). Observer hooks run
    /// on the calling thread; `cancel` is checked before every minibatch.
    virtual RunResult run(const PreparedConfig& prepared, const DataSplit& data,
                          TrainingObserver& observer, const CancelToken& cancel) const = 0;

    /// Runs of this algorithm's family on one data set whose keys are equal and non-empty may
    /// train together (runTogether). Default: private runs with batch-sharing by-seed, keyed by
    /// seed and sampler (they draw the same batches); empty (alone) otherwise. An algorithm whose
    /// runs share work without sharing randomness (the same data read by every run) keys by
    /// that. `config` has the algorithm's own parameters filled (withOwnParameters or
    /// prepareRun).
    virtual std::string togetherKey(const TrainConfig& config, const Dataset& train) const;

    /// The algorithms whose runs may train together with this one's (equal togetherKey):
    /// their runTogether takes runs of any of them. Default: this algorithm alone (its name).
    virtual std::string togetherFamily() const { return name(); }

    /// Trains several prepared runs of this algorithm's family on `data`, together where they
    /// draw the same batches (batch-sharing by-seed with one seed and sampler: one pass over
    /// each batch for all of them), each result bit for bit what run() gives for it alone.
    /// Results and observers in the order of `runs`. Default: run() for each, one after
    /// another.
    virtual std::vector<RunResult> runTogether(const std::vector<PreparedConfig>& runs,
                                               const DataSplit& data,
                                               const std::vector<TrainingObserver*>& observers,
                                               const CancelToken& cancel) const;

private:
    mutable std::once_flag m_declaredOnce;
    mutable std::vector<ParamSpec> m_declared;
};

/// Whether `algorithm` declares (reads) the setting `parameter`.
bool readsParameter(const Algorithm& algorithm, const std::string& parameter);

/// A run's progress in its algorithm's own unit: "35 of 400 epochs", "300 of 300 rounds", or
/// "120 steps" when the setting is automatic and unresolved. `done`: the history's last count.
std::string progressText(const Algorithm& algorithm, const TrainConfig& config, long done);
/// How many epochs, rounds or steps the run is set to last (0 when automatic or unknown).
long plannedProgress(const Algorithm& algorithm, const TrainConfig& config);
/// How far a run had come at the history entry `metrics`, in its algorithm's unit: the epoch
/// for an algorithm that counts epochs, else the step count (its rounds or steps). A round
/// algorithm's `epoch` numbers its evaluations (DIFF2's every 20 rounds), not its rounds.
long progressAt(const Algorithm& algorithm, const EpochMetrics& metrics);
/// How long a run is set to last in its own unit: "400 epochs", "300 rounds", "auto steps".
std::string lengthText(const Algorithm& algorithm, const TrainConfig& config);

/// `config` with the algorithm's own parameters filled with their defaults where unset,
/// parameters of other algorithms dropped, and batch-sharing at its default unless the
/// algorithm reads it: what run keys and records are made from.
TrainConfig withOwnParameters(const Algorithm& algorithm, TrainConfig config);

/// Checks and completes `config` for `algorithm` on `data` (see PreparedConfig): the one place
/// where settings are validated and resolved. Throws InputError.
PreparedConfig prepareRun(const Algorithm& algorithm, const TrainConfig& config,
                          const DataSplit& data);

}  // namespace pfa
