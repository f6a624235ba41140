// Splitting, encoding with training statistics only, and the synthetic generator.
#include "core/data/preprocessing.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "core/data/adult.h"
#include "core/data/builtin_datasets.h"
#include "core/data/synthetic.h"
#include "core/generators/dataset_loading.h"
#include "core/util/error.h"
#include "test_data.h"

namespace core_preprocessing_test {

using namespace pfa;
using Catch::Matchers::WithinAbs;

namespace {

TabularData tinyTable() {
    TabularData t;
    t.name = "tiny";
    t.classNames = {"no", "yes"};
    t.groupNames = {"a", "b"};
    t.sensitiveDescription = "s";
    FeatureColumn numeric;
    numeric.name = "x";
    FeatureColumn colour;
    colour.name = "colour";
    colour.kind = FeatureKind::Categorical;
    colour.levels = {"red", "green", "blue"};
    for (int i = 0; i < 40; ++i) {
        numeric.numeric.push_back(i);
        // "blue" only on row 39, which may land in either split.
        colour.codes.push_back(i == 39 ? 2 : i % 2);
        t.label.push_back(i % 2);
        t.group.push_back((i / 2) % 2);
    }
    t.features = {numeric, colour};
    return t;
}

}  // namespace

TEST_CASE("Split sizes and reproducibility", "[data]") {
    const TabularData table = tinyTable();
    const DataSplit a = splitAndEncode(table, {0.25, 3});
    const DataSplit b = splitAndEncode(table, {0.25, 3});
    const DataSplit c = splitAndEncode(table, {0.25, 4});
    CHECK(a.train.rows() == 30);
    CHECK(a.test.rows() == 10);
    CHECK(a.train.X == b.train.X);
    CHECK(a.train.X != c.train.X);
}

TEST_CASE("Numeric columns are z-scored with training statistics only", "[data]") {
    const DataSplit split = splitAndEncode(tinyTable(), {0.25, 1});
    const Eigen::VectorXd x = split.train.X.col(0);
    CHECK_THAT(x.mean(), WithinAbs(0.0, 1e-12));
    CHECK_THAT(std::sqrt((x.array() - x.mean()).square().mean()), WithinAbs(1.0, 1e-12));
    // The test column is transformed with the training mean/sd, so it is not exactly standard.
    const double mean = split.encoding.means[0];
    const double sd = split.encoding.standardDeviations[0];
    CHECK(split.test.X(0, 0) == Approx(0.0).margin(10));  // finite
    for (Eigen::Index i = 0; i < split.test.rows(); ++i) {
        const double raw = split.test.X(i, 0) * sd + mean;
        CHECK_THAT(raw, WithinAbs(std::round(raw), 1e-9));  // back to an integer row index
    }
}

TEST_CASE("One-hot levels come from the training rows unless declared", "[data]") {
    TabularData table = tinyTable();
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
        const DataSplit split = splitAndEncode(table, {0.25, seed});
        // Column 0 holds the row index (z-scored); row 39 is the only "blue" one.
        bool blueInTrain = false;
        for (Eigen::Index i = 0; i < split.train.rows(); ++i) {
            const double raw = split.train.X(i, 0) * split.encoding.standardDeviations[0] +
                               split.encoding.means[0];
            blueInTrain = blueInTrain || std::fabs(raw - 39.0) < 1e-9;
        }
        const auto& names = split.train.featureNames;
        CHECK((std::find(names.begin(), names.end(), "colour=blue") != names.end()) == blueInTrain);
        CHECK(split.train.features() == (blueInTrain ? 4 : 3));
        CHECK(split.test.features() == split.train.features());
        if (!blueInTrain) {
            // The test row with the unseen level encodes as all zeros in the one-hot block.
            for (Eigen::Index i = 0; i < split.test.rows(); ++i) {
                const double rowSum = split.test.X.row(i).tail(2).sum();
                CHECK((rowSum == 0.0 || rowSum == 1.0));
            }
        }
    }
    table.features[1].levelsDeclared = true;
    CHECK(splitAndEncode(table, {0.25, 0}).train.features() == 4);
}

TEST_CASE("A split that releases the raw values as it encodes gives the same parts",
          "[data][memory]") {
    // Rows in many encoding blocks (4096 raw rows each), with users, silos and a target.
    TabularData table;
    table.name = "blocks";
    table.classNames = {"no", "yes"};
    table.groupNames = {"a", "b"};
    table.sensitiveDescription = "s";
    FeatureColumn numeric, other, colour;
    numeric.name = "x";
    other.name = "z";
    colour.name = "colour";
    colour.kind = FeatureKind::Categorical;
    colour.levels = {"red", "green", "blue", "never"};
    const int rows = 30011;
    for (int i = 0; i < rows; ++i) {
        numeric.numeric.push_back(std::sin(0.37 * i) * 1e3 + 0.1 * i);
        other.numeric.push_back(static_cast<double>((i * 7919) % 1013) / 7.0);
        colour.codes.push_back((i * 31) % 3);
        table.label.push_back((i / 3) % 2);
        table.group.push_back((i / 5) % 2);
        table.userId.push_back(i / 4);
        table.siloId.push_back(i % 6);
    }
    table.features = {numeric, colour, other};
    const SplitOptions options{0.3, 11};
    const DataSplit plain = splitAndEncode(table, options);
    TabularData released = table;
    const DataSplit split = splitAndEncodeReleasing(released, options);
    for (const auto& [a, b] : {std::pair{&plain.train, &split.train}, {&plain.test, &split.test}}) {
        REQUIRE(a->rows() == b->rows());
        CHECK(a->X == b->X);  // bit for bit
        CHECK(b->X.withBias().col(b->features()).isOnes());
        CHECK(a->y == b->y);
        CHECK(a->s == b->s);
        CHECK(a->userId == b->userId);
        CHECK(a->rowKeys == b->rowKeys);
        CHECK(a->featureNames == b->featureNames);
        REQUIRE(b->users);
        REQUIRE(b->silos);
        CHECK(a->users->units() == b->users->units());
        CHECK(a->silos->units() == b->silos->units());
        for (long r = 0; r < a->rows(); r += 97) CHECK(a->silos->unitOf(r) == b->silos->unitOf(r));
    }
    CHECK(plain.encoding.means == split.encoding.means);
    CHECK(plain.encoding.standardDeviations == split.encoding.standardDeviations);
    CHECK(plain.encoding.keptLevels == split.encoding.keptLevels);
    // The raw values are gone; what describes the columns stays.
    REQUIRE(released.features.size() == 3);
    for (const FeatureColumn& column : released.features) {
        CHECK(column.numeric.empty());
        CHECK(column.codes.empty());
    }
    CHECK(released.features[1].levels == colour.levels);
    CHECK(released.features[2].name == "z");
    CHECK(released.label == table.label);
}

TEST_CASE("A split that would be empty is refused", "[data]") {
    TabularData table = tinyTable();
    REQUIRE_THROWS_WITH(splitAndEncode(table, {1.5, 0}), Catch::Contains("test fraction"));
    REQUIRE_THROWS_WITH(splitAndEncode(table, {0.001, 0}), Catch::Contains("too few"));
}

TEST_CASE("Synthetic generator follows its knobs", "[data][synthetic]") {
    SyntheticOptions options;
    options.rows = 20000;
    options.minorityShare = 0.3;
    const TabularData data = generateSynthetic(options);
    CHECK(data.rows() == 20000);
    CHECK(data.features.size() == 8);
    double minority = 0, repaid[2] = {0, 0}, count[2] = {0, 0};
    for (std::size_t i = 0; i < data.rows(); ++i) {
        minority += data.group[i];
        count[data.group[i]] += 1;
        repaid[data.group[i]] += data.label[i];
    }
    CHECK_THAT(minority / 20000.0, WithinAbs(0.3, 0.015));
    // The historical bias lowers group B's repayment rate by a wide margin.
    CHECK(repaid[0] / count[0] - repaid[1] / count[1] > 0.2);

    options.groupLabelDependence = 0.0;
    options.labelNoise = 0.0;
    const TabularData unbiased = generateSynthetic(options);
    double r[2] = {0, 0}, c[2] = {0, 0};
    for (std::size_t i = 0; i < unbiased.rows(); ++i) {
        c[unbiased.group[i]] += 1;
        r[unbiased.group[i]] += unbiased.label[i];
    }
    CHECK(std::fabs(r[0] / c[0] - r[1] / c[1]) < 0.03);

    // Same options, same data; the seed changes it.
    CHECK(generateSynthetic(options).features[0].numeric == unbiased.features[0].numeric);
    options.seed = 1;
    CHECK(generateSynthetic(options).features[0].numeric != unbiased.features[0].numeric);
}

TEST_CASE("Synthetic knobs are validated with the knob's name", "[data][synthetic]") {
    SyntheticOptions options;
    options.minorityShare = 0.9;
    REQUIRE_THROWS_WITH(generateSynthetic(options), Catch::Contains("minority share = 0.9"));
    options = {};
    options.rows = 5;
    REQUIRE_THROWS_WITH(generateSynthetic(options), Catch::Contains("rows = 5"));
    options = {};
    options.labelNoise = 0.7;
    REQUIRE_THROWS_WITH(generateSynthetic(options), Catch::Contains("label noise = 0.7"));
}

TEST_CASE("Adult encodes to 102 features with a 75/25 split", "[data][adult][needs-data]") {
    const std::string directory = test::sharedDatasetPath("adult");
    if (directory.empty()) PFA_SKIP_TEST(test::missingDatasetReason("adult"));
    DatasetRequest request;
    request.name = "adult";
    request.dataDirectory = directory;
    const DataSplit split = splitAndEncode(loadBuiltinDataset(request));
    CHECK(split.train.rows() + split.test.rows() == 45222);
    CHECK(split.train.rows() == 33916);
    CHECK(split.test.rows() == 11306);
    CHECK(split.train.features() == 102);
    CHECK(split.test.features() == 102);
    CHECK(split.train.groupNames == std::vector<std::string>{"Female", "Male"});
    CHECK(split.train.classNames[1] == ">50K");
    CHECK(split.train.featureNames[0] == "age");
}

TEST_CASE("Unknown built-in data sets are refused", "[data]") {
    DatasetRequest request;
    request.name = "mnist";
    REQUIRE_THROWS_WITH(loadBuiltinDataset(request), Catch::Contains("unknown data set 'mnist'"));
    request.name = "adult";
    REQUIRE_THROWS_WITH(loadBuiltinDataset(request), Catch::Contains("--data-dir"));
}

}  // namespace core_preprocessing_test
