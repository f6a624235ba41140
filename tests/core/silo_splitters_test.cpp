// Silo splitters: equal random silos, a Dirichlet label mix (iid for large α, skewed for small
// α), one silo per attribute value with small values merged; all seeded and reproducible.
#include "core/data/silo_splitters.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>

#include "core/data/adult.h"
#include "core/data/preprocessing.h"
#include "core/util/error.h"
#include "test_data.h"
#include "unit_checks.h"

namespace core_silo_splitters_test {

using namespace pfa;
using Catch::Contains;

namespace {

/// The synthetic data (4000 rows: 3000 training, 1000 test rows), split once for all tests.
const DataSplit& lending() {
    static const DataSplit split = test::syntheticSplit(4000);
    return split;
}

SiloOptions dirichlet(int silos, double alpha, std::uint64_t seed) {
    SiloOptions options;
    options.method = SiloMethod::Dirichlet;
    options.silos = silos;
    options.dirichletAlpha = alpha;
    options.seed = seed;
    return options;
}

/// Share of label-1 rows among the rows of each unit.
std::vector<double> positiveShares(const UnitIndex& silos, const Dataset& part) {
    std::vector<double> shares;
    for (long k = 0; k < silos.units(); ++k) {
        double positives = 0.0;
        for (long row : silos.rowsOf(k)) positives += part.y(row);
        shares.push_back(positives / static_cast<double>(silos.rowCount(k)));
    }
    return shares;
}

double positiveShare(const Dataset& part) { return part.y.cast<double>().mean(); }

/// Mean absolute difference between the silos' label shares and the whole part's.
double meanShareGap(const UnitIndex& silos, const Dataset& part) {
    const double overall = positiveShare(part);
    double gap = 0.0;
    for (double share : positiveShares(silos, part)) gap += std::abs(share - overall);
    return gap / static_cast<double>(silos.units());
}

/// Silo id of each row of both parts, checked against the index invariants.
void checkAssignment(const SiloAssignment& silos, const DataSplit& split) {
    REQUIRE(silos.train.rows() == split.train.rows());
    REQUIRE(silos.test.rows() == split.test.rows());
    test::checkUnitIndex(silos.train, test::idsOfRows(silos.train));
    test::checkUnitIndex(silos.test, test::idsOfRows(silos.test));
}

/// A table with a categorical "state" column: 400 rows of CA, 240 of NY, 40 of VT, 24 of WY,
/// and 8 of AK; the label follows the state (CA mostly positive, NY mostly negative).
TabularData statesTable() {
    TabularData t;
    t.name = "states";
    t.classNames = {"no", "yes"};
    t.groupNames = {"a", "b"};
    t.sensitiveDescription = "s";
    FeatureColumn x;
    x.name = "x";
    FeatureColumn state;
    state.name = "state";
    state.kind = FeatureKind::Categorical;
    state.levels = {"AK", "CA", "NY", "VT", "WY"};
    const int rows[] = {8, 400, 240, 40, 24};
    for (int level = 0; level < 5; ++level) {
        for (int i = 0; i < rows[level]; ++i) {
            x.numeric.push_back(i);
            state.codes.push_back(level);
            t.label.push_back(level == 1 ? (i % 5 != 0) : (i % 5 == 0));
            t.group.push_back(i % 2);
        }
    }
    t.features = {x, state};
    return t;
}

}  // namespace

TEST_CASE("Equal random silos: N silos of equal size in both parts", "[data][silos]") {
    SiloOptions options;
    options.silos = 7;
    options.seed = 3;
    const SiloAssignment silos = makeSilos(lending(), options);
    checkAssignment(silos, lending());
    for (const UnitIndex* part : {&silos.train, &silos.test}) {
        CHECK(part->units() == 7);
        CHECK(part->ids() == std::vector<int>{0, 1, 2, 3, 4, 5, 6});
        CHECK(part->maxRowsPerUnit() - part->minRowsPerUnit() <= 1);
    }
    CHECK(silos.train.name(0) == "silo 1");
    CHECK(silos.train.maxRowsPerUnit() == 429);  // 3000 = 428·7 + 4
    CHECK_THAT(silos.description, Contains("7 silos of equal size"));
    // Random, so no silo is a block of consecutive rows.
    CHECK(silos.train.rowsOf(0).back() - silos.train.rowsOf(0).front() > 2000);
}

TEST_CASE("Silo assignments are reproducible for a seed and differ between seeds",
          "[data][silos]") {
    for (const SiloOptions& options : {dirichlet(6, 0.5, 9), [] {
                                           SiloOptions equal;
                                           equal.silos = 6;
                                           equal.seed = 9;
                                           return equal;
                                       }()}) {
        const SiloAssignment a = makeSilos(lending(), options);
        const SiloAssignment b = makeSilos(lending(), options);
        CHECK(a.train == b.train);
        CHECK(a.test == b.test);
        SiloOptions other = options;
        other.seed = 10;
        CHECK_FALSE(makeSilos(lending(), other).train == a.train);
    }
}

TEST_CASE("Dirichlet silos: the same draws on every platform", "[data][silos]") {
    // Pinned once: a change here changes every federated result on these silos.
    const SiloAssignment silos = makeSilos(lending(), dirichlet(5, 0.5, 1));
    std::vector<long> sizes;
    for (long k = 0; k < silos.train.units(); ++k) sizes.push_back(silos.train.rowCount(k));
    CHECK(sizes == std::vector<long>{394, 74, 342, 848, 1342});
    CHECK(silos.train.rowsOf(0).front() == 0);
}

TEST_CASE("Dirichlet silos: large α gives every silo the same label mix", "[data][silos]") {
    const DataSplit& split = lending();
    const double overall = positiveShare(split.train);
    const SiloAssignment silos = makeSilos(split, dirichlet(5, 1000.0, 4));
    checkAssignment(silos, split);
    REQUIRE(silos.train.units() == 5);
    // Dirichlet(1000) shares deviate from 1/5 by about 0.6% (relative 3%); each row then picks
    // its silo on its own (binomial sizes, sd ≈ 22 rows), so a silo's positive share strays by
    // about 0.02 from the overall one (4 sd: 0.08).
    for (double share : positiveShares(silos.train, split.train)) {
        CHECK(std::abs(share - overall) < 0.08);
    }
    for (long k = 0; k < 5; ++k) CHECK(std::abs(silos.train.rowCount(k) - 600) < 100);

    // α = ∞: every row picks each silo with chance 1/5 (on its own key): sizes are binomial,
    // sd √(3000·0.2·0.8) ≈ 22 rows, and a silo's positive share strays by about 0.02.
    const SiloAssignment equal = makeSilos(split, dirichlet(5, INFINITY, 4));
    checkAssignment(equal, split);
    for (long k = 0; k < 5; ++k) CHECK(std::abs(equal.train.rowCount(k) - 600) < 100);
    for (double share : positiveShares(equal.train, split.train)) {
        CHECK(std::abs(share - overall) < 0.08);
    }
    CHECK_THAT(equal.description, Contains("Dirichlet(α = ∞)"));
}

TEST_CASE("Dirichlet silos: small α gives silos dominated by one class", "[data][silos]") {
    const DataSplit& split = lending();
    const SiloAssignment iid = makeSilos(split, dirichlet(10, 1000.0, 2));
    const SiloAssignment skewed = makeSilos(split, dirichlet(10, 0.05, 2));
    checkAssignment(skewed, split);
    REQUIRE(skewed.train.units() == 10);
    // With α = 0.05 nearly all of a class goes to one or two silos, so most silos are close to
    // label-pure; with α = 1000 no silo strays far from the overall share.
    CHECK(meanShareGap(iid.train, split.train) < 0.02);
    CHECK(meanShareGap(skewed.train, split.train) > 0.25);
    const std::vector<double> shares = positiveShares(skewed.train, split.train);
    const long nearlyPure =
        std::count_if(shares.begin(), shares.end(), [](double s) { return s < 0.1 || s > 0.9; });
    CHECK(nearlyPure >= 6);
    // The test rows follow the same proportions: a silo's test label share tracks its training one.
    const std::vector<long> trainSilo = matchUnits(skewed.test, skewed.train);
    const std::vector<double> testShares = positiveShares(skewed.test, split.test);
    for (long k = 0; k < skewed.test.units(); ++k) {
        if (skewed.test.rowCount(k) < 40) continue;
        const long t = trainSilo[static_cast<std::size_t>(k)];
        REQUIRE(t >= 0);
        CHECK(std::abs(testShares[static_cast<std::size_t>(k)] -
                       shares[static_cast<std::size_t>(t)]) < 0.15);
    }
}

TEST_CASE("Dirichlet silos: shares follow the Dirichlet law", "[data][silos]") {
    // With 2 silos a class's share in silo 1 is Beta(α, α): mean 1/2, variance 1/(4(2α + 1)).
    // α = 0.5 exercises the draw for shapes below 1, α = 2 the one above. Over 300 seeds the
    // sample variance has a standard error of about 0.005; the tolerance is 0.02.
    const DataSplit& split = lending();
    const double classZeroRows = static_cast<double>((split.train.y.array() == 0).count());
    for (double alpha : {0.5, 2.0}) {
        double sum = 0.0, sumOfSquares = 0.0;
        const int seeds = 300;
        for (int seed = 0; seed < seeds; ++seed) {
            const SiloAssignment silos =
                makeSilos(split, dirichlet(2, alpha, static_cast<std::uint64_t>(seed)));
            double inSiloOne = 0.0;
            for (long row : silos.train.rowsOf(*silos.train.find(1))) {
                inSiloOne += split.train.y(row) == 0 ? 1.0 : 0.0;
            }
            const double share = inSiloOne / classZeroRows;
            sum += share;
            sumOfSquares += share * share;
        }
        const double mean = sum / seeds;
        const double variance = sumOfSquares / seeds - mean * mean;
        INFO("alpha " << alpha << ": mean " << mean << ", variance " << variance);
        CHECK(std::abs(mean - 0.5) < 0.06);
        CHECK(std::abs(variance - 1.0 / (4.0 * (2.0 * alpha + 1.0))) < 0.02);
    }
}

TEST_CASE("Dirichlet silos keep a minimum of training rows per silo, or say why not",
          "[data][silos]") {
    // Two classes shared among 10 silos by Dirichlet(0.3) draws: some silos get few rows.
    SiloOptions options = dirichlet(10, 0.3, 2);
    const SiloAssignment unrestricted = makeSilos(lending(), options);
    REQUIRE(unrestricted.train.minRowsPerUnit() < 50);
    options.minTrainRowsPerSilo = 50;
    const SiloAssignment silos = makeSilos(lending(), options);
    CHECK(silos.train.units() == 10);
    CHECK(silos.train.minRowsPerUnit() >= 50);

    options.minTrainRowsPerSilo = 300;  // 10 × 300 = all 3000 rows in exactly equal silos
    REQUIRE_THROWS_WITH(makeSilos(lending(), options),
                        Contains("gave each of the 10 silos at least 300 training rows"));
    options.minTrainRowsPerSilo = 301;
    REQUIRE_THROWS_WITH(makeSilos(lending(), options), Contains("need 3010 training rows"));
}

TEST_CASE("Silo options are validated", "[data][silos]") {
    SiloOptions options = dirichlet(0, 1.0, 0);
    REQUIRE_THROWS_WITH(makeSilos(lending(), options), Contains("number of silos 0 is invalid"));
    options = dirichlet(4, 0.0, 0);
    REQUIRE_THROWS_WITH(makeSilos(lending(), options), Contains("α = 0 is invalid"));
    options = dirichlet(4, NAN, 0);
    REQUIRE_THROWS_AS(makeSilos(lending(), options), InputError);
    options.method = SiloMethod::ByAttribute;
    options.column = "income";
    REQUIRE_THROWS_WITH(makeSilos(lending(), options), Contains("'income' is numeric"));
    options.column = "zip";
    REQUIRE_THROWS_WITH(makeSilos(lending(), options),
                        Contains("'zip' is not a feature column") && Contains("the data has none"));

    DataSplit split = lending();
    SiloAssignment wrong = makeSilos(split, dirichlet(3, 1.0, 0));
    std::swap(wrong.train, wrong.test);
    REQUIRE_THROWS_WITH(assignSilos(split, wrong), Contains("does not fit a split"));
    CHECK_FALSE(split.train.silos.has_value());
}

TEST_CASE("Silos by attribute: one per value, small values merged into 'other'", "[data][silos]") {
    const DataSplit split = splitAndEncode(statesTable(), {0.25, 5});
    SiloOptions options;
    options.method = SiloMethod::ByAttribute;
    options.column = "state";
    options.minTrainRowsPerSilo = 25;
    const SiloAssignment silos = makeSilos(split, options);
    checkAssignment(silos, split);
    // CA (≈300 training rows), NY (≈180), VT (≈30) keep a silo; WY (≈18) and AK (≈6) merge.
    REQUIRE(silos.train.units() == 4);
    CHECK(silos.train.name(0) == "CA");
    CHECK(silos.train.name(1) == "NY");
    CHECK(silos.train.name(2) == "VT");
    CHECK(silos.train.name(3) == "other");
    CHECK(silos.train.rowCount(3) < 25 + 8);
    CHECK_THAT(silos.description, Contains("2 smaller values") && Contains("'other'"));
    // Every row of a named silo has that state's one-hot column set, in both parts.
    for (const auto& [index, part] :
         {std::pair{&silos.train, &split.train}, std::pair{&silos.test, &split.test}}) {
        for (long k = 0; k < index->units(); ++k) {
            const std::string column =
                index->name(k) == "other" ? "state=WY" : "state=" + index->name(k);
            const auto j = std::find(part->featureNames.begin(), part->featureNames.end(), column) -
                           part->featureNames.begin();
            for (long row : index->rowsOf(k)) {
                if (index->name(k) == "other") {
                    CHECK(part->X(row, j) + part->X(row, j - 4) == 1.0);  // WY or AK
                } else {
                    CHECK(part->X(row, j) == 1.0);
                }
            }
        }
    }

    // Without a minimum, every value is a silo and nothing is merged.
    options.minTrainRowsPerSilo = 1;
    const SiloAssignment all = makeSilos(split, options);
    CHECK(all.train.units() == 5);
    CHECK_FALSE(all.train.find(5).has_value());
}

TEST_CASE("Silos by attribute: a value never seen in training goes to 'other'", "[data][silos]") {
    // Undeclared levels get one-hot columns only when seen in training: make "AK" test-only
    // by splitting until none of its 8 rows is a training row.
    TabularData table = statesTable();
    table.features[1].levels[0] = "AK";
    DataSplit split;
    for (std::uint64_t seed = 0;; ++seed) {
        split = splitAndEncode(table, {0.25, seed});
        if (std::find(split.train.featureNames.begin(), split.train.featureNames.end(),
                      "state=AK") == split.train.featureNames.end()) {
            break;
        }
        REQUIRE(seed < 100000);
    }
    SiloOptions options;
    options.method = SiloMethod::ByAttribute;
    options.column = "state";
    const SiloAssignment silos = makeSilos(split, options);
    CHECK(silos.train.units() == 4);   // CA, NY, VT, WY
    REQUIRE(silos.test.units() == 5);  // and "other", with AK's 8 rows
    CHECK(silos.test.name(4) == "other");
    CHECK(silos.test.rowCount(4) == 8);
    CHECK_FALSE(silos.train.find(silos.test.id(4)).has_value());
}

TEST_CASE("Silos by label or group: label-pure silos", "[data][silos]") {
    const DataSplit& split = lending();
    SiloOptions options;
    options.method = SiloMethod::ByAttribute;
    options.attribute = SiloAttribute::Label;
    const SiloAssignment byClass = makeSilos(split, options);
    checkAssignment(byClass, split);
    REQUIRE(byClass.train.units() == 2);
    CHECK(byClass.train.name(1) == "repaid");
    for (long k = 0; k < 2; ++k) {
        for (long row : byClass.train.rowsOf(k)) CHECK(split.train.y(row) == byClass.train.id(k));
    }
    options.attribute = SiloAttribute::Group;
    const SiloAssignment byGroup = makeSilos(split, options);
    REQUIRE(byGroup.test.units() == 2);
    CHECK(byGroup.test.name(0) == "A (majority)");
    CHECK_THAT(byGroup.description, Contains("one silo per value of group"));
}

TEST_CASE("assignSilos stores the silos in both parts", "[data][silos]") {
    DataSplit split = lending();
    SiloOptions options;
    options.silos = 4;
    assignSilos(split, makeSilos(split, options));
    REQUIRE(split.train.silos.has_value());
    REQUIRE(split.test.silos.has_value());
    CHECK(split.train.silos->units() == 4);
    CHECK(split.test.silos->rows() == split.test.rows());
    CHECK_THAT(split.train.siloDescription, Contains("4 silos"));
    CHECK(split.train.X == lending().train.X);  // the data itself is unchanged
}

TEST_CASE("Adult: silos by native country", "[data][silos][adult][needs-data]") {
    const std::string directory = test::sharedDatasetPath("adult");
    if (directory.empty() || !std::filesystem::exists(directory + "/adult.data"))
        PFA_SKIP_TEST(test::missingDatasetReason("adult/adult.data"));
    const DataSplit split = splitAndEncode(loadAdult(directory));
    SiloOptions options;
    options.method = SiloMethod::ByAttribute;
    options.column = "native-country";
    options.minTrainRowsPerSilo = 500;
    const SiloAssignment silos = makeSilos(split, options);
    checkAssignment(silos, split);
    std::vector<std::string> names;
    for (long k = 0; k < silos.train.units(); ++k) names.push_back(silos.train.name(k));
    CHECK(names == std::vector<std::string>{"Mexico", "United-States", "other"});
    CHECK(silos.train.rowCount(1) > 0.85 * static_cast<double>(split.train.rows()));
    CHECK(silos.train.rowCount(0) >= 500);
}

TEST_CASE("A record's silo depends on that record alone: changing one label moves no other row",
          "[data][silos][privacy]") {
    // The trust audit's counterexample: dealing each class's shuffled rows by cut points let one
    // changed label move 1251–1816 of 3000 other rows to other silos, so the neighbouring data
    // set a per-silo guarantee assumes no longer held. A row's silo now follows from its own
    // label and key only.
    const DataSplit& split = lending();
    SiloOptions byLabel;
    byLabel.method = SiloMethod::ByAttribute;
    byLabel.attribute = SiloAttribute::Label;
    for (const SiloOptions& options : {dirichlet(8, 0.5, 3), byLabel}) {
        const SiloAssignment before = makeSilos(split, options);
        for (const long changed : {0L, 1234L, 2999L}) {
            DataSplit neighbour = split;
            neighbour.train.y(changed) = 1 - neighbour.train.y(changed);
            const SiloAssignment after = makeSilos(neighbour, options);
            long moved = 0;
            for (long r = 0; r < split.train.rows(); ++r) {
                if (r == changed) continue;
                moved += before.train.id(before.train.unitOf(r)) !=
                         after.train.id(after.train.unitOf(r));
            }
            INFO("method " << static_cast<int>(options.method) << ", changed row " << changed);
            CHECK(moved == 0);
        }
        CHECK_THAT(before.neighbourAssumption, Contains("no other record decides it"));
        CHECK_THAT(before.neighbourAssumption, Contains("stays in its silo"));
    }
}

}  // namespace core_silo_splitters_test
