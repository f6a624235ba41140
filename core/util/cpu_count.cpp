#include "core/util/cpu_count.h"

#include <sched.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace pfa {

namespace {

/// The first line of a file, or "" when it cannot be read.
std::string firstLine(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    if (in) std::getline(in, line);
    return line;
}

/// A number read from a file's first line, or `fallback`.
long numberIn(const std::string& path, long fallback) {
    const std::string line = firstLine(path);
    if (line.empty()) return fallback;
    try {
        return std::stol(line);
    } catch (...) {
        return fallback;
    }
}

/// `path` and each of its ancestors up to "/" ("/a/b" → "/a/b", "/a", "").
std::vector<std::string> selfAndAncestors(std::string path) {
    std::vector<std::string> out;
    while (!path.empty() && path.back() == '/') path.pop_back();
    for (;;) {
        out.push_back(path);
        const std::size_t slash = path.rfind('/');
        if (path.empty() || slash == std::string::npos) break;
        path.erase(slash);
    }
    return out;
}

/// The smallest positive limit of `limits`, or 0 when none is set.
int tightest(const std::vector<int>& limits) {
    int best = 0;
    for (const int limit : limits)
        if (limit > 0 && (best == 0 || limit < best)) best = limit;
    return best;
}

/// The CPU limit of this process's cgroups (0: none found).
int cgroupCpuLimit() {
    std::ifstream in("/proc/self/cgroup");
    std::string line;
    std::vector<int> limits;
    while (std::getline(in, line)) {
        // "hierarchy-id:controllers:path"
        const std::size_t first = line.find(':');
        const std::size_t second = first == std::string::npos ? first : line.find(':', first + 1);
        if (second == std::string::npos) continue;
        const std::string controllers = line.substr(first + 1, second - first - 1);
        const std::string path = line.substr(second + 1);
        if (controllers.empty()) {
            // cgroup v2 (unified hierarchy)
            for (const std::string& dir : selfAndAncestors(path))
                limits.push_back(cpusFromCpuMax(firstLine("/sys/fs/cgroup" + dir + "/cpu.max")));
            continue;
        }
        std::stringstream names(controllers);
        std::string name;
        bool cpu = false;
        while (std::getline(names, name, ',')) cpu |= name == "cpu";
        if (!cpu) continue;
        for (const std::string& mount :
             {"/sys/fs/cgroup/" + controllers, std::string("/sys/fs/cgroup/cpu"),
              std::string("/sys/fs/cgroup/cpu,cpuacct")}) {
            for (const std::string& dir : selfAndAncestors(path)) {
                limits.push_back(cpusFromCfsQuota(numberIn(mount + dir + "/cpu.cfs_quota_us", -1),
                                                  numberIn(mount + dir + "/cpu.cfs_period_us", 0)));
            }
        }
    }
    return tightest(limits);
}

}  // namespace

int cpusFromCpuMax(const std::string& line) {
    std::istringstream in(line);
    std::string quota;
    long period = 0;
    if (!(in >> quota >> period) || quota == "max" || period <= 0) return 0;
    try {
        return cpusFromCfsQuota(std::stol(quota), period);
    } catch (...) {
        return 0;
    }
}

int cpusFromCfsQuota(long quotaMicroseconds, long periodMicroseconds) {
    if (quotaMicroseconds <= 0 || periodMicroseconds <= 0) return 0;
    return static_cast<int>(std::ceil(static_cast<double>(quotaMicroseconds) /
                                      static_cast<double>(periodMicroseconds)));
}

int availableCpus() {
    int cpus = 0;
    cpu_set_t mask;
    CPU_ZERO(&mask);
    if (sched_getaffinity(0, sizeof mask, &mask) == 0) cpus = CPU_COUNT(&mask);
    if (cpus <= 0) cpus = static_cast<int>(std::thread::hardware_concurrency());
    const int quota = cgroupCpuLimit();
    if (quota > 0) cpus = std::min(cpus, quota);
    return std::max(1, cpus);
}

}  // namespace pfa
