#include "core/sweep/prepared_dataset.h"

#include <filesystem>
#include <sstream>

#include "core/data/catalog.h"
#include "core/data/preprocessing.h"
#include "core/util/sha256.h"

namespace pfa {

std::string datasetKey(const DatasetRequest& request) {
    std::ostringstream key;
    key.precision(17);
    key << request.name;
    if (!request.sensitive.empty()) key << "/" << request.sensitive;
    if (request.name == "synthetic") {
        const SyntheticOptions& s = request.synthetic;
        key << "(n=" << s.rows << ",d=" << s.features << ",minority=" << s.minorityShare
            << ",bias=" << s.groupLabelDependence << ",noise=" << s.labelNoise << ",seed=" << s.seed
            << ")";
    }
    if (request.name == "file") {
        // The file's name and the exact reading instructions identify it.
        key << ":" << std::filesystem::path(request.filePath).filename().string() << ",schema="
            << sha256Hex(schemaToJson(request.schema)).substr(0, 16);
    }
    key << "|split=" << request.split.seed << "," << request.split.testFraction;
    return key.str();
}

PreparedDatasetPtr prepareDataset(const DatasetRequest& request) {
    auto prepared = std::make_shared<PreparedDataset>();
    prepared->key = datasetKey(request);
    prepared->request = request;
    const TabularData data = loadBuiltinDataset(request);
    prepared->split = splitAndEncode(data, request.split);
    prepared->context.datasetDescription = describeDatasetRequest(request);
    prepared->context.splitSeed = prepared->split.splitSeed;
    prepared->context.testFraction = prepared->split.testFraction;
    prepared->context.trainRows = static_cast<long>(prepared->split.train.rows());
    prepared->context.testRows = static_cast<long>(prepared->split.test.rows());
    prepared->context.features = static_cast<long>(prepared->split.train.features());
    prepared->context.preprocessing = std::make_shared<const ModelPreprocessing>(
        makeModelPreprocessing(requestSchema(request), data, prepared->split));
    return prepared;
}

}  // namespace pfa
