#pragma once

// Checks of UnitIndex's documented invariants, shared by the unit-index and silo tests.
#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

#include "core/data/units.h"

namespace pfa::test {

/// Checks every invariant of `index` against the unit id of each row, `idOfRow`: each row in
/// exactly one unit (the one with its id), offsets consistent with the counts, ids distinct
/// and ascending, rows ascending within a unit, no empty unit, and the row-count extremes.
inline void checkUnitIndex(const UnitIndex& index, const std::vector<int>& idOfRow) {
    REQUIRE(index.rows() == static_cast<long>(idOfRow.size()));
    REQUIRE(index.offsets().size() == static_cast<std::size_t>(index.units()) + 1);
    CHECK(index.offsets().front() == 0);
    CHECK(index.offsets().back() == index.rows());
    CHECK(index.rowOrder().size() == idOfRow.size());
    CHECK(std::is_sorted(index.ids().begin(), index.ids().end()));
    CHECK(std::adjacent_find(index.ids().begin(), index.ids().end()) == index.ids().end());

    std::vector<int> timesSeen(idOfRow.size(), 0);
    long largest = 0;
    long smallest = index.units() > 0 ? index.rows() : 0;
    for (long unit = 0; unit < index.units(); ++unit) {
        const auto rows = index.rowsOf(unit);
        CHECK(index.rowCount(unit) == static_cast<long>(rows.size()));
        CHECK(index.offsets()[static_cast<std::size_t>(unit) + 1] >
              index.offsets()[static_cast<std::size_t>(unit)]);
        CHECK(std::is_sorted(rows.begin(), rows.end()));
        for (long row : rows) {
            REQUIRE(row >= 0);
            REQUIRE(row < index.rows());
            ++timesSeen[static_cast<std::size_t>(row)];
            CHECK(index.unitOf(row) == unit);
            CHECK(idOfRow[static_cast<std::size_t>(row)] == index.id(unit));
        }
        CHECK(index.find(index.id(unit)) == unit);
        largest = std::max(largest, index.rowCount(unit));
        smallest = std::min(smallest, index.rowCount(unit));
    }
    CHECK(std::all_of(timesSeen.begin(), timesSeen.end(), [](int times) { return times == 1; }));
    CHECK(index.maxRowsPerUnit() == largest);
    CHECK(index.minRowsPerUnit() == smallest);
    std::vector<int> distinct = idOfRow;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    CHECK(index.ids() == distinct);
}

/// The unit id of each row of `index` (for comparing an index with the data it came from).
inline std::vector<int> idsOfRows(const UnitIndex& index) {
    std::vector<int> ids(static_cast<std::size_t>(index.rows()));
    for (long row = 0; row < index.rows(); ++row) {
        ids[static_cast<std::size_t>(row)] = index.id(index.unitOf(row));
    }
    return ids;
}

}  // namespace pfa::test
