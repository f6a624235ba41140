#include "core/data/builtin_datasets.h"

#include <filesystem>

#include "core/data/arff_reader.h"
#include "core/data/catalog.h"
#include "core/data/csv_reader.h"
#include "core/data/data_directory.h"
#include "core/data/file_preview.h"
#include "core/util/error.h"

namespace pfa {

std::vector<std::string> builtinDatasetNames() {
    std::vector<std::string> names{"synthetic", "synthetic-heavy-tailed", "synthetic-personalised"};
    for (const CatalogEntry& entry : datasetCatalog()) names.push_back(entry.name);
    return names;
}

namespace {

TabularData loadUserFile(const DatasetRequest& request) {
    if (request.filePath.empty()) throw InputError("no data file given");
    // Recognised by content, as the import wizard shows it.
    const FilePreview preview = previewFile(request.filePath, 1);
    TabularData data = preview.format == FileFormat::Arff
                           ? readArffFile(request.filePath, request.schema)
                           : readDelimitedFile(request.filePath, request.schema);
    if (request.schema.name.empty()) data.name = std::filesystem::path(request.filePath).stem().string();
    return data;
}

}  // namespace

TabularData loadBuiltinDataset(const DatasetRequest& request) {
    if (request.name == "synthetic") return generateSynthetic(request.synthetic);
    if (request.name == "synthetic-heavy-tailed") return generateHeavyTailed(request.heavyTailed);
    if (request.name == "synthetic-personalised") return generatePersonalised(request.personalised);
    if (request.name == "file") return loadUserFile(request);
    const CatalogEntry& entry = findCatalogEntry(request.name);
    const std::string directory =
        request.dataDirectory.empty() ? catalogDatasetDirectory(entry.name) : request.dataDirectory;
    for (const DatasetFile& file : entry.files) {
        if (!std::filesystem::exists(std::filesystem::path(directory) / file.name)) {
            throw InputError("the " + entry.title + " data set is not in " + directory + ": " +
                             file.name + " is missing; run 'pfa-cli datasets fetch " + entry.name +
                             "' to download it, or give --data-dir a folder that holds it");
        }
    }
    return entry.load(directory, request.sensitive);
}

std::string describeDatasetRequest(const DatasetRequest& request) {
    if (request.name == "synthetic") return describeSynthetic(request.synthetic);
    if (request.name == "synthetic-heavy-tailed") return describeHeavyTailed(request.heavyTailed);
    if (request.name == "synthetic-personalised") return describePersonalised(request.personalised);
    if (request.name == "file") {
        return "file " + std::filesystem::path(request.filePath).filename().string() + " (target '" +
               request.schema.target + "')";
    }
    const CatalogEntry& entry = findCatalogEntry(request.name);
    return entry.title + ", sensitive " + entry.sensitiveChoice(request.sensitive).title;
}

}  // namespace pfa
