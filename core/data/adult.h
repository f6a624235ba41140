#pragma once

#include <cstddef>
#include <string>

#include "core/data/schema.h"
#include "core/data/tabular_data.h"

namespace pfa {

// The UCI Adult (Census Income) data set, prepared as in the DP-FERMI experiments: adult.data +
// adult.test concatenated, every row with a '?' dropped (45,222 rows = 30,162 + 15,060), target
// income (class 1 = ">50K"), sensitive attribute sex (not a feature), 6 numeric + 7 categorical
// features whose one-hot encoding has exactly 96 columns. The definition (including the
// declared level lists, so the one-hot layout does not depend on the split) lives in the
// catalog file datasets/adult.json; these are conveniences over it.

/// Encoded feature count: 6 numeric + 96 one-hot (DP-FERMI's num_inp_attr for adult).
inline constexpr std::size_t kAdultEncodedFeatures = 102;

/// The schema of adult.data / adult.test with sex as the sensitive attribute
/// (groups 0 = "Female", 1 = "Male").
Schema adultSchema();

/// Reads `directory`/adult.data then `directory`/adult.test with adultSchema(): 45,222 rows,
/// the 30,162 from adult.data first. A missing file raises DataFileError naming it.
TabularData loadAdult(const std::string& directory);

}  // namespace pfa
