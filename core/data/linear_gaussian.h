#pragma once

#include <cstdint>
#include <string>

#include "core/data/dataset.h"
#include "core/data/schema.h"
#include "core/data/tabular_data.h"

namespace pfa {

/// Knobs of the Gaussian linear regression data ("synthetic-linear"), the benchmark of
/// learning with public data. All draws come from one seeded stream:
///   w* ~ N(0, I_d)  (drawn first, once)
///   per row: x ~ N(0, I_d),  y = ⟨w*, x⟩ + ξ,  ξ ~ N(0, 0.5²)
/// The noise std is fixed at 0.5, so the best possible test MSE (of w* itself, or of any
/// affine model in the population) is 0.25 and the excess risk of a model is its MSE − 0.25.
/// Default: 12,000 rows and d = 200; the presets hold out a sixth for testing (10,000 training
/// and 2,000 test rows), the application's default split a quarter.
struct LinearGaussianOptions {
    int rows = 12000;        ///< n (≥ 100)
    int features = 200;      ///< d (1 … 2000)
    std::uint64_t seed = 7;  ///< generator seed (independent of the run seed)
};

/// The noise std of the generator (fixed): the optimal test MSE is its square, 0.25.
inline constexpr double kLinearGaussianNoiseStd = 0.5;

/// The population-optimal MSE of `data` when it is this generator's (name "synthetic-linear"
/// with its true weights), NaN otherwise: what excess risks of runs on it are measured from.
double linearGaussianOptimalMse(const Dataset& data);

/// Validates `options` (InputError naming the bad knob) and generates the data set: numeric
/// columns x1 … xd, the real-valued target and w* (TabularData::target, trueWeights).
TabularData generateLinearGaussian(const LinearGaussianOptions& options = {});

/// The data as a file would hold it: numeric columns x1 … xd and the target column "y".
Schema linearGaussianSchema(const LinearGaussianOptions& options = {});

/// One line describing the knobs, for reports.
std::string describeLinearGaussian(const LinearGaussianOptions& options);

}  // namespace pfa
