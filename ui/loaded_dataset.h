#pragma once

#include <memory>
#include <string>

#include "core/data/builtin_datasets.h"
#include "core/data/dataset.h"
#include "core/sweep/run_record.h"

namespace pfa::ui {

/// A data set loaded, split and encoded on the training thread. Immutable once published,
/// so the GUI thread may read it (validation, data-set summary) while training runs.
struct LoadedDataset {
    std::string key;          ///< identifies the request (cache key)
    pfa::DatasetRequest request;
    pfa::DataSplit split;
    pfa::RunContext context;  ///< description and sizes stored with every run
};

using LoadedDatasetPtr = std::shared_ptr<const LoadedDataset>;

/// Cache key of a request: the name, folder and (for synthetic) every knob.
std::string datasetKey(const pfa::DatasetRequest& request);

/// Loads, splits (75/25, split seed 0) and encodes a built-in data set. Throws on bad input.
LoadedDatasetPtr loadDataset(const pfa::DatasetRequest& request);

}  // namespace pfa::ui
