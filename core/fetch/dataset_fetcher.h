#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/data/catalog.h"
#include "core/fetch/fetch_file.h"

namespace pfa::fetch {

/// The download locations of `file` of catalog data set `dataset`: a mirror first when the
/// environment variable PFA_DATASET_MIRROR is set (a base URL laid out as
/// MIRROR/DATASET/FILE, for labs without internet access or with a local cache), then the
/// catalog's original sources.
DatasetFile withMirror(const DatasetFile& file, const std::string& dataset);

/// Progress of a whole data set: which file, and bytes so far of all its files.
struct DatasetProgress {
    std::string file;
    std::size_t fileIndex = 0;
    std::size_t fileCount = 0;
    std::uint64_t done = 0;   ///< bytes present over all files
    std::uint64_t total = 0;  ///< bytes of all files
};

/// Fetches (downloads and verifies, or finds already verified) every file of `entry` into
/// `directory`. `progress` may return true to cancel (FetchCancelled; partial files are kept
/// for a later resume). Returns one report per file.
std::vector<FetchReport> fetchDataset(
    const CatalogEntry& entry, const std::string& directory,
    const std::function<bool(const DatasetProgress&)>& progress = {});

/// Verifies `entry`'s files in `source` and copies them into `directory` (an offline import
/// of files the user already has). Throws InputError listing every file that is missing or
/// does not match the catalog; nothing is copied then.
void importDataset(const CatalogEntry& entry, const std::string& source,
                   const std::string& directory);

}  // namespace pfa::fetch
