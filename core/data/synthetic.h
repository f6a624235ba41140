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
///
/// Users (users = U > 0; for user-level privacy): the rows are applications of U people,
/// user k = 1 … U holding a share ∝ k^(−rowsPerUserSkew) of them (at least one row each;
/// skew 0: equal shares ±1 row), each user's rows consecutive. Per user, from a second seeded
/// stream, g_k ~ Bernoulli(minorityShare) is the group of all of the user's rows and
/// a_k ~ N(0, 1) a creditworthiness they share: row i of user k has s_i = g_k and
///   u_i = √ρ·a_k + √(1 − ρ)·z_i,  z_i ~ N(0, 1),  ρ = userCorrelation,
/// so u_i stays N(0, 1) and ρ only sets how alike a user's rows are. A random
/// round(atypicalUserShare·U) of the users are atypical: every label of theirs is flipped
/// (outliers for user-level mean estimation).
/// Silos (silos = N > 0; for federated learning across silos): user k belongs to silo
/// (k − 1) mod N (without users, the rows form N consecutive blocks of equal size). Silo j
/// draws m_j ~ N(0, I_d) and c_j ~ N(0, 1) from the second stream; its rows' features shift by
/// h·m_j and the repayment score (inside 1[·] above) by h·c_j, h = siloHeterogeneity: h = 0
/// gives identically distributed silos, larger h silos that differ in features and base rate
/// (the thesis's synthetic(N, h) in this model).
/// With users and silos off (the defaults) the data are exactly those of earlier versions.
struct SyntheticOptions {
    int rows = 10000;                   ///< number of applicants (≥ 100)
    int features = 8;                   ///< number of feature columns (2 … 200)
    double minorityShare = 0.35;        ///< share of group B, in (0, 0.5]
    double groupLabelDependence = 1.0;  ///< β above, in [0, 5]
    double labelNoise = 0.05;           ///< label flip probability, in [0, 0.5)
    std::uint64_t seed = 20240;         ///< generator seed (independent of the run seed)
    int users = 0;                      ///< people the rows belong to: 0 (none) or 1 … rows
    double rowsPerUserSkew = 0.0;       ///< Zipf exponent of rows per user, in [0, 3]
    double userCorrelation = 0.0;       ///< ρ above, in [0, 1]
    double atypicalUserShare = 0.0;     ///< share of users with flipped labels, in [0, 0.5)
    int silos = 0;                      ///< silos: 0 (none) or 1 … rows (≤ users with users)
    double siloHeterogeneity = 0.0;     ///< h above, in [0, 5]
};

/// Validates `options` (InputError naming the bad knob) and generates the data set.
TabularData generateSynthetic(const SyntheticOptions& options = {});

/// The synthetic data as a file would hold it: one numeric column per feature (named as
/// generated), the group in column "group" (values "A (majority)" / "B (minority)") and the
/// label in column "outcome" ("repaid" = class 1, "default" = class 0). Saved models of runs
/// on the synthetic data read new rows with this schema.
Schema syntheticSchema(const SyntheticOptions& options = {});

/// One line describing the knobs, for reports ("synthetic(n=10000, d=8, ...)"); users and
/// silos are mentioned only when present, so the line of data without them is unchanged.
std::string describeSynthetic(const SyntheticOptions& options);

}  // namespace pfa
