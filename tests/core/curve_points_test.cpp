// Shared pieces of the fair-learning baselines: scheduled Gaussian releases in the accounting
// inputs (privacy-accounting.md §10 O2 through AccountingInputs and the record), metrics of a
// randomised classifier in expectation (baselines.md §0), and runs with several tradeoff
// points (a post-processing run's γ-curve) in records and sweep summaries.

#include <catch2/catch.hpp>
#include <cmath>

#include "core/algorithms/registry.h"
#include "core/fairness/fairness_metrics.h"
#include "core/privacy/accounting_json.h"
#include "core/privacy/run_accountant.h"
#include "core/sweep/run_record.h"
#include "core/sweep/sweep_summary.h"
#include "core/util/json_value.h"
#include "core/util/json_writer.h"
#include "test_data.h"

namespace core_curve_points_test {

using namespace pfa;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

/// The O2 ledger of privacy-accounting.md §10 as accounting inputs: 2000 Poisson-subsampled
/// Gaussian steps (q = 0.01, z = 1.1), one full-batch Gaussian (z = 100) after every 100
/// steps, and a Laplace count release charged by basic composition (ε₀ = 0.05).
privacy::AccountingInputs o2Inputs() {
    privacy::AccountingInputs in;
    in.kind = privacy::ReleaseKind::PoissonSubsampled;
    in.samplingRate = 0.01;
    in.noiseMultiplier = 1.1;
    in.sensitivity = "C_p";
    in.steps = 2000;
    in.delta = 1e-5;
    in.gaussianReleases.push_back({"cell sums", 100.0, 100, "C_d"});
    in.pureReleases.push_back({"cell counts", "Laplace(2/eps0) per cell", 0.05});
    return in;
}

}  // namespace

TEST_CASE("Scheduled Gaussian releases: the O2 ledger, partial runs and the record",
          "[privacy][curve-points]") {
    const privacy::AccountingInputs in = o2Inputs();
    CHECK(in.gaussianReleases.front().releasesAfter(2000) == 20);
    CHECK(in.gaussianReleases.front().releasesAfter(199) == 1);
    CHECK(in.gaussianReleases.front().releasesAfter(99) == 0);
    // Primal + dual = 2.389134758714, + basic composition of ε₀ = 0.05 → 2.439134758714.
    CHECK_THAT(privacy::certifiedEpsilon(in).epsilon, WithinRel(2.439134758714, 1e-8));
    privacy::AccountingInputs withoutDual = in;
    withoutDual.gaussianReleases.clear();
    withoutDual.pureReleases.clear();
    CHECK_THAT(privacy::certifiedEpsilon(withoutDual).epsilon, WithinRel(2.380934758714, 1e-8));

    // The live accountant charges only the releases made so far: after 100 steps one dual
    // release, which the same inputs with the schedule cut to 100 steps also give.
    const privacy::RunAccountant live(in);
    CHECK(live.after(2000).epsilon == privacy::certifiedEpsilon(in).epsilon);
    CHECK(live.after(100).epsilon == privacy::certifiedEpsilon(in.afterSteps(100)).epsilon);
    CHECK(live.after(99).epsilon < live.after(100).epsilon);

    // The record holds the schedule, and the accountant recomputes ε from it exactly.
    JsonWriter json;
    privacy::writeAccountingJson(json, in);
    const JsonValue parsed = parseJson(json.text());
    REQUIRE(parsed.has("gaussian_releases"));
    CHECK(parsed.at("gaussian_releases").items().front().at("releases").asNumber() == 20);
    const privacy::AccountingInputs back = privacy::accountingFromJson(parsed);
    REQUIRE(back.gaussianReleases.size() == 1);
    CHECK(back.gaussianReleases.front().everySteps == 100);
    CHECK(privacy::certifiedEpsilon(back).epsilon == privacy::certifiedEpsilon(in).epsilon);
    // Inputs without a schedule write no such field (older records stay as they were).
    JsonWriter plain;
    privacy::writeAccountingJson(plain, withoutDual);
    CHECK_FALSE(parseJson(plain.text()).has("gaussian_releases"));
}

TEST_CASE("A randomised classifier is scored in expectation", "[fairness][curve-points]") {
    // Rows (s, y): group 0 = rows 0–3, group 1 = rows 4–5.
    Eigen::VectorXi y(6), s(6);
    y << 1, 0, 1, 0, 1, 0;
    s << 0, 0, 0, 0, 1, 1;
    Eigen::VectorXd p(6);
    p << 0.9, 0.2, 0.5, 0.1, 0.4, 0.6;
    const std::vector<std::string> groups{"a", "b"};
    const FairnessMetrics m = evaluateFairnessInExpectation(p, y, s, groups, 1);
    // Expected error: mean of y(1 − p) + (1 − y)p = (0.1 + 0.2 + 0.5 + 0.1 + 0.6 + 0.6)/6.
    CHECK_THAT(m.error, WithinAbs(2.1 / 6.0, 1e-15));
    // Selection rates 0.425 and 0.5; TPR 0.7 and 0.4; FPR 0.15 and 0.6.
    CHECK_THAT(m.groups[0].selectionRate, WithinAbs(0.425, 1e-15));
    CHECK_THAT(m.groups[1].truePositiveRate, WithinAbs(0.4, 1e-15));
    CHECK_THAT(m.dpGap, WithinAbs(0.075, 1e-15));
    CHECK_THAT(m.eoGap, WithinAbs(0.45, 1e-15));  // max(|0.7 − 0.4|, |0.15 − 0.6|)
    CHECK_THAT(m.eoppGap, WithinAbs(0.3, 1e-15));

    // A deterministic classifier (probabilities 0 or 1) scores as its hard predictions.
    Eigen::VectorXi hard(6);
    hard << 1, 0, 0, 0, 1, 1;
    const FairnessMetrics h = evaluateFairness(hard, RowMatrix(0, 2), y, s, groups, 2, 1);
    const FairnessMetrics e = evaluateFairnessInExpectation(hard.cast<double>(), y, s, groups, 1);
    CHECK(e.error == h.error);
    CHECK(e.dpGap == h.dpGap);
    CHECK(e.eoGap == h.eoGap);
    CHECK(e.eoppGap == h.eoppGap);
    CHECK(e.groups[1].falsePositiveRate == h.groups[1].falsePositiveRate);
}

TEST_CASE("A run's curve points survive the record and become one sweep cell per value",
          "[sweep][curve-points]") {
    const DataSplit data = test::syntheticSplit(600);
    TrainConfig config;
    config.algorithm = "erm";
    config.epsilon = INFINITY;
    config.lambda = 0.0;
    config.epochs = 2;
    TrainingObserver observer;
    CancelToken cancel;
    RunResult run = runAlgorithm(config, data, observer, cancel);
    const double gammas[] = {0.0, 0.05, INFINITY};
    for (double gamma : gammas) {
        CurvePoint point;
        point.setting = "gamma";
        point.value = gamma;
        point.test.error = 0.2 + gamma / 10.0;
        point.test.eoGap = std::isinf(gamma) ? 0.3 : gamma;
        point.test.dpGap = 0.01;
        run.curve.push_back(point);
    }
    run.curve.back().test.error = 0.15;

    std::vector<JsonValue> records;
    for (int seed = 0; seed < 2; ++seed) {
        RunContext context;
        context.runKey =
            "dataset=d;algorithm=erm;fairness=eo;epsilon=inf;seed=" + std::to_string(seed) +
            ";gamma=0.05";
        run.config.fairness = FairnessNotion::EqualizedOdds;
        records.push_back(parseJson(runRecordJson(run, context)));
    }
    const RunResult back = runResultFromJson(records.front());
    REQUIRE(back.curve.size() == 3);
    CHECK(back.curve[2].setting == "gamma");
    CHECK(std::isinf(back.curve[2].value));
    CHECK(back.curve[1].test.eoGap == 0.05);

    // Two seeds × three γ values: three cells of two runs each, keyed by γ.
    const std::vector<SweepCell> cells = summarizeRecords(records);
    REQUIRE(cells.size() == 3);
    CHECK(cells[0].cellKey == "dataset=d;algorithm=erm;fairness=eo;epsilon=inf;gamma=0");
    CHECK(cells[2].cellKey == "dataset=d;algorithm=erm;fairness=eo;epsilon=inf;gamma=inf");
    CHECK(cells[0].runs == 2);
    CHECK(cells[1].violation.mean == 0.05);  // the equalized-odds gap of the point
    CHECK(cells[2].testError.mean == 0.15);
    // Without curves: one cell of the runs' headline points.
    const std::vector<SweepCell> headline = summarizeRecords(records, false);
    REQUIRE(headline.size() == 1);
    CHECK(headline[0].runs == 2);
    CHECK(headline[0].testError.mean == run.test.error);
    // A key without the setting gets it appended.
    CHECK(withKeySetting("algorithm=a;seed=1", "gamma", "0.5") == "algorithm=a;seed=1;gamma=0.5");
}

}  // namespace core_curve_points_test
