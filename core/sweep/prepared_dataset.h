#pragma once

#include <memory>
#include <string>

#include "core/data/builtin_datasets.h"
#include "core/data/dataset.h"
#include "core/sweep/run_record.h"

namespace pfa {

/// A data set loaded, split and encoded, ready for any number of runs (read-only, so runs on
/// several threads — and the GUI — may share it).
struct PreparedDataset {
    std::string key;            ///< identity of the request (see datasetKey)
    DatasetRequest request;
    DataSplit split;
    RunContext context;         ///< description and sizes stored with every result line
};
using PreparedDatasetPtr = std::shared_ptr<const PreparedDataset>;

/// A stable identity for a data-set request: its name, sensitive choice, split and (for the
/// synthetic data) every knob — not the folder it was read from, so results stay comparable
/// across machines.
std::string datasetKey(const DatasetRequest& request);

/// Loads, splits and encodes the data set of `request`. Throws InputError / DataFileError.
PreparedDatasetPtr prepareDataset(const DatasetRequest& request);

}  // namespace pfa
