// The weighted-Gaussian mean estimator with public samples (semi-DP mean estimation): its MSE,
// its optimal weight r*, the two baselines and a Monte-Carlo check, on the spec's test numbers.
#include "core/privacy/weighted_gaussian_mean.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/algorithms/linear_sgd/linear_dp_sgd.h"

namespace core_weighted_gaussian_mean_test {

using namespace pfa;
using namespace pfa::privacy;

namespace {

/// n_priv = 9900, n_pub = 100, d = 100, B = 25, V = 1, ρ = 1.
WeightedMeanProblem specProblem() { return WeightedMeanProblem{9900, 100, 100, 25, 1, 1}; }

}  // namespace

TEST_CASE("Weighted-Gaussian mean: r*, its MSE and the baselines at the spec's numbers",
          "[public-mean]") {
    const WeightedMeanProblem p = specProblem();
    const double r = optimalWeight(p);
    // 99 / (125000 + 9900 + 980100) = 99 / 1115000.
    CHECK(r == Approx(99.0 / 1115000.0).epsilon(1e-12));
    CHECK(r == Approx(8.879e-5).epsilon(1e-3));
    CHECK(weightedMeanMse(p, r) == Approx(1.21e-3).epsilon(5e-3));
    CHECK(publicOnlyMse(p) == Approx(1e-2).epsilon(1e-12));
    CHECK(gaussianAllMse(p) == Approx(1.35e-3).epsilon(1e-12));
    CHECK(gaussianAllMse(p) == Approx(weightedMeanMse(p, 1.0 / 10000.0)).epsilon(1e-12));
    CHECK(weightedMeanMse(p, r) < std::min(publicOnlyMse(p), gaussianAllMse(p)));
}

TEST_CASE("Weighted-Gaussian mean: r* is the minimiser on a grid of 1e5 points", "[public-mean]") {
    for (const WeightedMeanProblem& p :
         {specProblem(), WeightedMeanProblem{1000, 1000, 10, 2, 1, 0.1},
          WeightedMeanProblem{500, 20, 1000, 5, 0.5, 4}}) {
        const int grid = 100000;
        const double top = 1.0 / p.privateSamples;
        double best = 0.0, bestMse = INFINITY;
        for (int i = 0; i <= grid; ++i) {
            const double r = top * i / grid;
            const double mse = weightedMeanMse(p, r);
            if (mse < bestMse) {
                bestMse = mse;
                best = r;
            }
        }
        const double r = optimalWeight(p);
        CHECK(std::abs(r - best) <= top / grid);
        CHECK(weightedMeanMse(p, r) <= bestMse);
    }
}

TEST_CASE("Weighted-Gaussian mean: the auto weight of semi-DP SGD is r* with alpha = r K_priv",
          "[public-mean][semi-dp-sgd]") {
    // A step's gradient estimate is the mean estimator with n_priv = K_priv, n_pub = K_pub and the
    // noise d·σ² on the private mean: 2dB²r²/ρ = d σ² (K_priv r)², i.e. 2B²/ρ = σ² K_priv².
    for (double kPriv : {64.0, 256.0}) {
        for (double kPub : {8.0, 256.0}) {
            for (double sigma : {0.0, 0.01, 0.3}) {
                const double d = 201, spread = 2.5;
                WeightedMeanProblem p;
                p.privateSamples = kPriv;
                p.publicSamples = kPub;
                p.dimension = d;
                p.spread = spread;
                p.normBound = 1.0;
                p.rho = 2.0 / (sigma * sigma * kPriv * kPriv);  // ∞ when σ = 0
                const double alpha = autoAlpha(spread * spread, kPriv, kPub, d, sigma);
                CHECK(alpha == Approx(optimalWeight(p) * kPriv).epsilon(1e-12));
            }
        }
    }
}

TEST_CASE("Weighted-Gaussian mean: Monte-Carlo agrees within 3 standard errors",
          "[public-mean][slow][statistical]") {
    const WeightedMeanProblem p = specProblem();
    const double r = optimalWeight(p);
    const std::vector<double> weights{0.0, r, 1.0 / 10000.0};
    // 200 repetitions (the panel runs 2000): each draws 10,000 points in d = 100, and the 3-SE
    // agreement does not depend on the count.
    const auto points = monteCarloWeightedMean(p, weights, 200, 11);
    REQUIRE(points.size() == 3);
    for (const MonteCarloPoint& point : points) {
        INFO("r = " << point.r << ": MC " << point.mse << " ± " << point.standardError
                    << ", formula " << weightedMeanMse(p, point.r));
        CHECK(point.standardError > 0.0);
        CHECK(std::abs(point.mse - weightedMeanMse(p, point.r)) <= 3.0 * point.standardError);
    }
    // Reproducible, and the check can fail: a wrong formula (noise term halved) is far outside.
    CHECK(monteCarloWeightedMean(p, {r}, 50, 11)[0].mse ==
          monteCarloWeightedMean(p, {r}, 50, 11)[0].mse);
    const double wrong =
        weightedMeanMse(p, r) - 0.5 * 2.0 * p.dimension * p.normBound * p.normBound * r * r / p.rho;
    CHECK(std::abs(points[1].mse - wrong) > 3.0 * points[1].standardError);
}

}  // namespace core_weighted_gaussian_mean_test
