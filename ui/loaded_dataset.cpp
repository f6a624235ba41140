#include "ui/loaded_dataset.h"

#include <sstream>

#include "core/data/preprocessing.h"

namespace pfa::ui {

std::string datasetKey(const pfa::DatasetRequest& request) {
    std::ostringstream key;
    key << request.name << '|' << request.dataDirectory;
    if (request.name == "synthetic") {
        const pfa::SyntheticOptions& s = request.synthetic;
        key << '|' << s.rows << '|' << s.features << '|' << s.minorityShare << '|'
            << s.groupLabelDependence << '|' << s.labelNoise << '|' << s.seed;
    }
    return key.str();
}

LoadedDatasetPtr loadDataset(const pfa::DatasetRequest& request) {
    auto loaded = std::make_shared<LoadedDataset>();
    loaded->key = datasetKey(request);
    loaded->request = request;
    loaded->split = pfa::splitAndEncode(pfa::loadBuiltinDataset(request));
    loaded->context.datasetDescription = pfa::describeDatasetRequest(request);
    loaded->context.splitSeed = loaded->split.splitSeed;
    loaded->context.testFraction = loaded->split.testFraction;
    loaded->context.trainRows = static_cast<long>(loaded->split.train.rows());
    loaded->context.testRows = static_cast<long>(loaded->split.test.rows());
    loaded->context.features = static_cast<long>(loaded->split.train.features());
    return loaded;
}

}  // namespace pfa::ui
