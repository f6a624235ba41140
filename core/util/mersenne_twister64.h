#pragma once

#include <array>
#include <cstdint>
#include <random>

namespace pfa {

/// MT19937-64, the engine std::mt19937_64 specifies, with the same state after the same
/// seeding and the same outputs: a drop-in for it whose state refill (every 312 outputs) runs
/// without branches, four words at a time where the machine has AVX2 (avx2Enabled()). The
/// standard library's refill branches on the low bit of each word, which a processor predicts
/// no better than a coin. Tested against std::mt19937_64 output for output.
class MersenneTwister64 {
public:
    using result_type = std::uint64_t;
    static constexpr std::size_t kStateWords = 312;

    /// Seeded as std::mt19937_64 is by default (5489).
    MersenneTwister64() { seed(5489u); }
    /// Seeded as std::mt19937_64(value).
    explicit MersenneTwister64(result_type value) { seed(value); }

    /// As std::mt19937_64::seed(value).
    void seed(result_type value);
    /// As std::mt19937_64::seed(sequence): 624 32-bit words from sequence.generate, two to a
    /// state word.
    void seed(std::seed_seq& sequence);

    /// The next output.
    result_type operator()() {
        if (m_next >= kStateWords) refill();
        std::uint64_t y = m_state[m_next++];
        y ^= (y >> 29) & 0x5555555555555555ULL;
        y ^= (y << 17) & 0x71d67fffeda60000ULL;
        y ^= (y << 37) & 0xfff7eee000000000ULL;
        y ^= y >> 43;
        return y;
    }

    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type{0}; }

private:
    /// The next 312 state words (the standard's transition, applied to the whole block).
    void refill();

    std::array<std::uint64_t, kStateWords> m_state{};
    std::size_t m_next = kStateWords;
};

}  // namespace pfa
