// The synthetic generator with users (rows per user equal or skewed, correlated rows, atypical
// users) and silos (heterogeneity h), and their indexes after the split.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <set>

#include "core/data/preprocessing.h"
#include "core/data/synthetic.h"
#include "core/util/error.h"
#include "unit_checks.h"

namespace core_synthetic_units_test {

using namespace pfa;
using Catch::Contains;

namespace {

SyntheticOptions withUsers(int rows, int users) {
    SyntheticOptions options;
    options.rows = rows;
    options.users = users;
    return options;
}

std::vector<double> column(const TabularData& data, const std::string& name) {
    for (const FeatureColumn& feature : data.features) {
        if (feature.name == name) return feature.numeric;
    }
    FAIL("no column " << name);
    return {};
}

/// Share of a column's variance that lies between units (the intra-class correlation).
double betweenUnitShare(const std::vector<double>& values, const std::vector<int>& unitOfRow) {
    std::map<int, std::pair<double, long>> sums;
    double total = 0.0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        sums[unitOfRow[i]].first += values[i];
        ++sums[unitOfRow[i]].second;
        total += values[i];
    }
    const double mean = total / static_cast<double>(values.size());
    double within = 0.0, all = 0.0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const auto& [sum, count] = sums[unitOfRow[i]];
        within += std::pow(values[i] - sum / static_cast<double>(count), 2);
        all += std::pow(values[i] - mean, 2);
    }
    return 1.0 - within / all;
}

}  // namespace

TEST_CASE("Synthetic users: equal rows per user, one group per user", "[data][synthetic][units]") {
    const TabularData data = generateSynthetic(withUsers(1000, 200));
    REQUIRE(data.userId.size() == 1000);
    const UnitIndex users(data.userId);
    test::checkUnitIndex(users, data.userId);
    CHECK(users.units() == 200);
    CHECK(users.maxRowsPerUnit() == 5);
    CHECK(users.minRowsPerUnit() == 5);
    for (long k = 0; k < users.units(); ++k) {
        for (long row : users.rowsOf(k))
            CHECK(data.group[static_cast<std::size_t>(row)] ==
                  data.group[static_cast<std::size_t>(users.rowsOf(k)[0])]);
    }
    CHECK(data.personColumn == "applicant");
    CHECK(data.unitName == "application");
    CHECK(data.siloId.empty());
    // About minorityShare of the users are in group B.
    long groupB = 0;
    for (long k = 0; k < users.units(); ++k)
        groupB += data.group[static_cast<std::size_t>(users.rowsOf(k)[0])];
    CHECK(std::abs(static_cast<double>(groupB) / 200.0 - 0.35) < 0.1);

    // 1003 rows over 200 users: the first 3 users get one row more.
    const UnitIndex uneven(generateSynthetic(withUsers(1003, 200)).userId);
    CHECK(uneven.rowCount(2) == 6);
    CHECK(uneven.rowCount(3) == 5);
}

TEST_CASE("Synthetic users: skewed rows per user follow a Zipf law", "[data][synthetic][units]") {
    SyntheticOptions options = withUsers(10000, 100);
    options.rowsPerUserSkew = 1.0;
    const UnitIndex users(generateSynthetic(options).userId);
    test::checkUnitIndex(users, generateSynthetic(options).userId);
    REQUIRE(users.units() == 100);
    // Σ_{k ≤ 100} 1/k ≈ 5.187: user 1 holds ≈ 9900/5.187 + 1 ≈ 1909 rows, user 100 ≈ 20.
    CHECK(std::abs(users.rowCount(0) - 1909) <= 1);
    CHECK(std::abs(users.rowCount(99) - 20) <= 1);
    for (long k = 1; k < users.units(); ++k) CHECK(users.rowCount(k) <= users.rowCount(k - 1));
    CHECK(users.maxRowsPerUnit() == users.rowCount(0));
}

TEST_CASE("Synthetic users: correlation makes a user's rows alike without changing the rows' law",
          "[data][synthetic][units]") {
    SyntheticOptions independent = withUsers(4000, 500);
    SyntheticOptions correlated = independent;
    correlated.userCorrelation = 0.9;
    const TabularData a = generateSynthetic(independent);
    const TabularData b = generateSynthetic(correlated);
    // credit_history = 0.7·u + N(0, 0.6²): with ρ = 0.9 the between-user share is
    // 0.49·0.9/(0.49 + 0.36) ≈ 0.52; with ρ = 0 only chance (≈ 1/8 for 8 rows per user).
    const double shareIndependent = betweenUnitShare(column(a, "credit_history"), a.userId);
    const double shareCorrelated = betweenUnitShare(column(b, "credit_history"), b.userId);
    CHECK(shareIndependent < 0.2);
    CHECK(shareCorrelated > 0.45);
    CHECK(shareCorrelated < 0.65);
    // The base rate of the data stays where it is without users.
    const auto positiveRate = [](const TabularData& data) {
        return std::count(data.label.begin(), data.label.end(), 1) /
               static_cast<double>(data.rows());
    };
    const double plain = positiveRate(generateSynthetic(SyntheticOptions{4000}));
    CHECK(std::abs(positiveRate(a) - plain) < 0.03);
    CHECK(std::abs(positiveRate(b) - plain) < 0.06);
}

TEST_CASE("Synthetic users: atypical users have every label flipped", "[data][synthetic][units]") {
    SyntheticOptions options = withUsers(2000, 100);
    options.userCorrelation = 0.5;
    const TabularData typical = generateSynthetic(options);
    options.atypicalUserShare = 0.2;
    const TabularData mixed = generateSynthetic(options);
    // Same rows otherwise (the atypical draw comes after every other user draw).
    CHECK(column(mixed, "income") == column(typical, "income"));
    const UnitIndex users(mixed.userId);
    long flippedUsers = 0;
    for (long k = 0; k < users.units(); ++k) {
        long flipped = 0;
        for (long row : users.rowsOf(k)) {
            const auto i = static_cast<std::size_t>(row);
            flipped += mixed.label[i] != typical.label[i];
        }
        CHECK((flipped == 0 || flipped == users.rowCount(k)));
        flippedUsers += flipped > 0;
    }
    CHECK(flippedUsers == 20);
}

TEST_CASE("Synthetic silos: h = 0 leaves the rows as they are, h > 0 shifts each silo",
          "[data][synthetic][units]") {
    SyntheticOptions options;
    options.rows = 4000;
    const TabularData plain = generateSynthetic(options);
    options.silos = 4;
    const TabularData iid = generateSynthetic(options);
    CHECK(column(iid, "income") == column(plain, "income"));
    CHECK(iid.label == plain.label);
    REQUIRE(iid.siloId.size() == 4000);
    CHECK(iid.siloId[999] == 0);
    CHECK(iid.siloId[1000] == 1);
    CHECK(iid.siloNames.back() == "silo 4");
    CHECK_THAT(iid.siloDescription, Contains("4 silos"));

    options.siloHeterogeneity = 2.0;
    const TabularData shifted = generateSynthetic(options);
    // Silo means of a feature: spread by h·m_j, m_j ~ N(0, 1), against ≈ 1/√1000 by chance.
    const auto siloMeanSpread = [](const TabularData& data) {
        const std::vector<double> savings = column(data, "savings");
        std::vector<double> mean(4, 0.0);
        for (std::size_t i = 0; i < savings.size(); ++i)
            mean[static_cast<std::size_t>(data.siloId[i])] += savings[i] / 1000.0;
        return *std::max_element(mean.begin(), mean.end()) -
               *std::min_element(mean.begin(), mean.end());
    };
    CHECK(siloMeanSpread(iid) < 0.2);
    CHECK(siloMeanSpread(shifted) > 1.0);

    const DataSplit split = splitAndEncode(shifted);
    for (const Dataset* part : {&split.train, &split.test}) {
        REQUIRE(part->silos.has_value());
        CHECK(part->silos->units() == 4);
        CHECK_FALSE(part->users.has_value());
        CHECK(part->silos->name(0) == "silo 1");
    }
}

TEST_CASE("Synthetic users in silos: each user belongs to one silo", "[data][synthetic][units]") {
    SyntheticOptions options = withUsers(3000, 300);
    options.rowsPerUserSkew = 0.5;
    options.silos = 7;
    options.siloHeterogeneity = 1.0;
    const TabularData data = generateSynthetic(options);
    const UnitIndex users(data.userId);
    for (long k = 0; k < users.units(); ++k) {
        for (long row : users.rowsOf(k))
            CHECK(data.siloId[static_cast<std::size_t>(row)] == users.id(k) % 7);
    }
    const DataSplit split = splitAndEncode(data, {0.25, 4});
    for (const Dataset* part : {&split.train, &split.test}) {
        REQUIRE(part->users.has_value());
        REQUIRE(part->silos.has_value());
        for (long row = 0; row < part->rows(); ++row) {
            CHECK(part->silos->id(part->silos->unitOf(row)) == part->userId(row) % 7);
        }
    }
    CHECK(generateSynthetic(options).label == data.label);  // reproducible
    CHECK_THAT(describeSynthetic(options), Contains("users=300") && Contains("silos=7"));
    CHECK_THAT(describeSynthetic(SyntheticOptions{}), !Contains("users") && !Contains("silos"));
}

TEST_CASE("Synthetic user and silo knobs are validated", "[data][synthetic][units]") {
    auto refused = [](const SyntheticOptions& options, const std::string& message) {
        REQUIRE_THROWS_WITH(generateSynthetic(options), Contains(message));
    };
    refused(withUsers(1000, 1001), "users = 1001 is invalid");
    refused(withUsers(1000, -1), "users = -1 is invalid");
    SyntheticOptions options = withUsers(1000, 0);
    options.userCorrelation = 0.5;
    refused(options, "need users");
    options = withUsers(1000, 10);
    options.rowsPerUserSkew = 4.0;
    refused(options, "rows-per-user skew = 4 is invalid");
    options = withUsers(1000, 10);
    options.atypicalUserShare = 0.5;
    refused(options, "atypical user share = 0.5 is invalid");
    options = withUsers(1000, 10);
    options.silos = 11;
    refused(options, "between 0 (no silos) and the number of users");
    options = withUsers(1000, 0);
    options.siloHeterogeneity = 1.0;
    refused(options, "silo heterogeneity needs silos");
}

}  // namespace core_synthetic_units_test
