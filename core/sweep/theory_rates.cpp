#include "core/sweep/theory_rates.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <mutex>

#include "core/algorithms/registry.h"
#include "core/config/run_result.h"
#include "core/util/format.h"

namespace pfa {

namespace {

std::mutex& registryMutex() {
    static std::mutex mutex;
    return mutex;
}

std::map<std::string, RateProvider>& registry() {
    static std::map<std::string, RateProvider> providers;
    return providers;
}

double numberSetting(const RunResult& result, const char* name) {
    const auto it = result.config.extra.find(name);
    if (it == result.config.extra.end()) return 0.0;
    try {
        return std::stod(it->second);
    } catch (...) {
        return 0.0;  // not a number ("auto"): the rate uses N
    }
}

}  // namespace

void registerTheoryRate(const std::string& algorithm, RateProvider provider) {
    const std::lock_guard<std::mutex> lock(registryMutex());
    registry()[algorithm] = std::move(provider);
}

std::optional<RateShape> theoryRate(const RateInputs& inputs) {
    RateProvider provider;
    {
        const std::lock_guard<std::mutex> lock(registryMutex());
        const auto it = registry().find(inputs.algorithm);
        if (it != registry().end()) provider = it->second;
    }
    if (provider) return provider(inputs);
    // The algorithm's own declaration (none for a name no algorithm has, e.g. an old record's).
    for (const auto& algorithm : algorithmRegistry())
        if (algorithm->name() == inputs.algorithm) return algorithm->theoryRate(inputs);
    return std::nullopt;
}

RateInputs rateInputsOf(const RunResult& result, double trainRows) {
    RateInputs in;
    in.run = &result;
    in.algorithm = result.config.algorithm;
    in.settings = result.config.extra;
    in.delta = result.privacy.delta > 0.0 ? result.privacy.delta : result.config.delta;
    in.d = result.theta.cols() > 1 ? static_cast<double>(result.theta.cols() - 1) : 0.0;
    double unitRows = 0.0;
    for (const UnitMetrics& unit : result.units) unitRows += static_cast<double>(unit.trainRows);
    const double units = static_cast<double>(result.units.size());
    if (result.unitKind == "silo" && units > 0.0) {
        in.silos = units;
        in.n = unitRows / units;
    } else if (result.unitKind == "user" && units > 0.0) {
        in.n = units;
        in.m = unitRows / units;
    } else {
        in.n = unitRows > 0.0 ? unitRows : trainRows;
    }
    in.available = numberSetting(result, "silos-per-round");
    return in;
}

RateFit fitRate(const RateShape& shape, const std::vector<RatePoint>& points,
                std::optional<double> nonPrivate) {
    RateFit fit;
    if (!shape.f) return fit;
    const double base = nonPrivate ? *nonPrivate : 0.0;
    const double floor = nonPrivate ? shape.f(std::numeric_limits<double>::infinity()) : 0.0;
    auto g = [&](double eps) { return shape.f(eps) - floor; };
    double sumGy = 0.0, sumGg = 0.0, epsMin = INFINITY, epsMax = 0.0;
    for (const RatePoint& p : points) {
        if (!(p.epsilon > 0.0) || !std::isfinite(p.epsilon) || !std::isfinite(p.value)) continue;
        const double gi = g(p.epsilon);
        if (!std::isfinite(gi)) continue;
        sumGy += gi * (p.value - base);
        sumGg += gi * gi;
        epsMin = std::min(epsMin, p.epsilon);
        epsMax = std::max(epsMax, p.epsilon);
    }
    if (!(sumGg > 0.0)) return fit;
    fit.c = sumGy / sumGg;
    fit.offset = base;
    fit.valid = fit.c > 0.0;
    if (!fit.valid) return fit;
    constexpr int kSamples = 48;
    const double lo = std::log10(epsMin), hi = std::log10(epsMax);
    for (int i = 0; i < kSamples; ++i) {
        const double eps = std::pow(10.0, lo + (hi - lo) * i / (kSamples - 1));
        fit.curve.emplace_back(eps, base + fit.c * g(eps));
    }
    return fit;
}

}  // namespace pfa
