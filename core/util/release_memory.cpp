#include "core/util/release_memory.h"

#include <algorithm>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace pfa {

void releaseMemory(const void* bufferBegin, const void* begin, const void* end) {
#if defined(__linux__)
    static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto buffer = reinterpret_cast<std::uintptr_t>(bufferBegin);
    const std::uintptr_t first = std::max((buffer + page - 1) / page * page,
                                          reinterpret_cast<std::uintptr_t>(begin) / page * page);
    const std::uintptr_t last = reinterpret_cast<std::uintptr_t>(end) / page * page;
    // MADV_DONTNEED on private anonymous memory frees the pages now; a later read sees zeros.
    if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
#else
    (void)bufferBegin;
    (void)begin;
    (void)end;
#endif
}

}  // namespace pfa
