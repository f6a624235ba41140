#include "core/util/instruction_set.h"

#include <atomic>

namespace pfa {

namespace {
std::atomic<bool> baselineOnly{false};
}

bool avx2Enabled() {
    static const bool available = __builtin_cpu_supports("avx2");
    return available && !baselineOnly.load(std::memory_order_relaxed);
}

void useBaselineInstructionsOnly(bool baseline) {
    baselineOnly.store(baseline, std::memory_order_relaxed);
}

}  // namespace pfa
