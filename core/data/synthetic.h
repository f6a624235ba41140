#pragma once

#include <cstdint>
#include <string>

#include "core/data/schema.h"
#include "core/data/tabular_data.h"

namespace pfa {

/// Knobs of the built-in synthetic lending data set (the default data set everywhere).
///
/// Generative model, per applicant i (all draws from one seeded stream):
///   s_i ~ Bernoulli(minorityShare)               group: 0 = "A (majority)", 1 = "B (minority)"
///   u_i ~ N(0, 1)                                true creditworthiness, independent of s_i
///   income          =  1.0·u − 0.6·β·s + N(0, 0.5²)
///   debt_ratio      = −0.5·u + 0.4·β·s + N(0, 0.6²)
///   credit_history  =  0.7·u           + N(0, 0.6²)
///   savings         =  0.5·u − 0.5·β·s + N(0, 0.8²)
///   neighbourhood   =  1.0·s           + N(0, 0.7²)   (a proxy of the group, not of u)
///   feature_6 … d   =  0.2·u           + N(0, 1)      (weakly informative extras)
///   repaid_i = 1[ 1.2·u − β·s + 0.3 + Logistic(0, 0.3) > 0 ], then flipped w.p. labelNoise
/// β = groupLabelDependence is the historical bias: with β = 0 the label ignores the group;
/// larger β lowers group B's repayment rate and shifts its features, and the neighbourhood
/// proxy lets a model that never sees s still discriminate. The first `features` columns of
/// the list above are used (minimum 2).
struct SyntheticOptions {
    int rows = 10000;                   ///< number of applicants (≥ 100)
    int features = 8;                   ///< number of feature columns (2 … 200)
    double minorityShare = 0.35;        ///< share of group B, in (0, 0.5]
    double groupLabelDependence = 1.0;  ///< β above, in [0, 5]
    double labelNoise = 0.05;           ///< label flip probability, in [0, 0.5)
    std::uint64_t seed = 20240;         ///< generator seed (independent of the run seed)
};

/// Validates `options` (InputError naming the bad knob) and generates the data set.
TabularData generateSynthetic(const SyntheticOptions& options = {});

/// The synthetic data as a file would hold it: one numeric column per feature (named as
/// generated), the group in column "group" (values "A (majority)" / "B (minority)") and the
/// label in column "outcome" ("repaid" = class 1, "default" = class 0). Saved models of runs
/// on the synthetic data read new rows with this schema.
Schema syntheticSchema(const SyntheticOptions& options = {});

/// One line describing the knobs, for reports ("synthetic(n=10000, d=8, ...)").
std::string describeSynthetic(const SyntheticOptions& options);

}  // namespace pfa
