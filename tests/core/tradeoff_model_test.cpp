// The tradeoff view's model (core/sweep/tradeoff_model.h): which runs are drawn where, the
// Pareto front and its step line, the live-mode trail, self-traced curves and the axis range.
#include "core/sweep/tradeoff_model.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <deque>
#include <limits>

namespace core_tradeoff_model_test {

using namespace pfa;

namespace {

/// Finished runs with a given (demographic-parity violation, error), kept at stable addresses.
struct Runs {
    std::deque<RunResult> results;
    TradeoffInput input;
    int add(double violation, double error, bool shown = true) {
        RunResult& r = results.emplace_back();
        r.config.algorithm = "dp-fermi";
        r.test.error = error;
        r.test.dpGap = violation;
        const int id = static_cast<int>(results.size());
        input.runs.push_back({id, &r, shown});
        return id;
    }
};

}  // namespace

TEST_CASE("Tradeoff model: dominated points are off the front, the front steps down by x",
          "[tradeoff]") {
    Runs runs;
    const int a = runs.add(0.10, 0.20);
    const int b = runs.add(0.05, 0.25);
    runs.add(0.12, 0.22);  // dominated by a
    const int d = runs.add(0.20, 0.15);
    const TradeoffModel model = buildTradeoff(runs.input);
    REQUIRE(model.points.size() == 4);
    CHECK(model.front == std::vector<int>{b, a, d});
    CHECK_FALSE(model.points[2].onFront);
    CHECK(model.points[0].onFront);
    // Right along the current error, then down to the next point.
    const TradeoffLine steps{{0.05, 0.25}, {0.10, 0.25}, {0.10, 0.20}, {0.20, 0.20}, {0.20, 0.15}};
    CHECK(model.frontSteps == steps);
}

TEST_CASE("Tradeoff model: hidden, cleared, non-finite and trail runs are not points",
          "[tradeoff]") {
    Runs runs;
    const int shown = runs.add(0.1, 0.2);
    runs.add(0.1, 0.2, false);
    runs.add(0.3, 0.1, false);
    const int cleared = runs.add(0.05, 0.05);
    runs.add(std::numeric_limits<double>::quiet_NaN(), 0.2);
    const int first = runs.add(0.2, 0.3), second = runs.add(0.15, 0.28);
    runs.input.cleared = {cleared};
    runs.input.trail = {second, first};  // in the order they finished
    const TradeoffModel model = buildTradeoff(runs.input);
    CHECK(model.hidden == 2);
    REQUIRE(model.points.size() == 1);
    CHECK(model.points[0].id == shown);
    CHECK(model.front == std::vector<int>{shown});  // the trail never joins the front
    REQUIRE(model.trail.size() == 2);
    CHECK(model.trail[0].id == second);
    CHECK(model.trail[1].id == first);  // the newest last
}

TEST_CASE("Tradeoff model: the axes cover points, trail, curves and the live point", "[tradeoff]") {
    Runs runs;
    CHECK(buildTradeoff(runs.input).empty());
    // Nothing drawn: errors 0 … 0.5 with the usual room, violations 0 … 0.05.
    CHECK(buildTradeoff(runs.input).yMax == Approx(0.5 + 0.5 * 0.12));
    CHECK(buildTradeoff(runs.input).xMax == Approx(0.05 * 1.08));
    const int id = runs.add(0.1, 0.2);
    CurvePoint far;
    far.test.error = 0.4;
    far.test.dpGap = 0.5;
    runs.results.back().curve = {far};
    runs.input.live = std::make_pair(0.3, 0.1);
    const TradeoffModel model = buildTradeoff(runs.input);
    REQUIRE(model.curves.size() == 1);
    CHECK(model.curves[0].first == id);
    CHECK(model.xMax == Approx(0.5 * 1.08));
    const double pad = (0.4 - 0.1) * 0.12;
    CHECK(model.yMin == Approx(0.1 - pad));
    CHECK(model.yMax == Approx(0.4 + pad));
    CHECK_FALSE(model.empty());
}

TEST_CASE("Tradeoff model: fairness methods are drawn under their notion, baselines under all",
          "[tradeoff]") {
    CHECK(trainsForNotion("dp-fermi"));
    CHECK(trainsForNotion("pf-ld"));         // its own method: a dual step
    CHECK_FALSE(trainsForNotion("dp-sgd"));  // a baseline
    CHECK(trainsForNotion("no-such-algorithm"));
}

}  // namespace core_tradeoff_model_test
