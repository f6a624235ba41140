#include "core/data/builtin_datasets.h"

#include "core/data/catalog.h"
#include "core/util/error.h"

namespace pfa {

std::vector<std::string> builtinDatasetNames() {
    std::vector<std::string> names{"synthetic"};
    for (const CatalogEntry& entry : datasetCatalog()) names.push_back(entry.name);
    return names;
}

TabularData loadBuiltinDataset(const DatasetRequest& request) {
    if (request.name == "synthetic") return generateSynthetic(request.synthetic);
    const CatalogEntry& entry = findCatalogEntry(request.name);
    if (request.dataDirectory.empty()) {
        throw InputError("the " + entry.title + " data set needs a data folder (--data-dir) holding " +
                         entry.files.front().name + (entry.files.size() > 1 ? " and its other files" : "") +
                         "; 'pfa-cli datasets fetch " + entry.name + "' downloads it");
    }
    return entry.load(request.dataDirectory, request.sensitive);
}

std::string describeDatasetRequest(const DatasetRequest& request) {
    if (request.name == "synthetic") return describeSynthetic(request.synthetic);
    const CatalogEntry& entry = findCatalogEntry(request.name);
    return entry.title + ", sensitive " + entry.sensitiveChoice(request.sensitive).title;
}

}  // namespace pfa
