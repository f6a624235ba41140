#include "core/sweep/setting_axes.h"

#include <catch2/catch.hpp>

namespace core_setting_axes_test {

using namespace pfa;

namespace {

SweepPoint point(const std::string& dataset, const std::string& algorithm, const std::string& rest,
                 int seed, double error) {
    SweepPoint p;
    p.runKey = "dataset=" + dataset + ";algorithm=" + algorithm +
               ";epsilon=1;seed=" + std::to_string(seed) + rest;
    p.dataset = dataset.substr(0, dataset.find('('));
    p.algorithm = algorithm;
    p.epsilon = 1.0;
    p.testError = error;
    p.finalMetrics["train_loss"] = error / 2;
    return p;
}

}  // namespace

TEST_CASE("Setting axes: numeric settings and data knobs that vary, values and lines along them",
          "[setting-axes]") {
    const std::string base = "synthetic-heavy-tailed(n=20000,d=20,nu=";
    std::vector<SweepPoint> points;
    for (const char* nu : {"2.5", "3", "8"}) {
        for (const char* clip : {"0.1", "1"}) {
            for (int seed = 0; seed < 2; ++seed) {
                const std::string key = base + nu + ",seed=7)|split=0,0.25";
                points.push_back(point(key, "noisy-clipped-gd",
                                       std::string(";clip-norm=") + clip + ";rule=fixed", seed,
                                       std::stod(nu) * std::stod(clip) + 0.1 * seed));
            }
        }
    }
    const std::vector<SweepCell> cells = summarizePoints(points);
    REQUIRE(cells.size() == 6);
    CHECK(cells[0].finalMetrics.at("train_loss").n == 2);
    CHECK(cells[0].finalMetrics.at("train_loss").mean == Approx((2.5 * 0.1 + 0.05) / 2));

    const std::vector<SettingAxis> axes = settingAxesOf(cells);
    // clip-norm and the tail index vary; the choice "rule", ε, the seed and the fixed knobs do not.
    REQUIRE(axes.size() == 2);
    // With a second ε, ε is an axis too (last).
    std::vector<SweepPoint> more = points;
    for (SweepPoint p : points) {
        p.runKey.replace(p.runKey.find("epsilon=1"), 9, "epsilon=4");
        p.epsilon = 4;
        more.push_back(p);
    }
    const std::vector<SettingAxis> withEpsilon = settingAxesOf(summarizePoints(more));
    REQUIRE(withEpsilon.size() == 3);
    CHECK(withEpsilon[2].label() == "ε");
    CHECK(axes[0] == SettingAxis{"clip-norm", false});
    CHECK(axes[1] == SettingAxis{"nu", true});
    CHECK(axes[1].label() == "data: nu");
    CHECK(axisValue(cells[0], axes[0]) == Approx(0.1));
    CHECK(axisValue(cells[0], axes[1]) == Approx(2.5));
    CHECK_FALSE(axisValue(cells[0], SettingAxis{"rule", false}).has_value());

    // Along clip-norm: one line per tail index (three data sets); along the knob: one line per
    // clip.
    const std::vector<SweepGroup> byClip = groupAlongAxis(cells, axes[0]);
    REQUIRE(byClip.size() == 3);
    for (const SweepGroup& group : byClip) CHECK(group.cells.size() == 2);
    const std::vector<SweepGroup> byTail = groupAlongAxis(cells, axes[1]);
    REQUIRE(byTail.size() == 2);
    for (const SweepGroup& group : byTail) CHECK(group.cells.size() == 3);
    CHECK(byTail[0].distinction == "clip-norm = 0.1");
    CHECK(byTail[1].distinction == "clip-norm = 1");
}

TEST_CASE("Data knobs of a data-set identity", "[setting-axes]") {
    const auto knobs = datasetKnobs("synthetic(n=100,d=5,minority=0.3)|split=0,0.25");
    REQUIRE(knobs.size() == 3);
    CHECK(knobs[2] == std::make_pair(std::string("minority"), std::string("0.3")));
    CHECK(datasetKnobs("adult/sex|split=0,0.25").empty());
    CHECK(datasetFamilyKey("synthetic(n=100,d=5)|split=0,0.25") == "synthetic(*)|split=0,0.25");
    CHECK(datasetFamilyKey("adult/sex|split=0,0.25") == "adult/sex|split=0,0.25");
    // A file's name is not a knob list, whatever brackets it has.
    CHECK(datasetKnobs("file:a(n=1).csv,schema=ab|split=0,0.25").empty());
}

TEST_CASE("fitScale is the least-squares constant over the usable pairs", "[setting-axes]") {
    // y = 3 g exactly on the usable pairs; a NaN measurement and a zero rate are skipped.
    const auto c = fitScale({3.0, 6.0, NAN, 5.0}, {1.0, 2.0, 4.0, 0.0});
    REQUIRE(c);
    CHECK(*c == Approx(3.0));
    CHECK_FALSE(fitScale({1.0}, {0.0}));
    CHECK_FALSE(fitScale({-1.0, -2.0}, {1.0, 2.0}));
}

}  // namespace core_setting_axes_test
