// accelerated-clipped-gd: T, C, η̄ and σ against the formulas written out here; the certified ε
// recomputed by the accountant; the accelerated loop's 1/T² rate with exact gradients; ε = ∞
// reduces to the non-private accelerated loop (checked against a loop written in this test);
// the naive clip rule.
#include <Eigen/Dense>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/algorithms/heavy_tail/heavy_tail_steps.h"
#include "core/algorithms/registry.h"
#include "core/config/parameters.h"
#include "core/data/heavy_tailed.h"
#include "core/data/preprocessing.h"
#include "core/engine/run_streams.h"
#include "core/privacy/accounting_inputs.h"
#include "core/util/random.h"
#include "test_data.h"

namespace core_accelerated_clipped_gd_test {

using namespace pfa;

namespace {

HeavyTailedOptions smallHeavy(int rows = 4000) {
    HeavyTailedOptions o;
    o.rows = rows;
    o.features = 5;
    return o;
}

TrainConfig acceleratedConfig(double epsilon, std::uint64_t seed = 1) {
    TrainConfig c;
    c.algorithm = "accelerated-clipped-gd";
    c.epsilon = epsilon;
    c.delta = 1e-5;
    c.seed = seed;
    c.lambda = 0.0;
    return c;
}

double rhoOf(double epsilon, double delta) {
    const double r = std::sqrt(std::log(1 / delta) + epsilon) - std::sqrt(std::log(1 / delta));
    return r * r;
}

}  // namespace

TEST_CASE("accelerated-clipped-gd: T, C, σ and η̄ as the formulas give them, ε certified",
          "[accelerated-clipped-gd]") {
    const DataSplit data =
        splitAndEncode(generateHeavyTailed(smallHeavy()));  // n = 3000, d + 1 = 6
    const Algorithm& algorithm = findAlgorithm("accelerated-clipped-gd");
    CHECK(algorithm.capabilities().task == Task::Regression);
    TrainConfig requested = acceleratedConfig(1.0);
    requested.extra["moment-bound"] = "4";
    requested.extra["domain-radius"] = "5";
    const TrainConfig c = prepareRun(algorithm, requested, data).config();
    const double n = 3000, d = 6, k = 2.5, rk = 4, beta = 2, D = 5;
    const double epsZ = std::sqrt(2 * rhoOf(1.0, 1e-5));
    // T = ⌈min{(βD/r_k)^{2k/(5k−1)} (ε_z n/√d)^{(2k−2)/(5k−1)}, √(βD/r_k) n^{1/4}}⌉
    //   = ⌈min{2.5^{5/11.5}·(0.2041·3000/2.449)^{3/11.5}, √2.5·3000^{1/4}}⌉ = ⌈min{6.29, 11.7}⌉.
    const double first = std::pow(beta * D / rk, 2 * k / (5 * k - 1)) *
                         std::pow(epsZ * n / std::sqrt(d), (2 * k - 2) / (5 * k - 1));
    const double second = std::sqrt(beta * D / rk) * std::pow(n, 0.25);
    const long T = static_cast<long>(std::ceil(std::min(first, second)));
    CHECK(first == Approx(6.29).margin(0.01));
    CHECK(T == 7);
    CHECK(ownNumber(c, "steps") == T);
    // C = r_k (ε_z n/(√d T))^{1/k}.
    const double C = rk * std::pow(epsZ * n / (std::sqrt(d) * T), 1 / k);
    CHECK(ownNumber(c, "clip-norm") == Approx(C).epsilon(1e-12));

    const RunResult r = test::runQuietly(c, data);
    REQUIRE(r.status == RunStatus::Completed);
    const long s = 3000 / T;  // 428 rows per batch
    CHECK(r.privacy.expectedBatch == s);
    const double sigma = 2 * C / (s * std::sqrt(2 * rhoOf(1.0, 1e-5)));
    CHECK(r.privacy.sigmaTheta == Approx(sigma).epsilon(1e-12));
    CHECK(r.privacy.accounting.noiseMultiplier == Approx(1 / epsZ).epsilon(1e-12));
    CHECK(r.privacy.epsilonSpent <= 1.0);
    CHECK(r.privacy.epsilonSpent > 0.5);
    CHECK(privacy::certifiedEpsilon(r.privacy.accounting).epsilon ==
          Approx(r.privacy.epsilonSpent).epsilon(1e-12));
    // The clip-sweep overlay: bias r_k^k/((k−1)C^{k−1}), variance dσ² + r₂²/s (r₂ ≤ r_k).
    CHECK(r.theoryInputs.at("bias_bound") ==
          Approx(std::pow(rk, k) / ((k - 1) * std::pow(C, k - 1))).epsilon(1e-12));
    CHECK(r.theoryInputs.at("variance_bound") ==
          Approx(d * sigma * sigma + rk * rk / s).epsilon(1e-12));
    // Reproducible, and the seed matters.
    CHECK(test::runQuietly(c, data).theta == r.theta);
    TrainConfig other = c;
    other.seed = 2;
    CHECK(test::runQuietly(other, data).theta != r.theta);
    // The excess risk is reported at every evaluation and at the end.
    CHECK(std::isfinite(r.history.back().excessRisk));
    CHECK(r.regression.excessRisk ==
          Approx(r.regression.testMse - r.regression.optimumMse).epsilon(1e-12));
    CHECK(r.history.back().excessRisk == Approx(r.regression.excessRisk).epsilon(1e-12));
}

TEST_CASE("accelerated loop with σ = 0 and exact gradients: the gap shrinks like 1/T²",
          "[accelerated-clipped-gd]") {
    // f(w) = ½ (w − c)ᵀ A (w − c), A diagonal with eigenvalues 1e−3 … 1 (β = 1): plain gradient
    // descent would only reach 1/T here.
    const int dim = 20;
    Eigen::VectorXd eig(dim), center(dim);
    for (int i = 0; i < dim; ++i) {
        eig(i) = std::pow(10.0, -3.0 * i / (dim - 1));
        center(i) = 1.0;
    }
    const double beta = 1.0;
    auto gap = [&](const Eigen::VectorXd& w) {
        return 0.5 * (eig.array() * (w - center).array().square()).sum();
    };
    std::vector<double> gaps;
    for (long T : {25L, 50L, 100L, 200L, 400L}) {
        AcceleratedIterates it(dim, 2 * beta, INFINITY);
        Eigen::VectorXd g(dim);
        for (long t = 1; t <= T; ++t) {
            const Eigen::VectorXd& md = it.query(t);
            g = eig.cwiseProduct(md - center);
            it.update(t, g);
        }
        gaps.push_back(gap(it.output()));
        // The accelerated bound with η̄ = 2β: gap ≤ 4η̄ ‖w₀ − w*‖² / (T(T+1)).
        INFO("T = " << T << ": gap " << gaps.back());
        CHECK(gaps.back() <= 4 * 2 * beta * center.squaredNorm() / (T * (T + 1.0)));
    }
    // Each doubling of T divides the gap by about 4 (1/T²), far more than the 2 of a 1/T rate.
    for (std::size_t i = 1; i < gaps.size(); ++i) {
        INFO("gap ratio " << gaps[i - 1] / gaps[i]);
        CHECK(gaps[i - 1] / gaps[i] > 3.0);
    }
}

TEST_CASE("accelerated-clipped-gd at ε = ∞ is the non-private accelerated minibatch loop",
          "[accelerated-clipped-gd]") {
    // Gaussian features, no outliers: without clipping the loop is stable on these.
    HeavyTailedOptions gaussian = smallHeavy();
    gaussian.featureTail = INFINITY;
    gaussian.outlierShare = 0.0;
    const DataSplit data = splitAndEncode(generateHeavyTailed(gaussian));
    TrainConfig requested = acceleratedConfig(INFINITY, 5);
    const TrainConfig c =
        prepareRun(findAlgorithm("accelerated-clipped-gd"), requested, data).config();
    CHECK(std::isinf(ownNumber(c, "clip-norm")));  // no clipping
    const RunResult r = test::runQuietly(c, data);
    REQUIRE(r.status == RunStatus::Completed);
    CHECK_FALSE(r.privacy.isPrivate);
    CHECK(r.privacy.sigmaTheta == 0.0);

    // The same loop written out: batches of a permutation from the run's sampling stream, plain
    // minibatch gradients 2(⟨w, x̃⟩ − y)x̃, η̄ = max(2β, T^{3/2} √(r_k² T/n)/D) with D = 10 (the
    // rule radius when the domain is unbounded), steps as in the accelerated method.
    const Dataset& train = data.train;
    const Eigen::Index n = train.rows(), d = train.features();
    const long T = static_cast<long>(ownNumber(c, "steps"));
    const long s = static_cast<long>(n) / T;
    RandomStream sampling = RunStreams(c, train).stream(streams::kSampling);
    std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), Eigen::Index{0});
    for (std::size_t i = order.size() - 1; i > 0; --i)
        std::swap(order[i], order[sampling.uniformIndex(i + 1)]);
    const double etaBar = std::max(4.0, std::pow(T, 1.5) * std::sqrt(1.0 * T / n) / 10.0);
    Eigen::VectorXd w = Eigen::VectorXd::Zero(d + 1), ag = w;
    for (long t = 1; t <= T; ++t) {
        const double alpha = 2.0 / (t + 1.0), eta = 4 * etaBar / (t * (t + 1.0));
        const Eigen::VectorXd md = (1 - alpha) * ag + alpha * w;
        Eigen::VectorXd g = Eigen::VectorXd::Zero(d + 1);
        for (long j = 0; j < s; ++j) {
            const Eigen::Index row = order[static_cast<std::size_t>((t - 1) * s + j)];
            Eigen::VectorXd x(d + 1);
            x << train.X.row(row).transpose(), 1.0;
            g += 2 * (md.dot(x) - train.target(row)) * x;
        }
        g /= static_cast<double>(s);
        w -= (alpha / eta) * g;
        ag = alpha * w + (1 - alpha) * ag;
    }
    const Eigen::VectorXd out = r.theta.row(0).transpose();
    INFO("run " << out.transpose() << "\nloop " << ag.transpose());
    CHECK((out - ag).norm() <= 1e-9 * (1 + ag.norm()));
}

TEST_CASE("accelerated-clipped-gd: the naive clip rule sets C = 1 at the same σ formula",
          "[accelerated-clipped-gd]") {
    const DataSplit data = splitAndEncode(generateHeavyTailed(smallHeavy()));
    TrainConfig requested = acceleratedConfig(2.0);
    requested.extra["clip-rule"] = "naive";
    const TrainConfig c =
        prepareRun(findAlgorithm("accelerated-clipped-gd"), requested, data).config();
    CHECK(ownNumber(c, "clip-norm") == 1.0);
    const RunResult r = test::runQuietly(c, data);
    const double s = static_cast<double>(r.privacy.expectedBatch);
    CHECK(r.privacy.sigmaTheta ==
          Approx(2 * 1.0 / (s * std::sqrt(2 * rhoOf(2.0, 1e-5)))).epsilon(1e-12));
    CHECK(r.privacy.epsilonSpent <= 2.0);
    CHECK(r.privacy.statement.find("clip rule naive") != std::string::npos);
}

}  // namespace core_accelerated_clipped_gd_test
