// pfa-cli merge: combines results files of sharded sweeps, once per run key; with a sweep
// manifest it also checks that every run of the sweep is there.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "app/cli/arguments.h"
#include "app/cli/cell_table.h"
#include "app/cli/commands.h"
#include "core/sweep/results_file.h"
#include "core/sweep/sweep_manifest.h"
#include "core/sweep/sweep_summary.h"
#include "core/util/format.h"

namespace pfa::cli {

namespace {

const char* const kMergeHelp =
    "usage: pfa-cli merge OUT.jsonl IN.jsonl [IN.jsonl ...]\n"
    "       pfa-cli merge --manifest MANIFEST.json [--allow-partial] [OUT.jsonl]\n"
    "\n"
    "Writes every result record of the inputs to OUT.jsonl once per run key (the first copy\n"
    "wins), in input order; damaged lines (a write cut by a crash) are skipped and counted.\n"
    "Use it to combine the shards of a sweep run with 'pfa-cli train --shard I/N'.\n"
    "\n"
    "With --manifest (written by 'pfa-cli cluster slurm' beside the results) the inputs are\n"
    "the sweep's shard files and OUT defaults to its merged file; every run of the sweep is\n"
    "checked: a missing shard file or a shard with runs missing is named, with the command\n"
    "that reruns what is missing, and the exit code is 3 unless --allow-partial is given.\n"
    "Exit codes: 0 merged (and complete), 1 error, 2 usage, 3 incomplete.\n";

/// The shards still to run, as a list for --array or --shards ("2,5,7").
std::string shardList(const std::vector<int>& shards) {
    std::string text;
    for (const int shard : shards) text += (text.empty() ? "" : ",") + std::to_string(shard);
    return text;
}

/// The summary table of the merged file: one line per cell, mean ± sd over the seeds.
void printMergedSummary(const std::string& output) {
    const std::vector<JsonValue> records = readResultsFile(output).records;
    if (records.empty()) return;
    std::printf("\n");
    std::size_t failed = 0;
    printCellTable(summarizeRecords(records, false), records, failed);
    std::printf("\n");
}

}  // namespace

/// Prints what is missing from a sharded sweep; returns whether it is complete.
bool reportSweepStatus(const std::string& manifestPath, const SweepManifest& manifest,
                       const SweepStatus& status, bool perShard) {
    if (perShard) {
        std::printf("shard  runs  done  failed  run time  results file\n");
        for (const ShardStatus& s : status.shards) {
            std::printf("%5d  %4ld  %4ld  %6ld  %7.0fs  %s%s\n", s.shard, s.expected, s.done,
                        s.failed, s.seconds, shardFileOf(manifest, s.shard).c_str(),
                        s.fileExists ? "" : " (not written yet)");
        }
    }
    std::printf("%ld of %ld run(s) of '%s' recorded in %d shard(s), %ld failed or diverged\n",
                status.done, status.expected, manifest.name.c_str(), manifest.shards,
                status.failed);
    if (perShard && status.done > 0 && !status.complete()) {
        // Shards run side by side: the slowest one's missing runs at the mean recorded time.
        double seconds = 0.0;
        for (const ShardStatus& s : status.shards) seconds += s.seconds;
        const double perRun = seconds / static_cast<double>(status.done);
        double eta = 0.0;
        for (const ShardStatus& s : status.shards)
            eta = std::max(eta, perRun * static_cast<double>(s.expected - s.done));
        std::printf(
            "ETA about %.0f s if every incomplete shard is running (%.1f s per run so "
            "far)\n",
            eta, perRun);
    }
    if (status.unexpected > 0) {
        std::printf(
            "note: %ld record(s) in the shard files belong to no run of this sweep (other "
            "settings, or another version's keys); they are kept\n",
            status.unexpected);
    }
    if (status.complete()) return true;
    for (const ShardStatus& s : status.shards) {
        if (s.done == s.expected) continue;
        if (!s.fileExists) {
            std::printf("missing: shard %d/%d wrote no results file (%s): %ld run(s)\n", s.shard,
                        manifest.shards, shardFileOf(manifest, s.shard).c_str(), s.expected);
        } else {
            std::printf("incomplete: shard %d/%d has %ld of %ld run(s) (%s)\n", s.shard,
                        manifest.shards, s.done, s.expected,
                        shardFileOf(manifest, s.shard).c_str());
        }
    }
    std::printf(
        "rerun the incomplete shard(s) %s (each resumes where it stopped):\n"
        "  pfa-cli cluster slurm --resume %s --submit\n",
        shardList(status.incompleteShards()).c_str(), manifestPath.c_str());
    return false;
}

int mergeCommand(int argc, char** argv) {
    if (argc >= 3 && std::string(argv[2]) == "--help") {
        std::fputs(kMergeHelp, stdout);
        return 0;
    }
    std::vector<std::string> positional;
    std::string manifestPath;
    bool allowPartial = false;
    for (int i = 2; i < argc; ++i) {
        const std::string argument = argv[i];
        if (argument == "--manifest") {
            if (i + 1 >= argc) throw UsageError("--manifest needs a file");
            manifestPath = argv[++i];
        } else if (argument == "--allow-partial") {
            allowPartial = true;
        } else if (argument.rfind("--", 0) == 0) {
            throw UsageError("unknown option " + argument);
        } else {
            positional.push_back(argument);
        }
    }
    if (allowPartial && manifestPath.empty())
        throw UsageError("--allow-partial only goes with --manifest");

    std::string output;
    std::vector<std::string> inputs;
    std::optional<SweepManifest> manifest;
    if (!manifestPath.empty()) {
        manifest = readManifest(manifestPath);
        if (positional.size() > 1)
            throw UsageError(
                "with --manifest the inputs are the sweep's shard files; give at "
                "most the output file");
        output = positional.empty() ? manifest->mergedFile : positional.front();
        for (int shard = 0; shard < manifest->shards; ++shard) {
            const std::string file = shardFileOf(*manifest, shard);
            if (std::filesystem::exists(file)) inputs.push_back(file);
        }
    } else {
        if (positional.size() < 2)
            throw UsageError("needs an output file and at least one input file");
        output = positional.front();
        inputs.assign(positional.begin() + 1, positional.end());
    }
    for (const std::string& input : inputs) {
        if (input == output) throw UsageError("the output file must not also be an input");
    }
    if (manifest && inputs.empty()) {
        const SweepStatus status = sweepStatus(*manifest);
        reportSweepStatus(manifestPath, *manifest, status, false);
        std::fflush(stdout);
        std::fprintf(stderr, "error: no shard of '%s' has written results yet; nothing merged\n",
                     manifest->name.c_str());
        return 3;
    }
    const MergeReport report = mergeResultsFiles(inputs, output);
    std::printf(
        "%zu record(s) read, %zu written to %s, %zu duplicate(s) dropped, %zu damaged line(s) "
        "skipped\n",
        report.inputRecords, report.written, output.c_str(), report.duplicates, report.damaged);
    printMergedSummary(output);
    if (!manifest) return 0;
    const SweepStatus status = sweepStatus(*manifest);
    const bool complete = reportSweepStatus(manifestPath, *manifest, status, false);
    if (complete) return 0;
    if (allowPartial) {
        std::printf("merged anyway (--allow-partial): %s holds %ld of %ld run(s)\n", output.c_str(),
                    status.done, status.expected);
        return 0;
    }
    std::fflush(stdout);  // the report first, then the error (a job log interleaves them)
    std::fprintf(stderr,
                 "error: the sweep is incomplete (%ld of %ld runs); %s holds what there is "
                 "(--allow-partial to accept it)\n",
                 status.done, status.expected, output.c_str());
    return 3;
}

/// pfa-cli status --manifest M: how far a sharded sweep is.
int statusCommand(int argc, char** argv) {
    const Arguments args(argc, argv, 2, {"manifest"}, {"help"});
    if (args.has("help") || !args.has("manifest")) {
        std::fputs(
            "usage: pfa-cli status --manifest MANIFEST.json\n"
            "\n"
            "How far a sharded sweep (pfa-cli cluster slurm) is: per shard the runs expected,\n"
            "recorded and failed, the recorded runs' time, and what is missing, read from the\n"
            "shards' results files while they run. Exit code 0 when complete, 3 when not.\n",
            stdout);
        return args.has("help") ? 0 : 2;
    }
    const std::string path = args.text("manifest");
    const SweepManifest manifest = readManifest(path);
    const SweepStatus status = sweepStatus(manifest);
    return reportSweepStatus(path, manifest, status, true) ? 0 : 3;
}

}  // namespace pfa::cli
