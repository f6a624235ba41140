#include "core/engine/violation_stability.h"

#include <cmath>

namespace pfa {

ViolationStability violationStability(const std::vector<double>& violations, std::size_t window) {
    std::vector<double> values;
    for (double v : violations) {
        if (std::isfinite(v)) values.push_back(v);
    }
    if (values.size() > window)
        values.erase(values.begin(), values.end() - static_cast<long>(window));
    ViolationStability s;
    s.evaluations = values.size();
    if (values.size() < 2) return s;
    const double n = static_cast<double>(values.size());
    double mean = 0.0;
    for (double v : values) mean += v;
    mean /= n;
    double squares = 0.0, steps = 0.0;
    for (std::size_t t = 0; t < values.size(); ++t) {
        squares += (values[t] - mean) * (values[t] - mean);
        if (t > 0) steps += std::fabs(values[t] - values[t - 1]);
    }
    s.sd = std::sqrt(squares / (n - 1.0));
    s.meanStep = steps / (n - 1.0);
    s.drift = values.back() - values.front();
    return s;
}

ViolationStability violationStability(const RunResult& result, std::size_t window) {
    std::vector<double> violations;
    violations.reserve(result.history.size());
    for (const EpochMetrics& m : result.history) violations.push_back(m.violation);
    return violationStability(violations, window);
}

}  // namespace pfa
