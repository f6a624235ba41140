// The one-page report (core/report): confusion counts from a record's rates, the stratified
// bootstrap's intervals against independent computations, and the rerun command.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>

#include "core/algorithms/registry.h"
#include "core/config/algorithm.h"
#include "core/config/cancel_token.h"
#include "core/report/group_bootstrap.h"
#include "core/report/report_model.h"
#include "core/report/report_render.h"
#include "core/sweep/prepared_dataset.h"
#include "core/sweep/run_record.h"
#include "core/sweep/sweep_spec.h"
#include "core/util/error.h"
#include "core/util/json_value.h"
#include "temp_file.h"
#include "test_data.h"

namespace core_report_test {

using namespace pfa;
using namespace pfa::report;

namespace {

GroupRow rowOf(const ConfusionCounts& c) {
    const GroupRates r = ratesOf(c);
    GroupRow row;
    row.group = c.group;
    row.n = c.n();
    row.baseRate = r.baseRate;
    row.selectionRate = r.selectionRate;
    row.truePositiveRate = r.tpr;
    row.falsePositiveRate = r.fpr;
    row.accuracy = r.accuracy;
    return row;
}

/// P[X ≤ k] for X ~ Binomial(n, p), summed exactly.
double binomialCdf(int k, int n, double p) {
    double total = 0.0;
    for (int i = 0; i <= k; ++i) {
        total += std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) +
                          i * std::log(p) + (n - i) * std::log1p(-p));
    }
    return total;
}

}  // namespace

TEST_CASE("Confusion counts round-trip through a record's rates", "[report][bootstrap]") {
    const std::vector<ConfusionCounts> groups = {
        {"A", 412, 97, 131, 983}, {"B", 3, 1, 2, 4}, {"C", 0, 0, 5, 17}};
    std::vector<GroupRow> rows;
    for (const ConfusionCounts& c : groups) rows.push_back(rowOf(c));
    const CountsOrReason back = countsFromRates(rows);
    REQUIRE(back.reason.empty());
    REQUIRE(back.counts.size() == groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g) {
        CHECK(back.counts[g].group == groups[g].group);
        CHECK(back.counts[g].tp == groups[g].tp);
        CHECK(back.counts[g].fp == groups[g].fp);
        CHECK(back.counts[g].fn == groups[g].fn);
        CHECK(back.counts[g].tn == groups[g].tn);
    }
}

TEST_CASE("Rates that are not a 2x2 table's are refused with the reason", "[report][bootstrap]") {
    ConfusionCounts c{"A", 30, 10, 20, 40};
    GroupRow row = rowOf(c);
    SECTION("an accuracy below the table's: more than two classes") {
        row.accuracy -= 0.05;  // wrong classes among the rows predicted ≠ y*
        const CountsOrReason back = countsFromRates({row});
        CHECK(back.counts.empty());
        CHECK_THAT(back.reason, Catch::Contains("more than two classes"));
    }
    SECTION("expected rates of a randomised classifier") {
        row.truePositiveRate = 0.61234;
        const CountsOrReason back = countsFromRates({row});
        CHECK(back.counts.empty());
        CHECK_THAT(back.reason, Catch::Contains("not counts over its test rows"));
    }
    SECTION("no groups") { CHECK_FALSE(countsFromRates({}).reason.empty()); }
}

TEST_CASE("A group without test rows has undefined rates and leaves the gap to the others",
          "[report][bootstrap]") {
    GroupRow empty;
    empty.group = "C";
    const std::vector<GroupRow> rows = {rowOf({"A", 30, 10, 20, 40}), rowOf({"B", 10, 10, 5, 25}),
                                        empty};
    const CountsOrReason counts = countsFromRates(rows);
    REQUIRE(counts.reason.empty());
    REQUIRE(counts.counts.size() == 3);
    CHECK(counts.counts[2].n() == 0);
    const BootstrapResult result =
        bootstrapGroups(counts.counts, FairnessNotion::DemographicParity, 200, 1);
    CHECK(std::isnan(result.groups[2].selectionRate.estimate));
    CHECK(result.groups[2].selectionRate.undefined == 200);
    CHECK(result.gap.estimate == Approx(0.4 - 0.4).margin(1e-12));
}

TEST_CASE("Worked small example: the percentile interval of a rate is the binomial quantiles",
          "[report][bootstrap]") {
    // A group of 10 rows, 4 selected: a resample's selection count is Binomial(10, 0.4) exactly.
    // P[X ≤ 0] = 0.006 < 0.025 < P[X ≤ 1] = 0.046 and P[X ≤ 6] = 0.945 < 0.975 < P[X ≤ 7] = 0.988:
    // the exact 2.5 % and 97.5 % quantiles are 1/10 and 7/10, far from where 2000 resamples
    // could land elsewhere.
    REQUIRE(binomialCdf(0, 10, 0.4) < 0.02);
    REQUIRE(binomialCdf(1, 10, 0.4) > 0.03);
    REQUIRE(binomialCdf(6, 10, 0.4) < 0.96);
    REQUIRE(binomialCdf(7, 10, 0.4) > 0.98);
    const std::vector<ConfusionCounts> groups = {{"A", 3, 1, 2, 4}, {"B", 50, 10, 10, 30}};
    const BootstrapResult result =
        bootstrapGroups(groups, FairnessNotion::DemographicParity, 2000, 7);
    REQUIRE(result.groups.size() == 2);
    const Interval& selection = result.groups[0].selectionRate;
    CHECK(selection.estimate == Approx(0.4));
    CHECK(selection.low == Approx(0.1));
    CHECK(selection.high == Approx(0.7));
    CHECK(selection.undefined == 0);
    // The gap's point estimate is the records' formula: |0.4 − 0.6|.
    CHECK(result.gap.estimate == Approx(0.2));
}

TEST_CASE("Large groups: bootstrap intervals match the normal approximation",
          "[report][bootstrap]") {
    // 20 000 rows, selection rate 0.3: half-width 1.96·√(p(1−p)/n) = 0.00635.
    const std::vector<ConfusionCounts> groups = {{"A", 4000, 2000, 6000, 8000},
                                                 {"B", 1500, 500, 3500, 4500}};
    const BootstrapResult result = bootstrapGroups(groups, FairnessNotion::EqualizedOdds, 2000, 11);
    const double p = 0.3, n = 20000;
    const double half = 1.959964 * std::sqrt(p * (1 - p) / n);
    const Interval& s = result.groups[0].selectionRate;
    CHECK(s.estimate == Approx(p));
    // Monte-Carlo error of a 2.5 % quantile from 2000 resamples is about 5 % of the half-width.
    CHECK(s.high - s.estimate == Approx(half).epsilon(0.12));
    CHECK(s.estimate - s.low == Approx(half).epsilon(0.12));
    // The TPR of A: 4000 of 10 000 positives; its own binomial half-width (the count of
    // positives varies too, which the ratio's delta method absorbs to first order).
    const double tprHalf = 1.959964 * std::sqrt(0.4 * 0.6 / 10000);
    const Interval& tpr = result.groups[0].tpr;
    CHECK((tpr.high - tpr.low) / 2 == Approx(tprHalf).epsilon(0.12));
    // The gap of two independent groups: ΔFPR = 0.2 − 0.1 = 0.1 dominates ΔTPR = 0.4 − 0.3.
    // Its half-width is that of a difference of independent proportions.
    const double gapHalf = 1.959964 * std::sqrt(0.2 * 0.8 / 10000 + 0.1 * 0.9 / 5000);
    CHECK(result.gap.estimate == Approx(0.1));
    CHECK((result.gap.high - result.gap.low) / 2 == Approx(gapHalf).epsilon(0.15));
}

TEST_CASE("The bootstrap is reproducible from its seed and its intervals cover the estimates",
          "[report][bootstrap]") {
    const std::vector<ConfusionCounts> groups = {{"A", 120, 40, 30, 210}, {"B", 25, 12, 15, 48}};
    const BootstrapResult a = bootstrapGroups(groups, FairnessNotion::EqualOpportunity, 500, 3);
    const BootstrapResult b = bootstrapGroups(groups, FairnessNotion::EqualOpportunity, 500, 3);
    const BootstrapResult c = bootstrapGroups(groups, FairnessNotion::EqualOpportunity, 500, 4);
    for (std::size_t g = 0; g < groups.size(); ++g) {
        CHECK(a.groups[g].tpr.low == b.groups[g].tpr.low);
        CHECK(a.groups[g].tpr.high == b.groups[g].tpr.high);
        for (const Interval* i : {&a.groups[g].baseRate, &a.groups[g].selectionRate,
                                  &a.groups[g].tpr, &a.groups[g].fpr, &a.groups[g].accuracy}) {
            CHECK(i->low <= i->estimate);
            CHECK(i->estimate <= i->high);
            CHECK(i->low < i->high);
        }
    }
    CHECK(a.gap.low == b.gap.low);
    CHECK((a.gap.low != c.gap.low || a.gap.high != c.gap.high));
}

TEST_CASE("A report of a trained run: its gap, ledger and rerun command", "[report]") {
    const PreparedDatasetPtr data = [] {
        DatasetRequest request;
        request.knobs<SyntheticOptions>().rows = 1200;
        request.split.seed = 3;
        return prepareDataset(request);
    }();
    TrainConfig config;
    config.algorithm = "dp-fermi";
    config.epsilon = 2.0;
    config.lambda = 0.5;
    config.epochs = 3;
    config.seed = 5;
    config.lrTheta = 0.2;
    const std::string key = runKey(data->key, config);
    TrainingObserver observer;
    CancelToken never;
    const RunResult result = runAlgorithm(config, data->split, observer, never);
    RunContext context = data->context;
    context.runKey = key;
    const JsonValue record = parseJson(runRecordJson(result, context));

    std::string note;
    const std::string command = reproduceCommand(record, &note);
    CHECK(note.empty());
    CHECK(command ==
          "pfa-cli train --dataset synthetic --synthetic-rows 1200 --split-seed 3 --algorithm "
          "dp-fermi "
          "--fairness dp --epsilon 2 --lambda 0.5 --seeds 5 --epochs 3 --lr-theta 0.2 --out "
          "rerun.jsonl");

    ReportOptions options;
    options.resamples = 400;
    const ReportModel model = buildReport({record}, options);
    REQUIRE(model.bootstrap);
    // The gap recomputed from the reconstructed counts is the record's violation.
    CHECK(model.bootstrap->gap.estimate ==
          Approx(result.test.violation(config.fairness)).margin(1e-12));
    CHECK(model.isPrivate);
    CHECK_THAT(model.ledger, Catch::Contains("RDP composition of 1 run"));
    CHECK(model.points.size() == 1);
    CHECK(model.points[0].chosen);
    // A run of another notion is not drawn on this violation's axis.
    std::string otherText = runRecordJson(result, context);
    const std::string notion = "\"fairness\":\"dp\"";
    REQUIRE(otherText.find(notion) != std::string::npos);
    otherText.replace(otherText.find(notion), notion.size(), "\"fairness\":\"eo\"");
    const ReportModel both = buildReport({parseJson(otherText), record}, options);
    CHECK(both.points.size() == 1);
    CHECK(both.otherDataPoints == 1);

    const pfa::test::TempFile html("", ".html");
    writeReport(model, html.path());
    std::ifstream in(html.path());
    std::stringstream text;
    text << in.rdbuf();
    CHECK_THAT(text.str(), Catch::Contains("<svg"));
    CHECK_THAT(text.str(), Catch::Contains("Guarantee: (ε = "));
    CHECK_THAT(text.str(), Catch::Contains(command));
    CHECK_THROWS_AS(writeReport(model, html.path() + ".txt"), InputError);
    ReportOptions second = options;
    second.run = "2";  // the file holds one run
    CHECK_THROWS_AS(buildReport({record}, second), InputError);
    CHECK_THROWS_AS(buildReport({}, options), InputError);
}

TEST_CASE("A report with many groups and a long statement stays on one page", "[report]") {
    ReportModel model;
    model.title = "dp-fermi on a file with many groups";
    model.generated = "2026-01-01 00:00 UTC";
    model.version = "test";
    model.dataset = {{"Data set", "many groups"}, {"Rows", "1000 training, 400 test"}};
    model.configuration = {{"Algorithm", "dp-fermi"}};
    std::vector<ConfusionCounts> counts;
    for (int g = 0; g < 16; ++g) {
        counts.push_back({"Intersection number " + std::to_string(g), 5 + g, 3, 4, 10 + g});
        model.groups.push_back(rowOf(counts.back()));
    }
    model.bootstrap = bootstrapGroups(counts, FairnessNotion::DemographicParity, 200, 0);
    model.intervalMethod = "percentile bootstrap";
    for (int i = 0; i < 20; ++i) {
        model.points.push_back(
            {0.2 + 0.001 * i, 0.1 + 0.01 * i, i % 2 ? 1.0 : INFINITY, "dp-fermi", i == 3});
    }
    model.violationName = "demographic parity violation";
    model.gapName = "DP gap";
    model.statement =
        "Privacy statement — test\nGuarantee: (ε = 1, δ = 1e-06)-differential privacy per record.";
    for (int line = 0; line < 14; ++line) {
        model.statement +=
            "\nLine " + std::to_string(line) +
            ": a long line of the statement that wraps over the whole width of the page "
            "more than once, as the mechanism and limits lines of real statements do.";
    }
    model.ledger = "ε = 3 at δ = 1e-06";
    model.reproduce = "pfa-cli train --dataset synthetic --out rerun.jsonl";
    const pfa::test::TempFile pdf("", ".pdf");
    writeReport(model, pdf.path());
    std::ifstream in(pdf.path(), std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    const std::string text = bytes.str();
    REQUIRE(text.rfind("%PDF-", 0) == 0);
    // cairo writes each page object as "<< /Type /Page"; the page tree is "/Type /Pages".
    std::size_t pages = 0;
    for (std::size_t at = text.find("/Type /Page"); at != std::string::npos;
         at = text.find("/Type /Page", at + 1)) {
        pages += text.compare(at, 12, "/Type /Pages") != 0;
    }
    CHECK(pages == 1);
}

TEST_CASE("The report's tradeoff chart says what its runs protect, and warns when they differ",
          "[report][protection]") {
    const PreparedDatasetPtr data = test::preparedSynthetic(1200);
    TrainConfig config;
    config.algorithm = "dp-fermi";
    config.fairness = FairnessNotion::EqualizedOdds;
    config.epsilon = 1.0;
    config.lambda = 1.0;
    config.epochs = 2;
    TrainingObserver observer;
    CancelToken never;
    auto recordOf = [&](const TrainConfig& c) {
        RunContext context = data->context;
        context.runKey = runKey(data->key, c);
        return parseJson(runRecordJson(runAlgorithm(c, data->split, observer, never), context));
    };
    const JsonValue records = recordOf(config);
    config.lambda = 2.0;
    const JsonValue records2 = recordOf(config);
    ReportOptions options;
    options.resamples = 200;
    const ReportModel same = buildReport({records, records2}, options);
    CHECK(same.protections == std::vector<std::string>{"record, add/remove-one"});
    CHECK(same.protectionNote == "Protects: record, add/remove-one (every private run drawn).");

    TrainConfig attribute = config;
    attribute.algorithm = "dp-postprocessing";
    attribute.lambda = 0.0;
    attribute.scope = ProtectionScope::SensitiveOnly;
    const ReportModel mixed = buildReport({records, recordOf(attribute), records2}, options);
    REQUIRE(mixed.mixedProtection());
    CHECK_THAT(mixed.protectionNote, Catch::Contains("different protection"));
    CHECK_THAT(mixed.protectionNote, Catch::Contains("2 runs: record, add/remove-one"));
    CHECK_THAT(mixed.protectionNote,
               Catch::Contains("1 run: a record's sensitive attribute, replace-one"));
    REQUIRE(mixed.points.size() == 3);
    CHECK(mixed.points[0].protection == 0);
    CHECK(mixed.points[1].protection == 1);
    CHECK(mixed.points[2].protection == 0);

    const pfa::test::TempFile html("", ".html");
    writeReport(mixed, html.path());
    std::ifstream in(html.path());
    std::stringstream text;
    text << in.rdbuf();
    CHECK_THAT(text.str(), Catch::Contains("different protection"));
    const pfa::test::TempFile pdf("", ".pdf");
    writeReport(mixed, pdf.path());  // the PDF page lays the note out too
}

}  // namespace core_report_test
