// isrl-local-sgd: the local steps' noise is calibrated (statistically and in the statement),
// ε is the accountant's for σ_loc = 2C·√(u/(2ρ)), refusals and per-silo metrics.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "core/algorithms/registry.h"
#include "core/privacy/accounting_inputs.h"
#include "core/util/error.h"
#include "silo_test_data.h"

namespace core_isrl_local_sgd_test {

using namespace pfa;

namespace {

TrainConfig localConfig(double epsilon) {
    TrainConfig c;
    c.algorithm = "isrl-local-sgd";
    c.epsilon = epsilon;
    c.seed = 1;
    c.lambda = 0.0;
    return c;
}

double zcdpRho(double epsilon, double delta) {
    const double l = std::log(1.0 / delta);
    return std::pow(std::sqrt(l + epsilon) - std::sqrt(l), 2.0);
}

}  // namespace

TEST_CASE("isrl-local-sgd: K noisy local steps leave variance K·σ_loc²/M on the server's average",
          "[isrl-local-sgd][noise]") {
    const int silos = 4, rows = 50, features = 20;
    const DataSplit data = test::zeroFeatureSilos(silos, rows, features);
    const double delta = 1.0 / ((silos * rows) * (silos * rows)), k = 10;
    const double sigmaLoc = 2.0 * std::sqrt(1.0 / (2.0 * zcdpRho(1.0, delta)));  // u = 1, C = 1
    double sumSquares = 0, count = 0;
    for (int seed = 1; seed <= 100; ++seed) {
        TrainConfig c = localConfig(1.0);
        c.seed = static_cast<std::uint64_t>(seed);
        c.extra["rounds"] = "1";
        c.extra["local-batch"] = "10";
        c.extra["step-size"] = "1";
        c.extra["reported-iterate"] = "last";
        const RunResult r = test::runQuietly(c, data);
        REQUIRE(r.status == RunStatus::Completed);
        CHECK(r.privacy.sigmaTheta == Approx(sigmaLoc).epsilon(1e-12));
        for (Eigen::Index j = 0; j < features; ++j) {
            sumSquares += r.theta(0, j) * r.theta(0, j);
            count += 1;
        }
    }
    const double variance = k * sigmaLoc * sigmaLoc / silos;
    const double statistic = sumSquares / variance;  // ~ χ²_2000
    CHECK(statistic > test::chiSquareQuantile(count, -5.0));
    CHECK(statistic < test::chiSquareQuantile(count, 5.0));
}

TEST_CASE("isrl-local-sgd: ε is the accountant's for σ_loc, at most the target",
          "[isrl-local-sgd][accounting]") {
    const DataSplit data = test::syntheticSilos(3000, 12);
    const long nMin = data.train.silos->minRowsPerUnit();
    for (const double epsilon : {0.5, 4.0}) {
        INFO("ε = " << epsilon);
        const RunResult r = test::runQuietly(localConfig(epsilon), data);
        REQUIRE(r.status == RunStatus::Completed);
        const privacy::PrivacyReport& p = r.privacy;
        const long k = std::stol(r.config.extra.at("local-batch"));
        const long u = (35 + nMin / k - 1) / (nMin / k);
        CHECK(p.accounting.releases() == u);
        const double rho = zcdpRho(epsilon, p.delta);
        CHECK(p.accounting.noiseMultiplier == Approx(std::sqrt(u / (2.0 * rho))).epsilon(1e-12));
        CHECK(p.sigmaTheta == Approx(2.0 * std::sqrt(u / (2.0 * rho))).epsilon(1e-12));
        const double rhoRun =
            u / (2.0 * p.accounting.noiseMultiplier * p.accounting.noiseMultiplier);
        CHECK(p.epsilonSpent ==
              Approx(test::gaussianEpsilonOnStandardGrid(rhoRun, p.delta)).epsilon(1e-12));
        CHECK(privacy::certifiedEpsilon(p.accounting).epsilon == p.epsilonSpent);
        CHECK(p.epsilonSpent <= epsilon);
        CHECK(p.trustModel.find("no one") == 0);
        CHECK(r.units.size() == 12);
    }
}

TEST_CASE(
    "isrl-local-sgd: non-private runs learn and are reproducible, and data without silos is "
    "refused",
    "[isrl-local-sgd][sanity]") {
    const DataSplit data = test::syntheticSilos(1200, 6);
    const RunResult a = test::runQuietly(localConfig(INFINITY), data),
                    b = test::runQuietly(localConfig(INFINITY), data);
    CHECK(a.theta == b.theta);
    CHECK(a.test.error < 0.3);
    CHECK_THROWS_AS(test::runQuietly(localConfig(1.0), test::syntheticSplit(800)), InputError);
}

}  // namespace core_isrl_local_sgd_test
