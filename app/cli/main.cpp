// pfa-cli: headless front end of the PFA Explorer core (Qt-free).
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "core/util/build_info.h"
#include "core/util/error.h"

const char* pfaBuildCommit();  // generated (app/build_commit.cmake)

namespace {

const char* const kUsage =
    "usage: pfa-cli <command> [options]\n"
    "\n"
    "commands:\n"
    "  train     run a sweep (data set x algorithm x notion x epsilon x lambda x seeds) and\n"
    "            append one JSON line per finished run; resumable, shardable, presets\n"
    "  merge     combine results files of sharded sweeps, once per run (with a sweep's\n"
    "            manifest: and check that every run is there)\n"
    "  cluster   run a sweep as a Slurm job array: job scripts, a checked merge, one command\n"
    "  status    how far a sharded sweep is, shard by shard\n"
    "  ledger    the privacy ledger of each data set in results files (RDP composition), and\n"
    "            the persistent ledger of a data set's rows: show, export, reset\n"
    "  predict   apply the model saved with a run to new rows of a CSV/TSV/ARFF file\n"
    "  export-model  write one run's model as a file to hand on: the model, its encoding\n"
    "            and its privacy statement, without the seed or training-set diagnostics\n"
    "  report    a one-page PDF or HTML report of a run: data, settings, tradeoff chart,\n"
    "            per-group rates with bootstrap intervals, privacy statement, rerun command\n"
    "  datasets  the data-set catalog: list, info, fetch (download + verify), verify\n"
    "  epsilon   privacy accounting: epsilon for a noise level, or the noise for a target\n"
    "  bench     time one DP-FERMI epoch against a two-pass reference, and a whole preset\n"
    "  parameters  every setting of every algorithm: name, default, allowed values\n"
    "  audit     empirical privacy audit: a lower bound on epsilon from a membership attack\n"
    "\n"
    "Run 'pfa-cli <command> --help' for the options of a command;\n"
    "'pfa-cli --version' prints the version (and the git commit of the build).\n";

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
        std::fputs(kUsage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    pfa::setBuildCommit(pfaBuildCommit());
    if (std::strcmp(argv[1], "--version") == 0) {
        std::printf("pfa-cli %s\n", pfa::versionString().c_str());
        return 0;
    }
    const std::string command = argv[1];
    try {
        if (command == "train") return pfa::cli::trainCommand(argc, argv);
        if (command == "epsilon") return pfa::cli::epsilonCommand(argc, argv);
        if (command == "bench") return pfa::cli::benchCommand(argc, argv);
        if (command == "datasets") return pfa::cli::datasetsCommand(argc, argv);
        if (command == "merge") return pfa::cli::mergeCommand(argc, argv);
        if (command == "cluster") return pfa::cli::clusterCommand(argc, argv);
        if (command == "status") return pfa::cli::statusCommand(argc, argv);
        if (command == "ledger") return pfa::cli::ledgerCommand(argc, argv);
        if (command == "predict") return pfa::cli::predictCommand(argc, argv);
        if (command == "export-model") return pfa::cli::exportModelCommand(argc, argv);
        if (command == "parameters") return pfa::cli::parametersCommand(argc, argv);
        if (command == "audit") return pfa::cli::auditCommand(argc, argv);
        if (command == "report") return pfa::cli::reportCommand(argc, argv);
        std::fprintf(stderr, "pfa-cli: unknown command '%s' (try pfa-cli --help)\n",
                     command.c_str());
        return 2;
    } catch (const pfa::cli::UsageError& error) {
        std::fprintf(stderr, "pfa-cli %s: %s (see pfa-cli %s --help)\n", command.c_str(),
                     error.what(), command.c_str());
        return 2;
    } catch (const pfa::DataFileError& error) {
        std::fprintf(stderr, "pfa-cli %s: data error: %s\n", command.c_str(), error.what());
        return 1;
    } catch (const pfa::InputError& error) {
        // Invalid values (a negative lambda, an impossible budget) are bad arguments too.
        std::fprintf(stderr, "pfa-cli %s: %s\n", command.c_str(), error.what());
        return 2;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "pfa-cli %s: internal error: %s\n", command.c_str(), error.what());
        return 1;
    }
}
