#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/split_method.h"
#include "core/data/tabular_data.h"

namespace pfa {

/// How to split a parsed data set into training and test rows.
struct SplitOptions {
    double testFraction = 0.25;  ///< share of rows held out for testing, in (0, 1)
    std::uint64_t seed = 0;      ///< split seed (fixed by default, as in the published setup)
    SplitMethod method = SplitMethod::Seeded;  ///< whose permutation picks the rows
};

/// The row indices of a seeded train/test split of `rows` rows, each part sorted.
struct SplitRows {
    std::vector<std::size_t> train;
    std::vector<std::size_t> test;
};

/// The split that splitAndEncode makes of a data set with `rows` rows (`name` appears in
/// errors), the same on every platform. SplitMethod::Seeded holds out round(testFraction·rows)
/// rows; SplitMethod::PandasSample trains on the first round-half-to-even((1 − testFraction)·
/// rows) entries of numpyLegacyPermutation(rows, seed), as pandas' DataFrame.sample does.
/// Throws InputError when a part would be empty, the test fraction is invalid or a pandas
/// split seed is 2^32 or more.
SplitRows splitRows(std::size_t rows, const SplitOptions& options, const std::string& name);

/// numpy's legacy `RandomState(seed).permutation(rows)` (numpy 1.17 to at least 1.24, the
/// generator pandas' `random_state = seed` uses): MT19937 seeded with init_genrand(seed), then
/// for i = rows − 1 down to 1 a swap of entries i and j, j drawn uniformly from [0, i] by
/// masked rejection of 32-bit outputs. Throws InputError for 2^32 rows or more (numpy draws
/// 64-bit values there; our data sets never come close).
std::vector<std::size_t> numpyLegacyPermutation(std::size_t rows, std::uint32_t seed);

/// Splits `data` as splitRows does and encodes both parts: numeric columns are
/// z-scored and categorical columns one-hot encoded, with means, standard deviations and level
/// lists taken from the training rows only (declared levels are kept as declared). A numeric
/// column that is constant on the training rows is centred but not scaled. Each part indexes
/// its rows by user (Dataset::users) when the data has user ids, and by silo (Dataset::silos)
/// when it has silo ids; ids keep their meaning across the parts.
/// Throws InputError when a split would be empty.
DataSplit splitAndEncode(const TabularData& data, const SplitOptions& options = {});

/// splitAndEncode (the same split, the same bits) for data too large to hold twice: the raw
/// feature values are released block by block as they are encoded, so that memory holds about
/// one copy of the features throughout. Afterwards `data` keeps everything but its feature
/// values: the columns' names, kinds and levels, labels, groups and ids.
DataSplit splitAndEncodeReleasing(TabularData& data, const SplitOptions& options = {});

/// Encodes all rows of `data` as one Dataset, with statistics from all rows (for tools that
/// need no split, e.g. the data-set card); users and silos are indexed as by splitAndEncode.
Dataset encodeAll(const TabularData& data);

/// `part` restricted to `rows` (in this order): the targets, user ids, row keys and silos
/// follow their rows (users and silos indexed again, silos keeping their names); everything
/// else (names, schema words, the generator's truth) is kept.
Dataset selectRows(const Dataset& part, const std::vector<long>& rows);

}  // namespace pfa
