#pragma once

#include <string>
#include <vector>

#include "core/data/heavy_tailed.h"
#include "core/data/personalised.h"
#include "core/data/preprocessing.h"
#include "core/data/schema.h"
#include "core/data/synthetic.h"
#include "core/data/tabular_data.h"

namespace pfa {

/// Which data set to load and from where: the built-in synthetic data, a catalog data set, or
/// the user's own file.
struct DatasetRequest {
    std::string name = "synthetic";  ///< "synthetic" (default), "synthetic-heavy-tailed", "synthetic-personalised", a catalog name, or "file"
    std::string dataDirectory;       ///< folder holding the data files (adult: adult.data, .test)
    std::string sensitive;           ///< catalog data sets: sensitive choice id ("" = default)
    SyntheticOptions synthetic;      ///< knobs when name == "synthetic"
    HeavyTailedOptions heavyTailed;  ///< knobs when name == "synthetic-heavy-tailed"
    PersonalisedOptions personalised;  ///< knobs when name == "synthetic-personalised"
    SplitOptions split;              ///< train/test split (75/25, split seed 0 by default)
    std::string filePath;            ///< name == "file": a CSV/TSV/ARFF file
    Schema schema;                   ///< name == "file": how to read it
};

/// Names accepted by loadBuiltinDataset (besides "file").
std::vector<std::string> builtinDatasetNames();

/// Loads the requested data set (a catalog data set from `dataDirectory`, or from its
/// per-user download folder when that is empty). Throws InputError for an unknown name or a
/// missing folder and DataFileError (file, line, column) for malformed files.
TabularData loadBuiltinDataset(const DatasetRequest& request);

/// One line describing the request (for result files and reports).
std::string describeDatasetRequest(const DatasetRequest& request);

}  // namespace pfa
