// The sweep view of a final metric against any numeric setting or data knob the sweep varies:
// its axes and metrics, lines per algorithm, spacing of x, and the theory overlay evaluated at
// each point's own settings.
#include "ui/charts/error_setting_view.h"

#include <QDateTime>
#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "core/sweep/results_file.h"
#include "core/sweep/run_record.h"
#include "core/sweep/setting_axes.h"
#include "core/sweep/sweep_preset.h"
#include "core/sweep/sweep_summary.h"
#include "core/sweep/theory_rates.h"
#include "core/util/format.h"
#include "ui/actions/sweep_actions.h"
#include "ui/charts/chart_view.h"
#include "ui/controllers/sweep_controller.h"
#include "ui/panels/sweep_views_panel.h"
#include "ui/runs/run_history_model.h"
#include "ui_test_support.h"

namespace ui_error_setting_view_test {

using namespace pfa::ui;

namespace {

const double kShares[] = {0.0, 0.01, 0.05, 0.2};

/// Rows of a public-share sweep: semi-dp-sgd falls as 0.5/(1 + 100 p) (+ a seed offset that
/// cancels in the mean); the baseline stays flat. The semi-DP runs report a train loss too.
std::vector<pfa::SweepPoint> shareSweep() {
    std::vector<pfa::SweepPoint> points;
    for (const char* algorithm : {"semi-dp-sgd", "dp-sgd-linear"}) {
        for (double share : kShares) {
            for (int seed = 0; seed < 2; ++seed) {
                pfa::SweepPoint p;
                p.runKey =
                    std::string(
                        "dataset=synthetic-linear(n=12000,d=50,seed=1)|split=0,0.25;algorithm=") +
                    algorithm + ";epsilon=1;seed=" + std::to_string(seed) +
                    ";public-share=" + pfa::formatNumber(share, 17);
                p.algorithm = algorithm;
                p.epsilon = 1.0;
                const double level =
                    std::string(algorithm) == "semi-dp-sgd" ? 0.5 / (1.0 + 100.0 * share) : 0.6;
                p.testError = NAN;
                p.excessRisk = level + (seed == 0 ? -0.01 : 0.01);
                if (std::string(algorithm) == "semi-dp-sgd")
                    p.finalMetrics["train_loss"] = 2 * level;
                points.push_back(p);
            }
        }
    }
    // A baseline that does not read the setting: one cell, drawn as a level.
    for (int seed = 0; seed < 2; ++seed) {
        pfa::SweepPoint p;
        p.runKey =
            "dataset=synthetic-linear(n=12000,d=50,seed=1)|split=0,0.25;algorithm=plain-baseline;"
            "epsilon=1;seed=" +
            std::to_string(seed);
        p.algorithm = "plain-baseline";
        p.epsilon = 1.0;
        p.testError = NAN;
        p.excessRisk = 0.3;
        points.push_back(p);
    }
    return points;
}

QString screenshotPath(const char* name) {
    return QStringLiteral(PFA_SCREENSHOT_DIR "/") + QLatin1String(name);
}

}  // namespace

TEST_CASE("Error vs setting: lines along a swept setting, spacing, metrics and a fitted rate",
          "[ui][error-setting]") {
    const std::vector<pfa::SweepCell> cells = pfa::summarizePoints(shareSweep());
    REQUIRE(cells.size() == 9);
    // The semi-DP cells' rate: 1/(1 + 100 p), their own public share; the baseline has none.
    std::vector<std::optional<pfa::RateShape>> rates;
    for (const pfa::SweepCell& cell : cells) {
        const double share =
            pfa::axisValue(cell, pfa::SettingAxis{"public-share", false}).value_or(0.0);
        if (cell.algorithm == "semi-dp-sgd") {
            rates.push_back(pfa::RateShape{
                "1/(1 + 100 p)", [share](double) { return 1.0 / (1.0 + 100.0 * share); }, ""});
        } else {
            rates.push_back(std::nullopt);
        }
    }
    ErrorSettingView view;
    view.resize(1100, 600);
    view.setCells(cells, rates);
    REQUIRE(view.axes().size() == 1);
    CHECK(view.currentAxis() == QStringLiteral("public-share"));
    // 0 and values decades apart: grid order by default.
    CHECK(view.scale() == ErrorSettingView::Scale::Even);
    CHECK(view.xTitle() == QStringLiteral("public-share (grid order)"));
    CHECK(view.yTitle() == QStringLiteral("excess risk"));
    REQUIRE(view.lines().size() == 3);
    const auto& semi = view.lines()[0];
    // The baseline without a public share is a level across the plot, named so.
    CHECK(view.lines()[2].points == 0);
    CHECK(
        view.legendNames().contains(QStringLiteral("plain-baseline (does not read public-share)")));
    CHECK(semi.name == QStringLiteral("semi-dp-sgd"));
    CHECK(semi.points == 4);
    REQUIRE(semi.overlay);
    CHECK(semi.c == Approx(0.5).epsilon(1e-9));
    CHECK_FALSE(view.lines()[1].overlay);
    CHECK(
        view.legendNames().contains(QStringLiteral("rate (constants unknown, 1 fitted: c = 0.5)")));
    CHECK(view.noteText().contains(QStringLiteral("1/(1 + 100 p)")));
    // The dashed line passes through c·rate at every point.
    QLineSeries* overlay = nullptr;
    for (QAbstractSeries* series : view.chart()->series()) {
        auto* line = qobject_cast<QLineSeries*>(series);
        if (line && line->name().startsWith(QStringLiteral("rate"))) overlay = line;
    }
    REQUIRE(overlay);
    REQUIRE(overlay->count() == 4);
    CHECK(overlay->at(0).y() == Approx(0.5));
    CHECK(overlay->at(3).y() == Approx(0.5 / 21.0));

    // On a log scale the share 0 cannot be drawn: said under the chart, never silently.
    view.setScale(ErrorSettingView::Scale::Log);
    CHECK(view.lines()[0].points == 3);
    CHECK(view.noteText().contains(QStringLiteral("x ≤ 0")));

    // Another metric: the train loss exists only for semi-DP; the rate bounds the error, not it.
    REQUIRE(view.metrics().contains(QStringLiteral("train_loss")));
    REQUIRE(view.selectMetric(QStringLiteral("train_loss")));
    REQUIRE(view.lines().size() == 1);
    CHECK_FALSE(view.lines()[0].overlay);
    CHECK(view.yTitle() == QStringLiteral("train loss"));
    // The selection survives fresh cells (the views refresh while runs stream in).
    view.setCells(cells, rates);
    CHECK(view.yTitle() == QStringLiteral("train loss"));
    REQUIRE(view.grab().save(screenshotPath("error-vs-setting.png")));
}

TEST_CASE(
    "Error vs setting: a data knob as the x axis, and nothing to plot without a varying setting",
    "[ui][error-setting]") {
    std::vector<pfa::SweepPoint> points;
    for (const char* nu : {"2.5", "3", "8", "inf"}) {
        pfa::SweepPoint p;
        p.runKey = std::string("dataset=synthetic-heavy-tailed(n=2000,d=5,nu=") + nu +
                   ")|split=0,0.25;algorithm=noisy-clipped-gd;epsilon=1;seed=0";
        p.algorithm = "noisy-clipped-gd";
        p.epsilon = 1.0;
        p.testError = 1.0 / std::stod(nu);
        points.push_back(p);
    }
    const std::vector<pfa::SweepCell> cells = pfa::summarizePoints(points);
    ErrorSettingView view;
    view.resize(900, 500);
    view.setCells(cells, {});
    REQUIRE(view.currentAxis() == QStringLiteral("data: nu"));
    // ν = ∞ (Gaussian tails) has a place in grid order only: chosen so, and labelled ∞.
    CHECK(view.scale() == ErrorSettingView::Scale::Even);
    REQUIRE(view.lines().size() == 1);
    CHECK(view.lines()[0].points == 4);
    view.setScale(ErrorSettingView::Scale::Linear);
    CHECK(view.lines()[0].points == 3);
    CHECK(view.noteText().contains(QStringLiteral("x = ∞")));
    CHECK_FALSE(view.view()->isEmpty());
    // One data set, one setting: no axis, an empty view with its message.
    view.setCells({cells.front()}, {});
    CHECK(view.axes().empty());
    CHECK(view.lines().empty());
    CHECK(view.view()->isEmpty());
}

TEST_CASE(
    "A preset's data axes: the sweep runs on every variant and the views plot against the knob",
    "[ui][error-setting][data-axes]") {
    using namespace pfa::ui::test;
    auto window = readyWindow();
    const pfa::SweepPreset preset = pfa::parseSweepPreset(
        "rows.json",
        R"({"name":"rows","title":"t","source":"s","dataset":{"name":"synthetic","synthetic":{"rows":600,"features":4}},)"
        R"("data_axes":{"synthetic.rows":[400,800,1600]},"algorithms":["erm"],"fairness":["dp"],"epsilons":["inf"],)"
        R"("lambdas":[0],"seeds":[0,1],"config":{"epochs":3}})");
    REQUIRE(preset.dataVariants.size() == 3);
    QTemporaryDir dir;
    QSignalSpy finished(window->sweepController(), &SweepController::finished);
    QString error;
    REQUIRE(window->sweepActions()->startSweep(preset.spec, 2, dir.filePath("rows.jsonl"), &error,
                                               false, preset.dataVariants));
    CHECK(error.isEmpty());
    REQUIRE(waitForSignals(finished, 1, 60000));
    CHECK(finished.at(0).at(1).toString().isEmpty());
    QTest::qWait(50);
    // Two seeds on each of the three data sets, each run knowing its own data set.
    CHECK(window->historyModel()->rowCount() == 6);
    std::set<long> trainRows;
    for (const RunEntryPtr& entry : window->historyModel()->entries())
        trainRows.insert(entry->context.trainRows);
    CHECK(trainRows.size() == 3);
    // The views show the family of the three, and the error against the data's rows.
    SweepViewsPanel* views = window->sweepViews();
    views->refreshNow();
    CHECK(views->shownDataset().contains(QStringLiteral("(*)")));
    ErrorSettingView* view = views->errorSettingView();
    // Not shown, not redrawn: the view catches up when its tab is chosen.
    CHECK(view->lines().empty());
    views->tabs()->setCurrentWidget(view);
    REQUIRE(view->selectAxis(QStringLiteral("data: n")));
    REQUIRE(view->lines().size() == 1);
    CHECK(view->lines()[0].points == 3);
}

TEST_CASE(
    "Error vs setting: values spanning decades go on a log y axis, values ≤ 0 there are counted",
    "[ui][error-setting]") {
    std::vector<pfa::SweepPoint> points;
    for (double clip : {0.01, 0.1, 1.0, 10.0}) {
        for (const char* rule : {"tail", "naive"}) {
            pfa::SweepPoint p;
            p.runKey =
                std::string(
                    "dataset=d;algorithm=accelerated-clipped-gd;epsilon=1;seed=0;clip-norm=") +
                pfa::formatNumber(clip, 17) + ";clip-rule=" + rule;
            p.algorithm = "accelerated-clipped-gd";
            p.epsilon = 1.0;
            p.testError = std::string(rule) == "tail" ? 1000.0 * clip : 0.05;
            points.push_back(p);
        }
    }
    ErrorSettingView view;
    view.resize(900, 500);
    const std::vector<pfa::SweepCell> cells = pfa::summarizePoints(points);
    view.setCells(cells, {});
    CHECK(view.logY());
    CHECK(view.yTitle() == QStringLiteral("test error (log scale)"));
    CHECK(view.scale() == ErrorSettingView::Scale::Log);
    REQUIRE(view.lines().size() == 2);
    // Chosen by hand, it stays; a zero is counted, not drawn.
    view.setLogY(false);
    CHECK(view.yTitle() == QStringLiteral("test error"));
    points.back().testError = 0.0;
    view.setLogY(true);
    view.setCells(pfa::summarizePoints(points), {});
    CHECK(view.logY());
    CHECK(view.noteText().contains(QStringLiteral("value ≤ 0")));
}

// Screenshots of the sweep views on a results file, as a user opening it would see them (run by
// hand: PFA_VIEW_RESULTS=FILE PFA_VIEW_TAB=N PFA_VIEW_AXIS=LABEL PFA_VIEW_METRIC=COLUMN
// PFA_VIEW_SHOT=NAME.png bin/pfa_ui_tests "[.view-shot]"; PFA_VIEW_ALGORITHMS narrows the runs
// to a comma-separated list, PFA_VIEW_EPSILONS the private runs to those ε, e.g. "0.5,1").
TEST_CASE("Sweep views of a results file, saved as a screenshot", "[.view-shot]") {
    const QString file = qEnvironmentVariable("PFA_VIEW_RESULTS");
    REQUIRE_FALSE(file.isEmpty());
    const QStringList algorithms =
        qEnvironmentVariable("PFA_VIEW_ALGORITHMS").split(QLatin1Char(','), Qt::SkipEmptyParts);
    const QStringList epsilons =
        qEnvironmentVariable("PFA_VIEW_EPSILONS").split(QLatin1Char(','), Qt::SkipEmptyParts);
    std::vector<RunEntryPtr> entries;
    int id = 1;
    for (const pfa::JsonValue& record : pfa::readResultsFile(file.toStdString()).records) {
        pfa::RunContext context;
        pfa::RunResult result = pfa::runResultFromJson(record, &context);
        if (!algorithms.isEmpty() &&
            !algorithms.contains(QString::fromStdString(result.config.algorithm)))
            continue;
        if (!epsilons.isEmpty() && std::isfinite(result.config.epsilon) &&
            !epsilons.contains(QString::fromStdString(pfa::formatNumber(result.config.epsilon))))
            continue;
        entries.push_back(makeRunEntry(id++, std::move(result), std::move(context),
                                       QDateTime::currentDateTime()));
    }
    REQUIRE_FALSE(entries.empty());
    SweepViewsPanel panel;
    panel.resize(1280, 720);
    panel.show();
    panel.setEntries(entries);
    panel.refreshNow();
    if (qEnvironmentVariable("PFA_VIEW_AXIS").startsWith(QStringLiteral("data:"))) {
        // A data knob: the variants together, as the Data filter offers them.
        panel.followSweep(QString::fromStdString(pfa::datasetFamilyKey(
                              pfa::datasetOfRunKey(entries.front()->context.runKey))),
                          QStringLiteral("dp"));
    }
    panel.tabs()->setCurrentIndex(qEnvironmentVariableIntValue("PFA_VIEW_TAB"));
    if (!qEnvironmentVariable("PFA_VIEW_AXIS").isEmpty()) {
        REQUIRE(panel.errorSettingView()->selectAxis(qEnvironmentVariable("PFA_VIEW_AXIS")));
    }
    if (qEnvironmentVariableIsSet("PFA_VIEW_METRIC")) {
        REQUIRE(panel.errorSettingView()->selectMetric(qEnvironmentVariable("PFA_VIEW_METRIC")));
    }
    QTest::qWait(300);
    REQUIRE(panel.grab().save(screenshotPath(qPrintable(qEnvironmentVariable("PFA_VIEW_SHOT")))));
}

}  // namespace ui_error_setting_view_test
