#include "core/privacy/weighted_gaussian_mean.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

#include "core/util/error.h"
#include "core/util/random.h"

namespace pfa::privacy {

namespace {

constexpr std::uint64_t kMonteCarloStream = 0x57474d45414e0000ULL;  // "WGMEAN"

double noiseCoefficient(const WeightedMeanProblem& p) {
    return 2.0 * p.dimension * p.normBound * p.normBound / p.rho;
}

}  // namespace

double weightedMeanMse(const WeightedMeanProblem& p, double r) {
    const double v2 = p.spread * p.spread;
    double mse = noiseCoefficient(p) * r * r + p.privateSamples * r * r * v2;
    if (p.publicSamples > 0.0) {
        const double publicWeight = 1.0 - p.privateSamples * r;
        mse += publicWeight * publicWeight * v2 / p.publicSamples;
    }
    return mse;
}

double optimalWeight(const WeightedMeanProblem& p) {
    if (p.publicSamples <= 0.0) return p.privateSamples > 0.0 ? 1.0 / p.privateSamples : 0.0;
    const double v2 = p.spread * p.spread;
    const double numerator = p.privateSamples * v2 / p.publicSamples;
    const double denominator = noiseCoefficient(p) + p.privateSamples * v2 +
                               p.privateSamples * p.privateSamples * v2 / p.publicSamples;
    return denominator > 0.0 ? numerator / denominator : 0.0;
}

double publicOnlyMse(const WeightedMeanProblem& p) { return weightedMeanMse(p, 0.0); }

double gaussianAllMse(const WeightedMeanProblem& p) {
    const double n = p.privateSamples + p.publicSamples;
    return noiseCoefficient(p) / (n * n) + p.spread * p.spread / n;
}

std::vector<MonteCarloPoint> monteCarloWeightedMean(const WeightedMeanProblem& p,
                                                    const std::vector<double>& weights,
                                                    int repetitions, std::uint64_t seed,
                                                    const std::function<bool(int, int)>& progress) {
    if (!(p.spread >= 0.0 && p.spread <= p.normBound)) {
        throw InputError("the spread V must lie between 0 and the norm bound B");
    }
    const auto d = static_cast<Eigen::Index>(std::llround(p.dimension));
    const long nPrivate = std::lround(p.privateSamples), nPublic = std::lround(p.publicSamples);
    if (d < 1 || nPrivate < 0 || nPublic < 0 || repetitions < 1) {
        throw InputError(
            "the Monte-Carlo check needs d ≥ 1, sample counts ≥ 0 and at least one repetition");
    }
    RandomStream random(seed, kMonteCarloStream);
    Eigen::VectorXd u(d), privateSum(d), publicSum(d), noise(d), error(d);
    // Σ x over a group of c samples is c·m + V·Σ u; m = (B − V)·e₁, so every ‖x‖ ≤ B.
    Eigen::VectorXd m = Eigen::VectorXd::Zero(d);
    m(0) = p.normBound - p.spread;
    auto addSphereDraws = [&](long count, Eigen::VectorXd& sum) {
        sum.setZero();
        for (long i = 0; i < count; ++i) {
            for (Eigen::Index k = 0; k < d; ++k) u(k) = random.normal();
            sum += u / u.norm();
        }
    };
    std::vector<double> total(weights.size(), 0.0), totalSquares(weights.size(), 0.0);
    int done = 0;
    for (int rep = 0; rep < repetitions; ++rep) {
        addSphereDraws(nPrivate, privateSum);
        addSphereDraws(nPublic, publicSum);
        for (Eigen::Index k = 0; k < d; ++k) noise(k) = random.normal();
        for (std::size_t j = 0; j < weights.size(); ++j) {
            const double r = weights[j];
            const double sigma = std::sqrt(2.0) * p.normBound * r / std::sqrt(p.rho);
            // A_r(X) − m with A_r = r Σ_priv x + ((1 − n_priv r)/n_pub) Σ_pub x + σ_r g.
            error =
                r * (static_cast<double>(nPrivate) * m + p.spread * privateSum) + sigma * noise - m;
            if (nPublic > 0) {
                const double w = (1.0 - p.privateSamples * r) / p.publicSamples;
                error += w * (static_cast<double>(nPublic) * m + p.spread * publicSum);
            }
            const double e2 = error.squaredNorm();
            total[j] += e2;
            totalSquares[j] += e2 * e2;
        }
        done = rep + 1;
        if (progress && !progress(done, repetitions)) break;
    }
    std::vector<MonteCarloPoint> points;
    for (std::size_t j = 0; j < weights.size(); ++j) {
        MonteCarloPoint point;
        point.r = weights[j];
        point.mse = total[j] / done;
        const double variance =
            done > 1 ? (totalSquares[j] - done * point.mse * point.mse) / (done - 1) : 0.0;
        point.standardError = std::sqrt(std::max(0.0, variance) / done);
        points.push_back(point);
    }
    return points;
}

}  // namespace pfa::privacy
