#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/data/tabular_data.h"

namespace pfa {

/// Bytes of memory that reading needs per byte of input, an estimate used by the memory guard.
/// A parsed number takes 8 bytes where its text took 2-10, a category code 4 bytes plus a
/// dictionary entry per level, and an Auto column keeps both a number and a code per cell
/// until its type is decided. Measured peak growth of the resident set while reading
/// ~100 MB files (the benchmark files concatenated): Adult 0.7, COMPAS 0.9, Parkinsons 2.0,
/// credit-card default 3.7 bytes per input byte (short numbers in Auto columns are the worst
/// case). 4 covers them all; it is a guard against clearly impossible reads, not a promise.
inline constexpr std::uint64_t kParseBytesPerInputByte = 4;

/// The memory the kernel reports as available for new allocations (`MemAvailable` in
/// /proc/meminfo), in bytes; nullopt when it cannot be read (not Linux, no /proc).
std::optional<std::uint64_t> availableMemoryBytes();

/// The memory guard of the readers: throws an InputError stating the input size and the
/// available memory (in MB/GB) when `inputBytes` * kParseBytesPerInputByte exceeds
/// `memoryLimitBytes`, or, when that is unset, availableMemoryBytes() (no check when that is
/// unknown too). `sourceName` names the input(s) in the message. Cheap: call it before reading.
void checkInputFitsMemory(std::uint64_t inputBytes, const std::string& sourceName,
                          std::optional<std::uint64_t> memoryLimitBytes = std::nullopt);

/// Throws an InputError naming the smallest sensitive group, its number of rows and the
/// minimum when some group of `data` has fewer than `minimumRows` rows (a group with no row
/// counts as 0). The caller chooses the minimum: e.g. what a privacy guarantee or a per-group
/// metric needs, or what remains per group after a train/test split; this function only
/// checks and words the message.
void checkGroupSizes(const TabularData& data, std::size_t minimumRows);

}  // namespace pfa
