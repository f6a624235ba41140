#include "core/util/mersenne_twister64.h"

#include <cstring>

#include "core/util/instruction_set.h"

namespace pfa {

namespace {

constexpr std::size_t kN = MersenneTwister64::kStateWords;
constexpr std::size_t kM = 156;
constexpr std::uint64_t kMatrix = 0xb5026f5aa96619e9ULL;
constexpr std::uint64_t kUpper = ~std::uint64_t{0} << 31;
constexpr std::uint64_t kLower = ~kUpper;

/// Word k of the next state from the words it reads: the upper bit of `current`, the lower 31 of
/// `following`, and the word `shifted` m (or m − n) ahead. The matrix is applied by a mask
/// made from the low bit, not by a branch.
[[gnu::always_inline]] inline std::uint64_t twist(std::uint64_t current, std::uint64_t following,
                                                  std::uint64_t shifted) {
    const std::uint64_t y = (current & kUpper) | (following & kLower);
    return shifted ^ (y >> 1) ^ (kMatrix & (0 - (y & 1)));
}

using Words = std::uint64_t __attribute__((vector_size(4 * sizeof(std::uint64_t))));
#pragma GCC diagnostic ignored "-Wpsabi"

[[gnu::always_inline]] inline Words load(const std::uint64_t* p) {
    Words v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

[[gnu::always_inline]] inline void store(std::uint64_t* p, Words v) {
    std::memcpy(p, &v, sizeof v);
}

[[gnu::always_inline]] inline Words twist(Words current, Words following, Words shifted) {
    const Words y = (current & kUpper) | (following & kLower);
    return shifted ^ (y >> 1) ^ (kMatrix & (Words{} - (y & 1)));
}

/// The refill, four words at a time. Words 0 … n − m − 1 read only words not yet replaced
/// (k + 1 and k + m); words n − m … n − 2 read replaced words k + m − n (at least m words
/// behind, so never within the same four) and unreplaced k + 1; the last word wraps to word 0.
[[gnu::always_inline]] inline void refillBody(std::uint64_t* x) {
    std::size_t k = 0;
    for (; k + 4 <= kN - kM; k += 4)
        store(x + k, twist(load(x + k), load(x + k + 1), load(x + k + kM)));
    for (; k < kN - kM; ++k) x[k] = twist(x[k], x[k + 1], x[k + kM]);
    for (; k + 4 <= kN - 1; k += 4)
        store(x + k, twist(load(x + k), load(x + k + 1), load(x + k + kM - kN)));
    for (; k < kN - 1; ++k) x[k] = twist(x[k], x[k + 1], x[k + kM - kN]);
    x[kN - 1] = twist(x[kN - 1], x[0], x[kM - 1]);
}

void refillBaseline(std::uint64_t* x) { refillBody(x); }

[[gnu::target("avx2")]] void refillAvx2(std::uint64_t* x) { refillBody(x); }

}  // namespace

void MersenneTwister64::seed(result_type value) {
    m_state[0] = value;
    for (std::size_t i = 1; i < kN; ++i) {
        const std::uint64_t previous = m_state[i - 1];
        m_state[i] = 6364136223846793005ULL * (previous ^ (previous >> 62)) + i;
    }
    m_next = kN;
}

void MersenneTwister64::seed(std::seed_seq& sequence) {
    std::array<std::uint32_t, 2 * kN> words{};
    sequence.generate(words.begin(), words.end());
    bool zero = true;
    for (std::size_t i = 0; i < kN; ++i) {
        m_state[i] = static_cast<std::uint64_t>(words[2 * i]) |
                     static_cast<std::uint64_t>(words[2 * i + 1]) << 32;
        zero = zero && (i == 0 ? (m_state[0] & kUpper) == 0 : m_state[i] == 0);
    }
    // The standard's guard against the all-zero state (which would repeat zeros forever).
    if (zero) m_state[0] = std::uint64_t{1} << 63;
    m_next = kN;
}

void MersenneTwister64::refill() {
    (avx2Enabled() ? refillAvx2 : refillBaseline)(m_state.data());
    m_next = 0;
}

}  // namespace pfa
