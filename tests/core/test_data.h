#pragma once

// Shared helpers for the core tests: small data splits built in memory.
#include <string>
#include <vector>

#include "core/algorithms/linear_sgd/linear_dp_sgd.h"
#include "core/config/algorithm.h"
#include "core/config/run_result.h"
#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/data/preprocessing.h"
#include "core/data/synthetic.h"
#include "core/privacy/dataset_ledger.h"
#include "core/sweep/prepared_dataset.h"
#include "test_skip.h"

namespace pfa::test {

/// The built-in synthetic data set, split 75/25 with split seed 0.
inline DataSplit syntheticSplit(int rows = 4000, int features = 8, double bias = 1.0) {
    SyntheticOptions options;
    options.rows = rows;
    options.features = features;
    options.groupLabelDependence = bias;
    return splitAndEncode(generateSynthetic(options));
}

/// The built-in synthetic-linear data set (Gaussian features, y = ⟨w*, x⟩ + noise) with
/// `rows` rows and `features` features, split as its request says (a sixth held out).
DataSplit linearSplit(long rows, long features);

/// Trains `setup` (runLinearSgd, no ε reported) on `data` with the streams RunStreams gives
/// `resolved` on `streamRows`: the same batches and noise for every call with the same settings
/// and stream rows, whatever `data` and `setup` hold.
RunResult trainLinearSetup(const LinearSgdSetup& setup, const DataSplit& data,
                           const TrainConfig& resolved, const Dataset& streamRows);

/// Path of an offline benchmark data set (under sharedDatasetsRoot(): $PFA_SHARED_DATASETS, else
/// beside the project), or "" when absent: a test that needs it then skips with PFA_SKIP_TEST.
std::string sharedDatasetPath(const std::string& relative);

/// Why a test needing `relative` (a folder or file of the offline copies) skips.
std::string missingDatasetReason(const std::string& relative);

/// A short run's settings: 20 epochs, batch 256.
TrainConfig quickConfig(const std::string& algorithm, double epsilon, double lambda);

/// Runs `config` on `data` with a silent observer and no cancellation.
RunResult runQuietly(const TrainConfig& config, const DataSplit& data);

/// Trains `configs` together on `data` (runAlgorithmTogether) as a sweep does: with observers
/// that show no batch loss (so runs that share a batch step their rows in lanes), no
/// cancellation.
std::vector<RunResult> runTogetherAsSweep(const std::vector<TrainConfig>& configs,
                                          const DataSplit& data);

/// The results of runTogetherAsSweep three ways, for the tests of runs' lanes.
struct LanesThreeWays {
    std::vector<RunResult> lanes;     ///< in lanes, with the machine's best instructions
    std::vector<RunResult> oneByOne;  ///< with `stepOneByOne(true)` in force
    std::vector<RunResult> baseline;  ///< in lanes, with the baseline instructions only
};
LanesThreeWays runTogetherThreeWays(const std::vector<TrainConfig>& configs, const DataSplit& data,
                                    void (*stepOneByOne)(bool));

/// The synthetic data with 300 users (2400 rows), for algorithms whose unit of privacy is a user.
DataSplit syntheticUserSplit();

/// The synthetic data (800 rows) dealt out to 4 silos: the algorithms that train across silos
/// need them, the others ignore them.
DataSplit syntheticSiloSplit();

/// The data a tiny run of `algorithm` takes: syntheticUserSplit() for user-level algorithms,
/// syntheticSiloSplit() for the others (each built once).
const DataSplit& tinyRunData(const Algorithm& algorithm);

/// A tiny run's settings for `algorithm` (2 epochs, batch 100, seed 3): private at ε = 1 when
/// it can be, with the fairness term (λ = 1) when it has one; every other setting at its
/// default.
TrainConfig tinyConfig(const Algorithm& algorithm);

/// tinyConfig, adapted to what the algorithm accepts: the sensitive-only scope when it protects
/// nothing else, equalized odds for the post-processing that knows no other notion.
TrainConfig tinyRunConfig(const Algorithm& algorithm);

/// Rows whose features are all zero: the weights of those features get exactly zero gradient,
/// so after T steps each one equals −η·Σ_t u_t, a sum of the trainer's noise draws. Labels
/// alternate 0/1 (or are all `label` when it is 0 or 1), groups alternate in pairs.
DataSplit zeroFeatureData(int rows, int features, int label = -1);

/// The built-in synthetic data set with `rows` rows, prepared as sweeps and the GUI load it.
PreparedDatasetPtr preparedSynthetic(int rows);

/// The ledger entry of a completed run `uid` with accounting `in`, charged at its certified ε.
privacy::LedgerEntry ledgerEntryOf(const std::string& uid, const privacy::AccountingInputs& in);

}  // namespace pfa::test
