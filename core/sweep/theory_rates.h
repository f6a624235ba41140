#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/config/theory_rate.h"

namespace pfa {

/// A provider of a rate shape: none when the settings have no known rate.
using RateProvider = std::function<std::optional<RateShape>(const RateInputs&)>;

/// Makes `provider` the rate of algorithm `algorithm`, replacing the rate the algorithm declares
/// (for code above core's layers, e.g. tests).
void registerTheoryRate(const std::string& algorithm, RateProvider provider);

/// The rate shape of a run with these inputs, or none ("no rate known"): a rate registered
/// with registerTheoryRate, else the one the algorithm declares (Algorithm::theoryRate, in its
/// own file). None for a name no algorithm has.
std::optional<RateShape> theoryRate(const RateInputs& inputs);

/// The inputs of `result`'s rate: its algorithm and own settings, δ, d (the model's columns
/// without the bias), and from its per-unit metrics (RunResult::units): silo runs n = mean
/// training rows per silo and N = silos; user runs n = users and m = mean training rows per
/// user; otherwise n = the summed training rows of the units, or `trainRows` when it has none.
/// M is read from the settings "available" or "silos-per-round" when present.
RateInputs rateInputsOf(const RunResult& result, double trainRows);

/// One measured point: the mean error (or excess risk) at a privacy budget ε.
struct RatePoint {
    double epsilon = 0.0;
    double value = 0.0;
};

/// A rate shape with its free constant fitted to measured points.
struct RateFit {
    bool valid = false;   ///< false: too few points, or the fitted constant is not positive
    double c = 0.0;       ///< the fitted constant
    double offset = 0.0;  ///< the level the rate's privacy part is added to (see fitRate)
    /// The fitted curve, offset + c·g(ε), at 48 ε spaced evenly in log ε over the measured range.
    std::vector<std::pair<double, double>> curve;
};

/// Fits the one free constant c of `shape` to `points` (finite ε > 0) by least squares in
/// linear space, closed form: c = Σ g_i y_i / Σ g_i² minimises Σ (y_i − c·g_i)².
/// - Without a non-private level (`nonPrivate` empty) the whole rate is fitted: y_i = value_i,
///   g = f (for excess risk, which tends to 0).
/// - With the measured non-private level b (the same runs at ε = ∞) only the excess over it is
///   fitted to the rate's privacy part: y_i = value_i − b, g(ε) = f(ε) − f(∞), and the curve is
///   b + c·g(ε) (the statistical part and any error no model can avoid are in b).
/// Needs at least one point with g > 0; invalid when c ≤ 0 (the data do not follow the rate).
RateFit fitRate(const RateShape& shape, const std::vector<RatePoint>& points,
                std::optional<double> nonPrivate = std::nullopt);

}  // namespace pfa
