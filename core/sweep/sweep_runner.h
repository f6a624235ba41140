#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/config/cancel_token.h"
#include "core/config/run_result.h"
#include "core/data/dataset.h"
#include "core/privacy/dataset_ledger.h"
#include "core/sweep/prepared_dataset.h"
#include "core/sweep/run_record.h"
#include "core/sweep/sweep_spec.h"
#include "core/util/json_value.h"

namespace pfa {

/// Loads the data set behind a key of SweepSpec::datasets (loaded once, shared read-only by
/// all of its runs); throws InputError on failure.
using DatasetProvider = std::function<PreparedDatasetPtr(const std::string& dataset)>;

/// Where a sweep stands.
struct SweepProgress {
    std::size_t total = 0;        ///< runs of this invocation (after sharding)
    std::size_t alreadyDone = 0;  ///< found in the results file and skipped (resume)
    std::size_t finished = 0;     ///< finished in this invocation (including failed)
    std::size_t failed = 0;       ///< failed or diverged
    double elapsedSeconds = 0.0;
    double etaSeconds = 0.0;  ///< estimate for the remaining runs (0 when unknown)
};

/// How to execute a sweep.
struct SweepOptions {
    int threads = 0;         ///< parallel runs; 0 = all hardware threads
    std::string outputPath;  ///< JSON-lines results file to append to ("" = none)
    bool resume = true;      ///< skip runs whose key is already in the results file
    int shardIndex = 0;      ///< run only runs with index % shardCount == shardIndex
    int shardCount = 1;
    /// After every finished run (serialised; called on a worker thread).
    std::function<void(const SweepRun&, const RunResult&, const SweepProgress&)> onRunFinished;
    /// After a run cut short by cancellation (not recorded in the results file, but it ran:
    /// the privacy ledger charges its executed steps). Serialised; called on a worker thread.
    std::function<void(const SweepRun&, const RunResult&)> onRunCutShort;
    /// With `resume`: once per run skipped because the results file already holds it, with
    /// that record, before any run starts (on the calling thread).
    std::function<void(const SweepRun&, const JsonValue& record)> onAlreadyDone;
    /// Every execution that touched the rows — each run, whether it finished, failed, diverged
    /// or was cut short, and each auto-tune trial and final run — as privacy-ledger entries for
    /// the data set of `context` (whose dataFingerprint names its persistent ledger; see
    /// chargeLedgerStore). Called as soon as the execution ends, before it is recorded,
    /// serialised, on a worker thread. Non-private executions are not passed. What it throws is
    /// kept in SweepOutcome::chargeError.
    std::function<void(const RunContext& context, const std::vector<privacy::LedgerEntry>& entries)>
        onCharge;
};

/// What an invocation did.
struct SweepOutcome {
    std::vector<SweepRun> runs;      ///< the runs finished now, in sweep order
    std::vector<RunResult> results;  ///< their results (parallel to `runs`)
    SweepProgress progress;
    bool cancelled = false;
    /// The first error onCharge threw (e.g. the ledger file could not be written); the sweep
    /// went on, and every later charge was still tried. "" when none.
    std::string chargeError;
};

/// The runs of shard `index` of `count` (run.index % count == index).
std::vector<SweepRun> shardRuns(const std::vector<SweepRun>& runs, int index, int count);

/// How many runs with `rows` training and test rows and `classes` classes a sweep trains
/// together at most (batch-sharing by-seed): 32, fewer when their evaluation buffers
/// (about (3·classes + 1) doubles and an int per row and run) would pass 2 GiB.
std::size_t togetherLimit(long rows, int classes);

/// Checks every run's configuration against its data set; throws InputError naming the run's
/// settings and the offending value.
void validateSweep(const std::vector<SweepRun>& runs, const DatasetProvider& provider);

/// Runs the sweep on a pool of worker threads. Every finished run is appended to the results
/// file at once (fsync'd); with `resume`, runs already recorded there are skipped, so an
/// interrupted sweep continues where it stopped. Cancellation stops all workers within one
/// minibatch; cut-short runs are not recorded. A failing run is recorded with status
/// "failed" and its reason, and the sweep goes on. Results are bit-identical whatever the
/// number of threads.
SweepOutcome runSweep(const SweepSpec& spec, const DatasetProvider& provider,
                      const SweepOptions& options, const CancelToken& cancel);

/// Marks a finished run of a sweep as one of the candidates of its grid (tuning mode, K and
/// the grid's ε in its privacy report) and re-renders its statement. Non-private runs and
/// single-candidate grids without a split budget are left as they are.
void describeTuning(RunResult& result, const SweepRun& run);

}  // namespace pfa
