// Theory-rate shapes per algorithm and trust model, and the fit of their one free constant.
#include "core/sweep/theory_rates.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/config/run_result.h"
#include "core/sweep/sweep_summary.h"
#include "core/util/json_value.h"

namespace core_theory_rates_test {

using namespace pfa;

namespace {

RateInputs siloInputs(const std::string& trust) {
    RateInputs in;
    in.algorithm = "isrl-dp-sgd";
    in.settings["trust"] = trust;
    in.n = 100;  // records per silo
    in.silos = 4;
    in.d = 9;
    in.delta = 1e-4;  // ln(1/δ) = 9.2103
    return in;
}

}  // namespace

TEST_CASE("ISRL-DP, shuffle, central and local rates follow the thesis table", "[theory-rates]") {
    // √(d ln(1/δ)) = √(9 · 9.21034) = 9.10446; 1/√(nN) = 1/√400 = 0.05.
    const auto isrl = theoryRate(siloInputs("isrl"));
    REQUIRE(isrl);
    CHECK(isrl->f(1.0) == Approx(0.05 + 9.10446 / 200.0).epsilon(1e-5));  // ε n √N = 200
    CHECK(isrl->f(std::numeric_limits<double>::infinity()) == Approx(0.05));
    for (const char* trust : {"central", "shuffle"}) {
        const auto central = theoryRate(siloInputs(trust));
        REQUIRE(central);
        CHECK(central->f(1.0) == Approx(0.05 + 9.10446 / 400.0).epsilon(1e-5));  // ε n N = 400
        CHECK(central->label.find(trust) == 0);
    }
    // Local DP: min{1, √d/(ε√(nN))} = min{1, 3/(20 ε)}.
    const auto local = theoryRate(siloInputs("local"));
    REQUIRE(local);
    CHECK(local->f(1.0) == Approx(0.15));
    CHECK(local->f(0.1) == 1.0);
    // Noise shrinks from local to ISRL to central at every ε.
    for (double eps : {0.75, 3.0, 18.0}) {
        CHECK(local->f(eps) > isrl->f(eps) - 0.05);
        CHECK(isrl->f(eps) > theoryRate(siloInputs("central"))->f(eps));
    }
    // M silos per round replace N.
    RateInputs fewer = siloInputs("isrl");
    fewer.available = 1;
    CHECK(theoryRate(fewer)->f(1.0) == Approx(0.1 + 9.10446 / 100.0).epsilon(1e-5));
    CHECK_FALSE(theoryRate(siloInputs("something-else")));
    RateInputs noSilos = siloInputs("isrl");
    noSilos.silos = 0;
    CHECK_FALSE(theoryRate(noSilos));
}

TEST_CASE("User-level rate for the paper and practical noise, none for the naive baseline",
          "[theory-rates]") {
    RateInputs in;
    in.algorithm = "user-level-dp-sgd";
    in.n = 100;  // users
    in.m = 16;   // records per user
    in.d = 4;
    in.delta = 1e-5;
    // ln(ndm/δ) = ln(6.4e8) = 20.27710; 1/√(nm) = 0.025; n √m ε = 800 at ε = 2.
    for (const char* noise : {"paper", "practical"}) {
        in.settings["user-noise"] = noise;
        const auto rate = theoryRate(in);
        REQUIRE(rate);
        CHECK(rate->f(2.0) == Approx(0.025 + 2.0 * 20.27710 / 800.0).epsilon(1e-5));
    }
    in.settings["user-noise"] = "naive";
    CHECK_FALSE(theoryRate(in));
}

TEST_CASE("Single-machine rates and algorithms without one", "[theory-rates]") {
    RateInputs in;
    in.algorithm = "dp-sgd";
    in.n = 10000;
    in.d = 16;
    in.delta = 1e-5;  // ln(1/δ) = 11.51293
    const auto rate = theoryRate(in);
    REQUIRE(rate);
    CHECK(rate->f(0.5) == Approx(0.01 + std::sqrt(16 * 11.51293) / 5000.0).epsilon(1e-5));
    in.algorithm = "noisy-clipped-gd";
    REQUIRE(theoryRate(in));
    CHECK(theoryRate(in)->f(2.0) == Approx(1e-4 + 4.0 / 20000.0));
    in.algorithm = "dp-fermi";
    CHECK_FALSE(theoryRate(in));
    in.algorithm = "isrl-local-sgd";
    CHECK_FALSE(theoryRate(in));
}

TEST_CASE("An algorithm registers its own rate shape", "[theory-rates]") {
    RateInputs in;
    in.algorithm = "rates-test-registered";
    CHECK_FALSE(theoryRate(in));
    registerTheoryRate("rates-test-registered",
                       [](const RateInputs& inputs) -> std::optional<RateShape> {
                           const double a = std::stod(inputs.settings.at("personalisation"));
                           return RateShape{"test bound", [a](double eps) { return a / eps; }};
                       });
    in.settings["personalisation"] = "3";
    const auto rate = theoryRate(in);
    REQUIRE(rate);
    CHECK(rate->label == "test bound");
    CHECK(rate->f(2.0) == 1.5);
}

TEST_CASE("The fitted constant minimises the squared error, over the non-private level when known",
          "[theory-rates]") {
    // f(ε) = 1 + 1/ε; data y = 0.1 + 2/ε.
    const RateShape shape{"1 + 1/ε", [](double eps) { return 1.0 + 1.0 / eps; }};
    const std::vector<RatePoint> points{{1.0, 2.1}, {2.0, 1.1}, {4.0, 0.6}};
    // With the non-private level 0.1: g = f − f(∞) = 1/ε, y − 0.1 = 2/ε exactly → c = 2.
    const RateFit over = fitRate(shape, points, 0.1);
    REQUIRE(over.valid);
    CHECK(over.c == Approx(2.0));
    CHECK(over.offset == 0.1);
    REQUIRE(over.curve.size() == 48);
    CHECK(over.curve.front().first == Approx(1.0));
    CHECK(over.curve.back().first == Approx(4.0));
    CHECK(over.curve.front().second == Approx(2.1));
    CHECK(over.curve.back().second == Approx(0.6));
    // Without it the whole rate is fitted: g = (2, 1.5, 1.25), y = (2.1, 1.1, 0.6);
    // c = Σgy/Σg² = (4.2 + 1.65 + 0.75)/(4 + 2.25 + 1.5625) = 6.6/7.8125 = 0.8448.
    const RateFit whole = fitRate(shape, points);
    REQUIRE(whole.valid);
    CHECK(whole.c == Approx(0.8448));
    CHECK(whole.offset == 0.0);
    CHECK(whole.curve.front().second == Approx(0.8448 * 2.0));
    // Points that fall below the non-private level cannot follow the rate: invalid, no curve.
    const RateFit below = fitRate(shape, {{1.0, 0.05}, {2.0, 0.08}}, 0.1);
    CHECK_FALSE(below.valid);
    CHECK(below.curve.empty());
    // Nothing to fit: no finite positive ε.
    CHECK_FALSE(fitRate(shape, {{std::numeric_limits<double>::infinity(), 0.3}}).valid);
}

TEST_CASE("Rate inputs from a run's per-unit metrics", "[theory-rates]") {
    RunResult silo;
    silo.config.algorithm = "isrl-dp-sgd";
    silo.config.extra["trust"] = "shuffle";
    silo.config.extra["silos-per-round"] = "2";
    silo.privacy.delta = 1e-4;
    silo.theta = RowMatrix::Zero(1, 10);
    silo.unitKind = "silo";
    for (int i = 0; i < 4; ++i) silo.units.push_back({"silo " + std::to_string(i), 90 + 5 * i, 20});
    const RateInputs in = rateInputsOf(silo, 0);
    CHECK(in.n == Approx(97.5));
    CHECK(in.silos == 4);
    CHECK(in.available == 2);
    CHECK(in.d == 9);
    CHECK(in.delta == 1e-4);
    CHECK(in.settings.at("trust") == "shuffle");
    CHECK(in.run == &silo);

    RunResult user;
    user.config.algorithm = "user-level-dp-sgd";
    user.config.delta = 1e-5;
    user.theta = RowMatrix::Zero(1, 5);
    user.unitKind = "user";
    for (int i = 0; i < 50; ++i) user.units.push_back({"u" + std::to_string(i), 16, 4});
    const RateInputs u = rateInputsOf(user, 0);
    CHECK(u.n == 50);
    CHECK(u.m == 16);
    CHECK(u.delta == 1e-5);

    RunResult plain;
    plain.config.algorithm = "dp-sgd";
    plain.theta = RowMatrix::Zero(1, 3);
    CHECK(rateInputsOf(plain, 1234).n == 1234);
    CHECK(rateInputsOf(plain, 1234).d == 2);
}

TEST_CASE("Sweep cells carry the last excess risk of their runs' histories",
          "[theory-rates][sweep-summary]") {
    const std::vector<JsonValue> records = {
        parseJson(
            R"({"run_key":"dataset=d;algorithm=a;seed=0","algorithm":"a","epsilon":1,"test_error":0.3,)"
            R"("history":{"epoch":[1,2,3],"excess_risk":[0.5,0.25,null]}})"),
        parseJson(
            R"({"run_key":"dataset=d;algorithm=a;seed=1","algorithm":"a","epsilon":1,"test_error":0.3,)"
            R"("history":{"epoch":[1,2],"excess_risk":[0.4,0.15]}})"),
        parseJson(
            R"({"run_key":"dataset=d;algorithm=b;seed=0","algorithm":"b","epsilon":1,"test_error":0.3,)"
            R"("history":{"epoch":[1]}})")};
    CHECK(sweepPointFromRecord(records[0]).excessRisk == 0.25);  // the last finite value
    CHECK(std::isnan(sweepPointFromRecord(records[2]).excessRisk));
    const std::vector<SweepCell> cells = summarizeRecords(records);
    REQUIRE(cells.size() == 2);
    CHECK(cells[0].excessRisk.n == 2);
    CHECK(cells[0].excessRisk.mean == Approx(0.2));
    CHECK(cells[1].excessRisk.n == 0);
}

TEST_CASE("PPSGD's rate is its bound at the run's personalisation, from the generator's constants",
          "[theory-rates][ppsgd]") {
    RunResult run;
    run.config.algorithm = "ppsgd";
    run.config.delta = 1e-4;
    run.config.extra["personalisation"] = "3";  // α = a/N = 0.3
    run.theoryInputs = {{"users", 10},
                        {"rounds", 100},
                        {"dimension", 5},
                        {"smoothness", 1},
                        {"clip", 2},
                        {"gradient_noise", 0.04},
                        {"sum_squared_optima", 50},
                        {"squared_mean_optimum", 4}};
    RateInputs in = rateInputsOf(run, 1000);
    in.run = &run;
    const auto rate = theoryRate(in);
    REQUIRE(rate);
    CHECK(rate->label.find("a = 3") != std::string::npos);
    // The worked value of ppsgd_test: bound(α = 0.3) at ε = 1 (δ = 1e−4).
    CHECK(rate->f(1.0) == Approx(10.214018047775069).epsilon(1e-12));
    CHECK(rate->f(2.0) < rate->f(1.0));  // more budget, less noise
    // Without the generator's constants, or all global (a = ∞: unbounded), no rate.
    RunResult bare = run;
    bare.theoryInputs.clear();
    RateInputs none = rateInputsOf(bare, 1000);
    none.run = &bare;
    CHECK_FALSE(theoryRate(none));
    run.config.extra["personalisation"] = "inf";
    RateInputs global = rateInputsOf(run, 1000);
    global.run = &run;
    CHECK_FALSE(theoryRate(global));
}

}  // namespace core_theory_rates_test
