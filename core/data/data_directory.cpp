#include "core/data/data_directory.h"

#include <cstdlib>
#include <filesystem>

namespace pfa {

std::string userDataDirectory() {
    std::filesystem::path base;
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) {
        base = xdg;
    } else if (const char* home = std::getenv("HOME"); home && *home) {
        base = std::filesystem::path(home) / ".local" / "share";
    } else {
        base = std::filesystem::temp_directory_path();
    }
    return (base / "PFA Explorer" / "PFA Explorer").string();
}

std::string catalogDatasetDirectory(const std::string& name) {
    return (std::filesystem::path(userDataDirectory()) / "datasets" / name).string();
}

}  // namespace pfa
