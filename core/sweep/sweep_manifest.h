#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/sweep/sweep_spec.h"

namespace pfa {

/// What a sharded sweep is expected to produce, left beside its results by the job writer
/// (pfa-cli cluster slurm): every run key with the shard that trains it, where each shard
/// writes and where the merge goes. `merge --manifest` and `status` check the shards against it.
struct SweepManifest {
    std::string name;       ///< the sweep's name, e.g. "adult-dp"
    int shards = 1;         ///< N: shard I trains the runs with index % N == I
    std::string shardFile;  ///< shard I's results file, with "{I}" for I
    std::string mergedFile;
    /// The train options of the sweep (without --shard, --out and --threads): what a job
    /// script, or a rerun of some shards, passes to `pfa-cli train`.
    std::vector<std::string> trainArguments;
    /// The data's size and the runs' epochs summed: what the job writer's time and memory
    /// estimates start from (0 when unknown).
    long trainRows = 0, testRows = 0, features = 0;
    long seeds = 0;  ///< seeds in the grid (the innermost loop: N = seeds keeps each seed whole)
    double runEpochs = 0.0;
    /// Every run's key and shard, in the sweep's order.
    std::vector<std::pair<std::string, int>> runs;
};

/// The shard count when none is asked for: the seeds (shards then hold whole seeds, so runs
/// that share batches by seed stay together), or about 8 runs a shard for a single seed.
long automaticShardCount(long seeds, long runs);
/// The plan of a sweep's runs (its expansion, in order) in `shards` shards (0: automatic; at
/// most one shard per run): every run's key and shard (as --shard I/N picks them), the seeds
/// and the epochs. The caller adds the name, files, train options and the data's size.
SweepManifest planShards(const std::vector<SweepRun>& runs, long seeds, long shards);

/// How many of the manifest's runs each shard trains (index = shard).
std::vector<long> runsPerShard(const SweepManifest& manifest);

/// The manifest as a JSON document (one key per line, readable).
std::string manifestJson(const SweepManifest& manifest);
/// Reads a manifest; throws InputError saying what is wrong with the file.
SweepManifest readManifest(const std::string& path);
/// Shard `shard`'s results file.
std::string shardFileOf(const SweepManifest& manifest, int shard);

/// How far one shard is.
struct ShardStatus {
    int shard = 0;
    bool fileExists = false;
    long expected = 0;                 ///< runs of the manifest in this shard
    long done = 0;                     ///< of them, recorded in the shard's file (any status)
    long failed = 0;                   ///< of them, recorded as failed or diverged
    double seconds = 0.0;              ///< the recorded runs' wall time
    std::vector<std::string> missing;  ///< the run keys not recorded yet
};

/// How far a sharded sweep is: every shard's status, read from the shards' files.
struct SweepStatus {
    std::vector<ShardStatus> shards;
    long expected = 0, done = 0, failed = 0;
    long unexpected = 0;  ///< records in the shard files whose key the manifest does not list
    long damagedLines = 0;
    bool complete() const { return done == expected; }
    /// The shards with runs still missing, ascending.
    std::vector<int> incompleteShards() const;
};
SweepStatus sweepStatus(const SweepManifest& manifest);

}  // namespace pfa
