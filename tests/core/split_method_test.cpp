// Train/test split methods: the seeded default is unchanged, and the pandas method picks exactly
// the rows pandas' DataFrame.sample(frac = 1 − test fraction, random_state = seed) picks.
//
// Reference values were computed once with pandas 1.5.3 / numpy 1.24.2, e.g.
//   pd.DataFrame(index=range(n)).sample(frac=0.75, random_state=100).index[:5]
//   list(np.random.RandomState(0).permutation(10))
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <numeric>

#include "core/data/builtin_datasets.h"
#include "core/data/preprocessing.h"
#include "core/generators/dataset_loading.h"
#include "core/sweep/prepared_dataset.h"
#include "core/util/error.h"
#include "test_data.h"

namespace core_split_method_test {

using namespace pfa;
using Catch::Matchers::WithinAbs;

namespace {

using Rows = std::vector<std::size_t>;

SplitOptions pandasSplit(double testFraction, std::uint64_t seed) {
    SplitOptions options;
    options.testFraction = testFraction;
    options.seed = seed;
    options.method = SplitMethod::PandasSample;
    return options;
}

/// FNV-1a over the training then the test indices (the test ones offset, so that moving a row
/// from one part to the other changes the hash).
unsigned long long splitHash(const SplitRows& rows) {
    unsigned long long hash = 1469598103934665603ULL;
    for (std::size_t v : rows.train) {
        hash ^= v;
        hash *= 1099511628211ULL;
    }
    for (std::size_t v : rows.test) {
        hash ^= v + 0x9e3779b97f4a7c15ULL;
        hash *= 1099511628211ULL;
    }
    return hash;
}

/// Rows 0..n−1 with the row index as the only numeric feature, so encoded values can be mapped
/// back to the rows they came from.
TabularData indexTable(int n) {
    TabularData table;
    table.name = "index";
    table.classNames = {"no", "yes"};
    table.groupNames = {"a", "b"};
    table.sensitiveDescription = "s";
    FeatureColumn index;
    index.name = "index";
    for (int i = 0; i < n; ++i) {
        index.numeric.push_back(i);
        table.label.push_back(i % 2);
        table.group.push_back((i / 3) % 2);
    }
    table.features = {index};
    return table;
}

}  // namespace

TEST_CASE("The default split is the seeded one, unchanged", "[data][split]") {
    CHECK(SplitOptions{}.method == SplitMethod::Seeded);
    // Captured from splitRows before split methods existed (commit 500d9ea).
    const SplitRows small = splitRows(20, {0.25, 3}, "x");
    CHECK(small.test == Rows{1, 7, 11, 15, 18});
    CHECK(splitHash(small) == 10954771471669404812ULL);
    const SplitRows parkinsonsSized = splitRows(5875, {0.25, 0}, "x");
    CHECK(parkinsonsSized.train.size() == 4406);
    CHECK(parkinsonsSized.test.size() == 1469);
    CHECK(splitHash(parkinsonsSized) == 9629723471885283475ULL);
    const SplitRows adultSized = splitRows(45222, {0.25, 0}, "x");
    CHECK(adultSized.test.size() == 11306);
    CHECK(splitHash(adultSized) == 404980759025917456ULL);
    CHECK(splitHash(splitRows(1000, {0.2, 7}, "x")) == 3329378576865764931ULL);
}

TEST_CASE("numpy's legacy permutation, as pandas' random_state draws it", "[data][split]") {
    // list(np.random.RandomState(seed).permutation(n))
    CHECK(numpyLegacyPermutation(10, 0) == Rows{2, 8, 4, 9, 1, 6, 7, 3, 0, 5});
    CHECK(numpyLegacyPermutation(12, 4294967295u) == Rows{11, 8, 5, 9, 1, 10, 6, 0, 4, 7, 2, 3});
    // The training rows of the published splits, in sample order:
    // pd.DataFrame(index=range(n)).sample(frac=0.75, random_state=100).index[:5]
    const auto firstFive = [](std::size_t n) {
        const Rows order = numpyLegacyPermutation(n, 100);
        return Rows(order.begin(), order.begin() + 5);
    };
    CHECK(firstFive(5875) == Rows{5851, 1598, 5075, 5236, 4235});      // Parkinsons
    CHECK(firstFive(45222) == Rows{40273, 1984, 1230, 25507, 553});    // Adult
    CHECK(firstFive(30000) == Rows{6102, 2539, 21576, 19574, 12804});  // Credit Card
    CHECK(numpyLegacyPermutation(1, 100) == Rows{0});
    CHECK(numpyLegacyPermutation(0, 100).empty());
}

TEST_CASE("A pandas split trains on the rows pandas samples", "[data][split]") {
    const SplitRows rows = splitRows(5875, pandasSplit(0.25, 100), "parkinsons");
    CHECK(rows.train.size() == 4406);
    CHECK(rows.test.size() == 1469);
    Rows sampled = numpyLegacyPermutation(5875, 100);
    sampled.resize(4406);
    std::sort(sampled.begin(), sampled.end());
    CHECK(rows.train == sampled);
    CHECK(std::is_sorted(rows.test.begin(), rows.test.end()));
    Rows all;
    std::merge(rows.train.begin(), rows.train.end(), rows.test.begin(), rows.test.end(),
               std::back_inserter(all));
    Rows expected(5875);
    std::iota(expected.begin(), expected.end(), std::size_t{0});
    CHECK(all == expected);  // every row in exactly one part

    // pandas' size is Python's round(frac · n): halves go to the even neighbour.
    // sorted(df.drop(df.sample(frac=0.75, random_state=7).index).index)
    CHECK(splitRows(10, pandasSplit(0.25, 7), "x").test == Rows{4, 6});        // 7.5 → 8 rows
    CHECK(splitRows(14, pandasSplit(0.25, 7), "x").test == Rows{3, 4, 6, 9});  // 10.5 → 10
    CHECK(splitRows(6, pandasSplit(0.25, 7), "x").test == Rows{1, 4});         // 4.5 → 4
    // frac = 0.8: sorted(df.drop(df.sample(frac=0.8, random_state=12345).index).index)[:8]
    const SplitRows eighty = splitRows(1000, pandasSplit(0.2, 12345), "x");
    CHECK(eighty.train.size() == 800);
    CHECK(Rows(eighty.test.begin(), eighty.test.begin() + 8) ==
          Rows{5, 23, 29, 32, 34, 36, 43, 58});
    // Different rows from the seeded split with the same seed.
    CHECK(splitRows(5875, {0.25, 100}, "x").train != rows.train);
}

TEST_CASE("A pandas split refuses what numpy refuses and empty parts", "[data][split]") {
    REQUIRE_THROWS_WITH(splitRows(100, pandasSplit(0.25, 4294967296ULL), "x"),
                        Catch::Contains("below 2^32"));
    REQUIRE_THROWS_WITH(splitRows(2, pandasSplit(0.1, 0), "x"), Catch::Contains("too few"));
    REQUIRE_THROWS_WITH(splitRows(100, pandasSplit(0.0, 0), "x"), Catch::Contains("test fraction"));
    CHECK(parseSplitMethod("pandas") == SplitMethod::PandasSample);
    CHECK(parseSplitMethod(splitMethodName(SplitMethod::Seeded)) == SplitMethod::Seeded);
    REQUIRE_THROWS_WITH(parseSplitMethod("sklearn"),
                        Catch::Contains("unknown split method 'sklearn'"));
}

TEST_CASE("A pandas split is encoded with training statistics only", "[data][split]") {
    const TabularData table = indexTable(200);
    const SplitOptions options = pandasSplit(0.25, 100);
    const DataSplit split = splitAndEncode(table, options);
    CHECK(split.splitMethod == SplitMethod::PandasSample);
    CHECK(split.splitSeed == 100);
    const SplitRows rows = splitRows(200, options, "index");
    REQUIRE(split.train.rows() == static_cast<Eigen::Index>(rows.train.size()));
    // The z-scoring statistics are those of the training rows' indices.
    double mean = 0.0, variance = 0.0;
    for (std::size_t row : rows.train) mean += static_cast<double>(row);
    mean /= static_cast<double>(rows.train.size());
    for (std::size_t row : rows.train) variance += std::pow(static_cast<double>(row) - mean, 2);
    const double sd = std::sqrt(variance / static_cast<double>(rows.train.size()));
    CHECK_THAT(split.encoding.means[0], WithinAbs(mean, 1e-12));
    CHECK_THAT(split.encoding.standardDeviations[0], WithinAbs(sd, 1e-12));
    // Both parts hold exactly their rows, in row order, scaled with those statistics.
    for (Eigen::Index i = 0; i < split.train.rows(); ++i) {
        CHECK_THAT(split.train.X(i, 0) * sd + mean,
                   WithinAbs(static_cast<double>(rows.train[i]), 1e-9));
    }
    for (Eigen::Index i = 0; i < split.test.rows(); ++i) {
        CHECK_THAT(split.test.X(i, 0) * sd + mean,
                   WithinAbs(static_cast<double>(rows.test[i]), 1e-9));
        CHECK(split.test.s(i) == table.group[rows.test[static_cast<std::size_t>(i)]]);
    }
}

TEST_CASE("The split method is in the data-set key only when it is not the default",
          "[data][split]") {
    DatasetRequest request;
    request.name = "parkinsons";
    request.sensitive = "sex";
    CHECK(datasetKey(request) == "parkinsons/sex|split=0,0.25");
    request.split.seed = 100;
    request.split.method = SplitMethod::PandasSample;
    CHECK(datasetKey(request) == "parkinsons/sex|split=100,0.25,pandas");
    CHECK(ledgerKey(request) == "parkinsons");
}

TEST_CASE("Parkinsons with the published split: pandas' rows and base rates",
          "[data][split][parkinsons][needs-data]") {
    const std::string directory = test::sharedDatasetPath("parkinsons-telemonitoring");
    if (directory.empty()) PFA_SKIP_TEST(test::missingDatasetReason("parkinsons-telemonitoring"));
    DatasetRequest request;
    request.name = "parkinsons";
    request.dataDirectory = directory;
    request.split = pandasSplit(0.25, 100);
    const DataSplit split = splitAndEncode(loadBuiltinDataset(request), request.split);
    CHECK(split.train.rows() == 4406);
    CHECK(split.test.rows() == 1469);
    // pandas: test = df.drop(df.sample(frac=0.75, random_state=100).index), then per sex the
    // count and the number with total_UPDRS > 27.576: male 1008 / 549, female 461 / 214.
    REQUIRE(split.test.groupNames == std::vector<std::string>{"female", "male"});
    long count[2] = {0, 0}, positive[2] = {0, 0};
    for (Eigen::Index i = 0; i < split.test.rows(); ++i) {
        ++count[split.test.s(i)];
        positive[split.test.s(i)] += split.test.y(i);
    }
    CHECK(count[1] == 1008);  // male
    CHECK(positive[1] == 549);
    CHECK(count[0] == 461);  // female
    CHECK(positive[0] == 214);
}

}  // namespace core_split_method_test
