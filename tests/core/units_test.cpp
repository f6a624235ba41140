// Rows grouped by unit (users, silos): the index's invariants, user ids surviving the
// train/test split and encoding, and the spread of the units' errors.
#include "core/data/units.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <set>
#include <span>

#include "core/data/catalog.h"
#include "core/data/preprocessing.h"
#include "core/engine/evaluator.h"
#include "core/util/random.h"
#include "test_data.h"
#include "unit_checks.h"

namespace core_units_test {

using namespace pfa;

namespace {

/// A table shaped like Parkinsons telemonitoring: `subjects` people with an uneven number of
/// recordings each (subject k has 20 + (7·k mod 31) rows), user ids in order of first
/// appearance, the subject numbers as user names, and rows of different people interleaved.
TabularData recordingsTable(int subjects) {
    TabularData t;
    t.name = "recordings";
    t.classNames = {"mild", "severe"};
    t.groupNames = {"female", "male"};
    t.sensitiveDescription = "sex";
    t.unitName = "recording";
    t.personColumn = "subject#";
    FeatureColumn jitter;
    jitter.name = "jitter";
    std::vector<int> remaining;
    for (int k = 0; k < subjects; ++k) {
        remaining.push_back(20 + (7 * k) % 31);
        t.userNames.push_back(std::to_string(100 + k));  // "subject#" values 100, 101, ...
    }
    // Round robin over the people who still have recordings, so that rows interleave.
    for (bool any = true; any;) {
        any = false;
        for (int k = 0; k < subjects; ++k) {
            if (remaining[static_cast<std::size_t>(k)]-- <= 0) continue;
            any = true;
            const auto row = static_cast<double>(t.label.size());
            jitter.numeric.push_back(0.01 * row + k);
            t.label.push_back((k + static_cast<int>(row)) % 3 == 0 ? 1 : 0);
            t.group.push_back(k % 2);
            t.userId.push_back(k);
        }
    }
    t.features = {jitter};
    return t;
}

std::vector<int> toVector(const Eigen::VectorXi& v) { return {v.data(), v.data() + v.size()}; }

}  // namespace

TEST_CASE("A unit index puts every row in exactly one unit", "[data][units]") {
    // Ids with gaps, negative ids, a unit of one row and rows in no particular order.
    const std::vector<int> ids{7, -2, 7, 3, 3, 7, 1000, -2, 3, 7, 42};
    const UnitIndex index(ids);
    test::checkUnitIndex(index, ids);
    CHECK(index.units() == 5);
    CHECK(index.ids() == std::vector<int>{-2, 3, 7, 42, 1000});
    CHECK(index.offsets() == std::vector<long>{0, 2, 5, 9, 10, 11});
    CHECK(index.rowOrder() == std::vector<long>{1, 7, 3, 4, 8, 0, 2, 5, 9, 10, 6});
    CHECK(index.maxRowsPerUnit() == 4);
    CHECK(index.minRowsPerUnit() == 1);
    CHECK(index.rowCount(2) == 4);
    CHECK(index.unitOf(6) == 4);
    CHECK_FALSE(index.find(8).has_value());
    CHECK(index.name(0) == "-2");  // no names given: the id
}

TEST_CASE("A unit index of many random ids keeps its invariants", "[data][units]") {
    RandomStream random(5, 0x54455354);
    std::vector<int> ids(20000);
    for (int& id : ids) id = static_cast<int>(random.uniformIndex(997)) * 3;
    const UnitIndex index(ids);
    test::checkUnitIndex(index, ids);
    CHECK(index.units() == 997);
}

TEST_CASE("An empty unit index has no units and one offset", "[data][units]") {
    const UnitIndex empty;
    test::checkUnitIndex(empty, {});
    CHECK(empty.units() == 0);
    CHECK(empty.offsets() == std::vector<long>{0});
    CHECK(empty.maxRowsPerUnit() == 0);
    CHECK(UnitIndex(std::vector<int>{}) == empty);
}

TEST_CASE("Units are named by id where names are given", "[data][units]") {
    const UnitIndex index(std::vector<int>{2, 0, 5, 2}, {"zero", "one", "", "three"});
    REQUIRE(index.units() == 3);
    CHECK(index.name(0) == "zero");
    CHECK(index.name(1) == "2");  // empty name: the id
    CHECK(index.name(2) == "5");  // beyond the names: the id
}

TEST_CASE("matchUnits maps units between parts by id", "[data][units]") {
    const UnitIndex train(std::vector<int>{1, 4, 4, 9});
    const UnitIndex test(std::vector<int>{9, 2, 4});
    CHECK(matchUnits(test, train) == std::vector<long>{-1, 1, 2});  // test ids 2, 4, 9
    CHECK(matchUnits(train, test) == std::vector<long>{-1, 1, 2});  // train ids 1, 4, 9
}

TEST_CASE("User ids survive the split: each part indexes its own rows by user", "[data][units]") {
    const TabularData table = recordingsTable(42);
    const DataSplit split = splitAndEncode(table, {0.25, 11});
    for (const Dataset* part : {&split.train, &split.test}) {
        REQUIRE(part->users.has_value());
        test::checkUnitIndex(*part->users, toVector(part->userId));
        CHECK_FALSE(part->silos.has_value());
    }
    // Every subject keeps their name, and their rows across the parts add up.
    std::map<int, long> rowsPerSubject;
    for (int id : table.userId) ++rowsPerSubject[id];
    std::map<int, long> rowsInParts;
    for (const Dataset* part : {&split.train, &split.test}) {
        const UnitIndex& users = *part->users;
        for (long u = 0; u < users.units(); ++u) {
            rowsInParts[users.id(u)] += users.rowCount(u);
            CHECK(users.name(u) == std::to_string(100 + users.id(u)));
        }
    }
    CHECK(rowsInParts == rowsPerSubject);
    CHECK(split.train.users->units() == 42);  // ≥ 20 rows each: everyone has training rows
    CHECK(split.train.users->maxRowsPerUnit() <= 50);
    // A test user is the same person in training (same id, same name).
    const std::vector<long> trainPosition = matchUnits(*split.test.users, *split.train.users);
    for (long u = 0; u < split.test.users->units(); ++u) {
        const long t = trainPosition[static_cast<std::size_t>(u)];
        REQUIRE(t >= 0);
        CHECK(split.train.users->name(t) == split.test.users->name(u));
    }
}

TEST_CASE("Encoding all rows indexes users too, data without users has no index", "[data][units]") {
    const TabularData table = recordingsTable(5);
    const Dataset all = encodeAll(table);
    REQUIRE(all.users.has_value());
    test::checkUnitIndex(*all.users, table.userId);
    CHECK(all.users->maxRowsPerUnit() == 48);  // subject 4: 20 + 28

    TabularData anonymous = table;
    anonymous.userId.clear();
    const DataSplit split = splitAndEncode(anonymous);
    CHECK_FALSE(split.train.users.has_value());
    CHECK_FALSE(split.test.users.has_value());
}

TEST_CASE("Silo ids of the data become each part's silo index", "[data][units]") {
    TabularData table = recordingsTable(6);
    table.siloNames = {"north", "south", "east"};
    table.siloDescription = "three clinics";
    for (std::size_t row = 0; row < table.rows(); ++row) {
        table.siloId.push_back(table.userId[row] % 3);  // each subject attends one clinic
    }
    const DataSplit split = splitAndEncode(table, {0.3, 2});
    for (const Dataset* part : {&split.train, &split.test}) {
        REQUIRE(part->silos.has_value());
        REQUIRE(part->users.has_value());
        CHECK(part->silos->units() == 3);
        CHECK(part->silos->name(1) == "south");
        CHECK(part->siloDescription == "three clinics");
        for (long row = 0; row < part->rows(); ++row) {
            CHECK(part->silos->id(part->silos->unitOf(row)) == part->userId(row) % 3);
        }
    }
}

TEST_CASE("Parkinsons: 42 subjects index the recordings of both parts",
          "[data][units][catalog][needs-data]") {
    const std::string directory = test::sharedDatasetPath("parkinsons-telemonitoring");
    if (directory.empty()) PFA_SKIP_TEST(test::missingDatasetReason("parkinsons-telemonitoring"));
    const TabularData data = findCatalogEntry("parkinsons").load(directory);
    const DataSplit split = splitAndEncode(data);
    REQUIRE(split.train.users.has_value());
    REQUIRE(split.test.users.has_value());
    test::checkUnitIndex(*split.train.users, toVector(split.train.userId));
    test::checkUnitIndex(*split.test.users, toVector(split.test.userId));
    CHECK(split.train.users->units() == 42);
    std::set<std::string> names;
    for (long u = 0; u < split.train.users->units(); ++u) names.insert(split.train.users->name(u));
    CHECK(names.count("1") == 1);  // subject# values 1 … 42
    CHECK(names.count("42") == 1);
    CHECK(split.train.users->rows() + split.test.users->rows() == static_cast<long>(data.rows()));
    // Between 101 and 168 recordings per subject in the whole file.
    CHECK(split.train.users->maxRowsPerUnit() <= 168);
    CHECK(split.train.users->minRowsPerUnit() >= 50);
}

TEST_CASE("A units' error spread counts the evaluation's predictions unit by unit", "[units]") {
    Dataset data;
    data.y = (Eigen::VectorXi(7) << 1, 0, 1, 1, 0, 0, 1).finished();
    const std::vector<int> ids = {4, 4, 9, 9, 9, 2, 2};  // units 4 (2 rows), 9 (3), 2 (2)
    const UnitIndex units{std::span<const int>(ids)};
    // Unit 4: both right (0); unit 9: one of three wrong; unit 2: both wrong (1).
    const Eigen::VectorXi predicted = (Eigen::VectorXi(7) << 1, 0, 0, 1, 0, 1, 0).finished();
    CHECK(unitErrorSpread(data, units, predicted) == 1.0);
    const Eigen::VectorXi better = (Eigen::VectorXi(7) << 1, 0, 0, 1, 0, 0, 1).finished();
    CHECK(unitErrorSpread(data, units, better) == Approx(1.0 / 3.0).epsilon(1e-15));
    CHECK(std::isnan(unitErrorSpread(data, UnitIndex{}, predicted)));
}

}  // namespace core_units_test
