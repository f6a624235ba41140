// pfa-cli ledger: the privacy ledgers — of every data set in results files (all private runs in
// them composed with the Rényi-DP accountant, next to the simple sum of their epsilons), and
// the persistent ledger of a data set's rows kept in the per-user data folder across sessions,
// sweeps and programs (show, export, reset).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "core/data/catalog.h"
#include "core/data/data_directory.h"
#include "core/data/data_fingerprint.h"
#include "core/sweep/results_file.h"
#include "core/sweep/run_ledger.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa::cli {

namespace {

const char* const kLedgerHelp =
    "usage: pfa-cli ledger RESULTS.jsonl [RESULTS.jsonl ...] [--runs]\n"
    "       pfa-cli ledger (--dataset NAME [--data-dir DIR] | --csv FILE) [--runs]\n"
    "                      [--export FILE.csv|FILE.json] [--where] [--reset --yes]\n"
    "       pfa-cli ledger --list | --where\n"
    "\n"
    "With results files: prints the privacy ledger of each data set in them: every private\n"
    "run on it (each executed run once, even when it appears in several files; the trials of\n"
    "an auto-tuned record included), composed with the Renyi-DP accountant from the\n"
    "accounting inputs stored in its record, and the simple sum of the runs' own epsilons for\n"
    "comparison. One ledger per data set: runs on any split or sensitive attribute of the same\n"
    "rows count together. Runs from records written before the accounting inputs were stored\n"
    "are added by their (epsilon, delta).\n"
    "\n"
    "The persistent ledger: every private run on a data set's rows - in PFA Explorer or\n"
    "pfa-cli, in any session, sweep or results file, every auto-tune trial and every model of\n"
    "a privacy audit - is charged once to a ledger kept per data set in the per-user data\n"
    "folder (its 'ledgers' folder, or $PFA_LEDGER_DIR when set). It is keyed by a fingerprint\n"
    "of the rows' content, not by the file name: a renamed or row-shuffled copy of a file\n"
    "shares its ledger, and so do all splits and sensitive attributes of the same rows.\n"
    "Deleting runs, sessions or results files never refunds anything.\n"
    "\n"
    "  --dataset NAME   the ledger of a catalog data set (its files in --data-dir DIR or in\n"
    "                   the per-user folder), or the stored ledgers charged under NAME (e.g.\n"
    "                   synthetic: every synthetic data set charged so far)\n"
    "  --csv FILE       the ledger of your own data file (by its rows, whatever its name)\n"
    "  --list           every stored ledger: its names, runs and total\n"
    "  --where          print the folder of the ledgers (with --dataset or --csv: the file)\n"
    "  --export FILE    write the ledger as CSV (FILE.csv) or JSON (FILE.json)\n"
    "  --reset --yes    forget every run charged to the ledger so far. Resetting does not\n"
    "                   make the data private again: what the runs revealed stays revealed.\n"
    "                   It cannot be undone (the file keeps the forgotten runs, marked).\n"
    "  --runs           list every charged run with its status, epsilon, delta and steps\n";

void printEntries(const privacy::DatasetLedger& ledger) {
    for (const privacy::LedgerEntry& entry : ledger.entries()) {
        std::printf("  %-9s eps %-9s delta %-9s steps %-7ld %s\n", entry.status.c_str(),
                    formatNumber(entry.epsilon).c_str(), formatNumber(entry.delta, 3).c_str(),
                    entry.accountingKnown ? entry.accounting.steps : -1L, entry.label.c_str());
    }
}

std::string joinedNames(const std::vector<std::string>& names, std::size_t from) {
    std::string text;
    for (std::size_t i = from; i < names.size(); ++i) text += (text.empty() ? "" : ", ") + names[i];
    return text;
}

/// The fingerprint of a catalog data set's files, or of an own file (read with the default
/// layout: a header line, the delimiter detected).
std::string fingerprintOfFiles(const std::string& catalogName, const std::string& dataDir,
                               const std::string& csvPath) {
    if (!csvPath.empty()) {
        if (!std::filesystem::is_regular_file(csvPath))
            throw InputError(csvPath + ": file not found");
        return fileRowsFingerprint({csvPath}, Schema{});
    }
    const CatalogEntry& entry = findCatalogEntry(catalogName);
    const std::string directory = dataDir.empty() ? catalogDatasetDirectory(entry.name) : dataDir;
    std::vector<std::string> paths;
    for (const DatasetFile& file : entry.files) {
        const std::filesystem::path path = std::filesystem::path(directory) / file.name;
        if (!std::filesystem::exists(path)) {
            throw InputError("the " + entry.title + " data set is not in " + directory + ": " +
                             file.name + " is missing; give --data-dir a folder that holds it");
        }
        paths.push_back(path.string());
    }
    return fileRowsFingerprint(paths, entry.schemaFor(""));
}

bool isCatalogName(const std::string& name) {
    const auto& catalog = datasetCatalog();
    return std::any_of(catalog.begin(), catalog.end(),
                       [&](const CatalogEntry& e) { return e.name == name; });
}

/// The stored ledgers charged under `name`, or under a title that starts with "name(" (the
/// generators' data sets carry their knobs).
std::vector<privacy::StoredLedger> storedLedgersNamed(const privacy::LedgerStore& store,
                                                      const std::string& name) {
    std::vector<privacy::StoredLedger> found;
    for (const std::string& fingerprint : store.fingerprints()) {
        privacy::StoredLedger stored = store.read(fingerprint);
        const bool matches = std::any_of(
            stored.names.begin(), stored.names.end(),
            [&](const std::string& n) { return n == name || n.rfind(name + "(", 0) == 0; });
        if (matches) found.push_back(std::move(stored));
    }
    return found;
}

void exportLedger(const privacy::StoredLedger& stored, const std::string& path) {
    const std::string extension = std::filesystem::path(path).extension().string();
    std::string text;
    if (extension == ".csv") {
        text = privacy::ledgerCsv(stored.ledger);
    } else if (extension == ".json") {
        text = privacy::ledgerExportJson(stored) + "\n";
    } else {
        throw UsageError("--export writes FILE.csv or FILE.json, not '" + path + "'");
    }
    // Written beside the target and renamed over it: a reader never sees half a file.
    const std::string temporary = path + ".part";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out) throw InputError("cannot write " + path);
    }
    std::error_code error;
    std::filesystem::rename(temporary, path, error);
    if (error) throw InputError("cannot write " + path + ": " + error.message());
    std::printf("exported %zu run(s) to %s\n", stored.ledger.entries().size(), path.c_str());
}

int storedLedgerCommand(const Arguments& args) {
    const privacy::LedgerStore store(ledgerDirectory());
    if (args.has("list")) {
        const std::vector<std::string> fingerprints = store.fingerprints();
        std::printf("privacy ledgers in %s: %zu\n", store.directory().c_str(), fingerprints.size());
        for (const std::string& fingerprint : fingerprints)
            printStoredLedger(store.read(fingerprint), false);
        return 0;
    }
    if (!args.has("dataset") && !args.has("csv")) {
        if (args.has("where")) {
            std::printf("%s\n", store.directory().c_str());
            return 0;
        }
        throw UsageError("needs results files, --dataset NAME, --csv FILE, --list or --where");
    }
    if (args.has("dataset") && args.has("csv"))
        throw UsageError("give --dataset or --csv, not both");
    const std::string name = args.text("dataset");
    std::vector<privacy::StoredLedger> ledgers;
    if (args.has("csv") || isCatalogName(name)) {
        ledgers.push_back(
            store.read(fingerprintOfFiles(name, args.text("data-dir"), args.text("csv"))));
        if (ledgers.back().names.empty()) {
            // Nothing charged yet: named as the runs on it will be.
            const std::string title =
                args.has("csv")
                    ? "file:" + std::filesystem::path(args.text("csv")).filename().string()
                    : name;
            ledgers.back().ledger = privacy::DatasetLedger(ledgers.back().fingerprint, title);
        }
    } else {
        if (args.has("data-dir")) throw UsageError("--data-dir only goes with a catalog data set");
        ledgers = storedLedgersNamed(store, name);
        if (ledgers.empty()) {
            std::printf("no private run has been charged to a data set called %s (ledgers in %s)\n",
                        name.c_str(), store.directory().c_str());
            return 0;
        }
    }
    const bool changes = args.has("export") || args.has("reset");
    if (changes && ledgers.size() > 1) {
        std::string names;
        for (const privacy::StoredLedger& l : ledgers) names += "\n  " + l.ledger.title();
        throw UsageError("--dataset " + name + " names " + std::to_string(ledgers.size()) +
                         " data sets; give the whole name of one:" + names);
    }
    if (args.has("where") && !changes) {
        for (const privacy::StoredLedger& l : ledgers) std::printf("%s\n", l.path.c_str());
        return 0;
    }
    if (args.has("reset")) {
        const privacy::StoredLedger& l = ledgers.front();
        const privacy::LedgerTotals t = l.ledger.totals();
        if (!args.has("yes")) {
            throw UsageError("--reset forgets the " + std::to_string(t.runs) +
                             " run(s) charged to " + l.ledger.title() +
                             " (ε = " + formatNumber(t.epsilon) +
                             "); it does not make the data private again and cannot be undone: add "
                             "--yes to reset");
        }
        const std::size_t forgotten = store.reset(l.fingerprint, "pfa-cli ledger --reset");
        std::printf(
            "reset the privacy ledger of %s: %zu run(s) (ε = %s) no longer counted; what they "
            "revealed stays revealed (file %s)\n",
            l.ledger.title().c_str(), forgotten, formatNumber(t.epsilon).c_str(), l.path.c_str());
        return 0;
    }
    if (args.has("export")) {
        exportLedger(ledgers.front(), args.text("export"));
        return 0;
    }
    for (const privacy::StoredLedger& l : ledgers) printStoredLedger(l, args.has("runs"));
    return 0;
}

}  // namespace

void printLedger(const privacy::DatasetLedger& ledger, bool listRuns) {
    const privacy::LedgerTotals totals = ledger.totals();
    std::printf("privacy ledger of %s: %s\n", ledger.title().c_str(),
                privacy::describeTotals(totals).c_str());
    if (listRuns) printEntries(ledger);
}

void printStoredLedger(const privacy::StoredLedger& stored, bool listRuns) {
    std::string title = stored.ledger.title();
    if (stored.names.size() > 1) title += " (also charged as " + joinedNames(stored.names, 1) + ")";
    std::printf("persistent privacy ledger of %s: %s\n", title.c_str(),
                privacy::describeTotals(stored.ledger.totals()).c_str());
    std::printf("  kept in %s", stored.path.c_str());
    if (stored.resets > 0) {
        std::printf("; reset %zu time(s), last %s (%zu earlier run(s) no longer counted)",
                    stored.resets, stored.lastReset.c_str(), stored.forgotten);
    }
    if (stored.damagedLines > 0) std::printf("; %zu damaged line(s) skipped", stored.damagedLines);
    std::printf("\n");
    if (listRuns) printEntries(stored.ledger);
}

int ledgerCommand(int argc, char** argv) {
    std::vector<std::string> files;
    std::vector<char*> options{argv[0], argv[1]};
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help") {
            std::fputs(kLedgerHelp, stdout);
            return 0;
        }
        // Results files are the words that are not options or their values.
        const bool valued =
            arg == "--dataset" || arg == "--csv" || arg == "--data-dir" || arg == "--export";
        if (arg.rfind("--", 0) == 0) {
            options.push_back(argv[i]);
            if (valued && i + 1 < argc) options.push_back(argv[++i]);
            continue;
        }
        files.push_back(arg);
    }
    const Arguments args(static_cast<int>(options.size()), options.data(), 2,
                         {"dataset", "csv", "data-dir", "export"},
                         {"runs", "list", "where", "reset", "yes"});
    const bool stored = args.has("dataset") || args.has("csv") || args.has("list") ||
                        args.has("where") || args.has("export") || args.has("reset");
    if (stored) {
        if (!files.empty()) {
            throw UsageError(
                "results files and --dataset/--csv/--list/--where/--export/--reset do not "
                "go together");
        }
        return storedLedgerCommand(args);
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
    for (const privacy::DatasetLedger& ledger : ledgers) printLedger(ledger, args.has("runs"));
    return 0;
}

}  // namespace pfa::cli
