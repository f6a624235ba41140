#pragma once

#include <string>
#include <vector>

#include "core/sweep/sweep_manifest.h"
#include "core/sweep/sweep_preset.h"

namespace pfa {

/// How the job scripts of a sharded sweep ask Slurm for resources (pfa-cli cluster slurm, the
/// application's "Run on a cluster…").
struct SlurmJobOptions {
    long cpusPerTask = 2;
    std::string time;                     ///< D-HH:MM:SS per task; "" = estimated (slurmEstimates)
    std::string mem;                      ///< e.g. "8G"; "" = estimated
    std::string partition, account, qos;  ///< "" = not passed to sbatch
    std::string pfaCli;                   ///< the pfa-cli the tasks run (an absolute path)
    std::string workDir;                  ///< the tasks' working directory (#SBATCH --chdir)
    std::string writtenBy = "pfa-cli cluster slurm";  ///< named in the scripts' heads
};

/// Where a sweep's files go, from its merged results file "DIR/NAME.jsonl": the manifest
/// DIR/NAME.manifest.json, shard I's results DIR/NAME.shard-I.jsonl, the scripts in
/// DIR/NAME.slurm/ (logs in DIR/NAME.slurm/logs/).
struct SweepJobFiles {
    std::string name, results, manifest, shardPattern, jobsDir;
    /// `results` made absolute.
    explicit SweepJobFiles(const std::string& results);
};

/// The resources a task asks for, and what the estimate is based on.
struct SlurmEstimates {
    std::string mem, time, basis;
};
/// Memory from the data's size, time from the runs' epochs and rows (generous: 3× a slow
/// node's rate plus 10 minutes); `tasksRuns` is the largest shard's run count.
SlurmEstimates slurmEstimates(const SweepManifest& manifest, const SlurmJobOptions& options,
                              long tasksRuns);

/// What writeSlurmJobs wrote.
struct SlurmJobs {
    std::string arrayFile, mergeFile, submitFile;
    std::string shardList;      ///< the array's index list ("0-9", or "2,5" for a rerun)
    std::string submitCommand;  ///< "bash '…/submit.sh'": submits the array, then the merge
};

/// Writes the job array of `shards` (every shard, or the ones a rerun needs), the merge job
/// chained after every task has ended (afterany: it names missing shards and fails) and the
/// submission script, into the sweep's jobs folder. `rerun`: array-rerun.sbatch and
/// submit-rerun.sh, the first scripts kept. Throws InputError when a file cannot be written.
SlurmJobs writeSlurmJobs(const SweepManifest& manifest, const std::vector<int>& shards,
                         const SlurmJobOptions& options, bool rerun);

/// The size of the data a sweep runs on (the first data set), for the job's estimates.
struct SweepDataSize {
    long trainRows = 0, testRows = 0, features = 0;
};

/// The plan of `sweep` (its data sets' keys filled in) in `shards` shards (0: automatic), with
/// the names of `results`' files and the data's size: what writeClusterSweep writes, for a
/// preview of the runs per shard and the estimates.
SweepManifest planClusterSweep(const SweepPreset& sweep, const std::string& results, long shards,
                               const SweepDataSize& size);

/// A sweep the application wrote for a cluster.
struct ClusterSweep {
    std::string sweepFile;  ///< DIR/NAME.sweep.json: the sweep as a preset file
    SweepManifest manifest;
    SlurmJobs jobs;
};

/// Writes `sweep` beside `results` as a sweep file (sweepPresetJson), its manifest and the job
/// scripts, whose tasks run `pfa-cli train --preset SWEEPFILE [--data-dir DIR] --shard I/N`:
/// the same runs (same keys) as the sweep in the application. `dataDirectory` is the catalog
/// data's folder ("" = the per-user default on the node). Throws InputError when a file
/// cannot be written or `results` is not a .jsonl file.
ClusterSweep writeClusterSweep(const SweepPreset& sweep, const std::string& results, long shards,
                               const SweepDataSize& size, const std::string& dataDirectory,
                               const SlurmJobOptions& options);

/// `text` quoted for a POSIX shell (single quotes).
std::string shellQuote(const std::string& text);

}  // namespace pfa
