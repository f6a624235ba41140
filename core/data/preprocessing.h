#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/tabular_data.h"

namespace pfa {

/// How to split a parsed data set into training and test rows.
struct SplitOptions {
    double testFraction = 0.25;  ///< share of rows held out for testing, in (0, 1)
    std::uint64_t seed = 0;      ///< split seed (fixed by default, as in the published setup)
};

/// The row indices of a seeded train/test split of `rows` rows, each part sorted.
struct SplitRows {
    std::vector<std::size_t> train;
    std::vector<std::size_t> test;
};

/// The split that splitAndEncode makes of a data set with `rows` rows (`name` appears in
/// errors): the same seeded permutation on every platform. Throws InputError when a part would
/// be empty or the test fraction is invalid.
SplitRows splitRows(std::size_t rows, const SplitOptions& options, const std::string& name);

/// Splits `data` with a seeded random permutation and encodes both parts: numeric columns are
/// z-scored and categorical columns one-hot encoded, with means, standard deviations and level
/// lists taken from the training rows only (declared levels are kept as declared). A numeric
/// column that is constant on the training rows is centred but not scaled.
/// Throws InputError when a split would be empty.
DataSplit splitAndEncode(const TabularData& data, const SplitOptions& options = {});

/// Encodes all rows of `data` as one Dataset, with statistics from all rows (for tools that
/// need no split, e.g. the data-set card).
Dataset encodeAll(const TabularData& data);

}  // namespace pfa
