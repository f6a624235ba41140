// Poisson sampling over users or silos: each unit is included at the rate q, a sampled unit
// brings every one of its rows, and the spec the accountant reads is the one that draws.
#include "core/engine/unit_sampler.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "core/engine/run_streams.h"
#include "core/util/error.h"
#include "test_data.h"

namespace core_unit_sampler_test {

using namespace pfa;

namespace {

/// `units` units of 1 … 7 rows (unit k has 1 + (5k mod 7) rows), rows of different units
/// interleaved, unit ids 10, 13, 16, … (not positions).
std::vector<int> interleavedUnitIds(int units) {
    std::vector<int> remaining(static_cast<std::size_t>(units));
    for (int k = 0; k < units; ++k) remaining[static_cast<std::size_t>(k)] = 1 + (5 * k) % 7;
    std::vector<int> ids;
    for (bool any = true; any;) {
        any = false;
        for (int k = 0; k < units; ++k) {
            if (remaining[static_cast<std::size_t>(k)]-- > 0) {
                ids.push_back(10 + 3 * k);
                any = true;
            }
        }
    }
    return ids;
}

}  // namespace

TEST_CASE("Unit sampler: each unit is included at the rate q", "[sampler][units]") {
    const UnitIndex index(interleavedUnitIds(400));
    REQUIRE(index.units() == 400);
    const SamplerSpec spec = SamplerSpec::overUnits(SamplingUnit::User, 400, 40, 1);
    UnitSampler sampler(spec, index, RandomStream(11, streams::kSampling));
    CHECK(sampler.samplingRate() == 0.1);
    CHECK(sampler.stepsPerEpoch() == 10);

    const int draws = 5000;
    const double q = 0.1;
    std::vector<long> rows(static_cast<std::size_t>(index.rows()));
    std::vector<long> included(400, 0);
    double sum = 0.0, sumSquares = 0.0;
    for (int t = 0; t < draws; ++t) {
        sampler.next(rows);
        const double drawn = static_cast<double>(sampler.drawnUnits().size());
        sum += drawn;
        sumSquares += drawn * drawn;
        for (const long unit : sampler.drawnUnits()) ++included[static_cast<std::size_t>(unit)];
    }
    // Units per step ~ Binomial(400, 0.1): mean 40 (standard error 0.085), variance 36.
    const double mean = sum / draws;
    const double variance = sumSquares / draws - mean * mean;
    CHECK(std::fabs(mean - 40.0) < 0.4);
    CHECK(std::fabs(variance / 36.0 - 1.0) < 0.1);
    // Every unit's count ~ Binomial(5000, 0.1): mean 500, sd 21.2. No unit is favoured by its
    // size or position (all within 5 sd), and the spread matches: Pearson's statistic over the
    // 400 units is 400 ± 28.
    double pearson = 0.0;
    for (const long count : included) {
        const double expected = draws * q;
        CHECK(std::fabs(static_cast<double>(count) - expected) <
              5.0 * std::sqrt(expected * (1 - q)));
        pearson += (count - expected) * (count - expected) / (expected * (1 - q));
    }
    CHECK(std::fabs(pearson - 400.0) < 6.0 * std::sqrt(800.0));
}

TEST_CASE("Unit sampler: a sampled unit brings every one of its rows, and nothing else",
          "[sampler][units]") {
    const std::vector<int> ids = interleavedUnitIds(60);
    const UnitIndex index(ids);
    UnitSampler sampler(SamplerSpec::overUnits(SamplingUnit::Silo, 60, 9, 3), index,
                        RandomStream(5, streams::kSampling));
    std::vector<long> rows(static_cast<std::size_t>(index.rows()));
    for (int t = 0; t < 300; ++t) {
        INFO("draw " << t);
        const long size = sampler.next(rows);
        const auto drawn = sampler.drawnUnits();
        long expected = 0;
        for (std::size_t k = 0; k < drawn.size(); ++k) {
            if (k > 0) REQUIRE(drawn[k] > drawn[k - 1]);  // distinct, ascending
            // The unit's rows sit next to each other in the batch, all of them, in order.
            const auto unitRows = index.rowsOf(drawn[k]);
            for (std::size_t r = 0; r < unitRows.size(); ++r) {
                REQUIRE(rows[static_cast<std::size_t>(expected) + r] == unitRows[r]);
            }
            expected += static_cast<long>(unitRows.size());
        }
        REQUIRE(size == expected);
        // Every row of the batch belongs to a drawn unit (the ids of the data, not positions).
        for (long i = 0; i < size; ++i) {
            const long unit = index.unitOf(rows[static_cast<std::size_t>(i)]);
            REQUIRE(std::binary_search(drawn.begin(), drawn.end(), unit));
            REQUIRE(ids[static_cast<std::size_t>(rows[static_cast<std::size_t>(i)])] ==
                    index.id(unit));
        }
    }
}

TEST_CASE("Unit sampler: q = 1 draws every unit, invalid specs are refused", "[sampler][units]") {
    const UnitIndex index(interleavedUnitIds(12));
    UnitSampler all(SamplerSpec::overUnits(SamplingUnit::User, 12, 12, 1), index,
                    RandomStream(1, streams::kSampling));
    std::vector<long> rows(static_cast<std::size_t>(index.rows()));
    for (int t = 0; t < 5; ++t) {
        CHECK(all.next(rows) == index.rows());
        CHECK(all.drawnUnits().size() == 12);
    }
    const RandomStream random(1, streams::kSampling);
    SamplerSpec shuffled = SamplerSpec::overUnits(SamplingUnit::User, 12, 3, 1);
    shuffled.mode = Sampling::Shuffle;
    CHECK_THROWS_AS(UnitSampler(shuffled, index, random), InputError);
    CHECK_THROWS_AS(
        UnitSampler(SamplerSpec::overUnits(SamplingUnit::User, 13, 3, 1), index, random),
        InputError);
    CHECK_THROWS_AS(UnitSampler(SamplerSpec::overRows(Sampling::Poisson, 12, 3, 1), index, random),
                    InputError);
    CHECK_THROWS_AS(
        UnitSampler(SamplerSpec::overUnits(SamplingUnit::User, 12, 0, 1), index, random),
        InputError);
}

TEST_CASE("Unit sampler: the index of a data set's users and silos", "[sampler][units]") {
    DataSplit data = test::syntheticSplit(400);
    CHECK_THROWS_AS(unitIndexOf(data.train, SamplingUnit::User), InputError);
    CHECK_THROWS_AS(unitIndexOf(data.train, SamplingUnit::Row), InputError);
    data.train.userId.resize(data.train.rows());
    for (Eigen::Index i = 0; i < data.train.rows(); ++i)
        data.train.userId(i) = static_cast<int>(i / 4);
    data.train.users = UnitIndex(data.train.userId);
    const UnitIndex& users = unitIndexOf(data.train, SamplingUnit::User);
    CHECK(users.units() == (data.train.rows() + 3) / 4);
    const SamplerSpec spec = SamplerSpec::overUnits(SamplingUnit::User, users.units(), 10, 2);
    CHECK(spec.steps() == 2 * ((users.units() + 9) / 10));
}

}  // namespace core_unit_sampler_test
