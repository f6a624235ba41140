#include "core/util/random.h"

namespace pfa {

namespace {
__extension__ typedef unsigned __int128 Uint128;  // GCC/Clang builtin, pedantic-clean

// SplitMix64 finaliser: turns (seed, label) into well-mixed engine seeds.
std::uint64_t splitMix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}
}  // namespace

RandomStream::RandomStream(std::uint64_t seed, std::uint64_t streamLabel) {
    const std::uint64_t a = splitMix64(seed ^ splitMix64(streamLabel));
    const std::uint64_t b = splitMix64(a);
    std::seed_seq sequence{static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(a >> 32),
                           static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(b >> 32)};
    m_engine.seed(sequence);
}

std::uint64_t RandomStream::uniformIndex(std::uint64_t bound) {
    // Lemire's nearly divisionless method with rejection, 128-bit product.
    Uint128 product = static_cast<Uint128>(m_engine()) * bound;
    auto low = static_cast<std::uint64_t>(product);
    if (low < bound) {
        const std::uint64_t threshold = (0 - bound) % bound;
        while (low < threshold) {
            product = static_cast<Uint128>(m_engine()) * bound;
            low = static_cast<std::uint64_t>(product);
        }
    }
    return static_cast<std::uint64_t>(product >> 64);
}

}  // namespace pfa
