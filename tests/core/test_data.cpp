#include "test_data.h"

#include <filesystem>

#ifndef PFA_SHARED_DATASETS
#define PFA_SHARED_DATASETS "../shared/datasets"
#endif

namespace pfa::test {

std::string sharedDatasetPath(const std::string& relative) {
    const std::filesystem::path path = std::filesystem::path(PFA_SHARED_DATASETS) / relative;
    return std::filesystem::exists(path) ? path.string() : std::string();
}

}  // namespace pfa::test
