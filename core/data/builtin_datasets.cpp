#include "core/data/builtin_datasets.h"

#include "core/data/adult.h"
#include "core/util/error.h"

namespace pfa {

std::vector<std::string> builtinDatasetNames() { return {"synthetic", "adult"}; }

TabularData loadBuiltinDataset(const DatasetRequest& request) {
    if (request.name == "synthetic") return generateSynthetic(request.synthetic);
    if (request.name == "adult") {
        if (request.dataDirectory.empty()) {
            throw InputError("the adult data set needs --data-dir: a folder holding adult.data and "
                             "adult.test (UCI Adult)");
        }
        return loadAdult(request.dataDirectory);
    }
    throw InputError("unknown data set '" + request.name + "': choose synthetic or adult");
}

std::string describeDatasetRequest(const DatasetRequest& request) {
    if (request.name == "synthetic") return describeSynthetic(request.synthetic);
    return request.name + " (from " + request.dataDirectory + ")";
}

}  // namespace pfa
