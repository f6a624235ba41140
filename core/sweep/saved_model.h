#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/config/run_result.h"
#include "core/data/dataset.h"
#include "core/data/tabular_data.h"
#include "core/fairness/fairness_metrics.h"
#include "core/sweep/model_preprocessing.h"
#include "core/sweep/run_record.h"

namespace pfa {

/// A trained model read back from a run record or a model file, with what is needed to apply
/// it to raw rows.
struct SavedModel {
    std::string file;             ///< the results file (or model export) it came from
    std::size_t recordIndex = 0;  ///< 0-based index of its record in that file
    RunResult run;                ///< settings, metrics, θ, W and the feature bound
    RunContext context;           ///< run key, split and sizes; `preprocessing` is set
    /// A model file written by modelExportJson: it holds only what its options asked for.
    bool fromExport = false;
    /// The file holds the run seed (model files of private runs leave it out).
    bool seedKnown = true;
    /// The file holds the run's test metrics (model files hold them only when asked to).
    bool testMetricsKnown = true;
};

/// True when the run can be saved as a model: finite parameters and known preprocessing (runs
/// opened from files written before models were stored have neither).
bool hasSavedModel(const RunResult& result, const RunContext& context);

/// What a model file holds beyond the model. Both are off by default: the file then holds the
/// model, what is needed to apply it (the encoding of the columns, whose statistics are
/// labelled as not protected), the settings, the protected unit and adjacency, and the privacy
/// statement with the exact inputs of its ε — what the run's guarantee covers, and nothing
/// else computed from the private training rows.
struct ModelExportOptions {
    /// The test error, fairness violations, per-group and per-unit rates and their history:
    /// computed on the test rows, which are not protected.
    bool testMetrics = false;
    /// The training-set diagnostics the run recorded (training loss, objective, clip fraction,
    /// … per epoch) and the training-set counts: exact on the private training rows, not
    /// protected.
    bool diagnostics = false;
};

/// What a model file of a run holds and leaves out, in words (the export dialog and
/// `pfa-cli export-model` show it; the file's "export" block lists it too).
struct ModelExportContents {
    std::string protection;          ///< RunProtection::label(): the protected unit and adjacency
    std::vector<std::string> holds;  ///< covered by the guarantee, or public settings
    std::vector<std::string> notProtected;  ///< in the file, computed from private training rows
    std::vector<std::string> leftOut;       ///< in the run's record, not in the file
    /// A private run whose noise was derived from its seed (secure noise off): its guarantee
    /// assumes that nobody can regenerate the noise (seededNoiseWarning).
    bool seededNoise = false;
    /// The run recorded training-set diagnostics (ModelExportOptions::diagnostics can add them).
    bool diagnosticsRecorded = false;
};

/// The one name of the option that draws a run's noise from the operating system's entropy
/// (the `secure-noise` setting): "Secure noise (OS entropy)". The GUI, the command line's
/// help, the export warnings and the README use it.
extern const char* const kSecureNoiseName;

/// Why the model of a seeded private run should not leave the machine: its guarantee assumes
/// the seed stays secret, which a model file cannot promise. Empty for runs with secure noise
/// and for runs that are not private.
std::string seededNoiseWarning(const RunResult& run);

/// What modelExportJson(result, context, options) writes, in words.
ModelExportContents modelExportContents(const RunResult& result, const RunContext& context,
                                        const ModelExportOptions& options = {});

/// A model file: one JSON object that loadSavedModel (and pfa-cli predict) reads back. It is
/// the run's record with only the fields whose privacy class (record_fields.h) the file may
/// carry: the model (exact), the settings, the protected unit and adjacency, the privacy
/// statement and its accounting inputs, and the preprocessing, whose training-row statistics
/// are labelled "not protected" — plus what `options` adds. It never holds the bookkeeping
/// (wall time, ledger identity) nor, for a private run, the run seed or the run key (which
/// contains the seed; the statement's mention of the seed is blanked). An "export" block
/// first says what the file holds, what of it is not protected and what was left out.
/// Throws InputError when hasSavedModel is false.
std::string modelExportJson(const RunResult& result, const RunContext& context,
                            const ModelExportOptions& options = {});

/// Splits "FILE[:SELECTOR]": FILE is the shortest prefix before a ':' that names an existing
/// file (run keys contain ':' themselves), or the whole text. The selector is "" (none), "#N"
/// (0-based record index) or a run key.
std::pair<std::string, std::string> splitModelSpec(const std::string& spec);

/// Loads one run from `path`, a JSON-lines results file (pfa-cli train, GUI sweeps), a model
/// file (modelExportJson), or a file holding one JSON run record (model files written before
/// modelExportJson, also pretty-printed). `selector`: ""
/// takes the only run that has a model, "#N" the record with 0-based index N, anything else
/// the run with that run key. Throws DataFileError (a data problem) when the file cannot be
/// read or the chosen run has no model (written by an older version), and InputError (a usage
/// problem) when the selector matches nothing or several runs have a model and none is chosen.
SavedModel loadSavedModel(const std::string& path, const std::string& selector = "");

/// One record of a results file, for choosing a run (pfa-cli predict --list).
struct SavedRunSummary {
    std::size_t index = 0;
    std::string runKey;
    std::string algorithm;
    std::string fairness;
    double epsilon = 0.0;
    double lambda = 0.0;
    double seed = 0.0;       ///< NaN when the file leaves it out
    double testError = 0.0;  ///< NaN when the file leaves it out
    bool hasModel = false;   ///< the record has a model and its preprocessing
};

/// Every record of `path` (as loadSavedModel reads it), in file order.
std::vector<SavedRunSummary> listSavedRuns(const std::string& path);

/// Which rows predictFile uses.
struct PredictionOptions {
    /// Only the held-out test rows of the run's train/test split. The file must be the data the
    /// model was trained on (the same rows once read with the run's schema; one file, so not
    /// a catalog data set made of several files); its label and sensitive columns are then
    /// required, and Predictions::metrics equals the run's recorded test metrics.
    bool testRowsOnly = false;
};

/// A value of a categorical column that no training row had: encoded as all zeros, exactly as
/// splitAndEncode encodes such values in test rows.
struct UnseenLevel {
    std::string column;
    std::string value;
    long count = 0;
};

/// A saved model applied to the rows of a file.
struct Predictions {
    std::vector<std::string> classNames;  ///< the model's classes (columns of `probabilities`)
    std::vector<long> lines;              ///< physical line of each row in the file
    RowMatrix probabilities;              ///< rows × classes
    Eigen::VectorXi predicted;            ///< predicted class index per row
    bool hasLabels = false;               ///< the file has the target column
    bool hasGroups = false;               ///< the file has the sensitive column(s)
    std::vector<std::string> labels;      ///< true class name per row ("" = unknown)
    std::vector<std::string> groups;      ///< group name per row ("" = unknown)
    std::size_t droppedMissing = 0;       ///< rows skipped: a missing value in a feature column
    std::size_t droppedFiltered = 0;      ///< rows skipped by the schema's row filters
    std::vector<UnseenLevel> unseenLevels;
    /// Error and fairness of the predictions, computed as the run's test metrics are, when
    /// every row has a label and a group the model knows (always with testRowsOnly).
    std::optional<FairnessMetrics> metrics;

    long rows() const { return static_cast<long>(predicted.size()); }
    /// Rows with a known label, and the share of them predicted wrongly (NaN if none).
    long labelledRows() const;
    double error() const;
};

/// Reads `path` (CSV/TSV/ARFF, recognised by content) with the run's schema, encodes the rows
/// with the stored training statistics, rescales them by the stored feature bound and scores
/// them. Rows are read as in training: row filters and missing feature values skip rows
/// (counted); the label and sensitive columns are optional (see ReadOptions::labelsOptional).
/// A file with a header may hold the columns in any order, and extra columns are ignored;
/// for a schema without a header, the file may have one whose names are the schema's. Throws
/// DataFileError naming the file for a missing feature column and for malformed rows.
Predictions predictFile(const SavedModel& model, const std::string& path,
                        const PredictionOptions& options = {});

/// The encoded features (rows × d) of `data`, read with the model's schema, using the stored
/// statistics: z-scores for numeric columns, one-hot for categorical ones (a value outside
/// the kept levels encodes as zeros and is counted in `unseen` when given). Columns are found
/// by name; a missing one raises InputError.
RowMatrix encodeForModel(const ModelPreprocessing& preprocessing, const TabularData& data,
                         std::vector<UnseenLevel>* unseen = nullptr);

/// Scores encoded rows X (rows × d) with the run's θ as training evaluated them: the bias
/// column appended, rows [x, 1] with norm above the feature bound scaled down to it, then
/// probabilities (rows × l) and the predicted class per row.
void scoreRows(const RunResult& run, const FeatureRows& X, RowMatrix& probabilities,
               Eigen::VectorXi& predicted);

}  // namespace pfa
