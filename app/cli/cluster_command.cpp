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
#include "core/sweep/slurm_jobs.h"
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
    SlurmJobOptions slurm;
    bool submit = false;
    std::string resume;
};

/// This executable's absolute path.
std::string selfPath() {
    std::error_code error;
    const fs::path path = fs::read_symlink("/proc/self/exe", error);
    return error ? std::string("pfa-cli") : path.string();
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
            job.slurm.cpusPerTask =
                static_cast<long>(Arguments::parseNumber("cpus-per-task", value(i, a), false));
            if (job.slurm.cpusPerTask < 1 || job.slurm.cpusPerTask > 1024)
                throw UsageError("--cpus-per-task must be between 1 and 1024");
        } else if (a == "--time") {
            job.slurm.time = value(i, a);
        } else if (a == "--mem") {
            job.slurm.mem = value(i, a);
        } else if (a == "--partition") {
            job.slurm.partition = value(i, a);
        } else if (a == "--account") {
            job.slurm.account = value(i, a);
        } else if (a == "--qos") {
            job.slurm.qos = value(i, a);
        } else if (a == "--pfa-cli") {
            job.slurm.pfaCli = value(i, a);
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
        const SweepJobFiles files(out);
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
    const SweepJobFiles files(manifest.mergedFile);
    job.slurm.pfaCli = job.slurm.pfaCli.empty()
                           ? selfPath()
                           : fs::absolute(job.slurm.pfaCli).lexically_normal().string();
    job.slurm.workDir = fs::current_path().string();
    const SlurmJobs jobs = writeSlurmJobs(manifest, shards, job.slurm, !job.resume.empty());
    const std::string& command = jobs.submitCommand;
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
