// proximal-clipped-gd: T, C and σ against the formulas written out here, the certified ε;
// λ₁ = 0 is the plain projected loop (a loop written in this test, same noise draws); the prox
// (soft-threshold, then the ball) solves its minimisation; λ₁ > 0 zeroes weights; ε = ∞
// reduces to the non-private projected loop.
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

namespace core_proximal_clipped_gd_test {

using namespace pfa;

namespace {

DataSplit smallHeavy() {
    HeavyTailedOptions o;
    o.rows = 4000;
    o.features = 5;
    return splitAndEncode(generateHeavyTailed(o));
}

TrainConfig proximalConfig(double epsilon, std::uint64_t seed = 1) {
    TrainConfig c;
    c.algorithm = "proximal-clipped-gd";
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

/// The projected loop written out: w ← proj(w − η(clip-mean + noise + µw), D), η = 1/(2β), last
/// iterate, with the run's permutation and noise streams.
Eigen::VectorXd projectedLoop(const TrainConfig& c, const Dataset& train) {
    const Eigen::Index n = train.rows(), d = train.features();
    const long T = static_cast<long>(ownNumber(c, "steps"));
    const long s = static_cast<long>(n) / T;
    const double C = ownNumber(c, "clip-norm"), mu = ownNumber(c, "ridge"),
                 D = ownNumber(c, "domain-radius");
    const double eta = 1 / (2 * ownNumber(c, "smoothness"));
    const double sigma =
        c.isPrivate() ? 2 * C / (s * std::sqrt(2 * rhoOf(c.epsilon, c.delta))) : 0.0;
    const RunStreams streams(c, train);
    RandomStream sampling = streams.stream(streams::kSampling),
                 noise = streams.stream(streams::kNoise);
    std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), Eigen::Index{0});
    for (std::size_t i = order.size() - 1; i > 0; --i)
        std::swap(order[i], order[sampling.uniformIndex(i + 1)]);
    Eigen::VectorXd w = Eigen::VectorXd::Zero(d + 1);
    for (long t = 0; t < T; ++t) {
        Eigen::VectorXd g = Eigen::VectorXd::Zero(d + 1);
        for (long j = 0; j < s; ++j) {
            const Eigen::Index row = order[static_cast<std::size_t>(t * s + j)];
            Eigen::VectorXd x(d + 1);
            x << train.X.row(row).transpose(), 1.0;
            Eigen::VectorXd gi = 2 * (w.dot(x) - train.target(row)) * x;
            if (gi.norm() > C) gi *= C / gi.norm();
            g += gi;
        }
        g /= static_cast<double>(s);
        if (sigma > 0) {
            for (Eigen::Index i = 0; i <= d; ++i) g(i) += sigma * noise.normal();
        }
        w -= eta * (g + mu * w);
        if (w.norm() > D) w *= D / w.norm();
    }
    return w;
}

}  // namespace

TEST_CASE("proximal-clipped-gd: T, C and σ as the formulas give them, ε certified",
          "[proximal-clipped-gd]") {
    const DataSplit data = smallHeavy();  // n = 3000, d + 1 = 6
    const TrainConfig c =
        prepareRun(findAlgorithm("proximal-clipped-gd"), proximalConfig(1.0), data).config();
    // T = ⌈4κ ln n⌉ with κ = β/(µ_f + µ) = 2/2.1: ⌈30.50⌉ = 31; C = r_k (2ρ n²/(d T))^{1/(2k)}.
    CHECK(ownNumber(c, "steps") == 31);
    const double C = std::pow(2 * rhoOf(1.0, 1e-5) * 3000.0 * 3000.0 / (6 * 31.0), 1 / 5.0);
    CHECK(ownNumber(c, "clip-norm") == Approx(C).epsilon(1e-12));
    const RunResult r = test::runQuietly(c, data);
    REQUIRE(r.status == RunStatus::Completed);
    CHECK(r.privacy.expectedBatch == 96);
    CHECK(r.privacy.sigmaTheta ==
          Approx(2 * C / (96 * std::sqrt(2 * rhoOf(1.0, 1e-5)))).epsilon(1e-12));
    CHECK(r.privacy.epsilonSpent <= 1.0);
    CHECK(privacy::certifiedEpsilon(r.privacy.accounting).epsilon ==
          Approx(r.privacy.epsilonSpent).epsilon(1e-12));
    CHECK(std::isfinite(r.regression.excessRisk));
}

TEST_CASE(
    "proximal-clipped-gd with λ₁ = 0 is the plain projected loop and ε = ∞ its non-private version",
    "[proximal-clipped-gd]") {
    const DataSplit data = smallHeavy();
    for (double epsilon : {1.0, std::numeric_limits<double>::infinity()}) {
        INFO("epsilon " << epsilon);
        TrainConfig requested = proximalConfig(epsilon, 7);
        requested.extra["domain-radius"] = "0.15";  // active: ‖w_opt‖ is larger
        requested.extra["steps"] = "200";
        const TrainConfig c =
            prepareRun(findAlgorithm("proximal-clipped-gd"), requested, data).config();
        if (std::isinf(epsilon)) CHECK(std::isinf(ownNumber(c, "clip-norm")));
        const RunResult r = test::runQuietly(c, data);
        REQUIRE(r.status == RunStatus::Completed);
        const Eigen::VectorXd loop = projectedLoop(c, data.train);
        const Eigen::VectorXd out = r.theta.row(0).transpose();
        INFO("run " << out.transpose() << "\nloop " << loop.transpose());
        CHECK(loop.norm() == Approx(0.15).epsilon(1e-9));  // the projection acted
        CHECK((out - loop).norm() <= 1e-9);
    }
}

TEST_CASE("The prox of λ‖w_{1:d}‖₁ + the ball's indicator minimises its objective",
          "[proximal-clipped-gd]") {
    // prox(v) = argmin_w ½‖w − v‖² + λ‖w_{1:d}‖₁ subject to ‖w‖ ≤ D: compare with random
    // feasible points near it (a wrong prox, e.g. projecting before thresholding, loses).
    RandomStream random(3, 4);
    const double lambda = 0.3, D = 1.2;
    for (int trial = 0; trial < 20; ++trial) {
        Eigen::VectorXd v(5);
        for (Eigen::Index i = 0; i < 5; ++i) v(i) = 1.5 * random.normal();
        Eigen::VectorXd w = v;
        softThresholdAndProject(w, lambda, D);
        auto objective = [&](const Eigen::VectorXd& x) {
            return 0.5 * (x - v).squaredNorm() + lambda * x.head(4).lpNorm<1>();
        };
        CHECK(w.norm() <= D * (1 + 1e-12));
        for (int probe = 0; probe < 200; ++probe) {
            Eigen::VectorXd x = w;
            for (Eigen::Index i = 0; i < 5; ++i) x(i) += 0.05 * random.normal();
            if (x.norm() > D) x *= D / x.norm();
            CHECK(objective(w) <= objective(x) + 1e-12);
        }
    }
}

TEST_CASE("proximal-clipped-gd: a large λ₁ zeroes the feature weights, not the intercept",
          "[proximal-clipped-gd]") {
    const DataSplit data = smallHeavy();
    TrainConfig requested = proximalConfig(INFINITY);
    requested.extra["l1-penalty"] = "1000";
    const RunResult r = test::runQuietly(requested, data);
    REQUIRE(r.status == RunStatus::Completed);
    const Eigen::VectorXd w = r.theta.row(0).transpose();
    CHECK(w.head(w.size() - 1).isZero(0.0));
    CHECK(w(w.size() - 1) != 0.0);
}

}  // namespace core_proximal_clipped_gd_test
