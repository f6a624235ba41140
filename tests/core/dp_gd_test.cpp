// dp-gd: private full-batch gradient descent (the round loop of
// core/algorithms/diff2/diff2_rounds.h with restart period 1): σ from the closed form in the run,
// logistic regression on two classes with the test set's fairness gaps, a private run that learns,
// and the Adult data set when its offline copy is present.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/algorithms/diff2/diff2_rounds.h"
#include "core/algorithms/registry.h"
#include "core/data/catalog.h"
#include "core/data/preprocessing.h"
#include "test_data.h"

namespace core_dp_gd_test {

using namespace pfa;

namespace {

TrainConfig dpGd(double epsilon, long rounds, double step = 1.0) {
    TrainConfig c;
    c.algorithm = "dp-gd";
    c.epsilon = epsilon;
    c.delta = 1e-5;
    c.seed = 4;
    c.lambda = 0.0;
    c.extra["gd-rounds"] = std::to_string(rounds);
    c.extra["gd-step"] = std::to_string(step);
    return c;
}

}  // namespace

TEST_CASE("DP-GD trains logistic regression on two classes and states its noise", "[dp-gd]") {
    const DataSplit data = test::syntheticSplit(4000, 8);
    const RunResult none = test::runQuietly(dpGd(INFINITY, 200), data);
    const RunResult priv = test::runQuietly(dpGd(1.0, 200), data);
    REQUIRE(none.status == RunStatus::Completed);
    REQUIRE(priv.status == RunStatus::Completed);
    // Logistic model: θ is one row of d + 1 weights; the fairness gaps come with it.
    CHECK(priv.theta.rows() == 1);
    CHECK(priv.theta.cols() == 9);
    CHECK(std::isfinite(priv.test.dpGap));
    // Learns: far below the majority-class error; without noise the gradient norm falls
    // (gradient descent on a smooth convex loss with a step below 1/L).
    CHECK(none.test.error < 0.3);
    CHECK(priv.test.error < none.test.error + 0.05);
    CHECK(none.history.back().gradientNormSquared < 0.5 * none.history.front().gradientNormSquared);
    // σ = √(4AR/(n²ε)) with A = 1 + ⌈2 ln(1/δ)/ε⌉ (one silo, nmin = n), times C1 = 1.
    const double n = double(data.train.rows());
    const double A = 1 + std::ceil(2 * std::log(1e5) / 1.0);
    CHECK(priv.privacy.sigmaTheta == Approx(std::sqrt(4 * A * 200 / (n * n * 1.0))).epsilon(1e-12));
    CHECK(priv.privacy.epsilonSpent <= 1.0);
    CHECK(priv.privacy.epsilonSpent > 0.5);
}

TEST_CASE("DP-GD on the Adult data set (offline copy)", "[dp-gd][catalog][needs-data]") {
    const std::string directory = test::sharedDatasetPath("adult");
    if (directory.empty()) PFA_SKIP_TEST(test::missingDatasetReason("adult"));
    const DataSplit data = splitAndEncode(findCatalogEntry("adult").load(directory, ""));
    const RunResult result = test::runQuietly(dpGd(1.0, 100, 2.0), data);
    REQUIRE(result.status == RunStatus::Completed);
    CHECK(result.test.error < 0.24);  // the majority class errs on about 0.24
    CHECK(result.privacy.epsilonSpent <= 1.0);
}

}  // namespace core_dp_gd_test
