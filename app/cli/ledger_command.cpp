// pfa-cli ledger: the privacy ledger of every data set in results files — all private runs on
// it composed with the Rényi-DP accountant, next to the simple sum of their epsilons.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "core/sweep/results_file.h"
#include "core/sweep/run_ledger.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa::cli {

namespace {

const char* const kLedgerHelp =
    "usage: pfa-cli ledger RESULTS.jsonl [RESULTS.jsonl ...] [--runs]\n"
    "\n"
    "Prints the privacy ledger of each data set in the results files: every private run on\n"
    "it (each executed run once, even when it appears in several files), composed with the\n"
    "Renyi-DP accountant from the accounting inputs stored in its record, and the simple sum\n"
    "of the runs' own epsilons for comparison. One ledger per data set: runs on any split or\n"
    "sensitive attribute of the same rows count together. Runs from records written before\n"
    "the accounting inputs were stored are added by their (epsilon, delta).\n"
    "\n"
    "  --runs   list every charged run with its status, epsilon, delta and steps\n";

}  // namespace

void printLedger(const privacy::DatasetLedger& ledger, bool listRuns) {
    const privacy::LedgerTotals totals = ledger.totals();
    std::printf("privacy ledger of %s: %s\n", ledger.title().c_str(),
                privacy::describeTotals(totals).c_str());
    if (!listRuns) return;
    for (const privacy::LedgerEntry& entry : ledger.entries()) {
        std::printf("  %-9s eps %-9s delta %-9s steps %-7ld %s\n", entry.status.c_str(),
                    formatNumber(entry.epsilon).c_str(), formatNumber(entry.delta, 3).c_str(),
                    entry.accountingKnown ? entry.accounting.steps : -1L, entry.label.c_str());
    }
}

int ledgerCommand(int argc, char** argv) {
    std::vector<std::string> files;
    bool listRuns = false;
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help") {
            std::fputs(kLedgerHelp, stdout);
            return 0;
        }
        if (arg == "--runs") {
            listRuns = true;
            continue;
        }
        if (arg.rfind("--", 0) == 0) throw UsageError("unknown option " + arg);
        files.push_back(arg);
    }
    if (files.empty()) throw UsageError("needs at least one results file");
    std::vector<JsonValue> records;
    for (const std::string& file : files) {
        ResultsFileContent content = readResultsFile(file);
        if (content.records.empty() && content.damagedLines == 0) {
            throw InputError(file + ": no result records (missing or empty file)");
        }
        if (content.records.empty()) throw InputError(notAResultsFile(file, content));
        for (JsonValue& record : content.records) records.push_back(std::move(record));
    }
    const std::vector<privacy::DatasetLedger> ledgers = ledgersFromRecords(records);
    if (ledgers.empty()) {
        std::printf("no private run in %zu record(s): nothing is charged to any ledger\n",
                    records.size());
        return 0;
    }
    for (const privacy::DatasetLedger& ledger : ledgers) printLedger(ledger, listRuns);
    return 0;
}

}  // namespace pfa::cli
