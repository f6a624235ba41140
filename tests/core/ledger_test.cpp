// The privacy ledger: composition of runs on one data set (privacy-accounting.md §3), its keys,
// and the ledgers rebuilt from results files.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/algorithms/registry.h"
#include "core/privacy/dataset_ledger.h"
#include "core/privacy/rdp_accountant.h"
#include "core/sweep/prepared_dataset.h"
#include "core/sweep/run_ledger.h"
#include "core/sweep/run_record.h"
#include "core/sweep/sweep_spec.h"
#include "core/sweep/sweep_summary.h"
#include "core/util/json_value.h"
#include "test_data.h"

namespace core_ledger_test {

using namespace pfa;
using Catch::Matchers::WithinRel;

namespace {

privacy::AccountingInputs sgmRun(long steps, double z, double pure = 0.0) {
    privacy::AccountingInputs in;
    in.kind = privacy::ReleaseKind::PoissonSubsampled;
    in.samplingRate = 0.01;
    in.noiseMultiplier = z;
    in.steps = steps;
    in.delta = 1e-5;
    if (pure > 0) in.pureReleases.push_back({"group shares", "Laplace", pure});
    return in;
}

}  // namespace

TEST_CASE("Ledger: two identical runs compose like one run of twice the steps",
          "[ledger][privacy]") {
    privacy::DatasetLedger ledger("synthetic", "synthetic");
    CHECK(ledger.add(test::ledgerEntryOf("a", sgmRun(1000, 1.1))));
    CHECK(ledger.add(test::ledgerEntryOf("b", sgmRun(1000, 1.1))));
    const privacy::LedgerTotals totals = ledger.totals();
    const double oneLongRun = privacy::certifiedEpsilon(sgmRun(2000, 1.1)).epsilon;
    CHECK_THAT(totals.epsilon, WithinRel(oneLongRun, 1e-12));
    CHECK(totals.runs == 2);
    CHECK(totals.delta == 1e-5);
    // RDP composition is tighter than adding the two ε's.
    CHECK(totals.epsilon < totals.naiveEpsilon);
    CHECK_THAT(totals.naiveEpsilon,
               WithinRel(2 * privacy::certifiedEpsilon(sgmRun(1000, 1.1)).epsilon, 1e-12));
    CHECK(totals.naiveDelta == 2e-5);
}

TEST_CASE("Ledger: a run is charged once, pure releases add, older records add their (eps, delta)",
          "[ledger][privacy]") {
    privacy::DatasetLedger ledger("adult", "adult");
    REQUIRE(ledger.add(test::ledgerEntryOf("a", sgmRun(500, 1.0, 0.05))));
    CHECK_FALSE(
        ledger.add(test::ledgerEntryOf("a", sgmRun(500, 1.0, 0.05))));  // the same execution
    REQUIRE(ledger.add(test::ledgerEntryOf("b", sgmRun(300, 2.0))));
    const privacy::OrderGrid grid = privacy::OrderGrid::standard();
    privacy::RdpCurve sum = privacy::scaled(privacy::sgmCurve(grid, 0.01, 1.0), 500);
    privacy::accumulate(sum, privacy::scaled(privacy::sgmCurve(grid, 0.01, 2.0), 300));
    const double expected = privacy::epsilonFromRdp(grid, sum, 1e-5).epsilon + 0.05;
    CHECK_THAT(ledger.totals().epsilon, WithinRel(expected, 1e-12));

    privacy::LedgerEntry old;
    old.runUid = "record:old";
    old.accountingKnown = false;
    old.epsilon = 0.7;
    old.delta = 1e-6;
    REQUIRE(ledger.add(old));
    const privacy::LedgerTotals totals = ledger.totals();
    CHECK_THAT(totals.epsilon, WithinRel(expected + 0.7, 1e-12));
    CHECK_THAT(totals.delta, WithinRel(1e-5 + 1e-6, 1e-12));
    CHECK(totals.withoutCurve == 1);
    CHECK_THAT(privacy::describeTotals(totals), Catch::Contains("RDP composition of 3 runs") &&
                                                    Catch::Contains("1 from older records"));

    // JSON round trip.
    JsonWriter json;
    privacy::writeLedgerJson(json, ledger);
    const privacy::DatasetLedger copy = privacy::ledgerFromJson(parseJson(json.text()));
    CHECK(copy.entries().size() == 3);
    CHECK(copy.totals().epsilon == totals.epsilon);
}

TEST_CASE("Ledger keys: one ledger per data set, whatever the split or sensitive attribute",
          "[ledger]") {
    CHECK(ledgerKeyFromDatasetKey("adult/sex|split=0,0.25") == "adult");
    CHECK(ledgerKeyFromDatasetKey("adult/race|split=3,0.2") == "adult");
    CHECK(ledgerKeyFromDatasetKey("compas|split=0,0.25") == "compas");
    CHECK(ledgerKeyFromDatasetKey("file:loans.csv,schema=0123456789abcdef|split=0,0.25") ==
          "file:loans.csv");
    DatasetRequest synthetic;
    CHECK(ledgerKey(synthetic).rfind("synthetic(n=10000", 0) == 0);
    CHECK(ledgerKey(synthetic).find("split") == std::string::npos);
    CHECK(ledgerTitle("synthetic(n=10000,minority=0.34999999999999998,seed=20240)") ==
          "synthetic(n=10000,minority=0.35,seed=20240)");
    CHECK(ledgerTitle("file:2019.csv") == "file:2019.csv");
}

TEST_CASE("Ledger from results records: every private run once, non-private runs not charged",
          "[ledger][privacy]") {
    DatasetRequest request;
    request.knobs<SyntheticOptions>().rows = 2000;
    const PreparedDatasetPtr data = prepareDataset(request);
    std::vector<JsonValue> records;
    std::vector<RunResult> results;
    for (const auto& [algorithm, epsilon] :
         {std::pair<std::string, double>{"dp-sgd", 1.0}, {"dp-sgd", 2.0}, {"erm", INFINITY}}) {
        TrainConfig config;
        config.algorithm = algorithm;
        config.epsilon = epsilon;
        config.lambda = 0.0;
        config.epochs = 3;
        TrainingObserver observer;
        CancelToken cancel;
        results.push_back(runAlgorithm(config, data->split, observer, cancel));
        RunContext context = data->context;
        context.runKey = runKey(data->key, config);
        records.push_back(parseJson(runRecordJson(results.back(), context)));
    }
    records.push_back(records.front());  // the same run twice (e.g. a file merged with itself)
    const std::vector<privacy::DatasetLedger> ledgers = ledgersFromRecords(records);
    REQUIRE(ledgers.size() == 1);
    CHECK(ledgers[0].key() == ledgerKey(request));
    CHECK(ledgers[0].entries().size() == 2);
    const privacy::OrderGrid grid = privacy::OrderGrid::standard();
    privacy::RdpCurve sum = privacy::runCurve(grid, results[0].privacy.accounting);
    privacy::accumulate(sum, privacy::runCurve(grid, results[1].privacy.accounting));
    CHECK_THAT(
        ledgers[0].totals().epsilon,
        WithinRel(privacy::epsilonFromRdp(grid, sum, results[0].privacy.delta).epsilon, 1e-12));
    CHECK(results[0].runUid.size() == 32);
    CHECK(results[0].runUid != results[1].runUid);
}

TEST_CASE("Sweep cells of the published calibration are shown at their certified epsilon",
          "[sweep][summary][privacy]") {
    const DataSplit data = test::syntheticSplit(4000);
    TrainConfig config;
    config.algorithm = "dp-fermi";
    config.epsilon = 1.0;
    config.lambda = 1.0;
    config.epochs = 60;
    config.batchSize = 256;
    config.calibration = Calibration::Published;
    config.scope = ProtectionScope::SensitiveOnly;
    config.minGroupShare = 0.25;
    std::vector<JsonValue> records;
    for (std::uint64_t seed : {0, 1}) {
        config.seed = seed;
        TrainingObserver observer;
        CancelToken cancel;
        RunContext context;
        context.runKey = runKey("synthetic", config);
        records.push_back(
            parseJson(runRecordJson(runAlgorithm(config, data, observer, cancel), context)));
    }
    const std::vector<SweepCell> cells = summarizeRecords(records);
    REQUIRE(cells.size() == 1);
    CHECK(cells[0].knownGaps);
    CHECK(cells[0].epsilon == 1.0);  // nominal, kept for the tooltip
    CHECK(cells[0].shownEpsilon() == cells[0].epsilonSpent.max);
    CHECK(cells[0].shownEpsilon() > 2.0);  // what the accountant certifies is far above 1
    const std::string statement = records[0].at("privacy").at("statement").asString();
    CHECK_THAT(statement, Catch::Contains("exact group shares used in ψ"));

    config.calibration = Calibration::Conservative;
    config.seed = 0;
    TrainingObserver observer;
    CancelToken cancel;
    RunContext context;
    context.runKey = runKey("synthetic", config);
    const std::vector<SweepCell> certified = summarizeRecords(
        {parseJson(runRecordJson(runAlgorithm(config, data, observer, cancel), context))});
    CHECK_FALSE(certified[0].knownGaps);
    CHECK(certified[0].shownEpsilon() == 1.0);
}

}  // namespace core_ledger_test
