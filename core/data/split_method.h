#pragma once

#include <string>

namespace pfa {

/// How a data set's rows are divided into training and test rows.
enum class SplitMethod {
    /// PFA Explorer's own seeded permutation (the default): identical on every platform.
    Seeded,
    /// The rows pandas picks with DataFrame.sample(frac = 1 − test fraction, random_state =
    /// seed) for training, the rest for testing, on the rows in file order — numpy's legacy
    /// RandomState permutation, reimplemented — so splits published that way are reproduced
    /// row for row. The seed must be below 2^32, as numpy requires.
    PandasSample,
};

/// "seeded" or "pandas": the name used on the command line, in presets, records and keys.
std::string splitMethodName(SplitMethod method);

/// Parses splitMethodName()'s names; throws InputError naming the accepted ones.
SplitMethod parseSplitMethod(const std::string& name);

}  // namespace pfa
