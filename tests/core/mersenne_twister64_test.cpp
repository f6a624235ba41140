// MersenneTwister64 against the engine it stands in for, std::mt19937_64: the same outputs after
// the same seeding, with AVX2 and with the baseline instructions.
#include "core/util/mersenne_twister64.h"

#include <catch2/catch.hpp>
#include <random>
#include <vector>

#include "core/util/instruction_set.h"

namespace core_mersenne_twister64_test {

using namespace pfa;

namespace {

/// How many of the first `count` outputs differ between the two engines.
template <typename Reference>
long differingOutputs(Reference& reference, MersenneTwister64& engine, long count) {
    long differing = 0;
    for (long i = 0; i < count; ++i) differing += reference() != engine();
    return differing;
}

}  // namespace

TEST_CASE("MersenneTwister64 gives std::mt19937_64's outputs, with AVX2 and without", "[random]") {
    // Ten refills and a part: every word position of the block, several times over.
    const long count = 10 * 312 + 17;
    for (const bool baseline : {false, true}) {
        useBaselineInstructionsOnly(baseline);
        INFO("baseline instructions " << baseline);
        {
            std::mt19937_64 reference;
            MersenneTwister64 engine;
            CHECK(differingOutputs(reference, engine, count) == 0);
        }
        for (const std::uint64_t value : {0ULL, 1ULL, 5489ULL, 0xdeadbeefcafef00dULL}) {
            std::mt19937_64 reference(value);
            MersenneTwister64 engine(value);
            CHECK(differingOutputs(reference, engine, count) == 0);
        }
        const std::vector<std::vector<std::uint32_t>> sequences = {
            {}, {0}, {1, 2, 3, 4}, {0xffffffffu, 7u, 0x12345678u, 42u, 9u, 10u, 11u, 12u, 13u}};
        for (const auto& words : sequences) {
            std::seed_seq forReference(words.begin(), words.end());
            std::seed_seq forEngine(words.begin(), words.end());
            std::mt19937_64 reference(forReference);
            MersenneTwister64 engine;
            engine.seed(forEngine);
            CHECK(differingOutputs(reference, engine, count) == 0);
        }
        useBaselineInstructionsOnly(false);
    }
}

}  // namespace core_mersenne_twister64_test
