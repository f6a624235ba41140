#pragma once

#include <string>
#include <vector>

#include "core/data/preprocessing.h"
#include "core/data/synthetic.h"
#include "core/data/tabular_data.h"

namespace pfa {

/// Which built-in data set to load and from where.
struct DatasetRequest {
    std::string name = "synthetic";  ///< "synthetic" (default) or "adult"
    std::string dataDirectory;       ///< folder holding the data files (adult: adult.data, .test)
    std::string sensitive;           ///< catalog data sets: sensitive choice id ("" = default)
    SyntheticOptions synthetic;      ///< knobs when name == "synthetic"
    SplitOptions split;              ///< train/test split (75/25, split seed 0 by default)
};

/// Names accepted by loadBuiltinDataset.
std::vector<std::string> builtinDatasetNames();

/// Loads a built-in data set. Throws InputError for an unknown name or a missing folder and
/// DataFileError (file, line, column) for malformed files.
TabularData loadBuiltinDataset(const DatasetRequest& request);

/// One line describing the request (for result files and reports).
std::string describeDatasetRequest(const DatasetRequest& request);

}  // namespace pfa
