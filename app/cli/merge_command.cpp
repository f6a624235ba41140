// pfa-cli merge: combines results files of sharded sweeps, once per run key.
#include <cstdio>

#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "core/sweep/results_file.h"

namespace pfa::cli {

namespace {

const char* const kMergeHelp =
    "usage: pfa-cli merge OUT.jsonl IN.jsonl [IN.jsonl ...]\n"
    "\n"
    "Writes every result record of the inputs to OUT.jsonl once per run key (the first copy\n"
    "wins), in input order; damaged lines (a write cut by a crash) are skipped and counted.\n"
    "Use it to combine the shards of a sweep run with 'pfa-cli train --shard I/N'.\n";

}  // namespace

int mergeCommand(int argc, char** argv) {
    if (argc >= 3 && std::string(argv[2]) == "--help") {
        std::fputs(kMergeHelp, stdout);
        return 0;
    }
    if (argc < 4) throw UsageError("needs an output file and at least one input file");
    std::vector<std::string> inputs;
    for (int i = 3; i < argc; ++i) {
        if (std::string(argv[i]).rfind("--", 0) == 0)
            throw UsageError(std::string("unknown option ") + argv[i]);
        inputs.push_back(argv[i]);
    }
    const std::string output = argv[2];
    for (const std::string& input : inputs) {
        if (input == output) throw UsageError("the output file must not also be an input");
    }
    const MergeReport report = mergeResultsFiles(inputs, output);
    std::printf(
        "%zu record(s) read, %zu written to %s, %zu duplicate(s) dropped, %zu damaged line(s) "
        "skipped\n",
        report.inputRecords, report.written, output.c_str(), report.duplicates, report.damaged);
    return 0;
}

}  // namespace pfa::cli
