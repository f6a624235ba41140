#pragma once

#include <cstddef>
#include <limits>
#include <vector>

#include "core/config/run_result.h"

namespace pfa {

/// How steady a run's test fairness violation is at its end: the figure behind "the curve has
/// settled". Over the last `window` evaluations v_1 … v_N of the violation (one per epoch when
/// evaluate-every is 1; fewer when the run has fewer):
///   sd       = sample standard deviation of v_1 … v_N (n − 1),
///   meanStep = mean |v_t − v_{t−1}| over t = 2 … N (the epoch-to-epoch jitter),
///   drift    = v_N − v_1 (a curve still falling or rising; sd mixes drift and jitter).
/// Non-finite values (diverged or not-applicable evaluations) are skipped.
struct ViolationStability {
    std::size_t evaluations = 0;  ///< N, the finite values used
    double sd = std::numeric_limits<double>::quiet_NaN();
    double meanStep = std::numeric_limits<double>::quiet_NaN();
    double drift = std::numeric_limits<double>::quiet_NaN();
};

/// The stability of the last `window` values of `violations` (NaN figures when fewer than two).
ViolationStability violationStability(const std::vector<double>& violations, std::size_t window);

/// The stability of the run's own notion's test violation over its last `window` evaluations.
ViolationStability violationStability(const RunResult& result, std::size_t window);

}  // namespace pfa
