#pragma once

#include <cstdint>
#include <string>

#include "core/data/schema.h"
#include "core/data/tabular_data.h"

namespace pfa {

/// Knobs of the synthetic heavy-tailed linear regression data ("synthetic-heavy-tailed";
/// thesis-algorithms.md §7.2, our design). Per row i, all draws from one seeded stream:
///   x_ij = t_ν / √(ν/(ν−2))            i.i.d. Student-t with unit variance (ν > 2);
///          t_ν itself for 0 < ν ≤ 2 (infinite variance: nothing to scale by);
///          N(0, 1) for ν = ∞ (Gaussian features, the limit)
///   ξ_i  = s_ξ · t_{ν_ξ}                (ν_ξ = ∞: Gaussian noise)
///   with probability p_out the row is an outlier: x_i and ξ_i are both multiplied by s_out
///   y_i  = ⟨w*, x_i⟩ + ξ_i
/// The true coefficients are fixed and public: w*_j = (−1)^j / √d (j = 0 … d−1), so ‖w*‖ = 1
/// and ⟨w*, x⟩ has unit variance on ordinary rows. Moments of ‖x‖ of order k < ν are finite:
/// the admissible tail index is k = ν − 0.5 (every k for ν = ∞). With ν ≤ 2 the features have
/// no finite variance, and no k ≥ 2 is admissible: no moment bound r_k of order k ≥ 2 holds, so
/// the heavy-tail algorithms' accuracy analysis does not apply (their privacy does: clipping
/// bounds every row's influence whatever the tails). The data have no classes and one group
/// ("all").
struct HeavyTailedOptions {
    int rows = 20000;             ///< n (≥ 100)
    int features = 20;            ///< d (1 … 200)
    double featureTail = 3.0;     ///< ν, degrees of freedom of the features (> 0; ∞: Gaussian)
    double noiseTail = 3.0;       ///< ν_ξ, degrees of freedom of the noise (> 0; ∞: Gaussian)
    double noiseScale = 0.5;      ///< s_ξ (≥ 0)
    double outlierShare = 0.01;   ///< p_out, in [0, 0.5)
    double outlierScale = 100.0;  ///< s_out (≥ 1)
    std::uint64_t seed = 20240;   ///< generator seed (independent of the run seed)
};

/// The factor t_ν is multiplied by: 1/√(ν/(ν−2)) for ν > 2 (unit variance), 1 otherwise.
double heavyTailedFeatureScale(double featureTail);

/// The admissible tail index of Student-t data with ν degrees of freedom: k = ν − 0.5 (moments
/// of order k < ν are finite); +∞ for Gaussian data (ν = ∞). Below 2 (ν < 2.5) no k ≥ 2 is
/// admissible.
double admissibleTailIndex(double featureTail);

/// w*_j of the generator (documented above).
double heavyTailedTrueWeight(int j, int features);

/// Validates `options` (InputError naming the bad knob) and generates the data set: numeric
/// columns x1 … xd, the real-valued target and w* (TabularData::target, trueWeights).
TabularData generateHeavyTailed(const HeavyTailedOptions& options = {});

/// The data as a file would hold it: numeric columns x1 … xd and the target column "y".
Schema heavyTailedSchema(const HeavyTailedOptions& options = {});

/// One line describing the knobs, for reports.
std::string describeHeavyTailed(const HeavyTailedOptions& options);

}  // namespace pfa
