#pragma once

#include <string>

namespace pfa {

/// The CPUs this process may run on: its affinity mask (sched_getaffinity), capped by the CPU
/// quota of its cgroup and of every ancestor (v2 cpu.max, v1 cpu.cfs_quota_us over
/// cpu.cfs_period_us, rounded up); at least 1. This is what a thread count defaults to, so a
/// Slurm job uses its allocation, a `taskset` its CPUs and a container its limit, not every
/// core of the machine. Read once per call (cheap: a few small files).
int availableCpus();

/// The CPUs a cgroup v2 `cpu.max` line allows, rounded up: "150000 100000" → 2; 0 when it sets
/// no limit ("max 100000") or cannot be read.
int cpusFromCpuMax(const std::string& line);

/// The CPUs a cgroup v1 quota and period (µs) allow, rounded up; 0 for no limit (quota ≤ 0) or
/// a period ≤ 0.
int cpusFromCfsQuota(long quotaMicroseconds, long periodMicroseconds);

}  // namespace pfa
