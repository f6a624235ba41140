#pragma once

// Loading a requested data set: a registered generator's data, a catalog data set or the user's
// file, and the one line that describes the request.

#include <string>
#include <vector>

#include "core/data/builtin_datasets.h"

namespace pfa {

/// Names accepted by loadBuiltinDataset (besides "file"): the generators, then the catalog.
std::vector<std::string> builtinDatasetNames();

/// Loads the requested data set (a generator's data from its knobs, a catalog data set from
/// `dataDirectory` or from its per-user download folder when that is empty, or the user's
/// file). Throws InputError for an unknown name or a missing folder and DataFileError (file,
/// line, column) for malformed files.
TabularData loadBuiltinDataset(const DatasetRequest& request);

/// One line describing the request (for result files and reports). Silos are mentioned only
/// when the request has them, so that descriptions of requests without stay as they were.
std::string describeDatasetRequest(const DatasetRequest& request);

}  // namespace pfa
