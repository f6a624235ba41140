#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/data/dataset_file.h"

namespace pfa::fetch {

/// What is on disk for one catalog file, compared with the catalog's size and SHA-256.
struct VerifyReport {
    std::string name;                ///< the catalog file name ("german.data")
    std::string path;                ///< directory/name, the file that was checked
    bool exists = false;             ///< a regular file is at `path`
    bool sizeOk = false;             ///< its size equals DatasetFile::bytes
    bool sha256Ok = false;           ///< its SHA-256 equals DatasetFile::sha256 (only computed
                                     ///< when the size is right: a wrong size settles it)
    std::uint64_t actualBytes = 0;   ///< size on disk (0 when missing)
    std::string actualSha256;        ///< SHA-256 on disk, or empty when not computed
    std::uint64_t partialBytes = 0;  ///< size of an unfinished `name.part` download, if any
    std::string message;             ///< one line for people: "german.data: OK", or the problem

    /// True when the file is present and is exactly the catalog's bytes.
    bool ok() const { return exists && sizeOk && sha256Ok; }
};

/// Checks `directory/file.name` against the catalog entry: presence, exact size, then
/// SHA-256. Never throws for a missing, wrong or unreadable file (that is the report's
/// job); reads the whole file when its size is right. Does not touch the network.
VerifyReport verifyFile(const DatasetFile& file, const std::string& directory);

/// verifyFile() for each entry of `files`, in order.
std::vector<VerifyReport> verifyFiles(const std::vector<DatasetFile>& files,
                                      const std::string& directory);

}  // namespace pfa::fetch
