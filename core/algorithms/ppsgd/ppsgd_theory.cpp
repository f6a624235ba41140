#include "core/algorithms/ppsgd/ppsgd_theory.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pfa {

double ppsgdOptimumNorm2(const PpsgdTheoryInputs& in, double alpha) {
    const double n = static_cast<double>(in.users);
    const double s = in.sumSquaredOptima, b = in.squaredMeanOptimum;
    if (alpha <= 0.0) return s;
    if (std::isinf(alpha)) return s - n * b;
    // With c = αN/(αN+1) and w = c·θ̄*: ‖w‖²/α + Σ‖θ*_i − w‖² = c²b/α + s − 2Ncb + Nc²b.
    const double c = alpha * n / (alpha * n + 1.0);
    return c * c * b / alpha + s - 2.0 * n * c * b + n * c * c * b;
}

double ppsgdBound(const PpsgdTheoryInputs& in, double alpha) {
    const double n = static_cast<double>(in.users), rounds = static_cast<double>(in.rounds);
    const double norm2 = std::max(0.0, ppsgdOptimumNorm2(in, alpha));
    const double privacy = std::isinf(in.epsilon)
                               ? 0.0
                               : static_cast<double>(in.dimension) * in.clip * in.clip *
                                     std::log(1.0 / in.delta) / (n * n * in.epsilon * in.epsilon);
    if (std::isinf(alpha)) {
        if (privacy > 0.0 || in.gradientNoise > 0.0) return std::numeric_limits<double>::infinity();
        return 0.0;
    }
    const double bias = 4.0 * in.smoothness * std::max(alpha, 1.0 / n) * norm2 / rounds;
    const double variance = (alpha + 1.0) * in.gradientNoise / (n * rounds) + alpha * privacy;
    return bias + 3.0 * std::sqrt(norm2) * std::sqrt(variance);
}

double ppsgdCrossoverRounds(const PpsgdTheoryInputs& in) {
    if (std::isinf(in.epsilon)) return std::numeric_limits<double>::infinity();
    const double n = static_cast<double>(in.users);
    return n * (n - 1.0) * in.gradientNoise * in.epsilon * in.epsilon /
           (static_cast<double>(in.dimension) * in.clip * in.clip * std::log(1.0 / in.delta));
}

}  // namespace pfa
