#pragma once
// Which build of PFA Explorer is running: the version (PFA_VERSION) and, for a build from a git
// checkout, the commit. The commit is set by the programs' main() from the generated
// pfaBuildCommit(), so a new commit relinks the programs but never recompiles the core.
#include <string>

namespace pfa {

/// Sets the commit (short hash, "-dirty" if modified); "" = unknown. Call once, before threads.
void setBuildCommit(std::string commit);
/// The commit set by setBuildCommit, or "".
const std::string& buildCommit();
/// "0.1.0", or "0.1.0 (abc1234)" when the commit is known.
std::string versionString();

}  // namespace pfa
