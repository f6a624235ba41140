#include "core/config/theory_rate.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/config/run_result.h"

namespace pfa {

std::string RateInputs::setting(const std::string& name) const {
    const auto it = settings.find(name);
    return it == settings.end() ? std::string() : it->second;
}

double RateInputs::numberSetting(const std::string& name, double fallback) const {
    const std::string text = setting(name);
    if (text.empty()) return fallback;
    if (text == "inf") return std::numeric_limits<double>::infinity();
    try {
        return std::stod(text);
    } catch (...) {
        return fallback;
    }
}

double RateInputs::runInput(const char* key) const {
    if (run == nullptr) return 0.0;
    const auto it = run->theoryInputs.find(key);
    return it == run->theoryInputs.end() ? 0.0 : it->second;
}

double logInverseDelta(double delta) {
    return delta > 0.0 ? std::max(1.0, std::log(1.0 / delta)) : 1.0;
}

std::optional<RateShape> centralConvexRate(const RateInputs& in, double m,
                                           const std::string& label) {
    const double n = in.n, d = in.d, logDelta = logInverseDelta(in.delta);
    if (n <= 0.0 || d <= 0.0 || m <= 0.0) return std::nullopt;
    return RateShape{label, [=](double eps) {
                         return 1.0 / std::sqrt(n * m) + std::sqrt(d * logDelta) / (eps * n * m);
                     }};
}

}  // namespace pfa
