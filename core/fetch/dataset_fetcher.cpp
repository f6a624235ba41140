#include "core/fetch/dataset_fetcher.h"

#include <cstdlib>
#include <filesystem>

#include "core/fetch/verify_file.h"

namespace pfa::fetch {

DatasetFile withMirror(const DatasetFile& file, const std::string& dataset) {
    DatasetFile mirrored = file;
    if (const char* mirror = std::getenv("PFA_DATASET_MIRROR"); mirror && *mirror) {
        std::string base = mirror;
        while (!base.empty() && base.back() == '/') base.pop_back();
        mirrored.urls.insert(mirrored.urls.begin(), base + "/" + dataset + "/" + file.name);
    }
    return mirrored;
}

std::vector<FetchReport> fetchDataset(const CatalogEntry& entry, const std::string& directory,
                                      const std::function<bool(const DatasetProgress&)>& progress) {
    std::uint64_t total = 0;
    for (const DatasetFile& file : entry.files) total += file.bytes;
    std::vector<FetchReport> reports;
    std::uint64_t before = 0;  // bytes of the files already finished
    for (std::size_t i = 0; i < entry.files.size(); ++i) {
        const DatasetFile& file = entry.files[i];
        FetchOptions options;
        if (progress) {
            options.progress = [&](std::uint64_t done, std::uint64_t) {
                return progress({file.name, i, entry.files.size(), before + done, total});
            };
        }
        reports.push_back(fetchFile(withMirror(file, entry.name), directory, options));
        before += file.bytes;
    }
    if (progress) progress({"", entry.files.size(), entry.files.size(), total, total});
    return reports;
}

void importDataset(const CatalogEntry& entry, const std::string& source,
                   const std::string& directory) {
    std::string problems;
    for (const VerifyReport& report : verifyFiles(entry.files, source)) {
        if (!report.ok()) problems += (problems.empty() ? "" : "; ") + report.message;
    }
    if (!problems.empty()) {
        throw InputError("the files in " + source + " are not the catalog's " + entry.title +
                         " files: " + problems);
    }
    std::filesystem::create_directories(directory);
    for (const DatasetFile& file : entry.files) {
        const std::filesystem::path from = std::filesystem::path(source) / file.name;
        const std::filesystem::path to = std::filesystem::path(directory) / file.name;
        if (std::filesystem::exists(to) && std::filesystem::equivalent(from, to)) continue;
        // Copy under a temporary name, then rename: the final name only ever holds the
        // verified bytes.
        const std::filesystem::path part = to.string() + ".part";
        std::filesystem::copy_file(from, part, std::filesystem::copy_options::overwrite_existing);
        std::filesystem::rename(part, to);
    }
}

}  // namespace pfa::fetch
