#pragma once

// Shared helpers for the core tests: small data splits built in memory.
#include <string>

#include "core/data/dataset.h"
#include "core/data/preprocessing.h"
#include "core/data/synthetic.h"

namespace pfa::test {

/// The built-in synthetic data set, split 75/25 with split seed 0.
inline DataSplit syntheticSplit(int rows = 4000, int features = 8, double bias = 1.0) {
    SyntheticOptions options;
    options.rows = rows;
    options.features = features;
    options.groupLabelDependence = bias;
    return splitAndEncode(generateSynthetic(options));
}

/// Path of an offline benchmark data set beside the project, or "" when absent.
std::string sharedDatasetPath(const std::string& relative);

}  // namespace pfa::test
