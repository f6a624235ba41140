#include "core/sweep/slurm_jobs.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <utility>

#include "core/sweep/prepared_dataset.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

namespace fs = std::filesystem;

namespace {

/// Slurm's time format D-HH:MM:SS from minutes.
std::string slurmTime(long minutes) {
    const long days = minutes / (24 * 60);
    const long hours = minutes / 60 % 24;
    const long rest = minutes % 60;
    char text[32];
    if (days > 0)
        std::snprintf(text, sizeof text, "%ld-%02ld:%02ld:00", days, hours, rest);
    else
        std::snprintf(text, sizeof text, "%02ld:%02ld:00", hours, rest);
    return text;
}

/// A path as an #SBATCH option's value: sbatch splits those lines at white space unless the
/// value is in double quotes (a path with a double quote or a line break is refused earlier).
std::string sbatchPath(const std::string& path) {
    return path.find_first_of(" \t") == std::string::npos ? path : "\"" + path + "\"";
}

/// Refuses a path an #SBATCH line cannot carry.
void requireSbatchPath(const std::string& path) {
    if (path.find_first_of("\"\n\r") != std::string::npos)
        throw InputError("the path '" + path +
                         "' holds a double quote or a line break, which a Slurm script "
                         "cannot carry; choose another folder");
}

/// The #SBATCH lines every script shares.
std::string commonDirectives(const SlurmJobOptions& options) {
    std::string text = "#SBATCH --chdir=" + sbatchPath(options.workDir) + "\n";
    if (!options.partition.empty()) text += "#SBATCH --partition=" + options.partition + "\n";
    if (!options.account.empty()) text += "#SBATCH --account=" + options.account + "\n";
    if (!options.qos.empty()) text += "#SBATCH --qos=" + options.qos + "\n";
    return text;
}

std::string absolute(const std::string& path) {
    return fs::absolute(path).lexically_normal().string();
}

}  // namespace

std::string shellQuote(const std::string& text) {
    std::string out = "'";
    for (const char c : text) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

SweepJobFiles::SweepJobFiles(const std::string& out) {
    const fs::path path = fs::absolute(out).lexically_normal();
    name = path.stem().string();
    const std::string stem = (path.parent_path() / name).string();
    results = path.string();
    manifest = stem + ".manifest.json";
    shardPattern = stem + ".shard-{I}.jsonl";
    jobsDir = stem + ".slurm";
}

SlurmEstimates slurmEstimates(const SweepManifest& manifest, const SlurmJobOptions& options,
                              long tasksRuns) {
    SlurmEstimates e;
    const double values = static_cast<double>(manifest.trainRows + manifest.testRows) *
                          static_cast<double>(manifest.features + 1);
    // The rows, one copy with the bias column, loading and the runs' buffers: 3 copies + 0.5 GB.
    const double bytes = 3.0 * 8.0 * values + 512.0 * 1024 * 1024;
    const long gigabytes =
        std::max(1L, static_cast<long>(std::ceil(bytes / (1024.0 * 1024 * 1024))));
    e.mem = options.mem.empty() ? std::to_string(gigabytes) + "G" : options.mem;
    // A run-epoch reads the training rows about four times (steps and evaluation); at a
    // conservative 1 GB/s per CPU, times 3 for slower nodes, plus 10 minutes for loading.
    const double runs = static_cast<double>(std::max<std::size_t>(1, manifest.runs.size()));
    const double epochsPerRun = manifest.runEpochs / runs;
    const double secondsPerRun = epochsPerRun * 4.0 * 8.0 *
                                 static_cast<double>(manifest.trainRows) *
                                 static_cast<double>(manifest.features + 1) / 1e9;
    const double cpus = static_cast<double>(std::max(1L, options.cpusPerTask));
    const double seconds = 3.0 * secondsPerRun * static_cast<double>(tasksRuns) / cpus + 600.0;
    const long minutes = std::max(15L, static_cast<long>(std::ceil(seconds / 60.0 / 15.0)) * 15);
    e.time = options.time.empty() ? slurmTime(minutes) : options.time;
    e.basis = "up to " + std::to_string(tasksRuns) + " run(s) per task, " +
              formatNumber(epochsPerRun, 4) + " epoch(s) each, " +
              std::to_string(manifest.trainRows) + " training rows x " +
              std::to_string(manifest.features + 1) + " columns";
    return e;
}

SlurmJobs writeSlurmJobs(const SweepManifest& manifest, const std::vector<int>& shards,
                         const SlurmJobOptions& options, bool rerun) {
    if (shards.empty()) throw InputError("no shards to write jobs for");
    const SweepJobFiles files(manifest.mergedFile);
    requireSbatchPath(files.jobsDir);
    requireSbatchPath(options.workDir);
    long tasksRuns = 0;
    const std::vector<long> perShard = runsPerShard(manifest);
    for (const int shard : shards)
        tasksRuns = std::max(tasksRuns, perShard[static_cast<std::size_t>(shard)]);
    const SlurmEstimates e = slurmEstimates(manifest, options, tasksRuns);
    const std::string& pfaCli = options.pfaCli;
    fs::create_directories(files.jobsDir + "/logs");
    fs::create_directories(fs::path(files.results).parent_path());

    SlurmJobs jobs;
    const bool contiguous =
        shards.size() == static_cast<std::size_t>(manifest.shards) && shards.front() == 0;
    if (contiguous) {
        jobs.shardList = "0-" + std::to_string(manifest.shards - 1);
    } else {
        for (const int shard : shards)
            jobs.shardList += (jobs.shardList.empty() ? "" : ",") + std::to_string(shard);
    }
    const std::string& list = jobs.shardList;
    jobs.arrayFile = files.jobsDir + (rerun ? "/array-rerun.sbatch" : "/array.sbatch");
    jobs.mergeFile = files.jobsDir + "/merge.sbatch";
    jobs.submitFile = files.jobsDir + (rerun ? "/submit-rerun.sh" : "/submit.sh");

    std::string train = shellQuote(pfaCli) + " train";
    for (const std::string& argument : manifest.trainArguments) train += " " + shellQuote(argument);
    std::string pattern = absolute(manifest.shardFile);
    pattern.replace(pattern.find("{I}"), 3, "${SLURM_ARRAY_TASK_ID}");

    std::string array = "#!/bin/bash\n";
    array += "# PFA Explorer sweep '" + manifest.name +
             "': " + std::to_string(manifest.runs.size()) + " run(s) in " +
             std::to_string(manifest.shards) + " shard(s)" +
             (rerun ? ", rerunning shard(s) " + list : "") + ".\n";
    array += "# Written by " + options.writtenBy + "; the manifest " + files.manifest +
             "\n# lists every run. Time and memory estimated from " + e.basis + ".\n";
    array += "#SBATCH --job-name=pfa-" + manifest.name + "\n";
    array += "#SBATCH --array=" + list + "\n";
    array += "#SBATCH --cpus-per-task=" + std::to_string(options.cpusPerTask) + "\n";
    array += "#SBATCH --time=" + e.time + "\n";
    array += "#SBATCH --mem=" + e.mem + "\n";
    array += "#SBATCH --output=" + sbatchPath(files.jobsDir + "/logs/shard-%a.out") + "\n";
    array += commonDirectives(options);
    array += "set -euo pipefail\n";
    array += "SHARDS=" + std::to_string(manifest.shards) +
             "  # the sweep's shard count (a rerun of some shards keeps it)\n";
    array += "mkdir -p " + shellQuote(fs::path(files.results).parent_path().string()) + "\n";
    array += "# Threads: the CPUs Slurm gives the task (pfa-cli reads its affinity and cgroup).\n";
    array += "# A rerun task resumes: runs already in its results file are not trained again.\n";
    array += "exec " + train + " \\\n    --shard \"${SLURM_ARRAY_TASK_ID}/${SHARDS}\" --out \"" +
             pattern + "\"\n";

    std::string merge = "#!/bin/bash\n";
    merge += "# Merges the shards of '" + manifest.name + "' into " + files.results +
             " after every task has ended,\n# and fails (exit 3) naming what is missing when a "
             "shard did not finish.\n";
    merge += "#SBATCH --job-name=pfa-" + manifest.name + "-merge\n";
    merge += "#SBATCH --cpus-per-task=1\n#SBATCH --time=00:15:00\n#SBATCH --mem=2G\n";
    merge += "#SBATCH --output=" + sbatchPath(files.jobsDir + "/logs/merge.out") + "\n";
    merge += commonDirectives(options);
    merge += "set -euo pipefail\n";
    merge +=
        "exec " + shellQuote(pfaCli) + " merge --manifest " + shellQuote(files.manifest) + "\n";

    std::string submit = "#!/bin/bash\n";
    submit +=
        "# Submits the array, then the merge once every task of it has ended (afterany: a\n"
        "# cancelled or failed task does not leave the merge pending; it reports it).\n";
    submit += "set -euo pipefail\n";
    submit += "array=$(sbatch --parsable " + shellQuote(jobs.arrayFile) + ")\n";
    submit += "array=${array%%;*}\n";
    submit += "merge=$(sbatch --parsable --dependency=afterany:${array} " +
              shellQuote(jobs.mergeFile) + ")\n";
    submit += "merge=${merge%%;*}\n";
    submit += "echo \"submitted: array job ${array} (shards " + list +
              "), merge job ${merge} after it\"\n";

    for (const auto& [file, text] : {std::pair<std::string, std::string>{jobs.arrayFile, array},
                                     {jobs.mergeFile, merge},
                                     {jobs.submitFile, submit}}) {
        std::ofstream out(file, std::ios::trunc);
        if (!(out << text) || !out.flush()) throw InputError("cannot write '" + file + "'");
    }
    fs::permissions(jobs.submitFile, fs::perms::owner_exec | fs::perms::group_exec,
                    fs::perm_options::add);
    jobs.submitCommand = "bash " + shellQuote(jobs.submitFile);
    return jobs;
}

SweepManifest planClusterSweep(const SweepPreset& sweep, const std::string& results, long shards,
                               const SweepDataSize& size) {
    SweepSpec spec = sweep.spec;
    spec.datasets.clear();
    for (const DatasetRequest& request : sweep.datasets())
        spec.datasets.push_back(datasetKey(request));
    SweepManifest manifest =
        planShards(spec.expand(), static_cast<long>(spec.seeds.size()), shards);
    const SweepJobFiles files(results);
    manifest.name = files.name;
    manifest.shardFile = files.shardPattern;
    manifest.mergedFile = files.results;
    manifest.trainRows = size.trainRows;
    manifest.testRows = size.testRows;
    manifest.features = size.features;
    return manifest;
}

ClusterSweep writeClusterSweep(const SweepPreset& sweep, const std::string& results, long shards,
                               const SweepDataSize& size, const std::string& dataDirectory,
                               const SlurmJobOptions& options) {
    if (fs::path(results).extension() != ".jsonl")
        throw InputError("the results file '" + results + "' must end in .jsonl");
    ClusterSweep written;
    written.manifest = planClusterSweep(sweep, results, shards, size);
    const SweepJobFiles files(results);
    fs::create_directories(fs::path(files.results).parent_path());
    written.sweepFile =
        (fs::path(files.results).parent_path() / (files.name + ".sweep.json")).string();
    written.manifest.trainArguments = {"--preset", written.sweepFile};
    if (!dataDirectory.empty()) {
        written.manifest.trainArguments.push_back("--data-dir");
        written.manifest.trainArguments.push_back(absolute(dataDirectory));
    }
    for (const auto& [file, text] :
         {std::pair<std::string, std::string>{written.sweepFile, sweepPresetJson(sweep)},
          {files.manifest, manifestJson(written.manifest)}}) {
        std::ofstream out(file, std::ios::trunc);
        if (!(out << text) || !out.flush()) throw InputError("cannot write '" + file + "'");
    }
    std::vector<int> every;
    for (int shard = 0; shard < written.manifest.shards; ++shard) every.push_back(shard);
    written.jobs = writeSlurmJobs(written.manifest, every, options, false);
    return written;
}

}  // namespace pfa
