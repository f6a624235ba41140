// What each run protects (unit, adjacency, scope), as the comparing views show it: read from
// the run and from its record alike, and a warning when runs of different protection meet.
#include "core/sweep/run_protection.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/sweep/run_record.h"
#include "core/util/json_value.h"
#include "test_data.h"

namespace core_run_protection_test {

using namespace pfa;

namespace {

RunResult quickRun(TrainConfig config) {
    static const DataSplit data = test::syntheticSplit(1200, 4);
    config.epochs = 2;
    return test::runQuietly(config, data);
}

/// The protection of `run`, once from the run and once from its record: they must agree.
RunProtection bothWays(const RunResult& run) {
    const RunProtection direct = runProtection(run);
    const RunProtection recorded = runProtectionOfRecord(parseJson(runRecordJson(run, {})));
    CHECK(direct == recorded);
    CHECK(direct.label() == recorded.label());
    return direct;
}

}  // namespace

TEST_CASE("Each run's protection: unit, adjacency and scope, from the run and its record",
          "[protection]") {
    SECTION("dp-fermi protects whole records under add/remove-one") {
        const RunProtection p = bothWays(quickRun(test::quickConfig("dp-fermi", 1.0, 1.0)));
        CHECK(p.label() == "record, add/remove-one");
    }
    SECTION(
        "the sensitive-only scope with a calibration that noises whole records: whole "
        "records, replace-one") {
        TrainConfig config = test::quickConfig("dp-fermi", 1.0, 1.0);
        config.scope = ProtectionScope::SensitiveOnly;
        const RunProtection p = bothWays(quickRun(config));
        CHECK_FALSE(p.sensitiveOnly);
        CHECK(p.label() == "record, replace-one");
    }
    SECTION("the published calibration, sensitive-only: only the sensitive attribute") {
        TrainConfig config = test::quickConfig("dp-fermi", 1.0, 1.0);
        config.scope = ProtectionScope::SensitiveOnly;
        config.calibration = Calibration::Published;
        const RunProtection p = bothWays(quickRun(config));
        CHECK(p.sensitiveOnly);
        CHECK(p.label() == "a record's sensitive attribute, replace-one");
    }
    SECTION("dp-postprocessing: the sensitive attribute only") {
        TrainConfig config = test::quickConfig("dp-postprocessing", 1.0, 0.0);
        config.fairness = FairnessNotion::EqualizedOdds;
        config.scope = ProtectionScope::SensitiveOnly;
        const RunProtection p = bothWays(quickRun(config));
        CHECK(p.label() == "a record's sensitive attribute, replace-one");
    }
    SECTION("fixed-size batches: whole records, replace-one") {
        TrainConfig config = test::quickConfig("dp-sgd", 1.0, 0.0);
        config.sampling = Sampling::Shuffle;
        CHECK(bothWays(quickRun(config)).label() == "record, replace-one");
    }
    SECTION("not private") {
        const RunProtection p = bothWays(quickRun(test::quickConfig("fermi", INFINITY, 1.0)));
        CHECK_FALSE(p.isPrivate);
        CHECK(p.label() == "not private");
    }
}

TEST_CASE(
    "Older records: a missing scope reads from the statement's wording, a missing "
    "adjacency is named as such",
    "[protection]") {
    const RunProtection sensitive = runProtectionOfRecord(parseJson(
        R"({"privacy": {"is_private": true, "unit": "record", "adjacency": "replace-one",
            "protected": "only the sensitive attribute 'sex' — features and labels are public"}})"));
    CHECK(sensitive.sensitiveOnly);
    const RunProtection unknown =
        runProtectionOfRecord(parseJson(R"({"privacy": {"is_private": true}})"));
    CHECK(unknown.label() == "unit not recorded, adjacency not recorded");
    const RunProtection none = runProtectionOfRecord(parseJson(R"({"algorithm": "erm"})"));
    CHECK(none.label() == "not private");
}

TEST_CASE("Runs of different protection on one chart are named in a warning", "[protection]") {
    RunProtection records{true, "record", "add/remove-one", false};
    RunProtection attribute{true, "record", "replace-one", true};
    RunProtection open;
    CHECK(mixedProtectionWarning({records, records, open}).empty());
    CHECK(sharedProtectionLabel({records, open, records}) == "record, add/remove-one");
    const std::string warning = mixedProtectionWarning({records, attribute, records, open});
    CHECK_THAT(warning, Catch::Contains("2 runs: record, add/remove-one"));
    CHECK_THAT(warning, Catch::Contains("1 run: a record's sensitive attribute, replace-one"));
    CHECK(sharedProtectionLabel({records, attribute}).empty());
    // The adjacency alone makes a difference.
    RunProtection replaced = records;
    replaced.adjacency = "replace-one";
    CHECK_FALSE(mixedProtectionWarning({records, replaced}).empty());
}

}  // namespace core_run_protection_test
