// pfa-cli datasets: the data-set catalog on the command line — list, describe, download,
// verify.
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "core/data/catalog.h"
#include "core/data/data_directory.h"
#if PFA_HAVE_FETCH
#include "core/fetch/dataset_fetcher.h"
#include "core/fetch/fetch_file.h"
#endif
#include "core/fetch/verify_file.h"
#include "core/util/format.h"

namespace pfa::cli {

namespace {

const char* const kDatasetsHelp =
    "usage: pfa-cli datasets list\n"
    "       pfa-cli datasets info NAME\n"
    "       pfa-cli datasets fetch NAME [--dir DIR]\n"
    "       pfa-cli datasets verify DIR [--dataset NAME]\n"
    "\n"
    "list    the catalog: name, rows, whether the files are in the per-user data folder\n"
    "info    description, source, license, citation, files, preprocessing, sensitive choices\n"
    "fetch   download a data set from its original source into the per-user data folder\n"
    "        (or --dir), resuming an interrupted download; every file's SHA-256 is checked\n"
    "        and a mismatching file is deleted. PFA_DATASET_MIRROR=URL tries URL/NAME/FILE\n"
    "        first (a local mirror or cache)\n"
#if !PFA_HAVE_FETCH
    "        NOT IN THIS BUILD (made without libcurl): get the files listed by 'info'\n"
    "        yourself, check them with 'verify' and pass --data-dir DIR to 'train'\n"
#endif
    "verify  check the files of every catalog data set found in DIR (or only --dataset NAME)\n"
    "        against the catalog's sizes and SHA-256 (offline import of files you already have)\n";

std::string megabytes(std::uint64_t bytes) {
    return formatNumber(static_cast<double>(bytes) / 1e6, 3) + " MB";
}

bool allPresent(const CatalogEntry& entry, const std::string& directory) {
    for (const DatasetFile& file : entry.files) {
        if (!std::filesystem::exists(std::filesystem::path(directory) / file.name)) return false;
    }
    return true;
}

int listDatasets() {
    std::printf("%-14s %-44s %8s  %s\n", "name", "title", "rows", "files");
    for (const CatalogEntry& entry : datasetCatalog()) {
        const std::string directory = catalogDatasetDirectory(entry.name);
        std::printf("%-14s %-44s %8ld  %s\n", entry.name.c_str(), entry.title.c_str(),
                    entry.expectedRows,
                    allPresent(entry, directory) ? directory.c_str() : "not downloaded");
    }
    std::printf("\nper-user data folder: %s\n", userDataDirectory().c_str());
    return 0;
}

int describeDataset(const std::string& name) {
    const CatalogEntry& entry = findCatalogEntry(name);
    std::printf("%s — %s\n\n%s\n\n", entry.name.c_str(), entry.title.c_str(),
                entry.description.c_str());
    for (const std::string& source : entry.sources) std::printf("source:   %s\n", source.c_str());
    std::printf("license:  %s\ncitation: %s\nrows:     %ld\n", entry.license.c_str(),
                entry.citation.c_str(), entry.expectedRows);
    for (const DatasetFile& file : entry.files) {
        std::printf("file:     %s (%s, sha256 %s)\n          %s\n", file.name.c_str(),
                    megabytes(file.bytes).c_str(), file.sha256.c_str(), file.urls.front().c_str());
    }
    std::printf("\nsensitive attribute choices (first = default):\n");
    for (const SensitiveChoice& choice : entry.sensitiveChoices) {
        std::printf("  %-10s %s — %ld encoded features; groups:", choice.id.c_str(),
                    choice.title.c_str(), choice.expectedFeatures);
        for (const auto& [group, count] : choice.expectedGroups)
            std::printf(" %s %ld,", group.c_str(), count);
        std::printf("\n");
    }
    std::printf("\npreprocessing: %s\n", entry.preprocessing.c_str());
    return 0;
}

#if PFA_HAVE_FETCH
int fetchDataset(const std::string& name, const std::string& directory) {
    const CatalogEntry& entry = findCatalogEntry(name);
    const std::string target = directory.empty() ? catalogDatasetDirectory(entry.name) : directory;
    std::fprintf(stderr, "fetching %s into %s\n", entry.title.c_str(), target.c_str());
    int lastPercent = -1;
    const std::vector<fetch::FetchReport> reports =
        fetch::fetchDataset(entry, target, [&](const fetch::DatasetProgress& p) {
            const int percent = p.total > 0 ? static_cast<int>(100.0 * static_cast<double>(p.done) /
                                                               static_cast<double>(p.total))
                                            : 0;
            if (percent != lastPercent && !p.file.empty()) {
                lastPercent = percent;
                std::fprintf(stderr, "\r  %-32s %3d%% of %s", p.file.c_str(), percent,
                             megabytes(p.total).c_str());
            }
            return false;
        });
    std::fprintf(stderr, "\n");
    for (std::size_t i = 0; i < reports.size(); ++i) {
        std::fprintf(stderr, "  %-32s %s, SHA-256 verified%s\n", entry.files[i].name.c_str(),
                     fetch::toString(reports[i].outcome),
                     reports[i].url.empty() ? "" : (" (" + reports[i].url + ")").c_str());
    }
    std::printf("%s: ready in %s\n", entry.name.c_str(), target.c_str());
    return 0;
}
#else
// Built without libcurl (a Qt-free build on a machine without libcurl4-openssl-dev).
int fetchDataset(const std::string& name, const std::string& /*directory*/) {
    const CatalogEntry& entry = findCatalogEntry(name);  // an unknown name is still that error
    throw UsageError(
        "this build has no download support (made without libcurl); get the files "
        "listed by 'pfa-cli datasets info " +
        entry.name +
        "', check them with "
        "'pfa-cli datasets verify DIR' and use --data-dir DIR");
}
#endif

int verifyDirectory(const std::string& directory, const std::string& only) {
    if (!std::filesystem::is_directory(directory))
        throw UsageError("'" + directory + "' is not a folder");
    int checked = 0, bad = 0;
    for (const CatalogEntry& entry : datasetCatalog()) {
        if (!only.empty() && entry.name != only) continue;
        bool anyPresent = false;
        for (const DatasetFile& file : entry.files) {
            anyPresent =
                anyPresent || std::filesystem::exists(std::filesystem::path(directory) / file.name);
        }
        if (!anyPresent && only.empty()) continue;
        for (const fetch::VerifyReport& report : fetch::verifyFiles(entry.files, directory)) {
            ++checked;
            if (!report.ok()) ++bad;
            std::printf("%-14s %-32s %s\n", entry.name.c_str(), report.name.c_str(),
                        report.message.c_str());
        }
    }
    if (!only.empty()) findCatalogEntry(only);  // unknown names are an error, not "nothing found"
    if (checked == 0) {
        std::printf("no catalog data file found in %s\n", directory.c_str());
        return 1;
    }
    std::printf("%d file(s) checked, %d problem(s)\n", checked, bad);
    return bad == 0 ? 0 : 1;
}

}  // namespace

int datasetsCommand(int argc, char** argv) {
    if (argc < 3 || std::string(argv[2]) == "--help") {
        std::fputs(kDatasetsHelp, argc < 3 ? stderr : stdout);
        if (argc < 3) throw UsageError("missing action: list, info, fetch or verify");
        return 0;
    }
    const std::string action = argv[2];
    if (action == "list") {
        const Arguments args(argc, argv, 3, {}, {"help"});
        return listDatasets();
    }
    if (action == "info" || action == "fetch" || action == "verify") {
        if (argc < 4 || std::string(argv[3]).rfind("--", 0) == 0) {
            throw UsageError(action == "verify" ? "verify needs a folder"
                                                : action + " needs a data-set name");
        }
        const Arguments args(argc, argv, 4, {"dir", "dataset"}, {"help"});
        if (action == "info") return describeDataset(argv[3]);
        if (action == "fetch") return fetchDataset(argv[3], args.text("dir"));
        return verifyDirectory(argv[3], args.text("dataset"));
    }
    throw UsageError("unknown action '" + action + "': use list, info, fetch or verify");
}

}  // namespace pfa::cli
