#pragma once
// The scalar functions of logistic models, each written once: every loop that evaluates a
// logistic score by itself (per-row clipping, DIFF2's network, the silo loops, the Lagrangian
// dual) calls these, so all of them compute the same bits as core/model/.

#include <algorithm>
#include <cmath>

#include "core/util/table_math.h"

namespace pfa {

/// σ(z) = 1 / (1 + e^{−z}), without overflow for large |z|. e^x is tableExp (glibc's exp where
/// the machine has FMA), so that the lanes of runs stepped together (sigmoids) compute it
/// four at a time with the same bits.
inline double sigmoid(double z) {
    if (z >= 0.0) return 1.0 / (1.0 + tableExp(-z));
    const double e = tableExp(z);
    return e / (1.0 + e);
}

/// sigmoid() of z[0 … count − 1] into out (which may not alias z), bit for bit: e^{−|z|} by
/// tableExps (e^{−z} for z ≥ 0, e^{z} below; four at a time), then the division without a
/// branch, so that the last loop vectorises (for the lanes of runs stepped together).
[[gnu::always_inline]] inline void sigmoids(const double* __restrict z, double* __restrict out,
                                            long count) {
    for (long l = 0; l < count; ++l) out[l] = -std::abs(z[l]);
    tableExps(out, out, count);
    for (long l = 0; l < count; ++l) out[l] = (z[l] >= 0.0 ? 1.0 : out[l]) / (1.0 + out[l]);
}

/// softplus(a) = log(1 + e^a), without overflow.
inline double softplus(double a) { return std::max(a, 0.0) + std::log1p(std::exp(-std::abs(a))); }

/// The logistic loss (binary cross-entropy) of score a for label y ∈ {0, 1}:
/// log(1 + e^a) − y·a.
inline double logisticLoss(double a, int y) { return softplus(a) - (y == 1 ? a : 0.0); }

}  // namespace pfa
