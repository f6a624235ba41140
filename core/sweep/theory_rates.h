#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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

/// A provider of a rate shape: none when the settings have no known rate.
using RateProvider = std::function<std::optional<RateShape>(const RateInputs&)>;

/// Makes `provider` the rate of algorithm `algorithm`, replacing a built-in rate of that name
/// (for code above core's layers, e.g. tests; the algorithms' own rates are built in here,
/// because core/algorithms may not include core/sweep).
void registerTheoryRate(const std::string& algorithm, RateProvider provider);

/// The rate shape of a run with these inputs, or none ("no rate known"). Built in:
/// - dp-sgd: central DP, convex (one silo): 1/√n + √(d ln(1/δ))/(ε n);
/// - noisy-clipped-gd, proximal-clipped-gd: heavy tails, strongly convex, at the run's tail
///   index k ("tail-index", 2 when absent): 1/n + (√d/(ε n))^{(2k−2)/k};
/// - accelerated-clipped-gd: heavy tails, smooth convex: 1/√n + max{((βD/r_k)^{1/4} √d/(ε
/// n))^{4(k−1)/(5k−1)},
///   (√d/(ε n))^{(k−1)/k}} with the run's β, r_k and D (10 when unbounded);
/// - isrl-dp-sgd by "trust": isrl 1/√(nM) + √(d ln(1/δ))/(ε n √M); central and shuffle
///   1/√(nM) + √(d ln(1/δ))/(ε n M); local min{1, √d/(ε √(nN))} (every record its own silo);
///   M = N when `available` is 0;
/// - user-level-dp-sgd, "user-noise" paper or practical: 1/√(nm) + √d·ln(ndm/δ)/(n √m ε) (n users,
///   m records each); the naive baseline has none;
/// - diff2 and dp-gd (runs that record their sizes in theoryInputs): the squared gradient norm
///   ‖∇f‖² of a non-convex objective, d^(2/3)/(nmin·P·ε)^(4/3) and √d/(nmin·P·ε) (d = the
///   model's parameters, nmin·P = smallest silo × silos), constants unknown;
/// - accelerated-clipped-gd, proximal-clipped-gd (heavy tails, at the run's tail index), diff2
///   and dp-gd (the squared gradient norm: RateShape::metric), dp-sgd-linear (central DP,
///   convex) and semi-dp-sgd (semi-DP convex: min{1/√n_pub, √(d ln(1/δ))/(ε n) + 1/√n}, or
///   1/√n_pub for public rows only);
/// - anything registered with registerTheoryRate (a registration wins over a built-in rate).
/// None when a size the rate needs is missing (≤ 0).
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
