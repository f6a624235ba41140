// The CPUs a thread count defaults to: the affinity mask capped by the cgroup's quota.
#include "core/util/cpu_count.h"

#include <sched.h>

#include <catch2/catch.hpp>
#include <thread>

namespace core_cpu_count_test {

using namespace pfa;

TEST_CASE("CPU quotas of cgroup v2 and v1 round up, and 'max' sets no limit", "[cpus]") {
    CHECK(cpusFromCpuMax("max 100000") == 0);
    CHECK(cpusFromCpuMax("200000 100000") == 2);
    CHECK(cpusFromCpuMax("150000 100000") == 2);  // 1.5 CPUs: two threads keep them busy
    CHECK(cpusFromCpuMax("50000 100000") == 1);
    CHECK(cpusFromCpuMax("") == 0);
    CHECK(cpusFromCpuMax("garbage") == 0);
    CHECK(cpusFromCfsQuota(-1, 100000) == 0);
    CHECK(cpusFromCfsQuota(400000, 100000) == 4);
    CHECK(cpusFromCfsQuota(100000, 0) == 0);
}

TEST_CASE("The available CPUs follow the affinity mask", "[cpus]") {
    cpu_set_t original;
    CPU_ZERO(&original);
    REQUIRE(sched_getaffinity(0, sizeof original, &original) == 0);
    const int all = availableCpus();
    CHECK(all >= 1);
    CHECK(all <= CPU_COUNT(&original));
    // Pinned to one CPU (as `taskset -c` or a Slurm allocation of one), one thread is the default.
    int first = -1;
    for (int cpu = 0; cpu < CPU_SETSIZE && first < 0; ++cpu)
        if (CPU_ISSET(cpu, &original)) first = cpu;
    REQUIRE(first >= 0);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    REQUIRE(sched_setaffinity(0, sizeof one, &one) == 0);
    const int pinned = availableCpus();
    REQUIRE(sched_setaffinity(0, sizeof original, &original) == 0);
    CHECK(pinned == 1);
    CHECK(availableCpus() == all);
}

}  // namespace core_cpu_count_test
