#include "core/sweep/theory_rates.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <mutex>

#include "core/algorithms/ppsgd/ppsgd_theory.h"
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

std::string setting(const RateInputs& in, const std::string& name) {
    const auto it = in.settings.find(name);
    return it == in.settings.end() ? std::string() : it->second;
}

/// ln(1/δ), at least 1 (a δ of 0 or ≥ 1/e would make the privacy term vanish or flip sign).
double logInverseDelta(double delta) {
    return delta > 0.0 ? std::max(1.0, std::log(1.0 / delta)) : 1.0;
}

/// Central DP (or shuffle), convex, N silos of n records, M per round (thesis table, §6.1 with M):
/// 1/√(nM) + √(d ln(1/δ))/(ε n M); one silo gives the single-machine rate.
std::optional<RateShape> centralRate(const RateInputs& in, double m, const std::string& label) {
    const double n = in.n, d = in.d, logDelta = logInverseDelta(in.delta);
    if (n <= 0.0 || d <= 0.0 || m <= 0.0) return std::nullopt;
    return RateShape{label, [=](double eps) {
                         return 1.0 / std::sqrt(n * m) + std::sqrt(d * logDelta) / (eps * n * m);
                     }};
}

/// A number setting of the run, or `fallback` when absent or not a number.
double numberSetting(const RateInputs& in, const std::string& name, double fallback) {
    const std::string text = setting(in, name);
    if (text.empty()) return fallback;
    if (text == "inf") return std::numeric_limits<double>::infinity();
    try {
        return std::stod(text);
    } catch (...) {
        return fallback;
    }
}

/// The heavy-tail rates at the run's tail index k (setting "tail-index"; 2 when absent):
/// strongly convex (noisy- and proximal-clipped-gd) 1/n + (√d/(εn))^{(2k−2)/k}; smooth convex,
/// accelerated, 1/√n + max{((βD/r_k)^{1/4} √d/(εn))^{4(k−1)/(5k−1)}, (√d/(εn))^{(k−1)/k}} with
/// the run's β, r_k and D (D = 10 when the domain is unbounded, as the algorithm's own rules).
std::optional<RateShape> heavyTailRate(const RateInputs& in) {
    const double n = in.n, d = in.d;
    if (n <= 0.0 || d <= 0.0) return std::nullopt;
    const double k = numberSetting(in, "tail-index", 2.0);
    if (!(k > 1.0)) return std::nullopt;
    const std::string kText = formatNumber(k);
    if (in.algorithm != "accelerated-clipped-gd") {
        return RateShape{
            "heavy tails, strongly convex (k = " + kText + "): 1/n + (√d/(ε n))^{(2k−2)/k}",
            [=](double eps) {
                return 1.0 / n + std::pow(std::sqrt(d) / (eps * n), (2.0 * k - 2.0) / k);
            }};
    }
    const double beta = numberSetting(in, "smoothness", 2.0),
                 rk = numberSetting(in, "moment-bound", 1.0);
    double radius = numberSetting(in, "domain-radius", INFINITY);
    if (!std::isfinite(radius)) radius = 10.0;
    if (!(beta > 0.0) || !(rk > 0.0)) return std::nullopt;
    const double ratio = std::pow(beta * radius / rk, 0.25);
    return RateShape{
        "heavy tails, smooth convex, accelerated (k = " + kText +
            "): 1/√n + max{((βD/r_k)^{1/4}√d/(ε n))^{4(k−1)/(5k−1)}, (√d/(ε n))^{(k−1)/k}}",
        [=](double eps) {
            const double first =
                std::pow(ratio * std::sqrt(d) / (eps * n), 4.0 * (k - 1.0) / (5.0 * k - 1.0));
            const double second = std::pow(std::sqrt(d) / (eps * n), (k - 1.0) / k);
            return 1.0 / std::sqrt(n) + std::max(first, second);
        }};
}

std::optional<RateShape> builtInRate(const RateInputs& in) {
    if (in.algorithm == "dp-sgd") {
        return centralRate(in, 1.0, "central DP, convex: 1/√n + √(d ln(1/δ))/(ε n)");
    }
    if (in.algorithm == "noisy-clipped-gd" || in.algorithm == "proximal-clipped-gd" ||
        in.algorithm == "accelerated-clipped-gd") {
        return heavyTailRate(in);
    }
    if (in.algorithm == "isrl-dp-sgd") {
        const std::string trust = setting(in, "trust");
        const double silos = in.silos;
        const double m = in.available > 0.0 ? std::min(in.available, silos) : silos;
        if (silos <= 0.0) return std::nullopt;
        if (trust == "central" || trust == "shuffle") {
            return centralRate(in, m, trust + " DP, convex: 1/√(nM) + √(d ln(1/δ))/(ε n M)");
        }
        if (trust.empty() || trust == "isrl") {
            const double n = in.n, d = in.d, logDelta = logInverseDelta(in.delta);
            if (n <= 0.0 || d <= 0.0) return std::nullopt;
            return RateShape{"ISRL-DP, convex: 1/√(nM) + √(d ln(1/δ))/(ε n √M)", [=](double eps) {
                                 return 1.0 / std::sqrt(n * m) +
                                        std::sqrt(d * logDelta) / (eps * n * std::sqrt(m));
                             }};
        }
        if (trust == "local") {
            // Local DP: every record is its own "silo" (the table's one record per silo), so
            // the rate's N is all n·N records.
            const double records = in.n * silos, d = in.d;
            if (records <= 0.0 || d <= 0.0) return std::nullopt;
            return RateShape{"local DP, convex: min{1, √d/(ε √(nN))}", [=](double eps) {
                                 return std::min(1.0, std::sqrt(d) / (eps * std::sqrt(records)));
                             }};
        }
        return std::nullopt;
    }
    if (in.algorithm == "ppsgd" && in.run && !in.run->theoryInputs.empty()) {
        // The convergence bound of personalised private SGD at this run's personalisation
        // a = α·N, as a function of ε; the generator's constants come with the run.
        const std::map<std::string, double>& t = in.run->theoryInputs;
        const auto get = [&](const char* key) {
            const auto it = t.find(key);
            return it == t.end() ? 0.0 : it->second;
        };
        PpsgdTheoryInputs theory;
        theory.users = static_cast<long>(get("users"));
        theory.rounds = static_cast<long>(get("rounds"));
        theory.dimension = static_cast<int>(get("dimension"));
        theory.smoothness = get("smoothness");
        theory.clip = get("clip");
        theory.gradientNoise = get("gradient_noise");
        theory.sumSquaredOptima = get("sum_squared_optima");
        theory.squaredMeanOptimum = get("squared_mean_optimum");
        theory.delta = in.delta;
        double a = 0.0;
        try {
            a = std::stod(setting(in, "personalisation"));
        } catch (...) {
            return std::nullopt;
        }
        if (theory.users <= 0 || theory.rounds <= 0 || !std::isfinite(a) || in.delta <= 0.0)
            return std::nullopt;
        const double alpha = a / static_cast<double>(theory.users);
        return RateShape{
            "personalised SGD bound at a = " + formatNumber(a) +
                ": 4L·max(α,1/N)‖z*‖²_α/n + 3‖z*‖_α·√((α+1)σ̄²/(Nn) + α d C² ln(1/δ)/(N²ε²))",
            [=](double eps) {
                PpsgdTheoryInputs at = theory;
                at.epsilon = eps;
                return ppsgdBound(at, alpha);
            }};
    }
    if ((in.algorithm == "diff2" || in.algorithm == "dp-gd") && in.run &&
        !in.run->theoryInputs.empty()) {
        // Non-convex, squared gradient norm ‖∇f‖² after tuned rounds, as a function of ε with
        // L, G and the logarithms folded into the one fitted constant; d = the model's
        // parameter count, N = nmin·P records (smallest silo × silos).
        const std::map<std::string, double>& t = in.run->theoryInputs;
        const auto get = [&](const char* key) {
            const auto it = t.find(key);
            return it == t.end() ? 0.0 : it->second;
        };
        const double d = get("parameters");
        const double records = get("records_per_silo_min") * get("silos");
        if (d <= 0.0 || records <= 0.0) return std::nullopt;
        if (in.algorithm == "diff2") {
            return RateShape{
                "DIFF2 gradient-norm² rate, constants unknown: d^(2/3)/(nmin·P·ε)^(4/3)",
                [=](double eps) {
                    if (std::isinf(eps)) return 0.0;
                    return std::pow(d, 2.0 / 3.0) / std::pow(records * eps, 4.0 / 3.0);
                },
                "gradient_norm_squared"};
        }
        return RateShape{"DP-GD gradient-norm² rate, constants unknown: √d/(nmin·P·ε)",
                         [=](double eps) {
                             if (std::isinf(eps)) return 0.0;
                             return std::sqrt(d) / (records * eps);
                         },
                         "gradient_norm_squared"};
    }
    if (in.algorithm == "dp-sgd-linear") {
        // Central DP, convex: 1/√n + √(d ln(1/δ))/(ε n).
        const double n = in.n, d = in.d;
        if (n <= 0.0 || d <= 0.0) return std::nullopt;
        const double logDelta = in.delta > 0.0 ? std::max(1.0, std::log(1.0 / in.delta)) : 1.0;
        return RateShape{"central DP, convex: 1/√n + √(d ln(1/δ))/(ε n)", [=](double eps) {
                             return 1.0 / std::sqrt(n) + std::sqrt(d * logDelta) / (eps * n);
                         }};
    }
    if (in.algorithm == "semi-dp-sgd") {
        // Semi-DP convex learning (L·D dropped): min{1/√n_pub, √(d ln(1/δ))/(ε n) + 1/√n};
        // public rows only: 1/√n_pub. n_pub = round(public-share · n), as the algorithm picks them.
        const double n = in.n, d = in.d;
        if (n <= 0.0 || d <= 0.0) return std::nullopt;
        const std::string shareText = setting(in, "public-share");
        const double p = shareText.empty() ? 0.0 : std::atof(shareText.c_str());
        const double nPublic = static_cast<double>(std::llround(p * n));
        const double logDelta = in.delta > 0.0 ? std::max(1.0, std::log(1.0 / in.delta)) : 1.0;
        if (setting(in, "public-use") == "public-only") {
            if (nPublic <= 0.0) return std::nullopt;
            return RateShape{"public rows only: 1/√n_pub",
                             [=](double) { return 1.0 / std::sqrt(nPublic); }};
        }
        return RateShape{
            "semi-DP, convex: min{1/√n_pub, √(d ln(1/δ))/(ε n) + 1/√n}", [=](double eps) {
                const double privateRate = std::sqrt(d * logDelta) / (eps * n) + 1.0 / std::sqrt(n);
                return nPublic > 0.0 ? std::min(1.0 / std::sqrt(nPublic), privateRate)
                                     : privateRate;
            }};
    }
    if (in.algorithm == "user-level-dp-sgd") {
        const std::string noise = setting(in, "user-noise");
        if (noise == "naive") return std::nullopt;  // the specs give the baseline no rate
        const double n = in.n, m = in.m, d = in.d, delta = in.delta;
        if (n <= 0.0 || m <= 0.0 || d <= 0.0 || delta <= 0.0) return std::nullopt;
        const double logTerm = std::max(1.0, std::log(n * d * m / delta));
        return RateShape{"user-level DP, convex: 1/√(nm) + √d·ln(ndm/δ)/(n √m ε)", [=](double eps) {
                             return 1.0 / std::sqrt(n * m) +
                                    std::sqrt(d) * logTerm / (n * std::sqrt(m) * eps);
                         }};
    }
    return std::nullopt;
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
    return builtInRate(inputs);
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
