#pragma once

#include <map>
#include <memory>
#include <string>

#include "core/config/run_result.h"
#include "core/data/split_method.h"
#include "core/sweep/model_preprocessing.h"
#include "core/util/json_value.h"

namespace pfa {

/// Where a run's data came from, stored with every result line.
struct RunContext {
    std::string runKey;     ///< identity of the run within sweeps (see sweep_spec.h)
    std::string ledgerKey;  ///< the privacy ledger the run is charged to (ledgerKey())
    /// The content fingerprint of the data set's rows (datasetFingerprint): which persistent
    /// ledger the run is charged to. In memory only — an exact function of the private rows,
    /// it is never written into records ("" for runs read from records).
    std::string dataFingerprint;
    std::string datasetDescription;
    std::uint64_t splitSeed = 0;
    double testFraction = 0.25;
    SplitMethod splitMethod = SplitMethod::Seeded;
    long trainRows = 0;
    long testRows = 0;
    long features = 0;
    /// How raw rows become the model's inputs (null when unknown, e.g. an old record).
    std::shared_ptr<const ModelPreprocessing> preprocessing;
};

/// Options of the JSON form of a run.
struct RunRecordOptions {
    /// Significant digits of the per-epoch history (17 = exact round trip).
    int historyDigits = 7;
};

/// One result as a single JSON line (no trailing newline). Top-level keys: algorithm, dataset,
/// fairness, calibration (the one in force: "none" when not private), epsilon, delta, lambda,
/// seed, epochs, status, test_error, train_loss, violation, dp_violation, eo_violation,
/// eopp_violation, ermi, epsilon_spent, noise_theta, noise_w, seconds, groups (the per-group
/// table), plus `settings` (every other resolved parameter by its declared name, the
/// algorithm's own included), `config` (the data context), `metrics`, `privacy` (the full report
/// and the statement) and `history` (per-epoch arrays), then `model` (θ, W and the feature bound,
/// exact; absent when the run has no finite parameters) and `preprocessing` (how raw rows
/// become inputs; absent when the context has none) — see model_record.h. Non-finite numbers
/// are written as "inf"/"-inf", NaN as null. The `privacy` block carries the exact accounting
/// inputs (`accounting`), the noise source, which fields are unprotected training-set
/// diagnostics, further uncovered releases and, for data whose persons hold several rows, the
/// group-privacy ε per person.
std::string runRecordJson(const RunResult& result, const RunContext& context,
                          const RunRecordOptions& options = {});

/// Reads a run back from its JSON form, the model and preprocessing included when present
/// (records written before they were stored read with an empty θ and no preprocessing).
/// Parameters are read from their declarations: a missing one reads as what records written
/// before it existed ran, an unknown one is skipped, and records written before the
/// declarations (settings in "config" under snake_case names) read as before. Throws
/// InputError naming a missing or malformed key.
RunResult runResultFromJson(const JsonValue& json, RunContext* context = nullptr);

/// The last finite value of every per-evaluation metric of a run's history, by its record
/// column name ("train_loss", "test_error", "clip_fraction", "excess_risk", …): the final
/// numbers sweep views plot against a setting. Columns without a finite value are left out;
/// the bookkeeping columns (epoch, step, seconds, epsilon_spent) are not metrics.
std::map<std::string, double> finalHistoryValues(const std::vector<EpochMetrics>& history);
/// The same from a record's "history" object.
std::map<std::string, double> finalHistoryValues(const JsonValue& history);

}  // namespace pfa
