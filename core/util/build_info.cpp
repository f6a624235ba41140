#include "core/util/build_info.h"

#include <utility>

namespace pfa {

namespace {
std::string& commitStorage() {
    static std::string commit;
    return commit;
}
}  // namespace

void setBuildCommit(std::string commit) { commitStorage() = std::move(commit); }

const std::string& buildCommit() { return commitStorage(); }

std::string versionString() {
    const std::string& commit = buildCommit();
    return commit.empty() ? std::string(PFA_VERSION)
                          : std::string(PFA_VERSION) + " (" + commit + ")";
}

}  // namespace pfa
