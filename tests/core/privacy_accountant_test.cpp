// Rényi-DP accountant: reference vectors R1–R5, O1–O2 and the property tests of
// privacy-accounting spec §10, plus argument checking.

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <thread>
#include <vector>

#include "core/privacy/accounting_inputs.h"
#include "core/privacy/order_grid.h"
#include "core/privacy/rdp_accountant.h"
#include "core/privacy/rdp_mechanisms.h"
#include "core/privacy/run_accountant.h"
#include "core/util/error.h"

namespace core_privacy_accountant_test {

using namespace pfa::privacy;
using Catch::Matchers::Contains;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const std::string kEnDash = "\xE2\x80\x93";  // UTF-8, as OrderGrid::describe() writes it

/// |actual − expected| ≤ tol. (Catch's Approx also has a relative epsilon of ~1e-5 by default,
/// which would silently loosen the spec's tolerances; it is switched off here.)
Approx absTol(double expected, double tol) { return Approx(expected).margin(tol).epsilon(0.0); }

/// |actual − expected| ≤ tol·|expected|.
Approx relTol(double expected, double tol) { return Approx(expected).epsilon(tol).margin(0.0); }

OrderGrid integerGrid(int lo, int hi) {
    std::vector<double> orders;
    for (int a = lo; a <= hi; ++a) orders.push_back(a);
    return OrderGrid(orders);
}

/// TF-Privacy tutorial grid of R3.
OrderGrid r3Grid(bool integerOnly) {
    std::vector<double> orders;
    if (!integerOnly) {
        orders = {1.25, 1.5, 1.75, 2, 2.25, 2.5, 3, 3.5, 4, 4.5};
    } else {
        orders = {2, 3, 4};
    }
    for (int a = 5; a <= 63; ++a) orders.push_back(a);
    for (double a : {128.0, 256.0, 512.0}) orders.push_back(a);
    return OrderGrid(orders);
}

RdpCurve sgmRun(const OrderGrid& grid, double q, double z, double steps,
                SeriesSign sign = SeriesSign::Signed) {
    return scaled(sgmCurve(grid, q, z, sign), steps);
}

/// ρ_SGM by direct numerical integration (composite Simpson) of
/// A_α − 1 = ∫ N(x; 0, z²)·[(1 − q + q·e^{(2x−1)/(2z²)})^α − 1] dx: an independent check of the
/// fractional series (spec §2.2 quotes the same cross-check).
double sgmByIntegration(double q, double z, double alpha) {
    const double lo = -40.0 * z;
    const double hi = 40.0 * z + alpha + 10.0;
    const int n = 400000;  // even
    const double h = (hi - lo) / n;
    auto f = [&](double x) {
        const double u = (2.0 * x - 1.0) / (2.0 * z * z);
        const double excess = std::expm1(alpha * std::log1p(q * std::expm1(u)));
        return std::exp(-x * x / (2.0 * z * z)) / (z * std::sqrt(2.0 * std::numbers::pi)) * excess;
    };
    double sum = f(lo) + f(hi);
    for (int i = 1; i < n; ++i) sum += (i % 2 ? 4.0 : 2.0) * f(lo + i * h);
    const double aMinus1 = sum * h / 3.0;
    return std::log1p(aMinus1) / (alpha - 1.0);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Order grids
// ---------------------------------------------------------------------------------------------

TEST_CASE("standard and Opacus order grids", "[privacy]") {
    const OrderGrid g = OrderGrid::standard();
    REQUIRE(g.size() == 156);
    CHECK(g[0] == 1.1);
    CHECK(g[98] == 10.9);
    CHECK(g[99] == 11.0);
    CHECK(g[151] == 63.0);
    CHECK(g[155] == 1024.0);
    for (int k = 11; k <= 109; ++k) CHECK(g[static_cast<std::size_t>(k - 11)] == k / 10.0);
    CHECK(g.describe() == "156 orders 1.1" + kEnDash + "1024");

    const OrderGrid o = OrderGrid::opacus();
    REQUIRE(o.size() == 151);
    CHECK(o[99] == 12.0);
    CHECK(o[150] == 63.0);
    CHECK(o.describe() == "151 orders 1.1" + kEnDash + "63");
    CHECK_FALSE(o == g);
    CHECK(OrderGrid::standard() == g);
}

TEST_CASE("custom grids are sorted, de-duplicated and validated", "[privacy]") {
    const OrderGrid g({8.0, 2.0, 1.5, 8.0});
    REQUIRE(g.size() == 3);
    CHECK(g.orders() == std::vector<double>{1.5, 2.0, 8.0});
    CHECK(g.describe() == "3 orders 1.5" + kEnDash + "8");
    CHECK(OrderGrid({32.0}).describe() == "1 order 32");
    CHECK_THROWS_AS(OrderGrid(std::vector<double>{}), pfa::InputError);
    CHECK_THROWS_WITH(OrderGrid({2.0, 0.75}), Contains("0.75"));
    CHECK_THROWS_WITH(OrderGrid({1.0, 3.0}), Contains("alpha = 1 "));
}

// ---------------------------------------------------------------------------------------------
// Reference vectors (spec §10)
// ---------------------------------------------------------------------------------------------

TEST_CASE("R1: Opacus SGM, q = 0.04, z = 1.5, T = 2250", "[privacy]") {
    const OrderGrid grid = OrderGrid::opacus();
    const EpsilonResult r = epsilonFromRdp(grid, sgmRun(grid, 0.04, 1.5, 2250), 1e-5);
    CHECK(r.epsilon == absTol(7.32911117143, 1e-8));
    CHECK(r.order == 3.9);
    CHECK_FALSE(r.orderAtGridEdge);

    // The unsigned series (dp_accounting) is looser: 7.32933 as quoted (5 decimals).
    const EpsilonResult u =
        epsilonFromRdp(grid, sgmRun(grid, 0.04, 1.5, 2250, SeriesSign::Unsigned), 1e-5);
    CHECK(u.epsilon == absTol(7.32933, 5e-6));
}

TEST_CASE("R2: composition of two SGMs on orders 2..32", "[privacy]") {
    const OrderGrid grid = integerGrid(2, 32);
    RdpCurve curve = sgmRun(grid, 1e-5, 1.0, 10);
    accumulate(curve, sgmRun(grid, 1e-4, 3.0, 4));
    const EpsilonResult r = epsilonFromRdp(grid, curve, 1e-5);
    CHECK(r.epsilon == absTol(0.336344063, 1e-8));
    CHECK(r.order == 23.0);
}

TEST_CASE("R3: TF-Privacy MNIST tutorial, q = 0.0025, z = 1.3, T = 6000", "[privacy]") {
    const long steps = static_cast<long>(std::ceil(15.0 * 60000.0 / 150.0));
    REQUIRE(steps == 6000);
    for (bool integerOnly : {false, true}) {
        const OrderGrid grid = r3Grid(integerOnly);
        const EpsilonResult r =
            epsilonFromRdp(grid, sgmRun(grid, 150.0 / 60000.0, 1.3, steps), 1e-5);
        CHECK(r.epsilon == absTol(0.7242234026110, 1e-9));
        CHECK(r.order == 19.0);
    }
}

TEST_CASE("R4: conversion of a constant curve", "[privacy]") {
    const OrderGrid grid = integerGrid(2, 32);
    const EpsilonResult r = epsilonFromRdp(grid, RdpCurve(grid.size(), 1.1), 1e-5);
    CHECK(r.epsilon == absTol(1.327838061755, 1e-9));
    CHECK(r.order == 32.0);
    CHECK(r.orderAtGridEdge);  // largest order: "widen the grid"
}

TEST_CASE("R5: Opacus get_noise_multiplier, q = 0.04, eps = 8", "[privacy]") {
    const OrderGrid grid = OrderGrid::opacus();
    const MultiplierSolution a = solveSgmMultiplier(grid, 0.04, 2250, 8.0, 1e-5);
    CHECK(a.noiseMultiplier == 1.416015625);
    CHECK(a.epsilon <= 8.0);
    const MultiplierSolution b = solveSgmMultiplier(grid, 0.04, 2000, 8.0, 1e-5);
    CHECK(b.noiseMultiplier == 1.356201171875);
    CHECK(b.epsilon <= 8.0);
}

TEST_CASE("O1: DP-FERMI Example E (n = 10000, m = 100, T = 3000)", "[privacy]") {
    const OrderGrid grid = OrderGrid::standard();
    const double q = 100.0 / 10000.0;
    const double steps = 3000;
    const double delta = 1e-5;

    SECTION("(a) all_features conservative") {
        const double perStreamZ = 7.43384437770;  // σ = 0.0743384437770 on the mean, m = 100
        const double zEff = jointNoiseMultiplier({{1.0, perStreamZ}, {1.0, perStreamZ}});
        CHECK(zEff == relTol(5.25652176976, 1e-10));

        const EpsilonResult addRemove =
            epsilonFromRdp(grid, scaled(sgmCurve(grid, q, 5.25652176976), steps), delta);
        CHECK(addRemove.epsilon == relTol(0.399089562729, 1e-8));
        CHECK(addRemove.order == 38.0);

        const EpsilonResult replace =
            epsilonFromRdp(grid, scaled(replaceCurve(grid, q, 5.25652176976), steps), delta);
        CHECK(replace.epsilon == relTol(0.845764687567, 1e-8));
        CHECK(replace.order == 20.0);
    }
    SECTION("(b) inverse at target 1, add/remove") {
        const MultiplierSolution s = solveSgmMultiplier(grid, q, 3000, 1.0, delta);
        CHECK(s.noiseMultiplier == relTol(2.36328125, 1e-8));
        CHECK(s.epsilon == relTol(0.99778916, 1e-8));
        CHECK(std::sqrt(2.0) * s.noiseMultiplier / 100.0 == relTol(0.0334218439545, 1e-8));
    }
    SECTION("(c) sensitive_only conservative, linear bound") {
        const EpsilonResult r =
            epsilonFromRdp(grid, scaled(linearCurve(grid, q, 2.62826088488), steps), delta);
        CHECK(r.epsilon == relTol(12.6661199966, 1e-8));
        CHECK(r.order == 2.7);
    }
}

TEST_CASE("O2: PF-LD-style ledger", "[privacy]") {
    const OrderGrid grid = OrderGrid::standard();
    const double delta = 1e-5;

    CHECK(rdpSubsampledGaussian(0.01, 1.1, 8.2) == relTol(6.0210565801e-4, 1e-8));
    CHECK(rdpSubsampledGaussian(0.01, 1.1, 8.2, SeriesSign::Unsigned) ==
          relTol(6.0210569e-4, 1e-8));

    RdpCurve curve = sgmRun(grid, 0.01, 1.1, 2000);
    CHECK(epsilonFromRdp(grid, curve, delta).epsilon == relTol(2.380934758714, 1e-8));

    const RdpCurve dual = scaled(gaussianCurve(grid, 100.0), 20);
    accumulate(curve, dual);
    const EpsilonResult withDual = epsilonFromRdp(grid, curve, delta);
    CHECK(withDual.epsilon == relTol(2.389134758714, 1e-8));
    CHECK(withDual.order == 8.2);

    RdpCurve unsignedCurve = sgmRun(grid, 0.01, 1.1, 2000, SeriesSign::Unsigned);
    accumulate(unsignedCurve, dual);
    CHECK(epsilonFromRdp(grid, unsignedCurve, delta).epsilon == relTol(2.3891348225, 1e-8));

    RdpCurve withLaplace = curve;
    accumulate(withLaplace, laplaceCurve(grid, 0.05));
    CHECK(epsilonFromRdp(grid, withLaplace, delta).epsilon == relTol(2.398982698037, 1e-8));

    // Basic composition of the Laplace release instead of its curve, through the ledger.
    PrivacyLedger ledger(grid);
    ledger.addRun(curve, withDual.epsilon + 0.05, 0.05, delta);
    const EpsilonResult total = ledger.total(delta);
    CHECK(total.epsilon == relTol(2.439134758714, 1e-8));
    CHECK(total.order == 8.2);
    CHECK(ledger.naiveSum() == relTol(2.439134758714, 1e-8));
    CHECK(ledger.naiveDeltaSum() == delta);
    CHECK(ledger.runCount() == 1);
}

// ---------------------------------------------------------------------------------------------
// Mechanisms: special cases and numerics
// ---------------------------------------------------------------------------------------------

TEST_CASE("log-space helpers", "[privacy]") {
    CHECK(logAdd(-kInf, -kInf) == -kInf);
    CHECK(logAdd(-kInf, 1.5) == 1.5);
    CHECK(logAdd(std::log(2.0), std::log(3.0)) == relTol(std::log(5.0), 1e-15));
    CHECK(logAdd(1000.0, 1000.0) == relTol(1000.0 + std::log(2.0), 1e-15));
    CHECK(logSub(std::log(5.0), std::log(3.0)) == relTol(std::log(2.0), 1e-14));
    CHECK(logSub(2.0, -kInf) == 2.0);
    CHECK(logSub(2.0, 2.0) == -kInf);
    CHECK(std::isnan(logSub(1.0, 2.0)));
    // Near-cancellation keeps full relative accuracy: ln(e^{1e-10} − 1) ≈ ln(1e-10).
    CHECK(logSub(1e-10, 0.0) == relTol(std::log(1e-10) + 0.5e-10, 1e-12));

    CHECK(lnErfc(0.0) == 0.0);
    CHECK(lnErfc(-40.0) == relTol(std::log(2.0), 1e-15));
    CHECK(lnErfc(3.0) == relTol(std::log(std::erfc(3.0)), 1e-15));
    // The asymptotic branch joins the direct one smoothly at x = 25.
    CHECK(lnErfc(25.0) == relTol(std::log(std::erfc(25.0)), 1e-12));
    CHECK(std::isfinite(lnErfc(40.0)));
    CHECK(lnErfc(40.0) < lnErfc(30.0));
}

TEST_CASE("special cases of the per-release curves", "[privacy]") {
    CHECK(rdpSubsampledGaussian(0.0, 1.0, 2.5) == 0.0);
    CHECK(rdpSubsampledGaussian(0.0, 0.0, 2.5) == 0.0);
    CHECK(rdpSubsampledGaussian(0.1, 0.0, 2.5) == kInf);
    CHECK(rdpSubsampledGaussian(0.1, 1.0, kInf) == kInf);
    CHECK(rdpSubsampledGaussian(0.1, kInf, 3.0) == 0.0);
    CHECK(rdpGaussian(0.0, 2.0) == kInf);
    CHECK(rdpGaussian(2.0, 3.0) == 3.0 / 8.0);

    CHECK(rdpReplaceGroupOfTwo(0.0, 1.0, 2.0) == 0.0);
    CHECK(rdpReplaceGroupOfTwo(0.1, 0.0, 2.0) == kInf);
    // q = 1: the unsampled replace-one Gaussian with sensitivity 2C.
    CHECK(rdpReplaceGroupOfTwo(1.0, 2.0, 3.0) == 2.0 * 3.0 / 4.0);
    // Group-of-two is evaluated at 2α and 2α − 1, off the grid.
    const double a = 1.1;
    CHECK(rdpReplaceGroupOfTwo(0.01, 1.1, a) ==
          relTol((2 * a - 1) / (2 * a - 2) * rdpSubsampledGaussian(0.01, 1.1, 2 * a) +
                     rdpSubsampledGaussian(0.01, 1.1, 2 * a - 1),
                 1e-15));

    CHECK(rdpLinearAmplification(0.0, 1.0, 2.0) == 0.0);
    CHECK(rdpLinearAmplification(0.5, 0.0, 2.0) == kInf);
    CHECK(rdpLinearAmplification(1.0, 1.5, 4.5) == relTol(4.5 / (2 * 1.5 * 1.5), 1e-14));
    // Both branches of the overflow-safe evaluation (x ≤ 30 and x > 30) agree with the formula.
    for (double alpha : {3.0, 20.0}) {
        const double x = alpha * (alpha - 1) / 2.0;
        const double direct = std::log(1 - 0.01 + 0.01 * std::exp(x)) / (alpha - 1);
        CHECK(rdpLinearAmplification(0.01, 1.0, alpha) == relTol(direct, 1e-13));
    }
    // Far beyond exp's range.
    CHECK(rdpLinearAmplification(0.01, 0.01, 1000.0) ==
          relTol((1000.0 * 999.0 / 2e-4 + std::log(0.01)) / 999.0, 1e-14));

    CHECK(rdpLaplace(0.0, 3.0) == 0.0);
    // Closed form of "Rényi Differential Privacy" (2017), Laplace with b = 1/ε₀.
    for (double alpha : {1.1, 2.0, 7.5, 64.0}) {
        const double e = 0.5;
        const double ref = std::log(alpha / (2 * alpha - 1) * std::exp((alpha - 1) * e) +
                                    (alpha - 1) / (2 * alpha - 1) * std::exp(-alpha * e)) /
                           (alpha - 1);
        CHECK(rdpLaplace(e, alpha) == relTol(ref, 1e-12));
        CHECK(rdpLaplace(e, alpha) <= e);
    }
}

TEST_CASE("fractional series matches direct integration of the mixture", "[privacy]") {
    struct Case {
        double q, z, alpha;
    };
    // The series stops once terms fall below e^-30 ≈ 1e-13, so ln A_α is only that accurate in
    // absolute terms: a margin of 1e-12/(α − 1) on ρ, which matters for tiny ρ near α = 1.
    for (const Case& c :
         {Case{0.01, 1.1, 8.2}, Case{0.01, 1.1, 1.5}, Case{0.1, 2.0, 3.3}, Case{0.04, 1.5, 3.9},
          Case{0.3, 4.0, 10.5}, Case{0.01, 1.1, 1.1}, Case{0.001, 1.0, 1.1}}) {
        INFO("q = " << c.q << ", z = " << c.z << ", alpha = " << c.alpha);
        CHECK(rdpSubsampledGaussian(c.q, c.z, c.alpha) ==
              relTol(sgmByIntegration(c.q, c.z, c.alpha), 1e-9).margin(1e-12 / (c.alpha - 1)));
    }
    // The spec's own cross-check point: 5e-12 relative.
    CHECK(rdpSubsampledGaussian(0.01, 1.1, 8.2) == relTol(sgmByIntegration(0.01, 1.1, 8.2), 5e-11));
    // Integer orders: the binomial sum agrees with the integral too.
    CHECK(rdpSubsampledGaussian(0.01, 1.1, 8.0) == relTol(sgmByIntegration(0.01, 1.1, 8.0), 1e-9));
}

TEST_CASE("signed and unsigned series as quoted in spec 2.2", "[privacy]") {
    // q = 0.5, z = 50, α = 1.1: 0.237 (unsigned) vs 5.5e-5 (signed).
    CHECK(rdpSubsampledGaussian(0.5, 50.0, 1.1, SeriesSign::Unsigned) == absTol(0.237, 5e-4));
    CHECK(rdpSubsampledGaussian(0.5, 50.0, 1.1) == absTol(5.5e-5, 5e-7));
    // Integer orders are identical in both variants.
    for (double alpha : {2.0, 5.0, 63.0}) {
        CHECK(rdpSubsampledGaussian(0.2, 0.9, alpha) ==
              rdpSubsampledGaussian(0.2, 0.9, alpha, SeriesSign::Unsigned));
    }
}

TEST_CASE("the signed series never needs its unsigned fallback on a scan", "[privacy]") {
    const OrderGrid grid = OrderGrid::standard();
    const std::uint64_t before = signedSeriesFallbackCount();
    for (double q : {1e-4, 1e-3, 0.01, 0.05, 0.1, 0.3, 0.5, 0.7, 0.9}) {
        for (double z : {0.3, 0.6, 1.0, 1.5, 3.0, 10.0, 100.0}) {
            for (double rho : sgmCurve(grid, q, z)) CHECK(std::isfinite(rho));
        }
    }
    CHECK(signedSeriesFallbackCount() == before);
}

// ---------------------------------------------------------------------------------------------
// Property tests (spec §10)
// ---------------------------------------------------------------------------------------------

TEST_CASE("rho_SGM is increasing in q", "[privacy]") {
    const std::vector<double> qs = {1e-4, 1e-3, 0.01, 0.05, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 1.0};
    for (double z : {0.7, 1.1, 3.0}) {
        for (double alpha : {1.1, 1.5, 2.0, 3.7, 8.0, 10.9, 32.0}) {
            double previous = 0.0;
            for (double q : qs) {
                INFO("z = " << z << ", alpha = " << alpha << ", q = " << q);
                const double rho = rdpSubsampledGaussian(q, z, alpha);
                CHECK(rho > previous);
                previous = rho;
            }
        }
    }
}

TEST_CASE("rho_SGM is increasing in alpha and decreasing in z", "[privacy]") {
    const OrderGrid grid = OrderGrid::standard();
    const std::vector<double> zs = {0.5, 0.8, 1.1, 2.0, 5.0, 20.0};
    for (double q : {1e-3, 0.01, 0.1, 0.5}) {
        std::vector<RdpCurve> curves;
        for (double z : zs) curves.push_back(sgmCurve(grid, q, z));
        for (std::size_t iz = 0; iz < zs.size(); ++iz) {
            for (std::size_t k = 0; k + 1 < grid.size(); ++k) {
                INFO("q = " << q << ", z = " << zs[iz] << ", alpha = " << grid[k]);
                CHECK(curves[iz][k + 1] >= curves[iz][k]);
                if (iz + 1 < zs.size()) CHECK(curves[iz + 1][k] < curves[iz][k]);
            }
        }
    }
}

TEST_CASE("q = 1 equals the unsampled Gaussian", "[privacy]") {
    for (double z : {0.5, 1.0, 3.3}) {
        for (double alpha : {1.1, 2.0, 4.75, 63.0, 1024.0}) {
            CHECK(rdpSubsampledGaussian(1.0, z, alpha) == alpha / (2 * z * z));
            CHECK(rdpGaussian(z, alpha) == alpha / (2 * z * z));
            // And the series approach it continuously.
            CHECK(rdpSubsampledGaussian(1.0 - 1e-9, z, std::min(alpha, 10.9)) ==
                  relTol(std::min(alpha, 10.9) / (2 * z * z), 1e-6));
        }
    }
}

TEST_CASE("signed series <= unsigned series", "[privacy]") {
    const OrderGrid grid = OrderGrid::standard();
    for (double q : {1e-3, 0.04, 0.3, 0.5, 0.8}) {
        for (double z : {0.6, 1.5, 10.0}) {
            const RdpCurve s = sgmCurve(grid, q, z);
            const RdpCurve u = sgmCurve(grid, q, z, SeriesSign::Unsigned);
            for (std::size_t k = 0; k < grid.size(); ++k) {
                INFO("q = " << q << ", z = " << z << ", alpha = " << grid[k]);
                CHECK(s[k] <= u[k]);
            }
        }
    }
}

TEST_CASE("replace and linear bounds against SGM and the Gaussian", "[privacy]") {
    const OrderGrid grid = OrderGrid::standard();
    for (double q : {1e-3, 0.01, 0.1, 0.5, 1.0}) {
        for (double z : {0.8, 1.5, 5.0}) {
            const RdpCurve sgm = sgmCurve(grid, q, z);
            const RdpCurve rep = replaceCurve(grid, q, z);
            const RdpCurve lin = linearCurve(grid, q, z);
            for (std::size_t k = 0; k < grid.size(); ++k) {
                INFO("q = " << q << ", z = " << z << ", alpha = " << grid[k]);
                CHECK(rep[k] >= sgm[k]);
                CHECK(lin[k] <= grid[k] / (2 * z * z) * (1 + 1e-15));
            }
        }
    }
}

TEST_CASE("epsilon(z) is decreasing and the inverse never overshoots", "[privacy]") {
    const OrderGrid grid = OrderGrid::standard();
    double previous = kInf;
    for (double z : {0.5, 0.7, 1.0, 1.5, 2.0, 4.0, 8.0}) {
        const double eps = epsilonFromRdp(grid, sgmRun(grid, 0.01, z, 1000), 1e-5).epsilon;
        CHECK(eps < previous);
        previous = eps;
    }

    struct Case {
        double q;
        long steps;
        double target, delta;
        Adjacency adjacency;
    };
    for (const Case& c : {Case{0.01, 1000, 1.0, 1e-5, Adjacency::AddRemove},
                          Case{0.04, 2250, 8.0, 1e-5, Adjacency::AddRemove},
                          Case{0.03, 6600, 0.95, 1e-9, Adjacency::AddRemove},
                          Case{0.001, 50000, 0.1, 1e-6, Adjacency::AddRemove},
                          Case{0.01, 3000, 1.0, 1e-5, Adjacency::Replace},
                          Case{1.0, 20, 2.0, 1e-5, Adjacency::AddRemove}}) {
        INFO("q = " << c.q << ", T = " << c.steps << ", target = " << c.target);
        const MultiplierSolution s =
            solveSgmMultiplier(grid, c.q, c.steps, c.target, c.delta, c.adjacency);
        CHECK(s.epsilon <= c.target);
        CHECK(s.epsilon >= c.target - std::min(0.01, 0.01 * c.target));
        const RdpCurve step =
            subsampledGaussianStepCurve(grid, c.q, s.noiseMultiplier, c.adjacency);
        const double recomputed =
            epsilonFromRdp(grid, scaled(step, static_cast<double>(c.steps)), c.delta).epsilon;
        CHECK(recomputed == s.epsilon);
        CHECK(recomputed <= c.target);
    }
}

TEST_CASE("generic solver with a user-supplied curve and tolerance", "[privacy]") {
    const OrderGrid grid = OrderGrid::standard();
    // Full-batch Gaussian, 100 releases; a tight tolerance.
    auto curveFn = [&](double z) { return scaled(gaussianCurve(grid, z), 100); };
    const MultiplierSolution s = solveNoiseMultiplier(curveFn, grid, 3.0, 1e-6, 1e-6);
    CHECK(s.epsilon <= 3.0);
    CHECK(s.epsilon >= 3.0 - 1e-6);
}

TEST_CASE("joint release of one block equals the plain curve (spec 2.3)", "[privacy]") {
    const OrderGrid grid = OrderGrid::standard();
    CHECK(jointNoiseMultiplier({{2.0, 3.0}}) == 1.5);
    CHECK(sgmCurve(grid, 0.02, jointNoiseMultiplier({{2.0, 3.0}})) == sgmCurve(grid, 0.02, 1.5));
    CHECK(jointNoiseMultiplier({}) == kInf);
    CHECK(jointNoiseMultiplier({{0.0, 0.0}, {1.0, 2.0}}) == 2.0);
    CHECK(jointNoiseMultiplier({{1.0, 0.0}}) == 0.0);
    CHECK(jointNoiseMultiplier({{3.0, 4.0}, {4.0, 4.0}}) == relTol(4.0 / 5.0, 1e-15));
}

TEST_CASE("ledger of two identical runs equals one run with 2T steps", "[privacy]") {
    const OrderGrid grid = OrderGrid::standard();
    const RdpCurve step = sgmCurve(grid, 0.01, 1.1);
    const RdpCurve run = scaled(step, 1500);
    const double runEps = epsilonFromRdp(grid, run, 1e-5).epsilon;

    PrivacyLedger ledger(grid);
    ledger.addRun(run, runEps, 0.0, 1e-5);
    ledger.addRun(run, runEps, 0.0, 1e-5);
    const EpsilonResult twice = ledger.total(1e-5);
    const EpsilonResult once = epsilonFromRdp(grid, scaled(step, 3000), 1e-5);
    CHECK(twice.epsilon == once.epsilon);
    CHECK(twice.order == once.order);
    CHECK(ledger.naiveSum() == 2 * runEps);
    CHECK(ledger.naiveDeltaSum() == 2e-5);
    CHECK(ledger.runCount() == 2);
    CHECK(twice.epsilon < ledger.naiveSum());

    PrivacyLedger empty(grid);
    CHECK(empty.total(1e-5).epsilon == 0.0);
    CHECK_THROWS_AS(empty.addRun(RdpCurve(3, 0.0), 1.0), std::invalid_argument);
    CHECK_THROWS_WITH(empty.addRun(run, -0.5), Contains("-0.5"));
}

// ---------------------------------------------------------------------------------------------
// Conversion rules (spec §4.1)
// ---------------------------------------------------------------------------------------------

TEST_CASE("conversion edge rules", "[privacy]") {
    const OrderGrid grid({1.005, 1.5, 2.0, 4.0});

    // δ = 0: +∞ unless the whole curve is 0.
    CHECK(epsilonFromRdp(grid, RdpCurve(4, 0.0), 0.0).epsilon == 0.0);
    const EpsilonResult pureless = epsilonFromRdp(grid, {0.0, 0.0, 1e-9, 0.0}, 0.0);
    CHECK(pureless.epsilon == kInf);
    CHECK(std::isnan(pureless.order));

    // No finite order → +∞.
    CHECK(epsilonFromRdp(grid, RdpCurve(4, kInf), 1e-5).epsilon == kInf);

    // δ² + expm1(−ρ) > 0 for some order → ε = 0.
    const EpsilonResult tiny = epsilonFromRdp(grid, {5.0, 5.0, 1e-12, 5.0}, 1e-5);
    CHECK(tiny.epsilon == 0.0);
    CHECK(tiny.order == 2.0);
    CHECK_FALSE(tiny.orderAtGridEdge);

    // Orders ≤ 1.01 do not take part; a finite order elsewhere is used.
    const EpsilonResult skip = epsilonFromRdp(grid, {0.001, kInf, 0.5, kInf}, 1e-5);
    const double expected = 0.5 + std::log1p(-0.5) - (std::log(1e-5) + std::log(2.0));
    CHECK(skip.epsilon == relTol(expected, 1e-15));
    CHECK(skip.order == 2.0);
    CHECK_FALSE(skip.orderAtGridEdge);

    // Optimum at the smallest order → edge flag.
    const OrderGrid g2({2.0, 3.0, 4.0});
    const EpsilonResult low = epsilonFromRdp(g2, {0.1, 50.0, 100.0}, 1e-5);
    CHECK(low.order == 2.0);
    CHECK(low.orderAtGridEdge);
}

// ---------------------------------------------------------------------------------------------
// Cache
// ---------------------------------------------------------------------------------------------

TEST_CASE("cached step curves equal the direct curves, also across threads", "[privacy]") {
    const OrderGrid grid = OrderGrid::standard();
    const RdpCurve sgm = sgmCurve(grid, 0.02, 0.9);
    const RdpCurve rep = replaceCurve(grid, 0.02, 0.9);
    CHECK(subsampledGaussianStepCurve(grid, 0.02, 0.9, Adjacency::AddRemove) == sgm);
    CHECK(subsampledGaussianStepCurve(grid, 0.02, 0.9, Adjacency::Replace) == rep);
    CHECK(subsampledGaussianStepCurve(grid, 0.02, 0.9, Adjacency::AddRemove) == sgm);
    // Same (q, z) on another grid must not hit the entry of the first grid.
    const OrderGrid other = integerGrid(2, 8);
    CHECK(subsampledGaussianStepCurve(other, 0.02, 0.9, Adjacency::AddRemove) ==
          sgmCurve(other, 0.02, 0.9));

    std::vector<int> mismatches(4, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 20; ++i) {
                const double z = 0.9 + 0.1 * (i % 5);
                const Adjacency adj = (i + t) % 2 ? Adjacency::Replace : Adjacency::AddRemove;
                const RdpCurve expected = adj == Adjacency::Replace ? replaceCurve(grid, 0.02, z)
                                                                    : sgmCurve(grid, 0.02, z);
                if (subsampledGaussianStepCurve(grid, 0.02, z, adj) != expected) ++mismatches[t];
            }
        });
    }
    for (std::thread& th : threads) th.join();
    CHECK(mismatches == std::vector<int>(4, 0));
}

// ---------------------------------------------------------------------------------------------
// Invalid arguments: pfa::InputError naming the value
// ---------------------------------------------------------------------------------------------

TEST_CASE("invalid arguments are rejected with the value in the message", "[privacy]") {
    const OrderGrid grid = OrderGrid::standard();
    const RdpCurve zero(grid.size(), 0.0);
    const double nan = std::numeric_limits<double>::quiet_NaN();

    CHECK_THROWS_AS(rdpSubsampledGaussian(1.25, 1.0, 2.0), pfa::InputError);
    CHECK_THROWS_WITH(rdpSubsampledGaussian(1.25, 1.0, 2.0), Contains("q = 1.25"));
    CHECK_THROWS_WITH(rdpSubsampledGaussian(-0.5, 1.0, 2.0), Contains("q = -0.5"));
    CHECK_THROWS_WITH(rdpSubsampledGaussian(nan, 1.0, 2.0), Contains("nan"));
    CHECK_THROWS_WITH(rdpSubsampledGaussian(0.1, -0.75, 2.0), Contains("z = -0.75"));
    CHECK_THROWS_WITH(rdpSubsampledGaussian(0.1, 1.0, 0.5), Contains("alpha = 0.5"));
    CHECK_THROWS_WITH(rdpSubsampledGaussian(0.1, 1.0, 1.0), Contains("alpha = 1 "));
    CHECK_THROWS_WITH(rdpGaussian(-2.0, 3.0), Contains("z = -2"));
    CHECK_THROWS_WITH(rdpReplaceGroupOfTwo(1.5, 1.0, 2.0), Contains("q = 1.5"));
    CHECK_THROWS_WITH(rdpLinearAmplification(0.1, -3.0, 2.0), Contains("z = -3"));
    CHECK_THROWS_WITH(rdpLaplace(-0.25, 2.0), Contains("-0.25"));
    CHECK_THROWS_WITH(sgmCurve(grid, 2.5, 1.0), Contains("q = 2.5"));
    CHECK_THROWS_WITH(linearCurve(grid, 0.1, -1.5), Contains("z = -1.5"));
    CHECK_THROWS_WITH(scaled(zero, -4.0), Contains("-4"));
    CHECK_THROWS_WITH(subsampledGaussianStepCurve(grid, 3.5, 1.0, Adjacency::Replace),
                      Contains("q = 3.5"));

    CHECK_THROWS_AS(epsilonFromRdp(grid, zero, 1.5), pfa::InputError);
    CHECK_THROWS_WITH(epsilonFromRdp(grid, zero, 1.5), Contains("delta = 1.5"));
    CHECK_THROWS_WITH(epsilonFromRdp(grid, zero, -0.25), Contains("delta = -0.25"));
    CHECK_THROWS_AS(epsilonFromRdp(grid, RdpCurve(3, 0.0), 1e-5), std::invalid_argument);

    CHECK_THROWS_WITH(solveSgmMultiplier(grid, 0.01, 1000, kInf, 1e-5),
                      Contains("target epsilon = inf"));
    CHECK_THROWS_WITH(solveSgmMultiplier(grid, 0.01, 1000, nan, 1e-5),
                      Contains("target epsilon = nan"));
    CHECK_THROWS_WITH(solveSgmMultiplier(grid, 0.01, 1000, -2.0, 1e-5),
                      Contains("target epsilon = -2"));
    CHECK_THROWS_WITH(solveSgmMultiplier(grid, 0.01, 1000, 1.0, 0.0), Contains("delta = 0 "));
    CHECK_THROWS_WITH(solveSgmMultiplier(grid, 0.01, 1000, 1.0, 1.0), Contains("delta = 1 "));
    CHECK_THROWS_WITH(solveSgmMultiplier(grid, 1.75, 1000, 1.0, 1e-5), Contains("q = 1.75"));
    CHECK_THROWS_WITH(solveSgmMultiplier(grid, 0.01, 0, 1.0, 1e-5), Contains("T = 0"));

    // An unreachable budget: z would have to exceed 1e6.
    CHECK_THROWS_AS(solveSgmMultiplier(grid, 1.0, 1000000000000L, 0.5, 1e-5), pfa::InputError);
    CHECK_THROWS_WITH(solveSgmMultiplier(grid, 1.0, 1000000000000L, 0.5, 1e-5),
                      Contains("privacy budget too small for this many steps") &&
                          Contains("target epsilon = 0.5") && Contains("delta = 1e-05"));
}

TEST_CASE("zCDP ρ of a target (ε, δ) inverts ε = ρ + 2√(ρ ln(1/δ))", "[privacy][zcdp]") {
    CHECK(zcdpRho(0.5, 1e-5) == Approx(0.0053139).epsilon(1e-4));  // other-algorithms §1.1
    for (double epsilon : {0.05, 0.5, 1.0, 8.0, 100.0}) {
        for (double delta : {1e-9, 1e-5, 1e-3}) {
            const double rho = zcdpRho(epsilon, delta);
            CHECK(rho + 2.0 * std::sqrt(rho * std::log(1.0 / delta)) ==
                  Approx(epsilon).epsilon(1e-12));
        }
    }
}

TEST_CASE("A run accountant's reused answers equal a fresh accountant's", "[privacy]") {
    // A release every 10 steps plus interim releases in between: steps 5 and 6 share the
    // release count (1) but not the interim count (4, 5), so an answer reused by the release
    // count alone would repeat step 5's ε at step 6.
    AccountingInputs in;
    in.kind = ReleaseKind::PoissonSubsampled;
    in.samplingRate = 0.02;
    in.noiseMultiplier = 1.1;
    in.stepsPerRelease = 10;
    in.interimNoiseMultiplier = 3.0;
    in.delta = 1e-5;
    in.pureReleases.push_back({"shares", "Laplace", 0.05});
    const RunAccountant asked(in);
    const std::vector<long> order = {5, 6, 6, 10, 11, 3, 11, 40, 5, 0, 40, 39};
    for (const long steps : order) {
        const RunAccountant fresh(in);
        const EpsilonResult again = asked.after(steps), direct = fresh.after(steps);
        INFO("steps " << steps);
        CHECK(again.epsilon == direct.epsilon);
        CHECK(
            (again.order == direct.order || (std::isnan(again.order) && std::isnan(direct.order))));
        CHECK(again.orderAtGridEdge == direct.orderAtGridEdge);
    }
    CHECK(asked.after(6).epsilon > asked.after(5).epsilon);
    // A copy answers from the same inputs.
    const RunAccountant copy = asked;
    CHECK(copy.after(11).epsilon == RunAccountant(in).after(11).epsilon);

    // With scheduled releases (counted per step, not by the two counts) nothing is reused.
    in.interimNoiseMultiplier = 0.0;
    in.gaussianReleases.push_back({"dual step", 5.0, 3, "C_d"});
    const RunAccountant scheduled(in);
    for (const long steps : {10L, 12L, 10L, 9L}) {
        INFO("scheduled, steps " << steps);
        CHECK(scheduled.after(steps).epsilon == RunAccountant(in).after(steps).epsilon);
    }
    CHECK(scheduled.after(12).epsilon > scheduled.after(11).epsilon);  // a release at step 12
}

TEST_CASE("A solved noise multiplier is the solver's for its own inputs, solved or kept",
          "[privacy]") {
    AccountingInputs shape;
    shape.kind = ReleaseKind::PoissonSubsampled;
    shape.samplingRate = 0.01;
    shape.steps = 2000;
    shape.delta = 1e-5;
    const OrderGrid grid = OrderGrid::standard();
    auto direct = [&](const AccountingInputs& s, double target) {
        return solveSgmMultiplier(grid, s.samplingRate, s.steps, target, s.delta,
                                  Adjacency::AddRemove)
            .noiseMultiplier;
    };
    const double z = solveNoiseMultiplierFor(shape, 1.0, 1.0);
    CHECK(z == direct(shape, 1.0));
    CHECK(solveNoiseMultiplierFor(shape, 1.0, 1.0) == z);  // asked again

    // Each input the answer depends on gives its own answer, not the one kept for the first.
    AccountingInputs other = shape;
    other.samplingRate = 0.02;
    CHECK(solveNoiseMultiplierFor(other, 1.0, 1.0) == direct(other, 1.0));
    other = shape;
    other.steps = 1000;
    CHECK(solveNoiseMultiplierFor(other, 1.0, 1.0) == direct(other, 1.0));
    other = shape;
    other.delta = 1e-6;
    CHECK(solveNoiseMultiplierFor(other, 1.0, 1.0) == direct(other, 1.0));
    CHECK(solveNoiseMultiplierFor(shape, 1.0, 2.0) == direct(shape, 2.0));
    CHECK(solveNoiseMultiplierFor(shape, 1.0, 2.0) < z);

    // A scaled multiplier and another kind go through the general solver.
    other = shape;
    other.kind = ReleaseKind::PoissonReplace;
    const double replace = solveNoiseMultiplierFor(other, 1.0, 1.0);
    CHECK(replace ==
          solveSgmMultiplier(grid, 0.01, 2000, 1.0, 1e-5, Adjacency::Replace).noiseMultiplier);
    CHECK(replace > z);
    const double scaled = solveNoiseMultiplierFor(shape, 2.0, 1.0);
    CHECK(scaled == Approx(z / 2.0).epsilon(1e-6));

    // Threads asking for the same inputs at once get the same answer.
    other = shape;
    other.steps = 3000;
    std::vector<double> answers(4);
    std::vector<std::thread> threads;
    for (std::size_t k = 0; k < answers.size(); ++k)
        threads.emplace_back([&, k] { answers[k] = solveNoiseMultiplierFor(other, 1.0, 1.0); });
    for (std::thread& thread : threads) thread.join();
    for (const double answer : answers) CHECK(answer == direct(other, 1.0));
}

}  // namespace core_privacy_accountant_test
