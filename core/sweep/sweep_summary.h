#pragma once

#include <cstddef>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/config/run_result.h"
#include "core/sweep/run_protection.h"
#include "core/util/json_value.h"

namespace pfa {

/// Mean and spread of one quantity over the seeds of a sweep cell.
struct MeanSd {
    std::size_t n = 0;
    double mean = 0.0;
    double sd = 0.0;  ///< sample standard deviation (n − 1); 0 for a single value
    double min = 0.0;
    double max = 0.0;
    /// Standard error of the mean, sd/√n.
    double standardError() const;
};

/// Mean/sd of the finite values in `values` (non-finite values are skipped).
MeanSd meanSd(const std::vector<double>& values);

/// All runs of a sweep that differ only in their seed.
struct SweepCell {
    std::string cellKey;  ///< the run key without its seed
    std::string dataset;  ///< the data set's name
    /// The data set's identity (name, options, split); its name when the runs have no key.
    std::string datasetKey;
    std::string algorithm;
    std::string fairness;  ///< "dp", "eo", "eopp"
    std::string calibration;
    double epsilon = 0.0;
    double lambda = 0.0;
    std::size_t runs = 0;    ///< records in the cell
    std::size_t failed = 0;  ///< failed or diverged (excluded from the statistics)
    MeanSd testError;
    MeanSd violation;  ///< the cell's own fairness notion
    /// Final excess risk (runs whose generator knows the optimum; n = 0 when none has it).
    MeanSd excessRisk;
    /// Final squared gradient norm ‖∇f‖² of the training objective (runs that record it; n = 0
    /// when none does). A display metric on training rows.
    MeanSd gradientNormSquared;
    MeanSd epsilonSpent;  ///< certified ε (∞ for non-private runs)
    MeanSd seconds;
    /// Mean ± sd over the seeds of each final per-evaluation metric (SweepPoint::finalMetrics).
    std::map<std::string, MeanSd> finalMetrics;
    std::vector<std::size_t>
        recordIndices;  ///< into the input points (a record with a curve gives several)
    /// The runs used the published calibration, whose nominal ε (`epsilon`) is not what the
    /// accountant certifies.
    bool knownGaps = false;
    /// What the cell's runs protect (they share every setting: that of its first run).
    RunProtection protection;

    /// The ε to plot, group and colour by: the certified ε (the largest over the seeds) when the
    /// nominal one is not certified (published calibration), otherwise the ε of the settings.
    double shownEpsilon() const {
        return knownGaps && epsilonSpent.n > 0 ? epsilonSpent.max : epsilon;
    }
};

/// The numbers of one finished run that the sweep summaries use.
struct SweepPoint {
    std::string runKey;  ///< empty: the run forms a cell of its own
    std::string dataset;
    /// The data set's identity (the run key's "dataset=" setting, else the name): runs of one
    /// name may differ in its options or split.
    std::string datasetKey() const;
    std::string algorithm;
    std::string fairness;
    std::string calibration;
    double epsilon = 0.0;
    double lambda = 0.0;
    std::string status = "completed";
    double testError = 0.0;
    double violation = 0.0;
    /// The last finite excess risk of the history (NaN when the run has none).
    double excessRisk = std::numeric_limits<double>::quiet_NaN();
    /// The last finite squared gradient norm of the history (NaN when the run has none).
    double gradientNormSquared = std::numeric_limits<double>::quiet_NaN();
    double epsilonSpent = 0.0;
    double seconds = 0.0;
    bool knownGaps = false;  ///< published calibration: nominal ε ≠ certified ε
    /// What the run protects: unit, adjacency, scope (runProtectionOfRecord).
    RunProtection protection;
    /// The run's final value of every per-evaluation metric, by record column name
    /// (finalHistoryValues): what the error-vs-setting view can plot.
    std::map<std::string, double> finalMetrics;
};

/// Reads a point from a result record (a JSON line written by the sweep).
SweepPoint sweepPointFromRecord(const JsonValue& record);

/// The point of a run in memory (the window's runs): `runKey` its key, `epsilonSpent` the ε its
/// accountant certified (+∞ when not private).
SweepPoint sweepPointFromRun(const RunResult& run, const std::string& runKey, double epsilonSpent);

/// The points of a record: one, or for a run with a curve (RunResult::curve) one per curve
/// point, each with the run key's curve setting set to the point's value (so the points of
/// all seeds at one value form a cell) and the point's test error and violations.
std::vector<SweepPoint> sweepPointsFromRecord(const JsonValue& record);

/// `run` turned into one point per curve point: the run key's `setting` set to each value
/// (appended when the key lacks it), test error and the `notion`'s violation from the point.
/// Returns {run} when `curve` is empty.
std::vector<SweepPoint> expandCurvePoints(const SweepPoint& run,
                                          const std::vector<CurvePoint>& curve,
                                          FairnessNotion notion);

/// The run key with `setting` set to `valueText` (appended when absent).
std::string withKeySetting(const std::string& runKey, const std::string& setting,
                           const std::string& valueText);

/// Groups points into cells by run key without the seed, in order of first appearance;
/// `SweepCell::recordIndices` index into `points`.
std::vector<SweepCell> summarizePoints(const std::vector<SweepPoint>& points);

/// summarizePoints over result records: every curve point of a record with a curve
/// (sweepPointsFromRecord), or with `curves` false only each run's headline point.
std::vector<SweepCell> summarizeRecords(const std::vector<JsonValue>& records, bool curves = true);

/// The run key without its seed: the identity of a sweep cell.
std::string cellKeyOf(const std::string& runKey);

/// The settings of a run (or cell) key, "name=value;name=value…", in key order. A key that
/// holds no setting (a run without a key stands for itself) gives one pair ("", key).
std::vector<std::pair<std::string, std::string>> runKeySettings(const std::string& key);

/// The data-set identity of a run key (its "dataset=" setting); empty when it names none.
std::string datasetOfRunKey(const std::string& key);

/// Cells of a sweep view that belong together: equal in every setting except the `varying`
/// ones (and the seed, which a cell already spans) — a curve over λ, a line over ε, a heat map
/// over (ε, λ). Runs that differ in anything else (epochs, learning rate, data set, …) never
/// share a group. When the groups' private runs protect different things (unit, adjacency or
/// scope), every group with private runs ends its distinction with "protects: …".
struct SweepGroup {
    std::string key;                 ///< the cell key without the varying settings
    std::vector<std::size_t> cells;  ///< indices into the cells, in their order
    /// What tells this group from the others that agree with it on the `named` settings (the
    /// settings a view already shows, e.g. the algorithm): its differing settings as
    /// "name = value", comma-separated; empty when no other group shares its named settings.
    std::string distinction;
};

/// Groups `cells` by their key without the `varying` settings, in order of first appearance,
/// and gives each group its distinction from the groups equal in the `named` settings. A cell
/// whose key names no settings is known by its fields (data set, algorithm, notion, calibration,
/// ε, λ); one of a run recorded without a key stays in a group of its own.
std::vector<SweepGroup> groupCells(const std::vector<SweepCell>& cells,
                                   const std::vector<std::string>& varying,
                                   const std::vector<std::string>& named);

/// One cell kept by bestPointPerCurve.
struct CurveBest {
    std::size_t cell = 0;        ///< index into bestPointPerCurve's result
    std::string setting;         ///< the algorithm's curve setting ("gamma", "dual-step", …)
    std::string value;           ///< the value whose cell was kept, as typed
    std::size_t candidates = 0;  ///< cells it was chosen from
};

/// A view over ε (or another setting) of methods traced by their own setting — post-processing
/// over γ, PF-LD over its dual step, the reductions over their tolerance (curveSettingOf; λ is
/// not collapsed) — would draw one line per value of it, fifty for a γ curve. This keeps, of
/// the cells equal in every setting but that one, the cell with the lowest mean test error
/// (excess risk when every one of them has it), and drops the setting from its key, so that the
/// kept cells at different ε form one line. `keep` names a setting never collapsed (the x axis
/// of an error-vs-setting view). `chosen`, if given, receives each kept cell that stood for
/// more than one; `sources`, if given, the index in `cells` of each cell returned.
std::vector<SweepCell> bestPointPerCurve(const std::vector<SweepCell>& cells,
                                         std::vector<CurveBest>* chosen = nullptr,
                                         const std::string& keep = std::string(),
                                         std::vector<std::size_t>* sources = nullptr);

}  // namespace pfa
