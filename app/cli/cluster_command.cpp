// pfa-cli cluster slurm: a sweep as a Slurm job array — the array, a merge job that checks the
// merge against the sweep's manifest, and the one command that submits both.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "core/sweep/sweep_manifest.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa::cli {

namespace fs = std::filesystem;

namespace {

const char* const kClusterHelp =
    "usage: pfa-cli cluster slurm [job options] TRAIN OPTIONS --out RESULTS.jsonl\n"
    "       pfa-cli cluster slurm --resume MANIFEST.json [job options]\n"
    "\n"
    "Runs the sweep the train options describe (pfa-cli train --help: a preset, data,\n"
    "algorithms, epsilon, lambda, seeds, settings) as a Slurm job array. Writes, beside\n"
    "RESULTS.jsonl:\n"
    "  RESULTS.manifest.json   every run's key and shard (what merge and status check)\n"
    "  RESULTS.slurm/array.sbatch   the job array: task I trains shard I/N into\n"
    "                          RESULTS.shard-I.jsonl (resuming it when rerun)\n"
    "  RESULTS.slurm/merge.sbatch   merges the shards into RESULTS.jsonl after every task has\n"
    "                          ended (afterany), names missing or incomplete shards and fails\n"
    "  RESULTS.slurm/submit.sh      the submission: the array, then the merge chained to it\n"
    "and prints the one command that submits both (--submit runs it). Shards hold whole seeds\n"
    "by default, so runs that share batches by seed stay together.\n"
    "\n"
    "job options:\n"
    "  --shards N            array tasks (default: the number of seeds, or about 8 runs each\n"
    "                        for a single seed)\n"
    "  --cpus-per-task C     CPUs per task (default 2); the tasks use what they are given\n"
    "  --time D-HH:MM:SS     time limit per task (default: an estimate from the runs, their\n"
    "                        epochs and the data size, generous; the script says how)\n"
    "  --mem SIZE            memory per task, e.g. 8G (default: an estimate from the data size)\n"
    "  --partition P, --account A, --qos Q   passed to sbatch\n"
    "  --pfa-cli PATH        the pfa-cli the tasks run (default: this one, absolute path)\n"
    "  --submit              run the submission (sbatch must be on PATH) and print the job ids\n"
    "  --resume MANIFEST     a new array of only the shards still incomplete (they resume\n"
    "                        where they stopped) and a new merge after it\n"
    "\n"
    "Then: 'pfa-cli status --manifest RESULTS.manifest.json' while it runs; the merge job's\n"
    "log says whether every run is in RESULTS.jsonl. Exit codes: 0 ok, 1 error, 2 usage.\n";

struct JobOptions {
    long shards = 0;  // 0: automatic
    long cpus = 2;
    std::string time, mem, partition, account, qos, pfaCli;
    bool submit = false;
    std::string resume;
};

/// `text` quoted for a POSIX shell (single quotes).
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

/// This executable's absolute path.
std::string selfPath() {
    std::error_code error;
    const fs::path path = fs::read_symlink("/proc/self/exe", error);
    return error ? std::string("pfa-cli") : path.string();
}

std::string absolute(const std::string& path) {
    return fs::absolute(path).lexically_normal().string();
}

/// Where a sweep's files go, from its results file "DIR/NAME.jsonl".
struct SweepFiles {
    std::string name, results, manifest, shardPattern, jobsDir;
    explicit SweepFiles(const std::string& out) {
        const fs::path path = fs::absolute(out).lexically_normal();
        name = path.stem().string();
        const std::string stem = (path.parent_path() / name).string();
        results = path.string();
        manifest = stem + ".manifest.json";
        shardPattern = stem + ".shard-{I}.jsonl";
        jobsDir = stem + ".slurm";
    }
};

/// The estimates a job script states: memory from the data, time from the runs' work.
struct Estimates {
    std::string mem, time, basis;
};

Estimates estimate(const SweepManifest& manifest, const JobOptions& job, long tasksRuns) {
    Estimates e;
    const double values = static_cast<double>(manifest.trainRows + manifest.testRows) *
                          static_cast<double>(manifest.features + 1);
    // The rows, one copy with the bias column, loading and the runs' buffers: 3 copies + 0.5 GB.
    const double bytes = 3.0 * 8.0 * values + 512.0 * 1024 * 1024;
    const long gigabytes =
        std::max(1L, static_cast<long>(std::ceil(bytes / (1024.0 * 1024 * 1024))));
    e.mem = job.mem.empty() ? std::to_string(gigabytes) + "G" : job.mem;
    // A run-epoch reads the training rows about four times (steps and evaluation); at a
    // conservative 1 GB/s per CPU, times 3 for slower nodes, plus 10 minutes for loading.
    const double runs = static_cast<double>(std::max<std::size_t>(1, manifest.runs.size()));
    const double epochsPerRun = manifest.runEpochs / runs;
    const double secondsPerRun = epochsPerRun * 4.0 * 8.0 *
                                 static_cast<double>(manifest.trainRows) *
                                 static_cast<double>(manifest.features + 1) / 1e9;
    const double cpus = static_cast<double>(std::max(1L, job.cpus));
    const double seconds = 3.0 * secondsPerRun * static_cast<double>(tasksRuns) / cpus + 600.0;
    const long minutes = std::max(15L, static_cast<long>(std::ceil(seconds / 60.0 / 15.0)) * 15);
    e.time = job.time.empty() ? slurmTime(minutes) : job.time;
    e.basis = "up to " + std::to_string(tasksRuns) + " run(s) per task, " +
              formatNumber(epochsPerRun, 4) + " epoch(s) each, " +
              std::to_string(manifest.trainRows) + " training rows x " +
              std::to_string(manifest.features + 1) + " columns";
    return e;
}

/// The #SBATCH lines every script shares.
std::string commonDirectives(const JobOptions& job, const std::string& workDir) {
    std::string text = "#SBATCH --chdir=" + workDir + "\n";
    if (!job.partition.empty()) text += "#SBATCH --partition=" + job.partition + "\n";
    if (!job.account.empty()) text += "#SBATCH --account=" + job.account + "\n";
    if (!job.qos.empty()) text += "#SBATCH --qos=" + job.qos + "\n";
    return text;
}

/// Writes the array, merge and submit scripts for `shards` of the sweep; returns the submit
/// command.
std::string writeJobs(const SweepManifest& manifest, const SweepFiles& files,
                      const std::vector<int>& shards, const JobOptions& job, bool resume) {
    long tasksRuns = 0;
    std::vector<long> perShard(static_cast<std::size_t>(manifest.shards), 0);
    for (const auto& run : manifest.runs) ++perShard[static_cast<std::size_t>(run.second)];
    for (const int shard : shards)
        tasksRuns = std::max(tasksRuns, perShard[static_cast<std::size_t>(shard)]);
    const Estimates e = estimate(manifest, job, tasksRuns);
    const std::string pfaCli = job.pfaCli.empty() ? selfPath() : absolute(job.pfaCli);
    const std::string workDir = fs::current_path().string();
    fs::create_directories(files.jobsDir + "/logs");
    fs::create_directories(fs::path(files.results).parent_path());

    std::string list;
    const bool contiguous =
        shards.size() == static_cast<std::size_t>(manifest.shards) && shards.front() == 0;
    if (contiguous) {
        list = "0-" + std::to_string(manifest.shards - 1);
    } else {
        for (const int shard : shards) list += (list.empty() ? "" : ",") + std::to_string(shard);
    }
    const std::string arrayFile =
        files.jobsDir + (resume ? "/array-rerun.sbatch" : "/array.sbatch");
    const std::string mergeFile = files.jobsDir + "/merge.sbatch";
    const std::string submitFile = files.jobsDir + (resume ? "/submit-rerun.sh" : "/submit.sh");

    std::string train = shellQuote(pfaCli) + " train";
    for (const std::string& argument : manifest.trainArguments) train += " " + shellQuote(argument);
    std::string pattern = absolute(manifest.shardFile);
    pattern.replace(pattern.find("{I}"), 3, "${SLURM_ARRAY_TASK_ID}");

    std::string array = "#!/bin/bash\n";
    array += "# PFA Explorer sweep '" + manifest.name +
             "': " + std::to_string(manifest.runs.size()) + " run(s) in " +
             std::to_string(manifest.shards) + " shard(s)" +
             (resume ? ", rerunning shard(s) " + list : "") + ".\n";
    array += "# Written by pfa-cli cluster slurm; the manifest " + files.manifest +
             "\n# lists every run. Time and memory estimated from " + e.basis + ".\n";
    array += "#SBATCH --job-name=pfa-" + manifest.name + "\n";
    array += "#SBATCH --array=" + list + "\n";
    array += "#SBATCH --cpus-per-task=" + std::to_string(job.cpus) + "\n";
    array += "#SBATCH --time=" + e.time + "\n";
    array += "#SBATCH --mem=" + e.mem + "\n";
    array += "#SBATCH --output=" + files.jobsDir + "/logs/shard-%a.out\n";
    array += commonDirectives(job, workDir);
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
    merge += "#SBATCH --output=" + files.jobsDir + "/logs/merge.out\n";
    merge += commonDirectives(job, workDir);
    merge += "set -euo pipefail\n";
    merge +=
        "exec " + shellQuote(pfaCli) + " merge --manifest " + shellQuote(files.manifest) + "\n";

    std::string submit = "#!/bin/bash\n";
    submit +=
        "# Submits the array, then the merge once every task of it has ended (afterany: a\n"
        "# cancelled or failed task does not leave the merge pending; it reports it).\n";
    submit += "set -euo pipefail\n";
    submit += "array=$(sbatch --parsable " + shellQuote(arrayFile) + ")\n";
    submit += "array=${array%%;*}\n";
    submit +=
        "merge=$(sbatch --parsable --dependency=afterany:${array} " + shellQuote(mergeFile) + ")\n";
    submit += "merge=${merge%%;*}\n";
    submit += "echo \"submitted: array job ${array} (shards " + list +
              "), merge job ${merge} after it\"\n";

    for (const auto& [file, text] : {std::pair<std::string, std::string>{arrayFile, array},
                                     {mergeFile, merge},
                                     {submitFile, submit}}) {
        std::ofstream out(file, std::ios::trunc);
        if (!(out << text) || !out.flush()) throw InputError("cannot write '" + file + "'");
    }
    fs::permissions(submitFile, fs::perms::owner_exec | fs::perms::group_exec,
                    fs::perm_options::add);
    return "bash " + shellQuote(submitFile);
}

}  // namespace

bool isSetByShardTask(const std::string& option) {
    // --threads would fight the allocation: a task uses the CPUs Slurm gives it.
    return option == "--out" || option == "--shard" || option == "--threads" ||
           option == "--write-manifest" || option == "--shards";
}

bool isLeftOutOfShardTask(const std::string& option) {
    return option == "--quiet" || option == "--no-resume";
}

int clusterCommand(int argc, char** argv) {
    if (argc < 3 || std::string(argv[2]) == "--help") {
        std::fputs(kClusterHelp, argc < 3 ? stderr : stdout);
        return argc < 3 ? 2 : 0;
    }
    if (std::string(argv[2]) != "slurm")
        throw UsageError("unknown scheduler '" + std::string(argv[2]) +
                         "' (pfa-cli cluster slurm)");
    JobOptions job;
    std::vector<std::string> trainArguments;
    std::string out;
    const auto value = [&](int& i, const std::string& name) -> std::string {
        if (i + 1 >= argc) throw UsageError(name + " needs a value");
        return argv[++i];
    };
    for (int i = 3; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help") {
            std::fputs(kClusterHelp, stdout);
            return 0;
        } else if (a == "--shards") {
            job.shards = static_cast<long>(Arguments::parseNumber("shards", value(i, a), false));
            if (job.shards < 1 || job.shards > 100000)
                throw UsageError("--shards must be between 1 and 100000");
        } else if (a == "--cpus-per-task") {
            job.cpus =
                static_cast<long>(Arguments::parseNumber("cpus-per-task", value(i, a), false));
            if (job.cpus < 1 || job.cpus > 1024)
                throw UsageError("--cpus-per-task must be between 1 and 1024");
        } else if (a == "--time") {
            job.time = value(i, a);
        } else if (a == "--mem") {
            job.mem = value(i, a);
        } else if (a == "--partition") {
            job.partition = value(i, a);
        } else if (a == "--account") {
            job.account = value(i, a);
        } else if (a == "--qos") {
            job.qos = value(i, a);
        } else if (a == "--pfa-cli") {
            job.pfaCli = value(i, a);
        } else if (a == "--submit") {
            job.submit = true;
        } else if (a == "--resume") {
            job.resume = value(i, a);
        } else if (a == "--out") {
            out = value(i, a);
        } else if (isLeftOutOfShardTask(a)) {
            // A task's log shows each run as it ends; a rerun task resumes its shard.
            std::fprintf(stderr,
                         "note: %s is left out of the job: tasks log every run and resume\n",
                         a.c_str());
        } else if (isSetByShardTask(a)) {
            throw UsageError(a + " is set by the job script; leave it out");
        } else {
            trainArguments.push_back(a);
        }
    }

    SweepManifest manifest;
    std::vector<int> shards;
    std::string manifestPath;
    if (!job.resume.empty()) {
        if (!trainArguments.empty() || !out.empty())
            throw UsageError("--resume takes the sweep from its manifest: give job options only");
        if (job.shards > 0)
            throw UsageError("--resume keeps the sweep's shards; leave out --shards");
        manifestPath = job.resume;
        manifest = readManifest(manifestPath);
        if (manifest.trainArguments.empty()) {
            throw InputError("the manifest '" + manifestPath +
                             "' does not say which sweep it is (no train options); write it "
                             "again with pfa-cli cluster slurm or train --write-manifest");
        }
        const SweepStatus status = sweepStatus(manifest);
        shards = status.incompleteShards();
        if (shards.empty()) {
            std::printf(
                "every run of '%s' is recorded (%ld); nothing to rerun. Merge with:\n"
                "  pfa-cli merge --manifest %s\n",
                manifest.name.c_str(), status.expected, manifestPath.c_str());
            return 0;
        }
    } else {
        if (out.empty()) throw UsageError("--out RESULTS.jsonl is required");
        if (std::find(trainArguments.begin(), trainArguments.end(), "--auto-tune") !=
            trainArguments.end()) {
            throw UsageError(
                "--auto-tune sweeps cannot be sharded on a cluster yet; run them "
                "with pfa-cli train");
        }
        const SweepFiles files(out);
        manifestPath = files.manifest;
        fs::create_directories(fs::path(files.results).parent_path());
        // The sweep's plan, from the same code that trains it: pfa-cli train --write-manifest.
        std::vector<std::string> plan = {"pfa-cli", "train"};
        plan.insert(plan.end(), trainArguments.begin(), trainArguments.end());
        for (const std::string& extra :
             {std::string("--out"), files.results, std::string("--write-manifest"), files.manifest,
              std::string("--shards"), std::to_string(job.shards)}) {
            plan.push_back(extra);
        }
        std::vector<char*> planArgv;
        for (std::string& argument : plan) planArgv.push_back(argument.data());
        if (const int code = trainCommand(static_cast<int>(planArgv.size()), planArgv.data()))
            return code;
        manifest = readManifest(files.manifest);
        manifest.name = files.name;
        manifest.shardFile = files.shardPattern;
        manifest.mergedFile = files.results;  // (its train options: those given above)
        {
            std::ofstream rewrite(files.manifest, std::ios::trunc);
            if (!(rewrite << manifestJson(manifest)) || !rewrite.flush())
                throw InputError("cannot write '" + files.manifest + "'");
        }
        for (int shard = 0; shard < manifest.shards; ++shard) shards.push_back(shard);
        if (manifest.seeds > 1 && manifest.seeds % manifest.shards != 0) {
            std::fprintf(stderr,
                         "note: %d shards split the %ld seeds unevenly: runs that share batches "
                         "by seed train apart in different tasks (slower); a divisor of %ld "
                         "keeps them together\n",
                         manifest.shards, manifest.seeds, manifest.seeds);
        }
    }
    const SweepFiles files(manifest.mergedFile);
    const std::string command = writeJobs(manifest, files, shards, job, !job.resume.empty());
    std::printf("wrote %s/ (%s, merge.sbatch, %s) for %zu shard(s) of %d\n", files.jobsDir.c_str(),
                job.resume.empty() ? "array.sbatch" : "array-rerun.sbatch",
                job.resume.empty() ? "submit.sh" : "submit-rerun.sh", shards.size(),
                manifest.shards);
    if (!job.submit) {
        std::printf("submit with:\n  %s\nthen follow it with:\n  pfa-cli status --manifest %s\n",
                    command.c_str(), shellQuote(manifestPath).c_str());
        return 0;
    }
    std::fflush(stdout);
    const int status = std::system(command.c_str());
    if (status != 0) {
        std::fprintf(stderr, "error: the submission failed (%s); is sbatch on PATH?\n",
                     command.c_str());
        return 1;
    }
    std::printf("follow it with:\n  pfa-cli status --manifest %s\n",
                shellQuote(manifestPath).c_str());
    return 0;
}

}  // namespace pfa::cli
