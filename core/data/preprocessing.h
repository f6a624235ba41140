#pragma once

#include <cstdint>

#include "core/data/dataset.h"
#include "core/data/tabular_data.h"

namespace pfa {

/// How to split a parsed data set into training and test rows.
struct SplitOptions {
    double testFraction = 0.25;  ///< share of rows held out for testing, in (0, 1)
    std::uint64_t seed = 0;      ///< split seed (fixed by default, as in the published setup)
};

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
