// dp-sgd-linear (thesis-algorithms.md §3, accountant B): the noise it adds has the variance it
// states (χ² test on weights whose gradient is exactly zero), its ε equals an independent
// evaluation of the Poisson-subsampled Gaussian RDP formula written out here, ε = ∞ is plain
// SGD bit for bit, and without privacy it learns the Gaussian linear model.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/algorithms/registry.h"
#include "core/config/algorithm.h"
#include "core/data/builtin_datasets.h"
#include "core/engine/batch_sampler.h"
#include "core/engine/linear_rows.h"
#include "core/engine/run_streams.h"
#include "core/generators/dataset_loading.h"
#include "test_data.h"

using namespace pfa;

namespace {

TrainConfig linearConfig(double epsilon,
                         privacy::Adjacency adjacency = privacy::Adjacency::AddRemove) {
    TrainConfig c;
    c.algorithm = "dp-sgd-linear";
    c.epsilon = epsilon;
    c.delta = 1e-5;
    c.lambda = 0.0;
    c.seed = 5;
    c.epochs = 2;
    c.batchSize = 100;
    c.clipTheta = 1.0;
    c.lrTheta = 0.05;
    c.adjacency = adjacency;
    c.averaging = IterateAveraging::None;
    return c;
}

/// ln Σ_k C(α,k)(1−q)^{α−k} q^k exp(k(k−1)/(2z²)), integer α, by log-sum-exp.
double logA(int alpha, double q, double z) {
    double top = -INFINITY;
    std::vector<double> terms;
    for (int k = 0; k <= alpha; ++k) {
        const double t = std::lgamma(alpha + 1.0) - std::lgamma(k + 1.0) -
                         std::lgamma(alpha - k + 1.0) + (alpha - k) * std::log1p(-q) +
                         k * std::log(q) + k * (k - 1.0) / (2.0 * z * z);
        terms.push_back(t);
        top = std::max(top, t);
    }
    double sum = 0.0;
    for (double t : terms) sum += std::exp(t - top);
    return top + std::log(sum);
}

/// RDP of one add/remove Poisson-subsampled Gaussian step at integer order α.
double rdpAddRemove(int alpha, double q, double z) { return logA(alpha, q, z) / (alpha - 1.0); }

/// ε after T steps from integer orders only, with the conversion
/// ε(α) = T·ρ(α) + ln(1 − 1/α) − (ln δ + ln α)/(α − 1). Replace-one: the group-of-two bound
/// ρ(α) = (2α−1)/(2α−2)·ρ_SGM(2α) + ρ_SGM(2α−1).
double independentEpsilon(double q, double z, long steps, double delta, bool replace) {
    double best = INFINITY;
    std::vector<int> orders;
    for (int a = 2; a <= 63; ++a) orders.push_back(a);
    for (int a : {128, 256, 512}) orders.push_back(a);
    for (int alpha : orders) {
        const double rho =
            replace ? (2.0 * alpha - 1.0) / (2.0 * alpha - 2.0) * rdpAddRemove(2 * alpha, q, z) +
                          rdpAddRemove(2 * alpha - 1, q, z)
                    : rdpAddRemove(alpha, q, z);
        const double eps = steps * rho + std::log1p(-1.0 / alpha) -
                           (std::log(delta) + std::log(alpha)) / (alpha - 1.0);
        best = std::min(best, eps);
    }
    return std::max(0.0, best);
}

}  // namespace

TEST_CASE("dp-sgd-linear: the noise has the stated variance (chi-square on zero-gradient weights)",
          "[dp-sgd-linear][statistical]") {
    // Every feature is 0, so each feature weight gets exactly zero gradient and ends at
    // −η Σ_t N(0, σ²): Σ_j w_j² / (η² T σ²) is χ² with d degrees of freedom.
    const int d = 2000;
    const DataSplit data = test::zeroFeatureData(1000, d);
    const TrainConfig config = linearConfig(1.0);
    const RunResult result = test::runQuietly(config, data);
    REQUIRE(result.status == RunStatus::Completed);
    const double sigma = result.privacy.sigmaTheta;
    // σ on the mean is z·C/b, z the multiplier the accountant solved.
    CHECK(sigma == Approx(result.privacy.noiseMultiplier * 1.0 / 100.0).epsilon(1e-12));
    REQUIRE(result.steps == 2 * 10);  // ⌈1000/100⌉ steps per epoch
    double chi2 = 0.0;
    for (int j = 0; j < d; ++j) {
        const double w = result.theta(0, j);
        chi2 += w * w;
    }
    chi2 /= config.lrTheta * config.lrTheta * static_cast<double>(result.steps) * sigma * sigma;
    // Mean d, sd √(2d) ≈ 63: four sd either way. A σ 10 % off would give 1653 or 2420: outside.
    INFO("chi2 = " << chi2);
    CHECK(std::abs(chi2 - d) < 4.0 * std::sqrt(2.0 * d));
}

TEST_CASE("dp-sgd-linear: epsilon equals the RDP formula evaluated independently",
          "[dp-sgd-linear]") {
    const DataSplit data = test::syntheticSplit(4000, 8);  // 3000 training rows
    for (const privacy::Adjacency adjacency :
         {privacy::Adjacency::AddRemove, privacy::Adjacency::Replace}) {
        for (double epsilon : {0.5, 2.0}) {
            const bool replace = adjacency == privacy::Adjacency::Replace;
            INFO("epsilon " << epsilon << (replace ? " replace" : " add/remove"));
            TrainConfig config = linearConfig(epsilon, adjacency);
            config.epochs = 3;
            const RunResult result = test::runQuietly(config, data);
            REQUIRE(result.status == RunStatus::Completed);
            const double q = 100.0 / 3000.0;
            const long steps = 3 * 30;
            CHECK(result.steps == steps);
            CHECK(result.privacy.samplingRate == Approx(q).epsilon(1e-15));
            const double z = result.privacy.noiseMultiplier;
            const double independent = independentEpsilon(q, z, steps, 1e-5, replace);
            const double spent = result.privacy.epsilonSpent;
            // The app's grid adds fractional orders: never worse, at most a little better.
            CHECK(spent <= independent + 1e-9);
            CHECK(spent >= 0.98 * independent);
            // Within the budget, and the noise is not wasted (solver tolerance 1 %).
            CHECK(spent <= epsilon);
            CHECK(spent >= 0.98 * epsilon);
            // A 10 % smaller z costs visibly more.
            CHECK(independentEpsilon(q, 0.9 * z, steps, 1e-5, replace) > 1.05 * spent);
        }
    }
}

TEST_CASE("dp-sgd-linear: epsilon = inf is plain SGD bit for bit", "[dp-sgd-linear]") {
    const DataSplit data = test::syntheticSplit(2000, 6);
    TrainConfig config = linearConfig(INFINITY);
    const Algorithm& algorithm = findAlgorithm("dp-sgd-linear");
    const TrainConfig resolved = prepareRun(algorithm, config, data).config();
    const RunResult result = test::runQuietly(config, data);
    REQUIRE(result.status == RunStatus::Completed);
    CHECK(std::isinf(result.privacy.epsilonSpent));

    // Plain SGD on (ŷ − y)² with an intercept: Poisson batches from the run's sampling stream,
    // the gradient sum divided by the expected batch b, no clipping, no noise.
    const Dataset& train = data.train;
    const long n = static_cast<long>(train.rows()), d = static_cast<long>(train.features());
    const Eigen::VectorXd y = regressionTargets(train);
    RandomStream sampling = RunStreams(resolved, train).stream(streams::kSampling);
    const double q = 100.0 / static_cast<double>(n);
    const long steps = 2 * ((n + 99) / 100);
    Eigen::VectorXd w = Eigen::VectorXd::Zero(d + 1), g(d + 1);
    const LinearRows rows{train.X.data(), static_cast<long>(train.X.outerStride()), d};
    for (long t = 0; t < steps; ++t) {
        g.setZero();
        drawPoisson(sampling, std::log1p(-q), n, [&](long row) {
            // xᵀw in the engine's order for a linear row (tested in linear_rows_test.cpp).
            double score = 0.0;
            linearRowScores(rows, &row, 1, w.data(), &score);
            const double residual = score + w(d) - y(row);
            const double scale = 2.0 * residual;
            g.head(d).noalias() += scale * train.X.row(row).transpose();
            g(d) += scale;
        });
        g /= 100.0;
        w.noalias() -= config.lrTheta * g;
    }
    REQUIRE(result.theta.cols() == d + 1);
    for (long k = 0; k <= d; ++k) CHECK(result.theta(0, k) == w(k));  // bit for bit
    CHECK(result.steps == steps);
}

TEST_CASE("dp-sgd-linear: learns the Gaussian linear model, and privacy costs accuracy",
          "[dp-sgd-linear]") {
    DatasetRequest request;
    request.name = "synthetic-linear";
    request.knobs<LinearGaussianOptions>().rows = 6000;
    request.knobs<LinearGaussianOptions>().features = 10;
    const DataSplit data = splitDatasetRequest(loadBuiltinDataset(request), request);
    TrainConfig config = linearConfig(INFINITY);
    config.epochs = 10;
    config.batchSize = 64;
    const RunResult exact = test::runQuietly(config, data);
    REQUIRE(exact.status == RunStatus::Completed);
    // Excess risk over the known optimum 0.25 (sampling error of 1500 test rows ≈ 0.01).
    REQUIRE_FALSE(exact.history.empty());
    CHECK(exact.history.back().excessRisk == Approx(exact.regression.testMse - 0.25).margin(1e-12));
    CHECK(exact.history.back().excessRisk < 0.03);
    CHECK(exact.regression.weightError < 0.2);
    config.epsilon = 0.2;
    const RunResult priv = test::runQuietly(config, data);
    REQUIRE(priv.status == RunStatus::Completed);
    CHECK(priv.privacy.epsilonSpent <= 0.2);
    CHECK(priv.regression.testMse > exact.regression.testMse);
}
