#include "core/generators/dataset_loading.h"

#include <filesystem>

#include "core/data/arff_reader.h"
#include "core/data/catalog.h"
#include "core/data/csv_reader.h"
#include "core/data/data_directory.h"
#include "core/data/file_preview.h"
#include "core/generators/generator.h"
#include "core/util/error.h"

namespace pfa {

std::vector<std::string> builtinDatasetNames() {
    std::vector<std::string> names;
    for (const DataGenerator& generator : dataGenerators()) names.push_back(generator.name);
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
    if (request.schema.name.empty())
        data.name = std::filesystem::path(request.filePath).stem().string();
    return data;
}

std::string describeDatasetOnly(const DatasetRequest& request) {
    if (const DataGenerator* generator = findGenerator(request.name))
        return generator->describe(request);
    if (request.name == "file") {
        return "file " + std::filesystem::path(request.filePath).filename().string() +
               " (target '" + request.schema.target + "')";
    }
    const CatalogEntry& entry = findCatalogEntry(request.name);
    return entry.title + ", sensitive " + entry.sensitiveTitle(request.sensitive);
}

}  // namespace

TabularData loadBuiltinDataset(const DatasetRequest& request) {
    if (const DataGenerator* generator = findGenerator(request.name))
        return generator->generate(request);
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
    std::string text = describeDatasetOnly(request);
    if (request.silos) text += ", split into silos: " + describeSiloOptions(*request.silos);
    return text;
}

}  // namespace pfa
