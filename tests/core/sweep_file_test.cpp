// A sweep written as a preset file (what the application's "Run on a cluster…" hands to
// pfa-cli train --preset FILE.json) reads back as the same runs, data sets in full.
#include <catch2/catch.hpp>

#include "core/generators/silo_settings.h"
#include "core/generators/split_settings.h"
#include "core/sweep/prepared_dataset.h"
#include "core/sweep/sweep_preset.h"
#include "core/util/error.h"
#include "core/util/json_value.h"

namespace core_sweep_file_test {

using namespace pfa;

namespace {

/// Every run key of the preset's sweep, over its data sets.
std::vector<std::string> runKeys(SweepPreset preset) {
    preset.spec.datasets.clear();
    for (const DatasetRequest& request : preset.datasets())
        preset.spec.datasets.push_back(datasetKey(request));
    std::vector<std::string> keys;
    for (const SweepRun& run : preset.spec.expand()) keys.push_back(run.key);
    return keys;
}

SweepPreset roundTrip(const SweepPreset& preset) {
    return parseSweepPreset("written.json", sweepPresetJson(preset));
}

}  // namespace

TEST_CASE("The as-published calibrations are named so, listed last, and say what they certify",
          "[sweep][preset]") {
    const std::vector<SweepPreset>& presets = sweepPresets();
    const auto asPublished = [](const std::string& name) {
        return name.size() > 13 && name.compare(name.size() - 13, 13, "-as-published") == 0;
    };
    // The first preset a user sees certifies every ε it shows; the as-published ones follow all
    // others.
    REQUIRE_FALSE(presets.empty());
    CHECK_FALSE(asPublished(presets.front().name));
    bool seen = false;
    for (const SweepPreset& preset : presets) {
        INFO(preset.name);
        if (asPublished(preset.name))
            seen = true;
        else
            CHECK_FALSE(seen);
    }
    CHECK(seen);
    for (const std::string former : {"adult-dp", "credit-card-eo", "parkinsons-dp"}) {
        INFO(former);
        // The old name still finds the preset, under its new name, whose title names the ε it
        // certifies beside the nominal one.
        const SweepPreset& preset = findSweepPreset(former);
        CHECK(preset.name == former + "-as-published");
        CHECK(currentPresetName(former) == preset.name);
        CHECK(preset.title.find("certif") != std::string::npos);
        for (const SweepPreset& listed : presets) CHECK(listed.name != former);
    }
}

TEST_CASE("Every built-in preset written as a sweep file reads back as the same runs",
          "[sweep][preset][sweep-file]") {
    for (const SweepPreset& preset : sweepPresets()) {
        INFO(preset.name);
        const SweepPreset back = roundTrip(preset);
        CHECK(back.name == preset.name);
        CHECK(back.source == preset.source);
        CHECK(back.spec.tuning == preset.spec.tuning);
        REQUIRE(back.datasets().size() == preset.datasets().size());
        for (std::size_t i = 0; i < preset.datasets().size(); ++i)
            CHECK(datasetKey(back.datasets()[i]) == datasetKey(preset.datasets()[i]));
        const std::vector<std::string> keys = runKeys(preset);
        CHECK(keys.size() > 0);
        CHECK(runKeys(back) == keys);
    }
}

TEST_CASE(
    "A sweep on an own file with silos, a split, choice axes and per-algorithm settings "
    "reads back whole",
    "[sweep][preset][sweep-file]") {
    SweepPreset sweep;
    sweep.name = "own";
    sweep.title = "A sweep from the application";
    sweep.source = "written by a test";
    DatasetRequest& data = sweep.dataset;
    data.name = "file";
    data.filePath = "/data/loans.csv";
    data.schema.target = "default";
    data.schema.positiveValues = {"yes"};
    data.schema.sensitive = {"sex", "race"};
    data.schema.columns["job"].role = ColumnRole::Categorical;
    data.schema.columns["id"].role = ColumnRole::Ignore;
    data.schema.missingToken = "?";
    setSplitSetting(data, "split-seed", "7");
    setSplitSetting(data, "test-fraction", "0.3");
    applySiloSettings(data, {{"silo-split", "dirichlet"}, {"silos", "5"}, {"silo-alpha", "0.5"}},
                      "");
    SweepSpec& spec = sweep.spec;
    spec.algorithms = {"dp-sgd", "isrl-dp-sgd"};
    spec.notions = {FairnessNotion::EqualizedOdds};
    spec.epsilons = {0.5, 1.0 / 3.0, INFINITY};
    spec.lambdas = {0.0, 0.1};
    spec.seeds = {3, 4, 11};
    spec.tuning = Tuning::SplitBudget;
    spec.axes.push_back(SweepAxis{"trust", {}, {"central", "local"}});
    spec.axes.push_back(SweepAxis{"epochs", {5, 7}, {}});
    spec.base.batchSize = 77;
    spec.base.lrTheta = 0.1 + 0.2;  // not a short decimal: written exactly
    spec.algorithmConfig["dp-sgd"] = parseJson(R"({"epochs": 3, "adjacency": "replace"})");

    const std::string text = sweepPresetJson(sweep);
    INFO(text);
    const SweepPreset back = parseSweepPreset("written.json", text);
    CHECK(back.dataset.filePath == "/data/loans.csv");
    CHECK(back.dataset.schema.missingToken == "?");
    REQUIRE(back.dataset.silos.has_value());
    CHECK(back.dataset.silos->silos == 5);
    // The data-set key holds a digest of the schema, the split and the silos.
    CHECK(datasetKey(back.dataset) == datasetKey(sweep.dataset));
    CHECK(back.spec.base.lrTheta == spec.base.lrTheta);
    CHECK(back.spec.epsilons[1] == spec.epsilons[1]);
    CHECK(std::isinf(back.spec.epsilons[2]));
    CHECK(back.spec.tuning == Tuning::SplitBudget);
    CHECK(runKeys(back) == runKeys(sweep));
    // A changed setting changes the keys: the comparison can fail.
    SweepPreset changed = sweep;
    changed.spec.base.batchSize = 78;
    CHECK(runKeys(roundTrip(changed)) != runKeys(sweep));
}

TEST_CASE("A sweep file names what is wrong with its data set", "[sweep][preset][sweep-file]") {
    const std::string head =
        R"({"name": "x", "title": "x", "source": "x", "algorithms": ["dp-fermi"],
            "fairness": ["dp"], "epsilons": [1], "lambdas": [1], "seeds": [0], )";
    REQUIRE_THROWS_WITH(
        parseSweepPreset("x.json", head + R"("dataset": {"name": "adult", "file": "a.csv"}})"),
        Catch::Contains("only go with \"name\": \"file\""));
    REQUIRE_THROWS_WITH(parseSweepPreset("x.json", head + R"("dataset": {"name": "file"}})"),
                        Catch::Contains("file"));
    REQUIRE_THROWS_WITH(parseSweepPreset("x.json", head + R"("dataset": {"name": "synthetic"},
                                          "datasets": []})"),
                        Catch::Contains("lists no data set"));
    REQUIRE_THROWS_WITH(readSweepPresetFile("/nonexistent/sweep.json"),
                        Catch::Contains("cannot read the sweep file"));
}

}  // namespace core_sweep_file_test
