#pragma once

// The shape of an algorithm's theory rate: what an algorithm declares (Algorithm::theoryRate)
// and what the tradeoff views fit to measured runs (core/sweep/theory_rates.h).
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace pfa {

struct RunResult;

/// What a theory rate of an algorithm depends on: its name, its resolved settings and the sizes
/// of its data. Sizes that do not apply stay 0.
struct RateInputs {
    std::string algorithm;
    /// The algorithm's own settings (TrainConfig::extra: "trust", "user-noise", "personalisation",
    /// …), as canonical text.
    std::map<std::string, std::string> settings;
    double n = 0.0;      ///< records per silo (silo runs); users (user runs); all rows otherwise
    double silos = 0.0;  ///< N: silos (silo runs)
    double available = 0.0;  ///< M: silos taking part in a round; 0 = all N
    double d = 0.0;          ///< model dimension (features, bias excluded)
    double delta = 0.0;      ///< δ of the run
    double m = 0.0;          ///< records per user (user runs)
    /// The run itself when the inputs were read from one (rateInputsOf), for rates that need
    /// more than the sizes (a generator's optimum, the rounds run, …); valid only during the
    /// theoryRate call: a provider copies what its shape keeps.
    const RunResult* run = nullptr;

    /// An own setting as text ("" when absent).
    std::string setting(const std::string& name) const;
    /// An own setting as a number ("inf" is +∞), or `fallback` when absent or not a number.
    double numberSetting(const std::string& name, double fallback) const;
    /// A problem constant the run recorded (RunResult::theoryInputs), 0 when absent or when the
    /// inputs come from no run.
    double runInput(const char* key) const;
};

/// The shape of a rate of the excess risk as a function of ε, constants and logarithmic factors
/// of the analysis dropped (the ln(1/δ) of a rate's privacy term is kept where the rate shows
/// it): `f(ε)`, finite and positive for ε > 0; `f(∞)` is the non-private (statistical) part.
struct RateShape {
    RateShape() = default;
    RateShape(std::string label_, std::function<double(double)> f_, std::string metric_ = {})
        : label(std::move(label_)), f(std::move(f_)), metric(std::move(metric_)) {}

    std::string label;  ///< the formula in words, e.g. "1/√(nN) + √(d ln(1/δ))/(ε n √N)"
    std::function<double(double epsilon)> f;
    /// The record column the rate bounds ("grad_norm_sq", …); empty: the test error, or the
    /// excess risk where the runs report one.
    std::string metric;
};

/// ln(1/δ), at least 1 (a δ of 0 or ≥ 1/e would make the privacy term vanish or flip sign).
double logInverseDelta(double delta);

/// Central DP (or shuffle), convex, N silos of n records, M per round (thesis table, §6.1 with
/// M): 1/√(nM) + √(d ln(1/δ))/(ε n M); M = 1 gives the single-machine rate. None when n, d or
/// M is missing.
std::optional<RateShape> centralConvexRate(const RateInputs& in, double m,
                                           const std::string& label);

}  // namespace pfa
