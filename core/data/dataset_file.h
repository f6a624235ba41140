#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pfa {

/// One file of a catalog data set: where to get it and how to recognise the right bytes.
struct DatasetFile {
    std::string name;               ///< file name inside the data set's folder ("adult.data")
    std::vector<std::string> urls;  ///< download locations, tried in order
    std::uint64_t bytes = 0;        ///< exact size
    std::string sha256;             ///< lower-case hex SHA-256 of the exact bytes
};

}  // namespace pfa
