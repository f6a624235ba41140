#pragma once

#include <string>

namespace pfa {

/// The per-user data directory of PFA Explorer: $XDG_DATA_HOME (or ~/.local/share) followed
/// by "PFA Explorer/PFA Explorer" — the same folder as Qt's
/// QStandardPaths::AppLocalDataLocation for this application on Linux, so the command line
/// and the desktop application share downloaded data sets.
std::string userDataDirectory();

/// Where the catalog data set `name` is kept: userDataDirectory()/datasets/NAME.
std::string catalogDatasetDirectory(const std::string& name);

}  // namespace pfa
