// Views of runs whose unit of privacy is a silo or a user: error (or excess risk) vs ε per
// algorithm and trust model with the fitted theory rate dashed, the spread of the test error
// over silos and users (sweep view and run details), and the live error chart showing excess
// risk and the share of units removed.
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <catch2/catch.hpp>
#include <cmath>

#include "core/algorithms/registry.h"
#include "core/sweep/sweep_preset.h"
#include "core/sweep/sweep_spec.h"
#include "core/sweep/theory_rates.h"
#include "ui/actions/sweep_actions.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/error_epsilon_view.h"
#include "ui/charts/unit_spread_view.h"
#include "ui/controllers/sweep_controller.h"
#include "ui/panels/dataset_card.h"
#include "ui/panels/experiment_panel.h"
#include "ui/panels/live_charts_panel.h"
#include "ui/panels/run_details_panel.h"
#include "ui/panels/sweep_views_panel.h"
#include "ui_test_support.h"

namespace ui_unit_views_test {

using namespace pfa::ui;

namespace {

constexpr double kDelta = 1e-4;
constexpr int kSilos = 8, kRowsPerSilo = 250, kFeatures = 9;

/// A finished isrl-dp-sgd run on 8 silos of 250 rows whose test error follows the theory
/// rate: 0.12 + c·(privacy part of the rate) + the seed's offset (−s, 0, +s: the seeds' mean
/// is exact), each silo's error spread around it. `wiggle` bends the curve off the rate's shape
/// (as measured curves are), for pictures.
RunEntryPtr siloRun(int id, const std::string& trust, double epsilon, std::uint64_t seed, double c,
                    bool wiggle = false) {
    pfa::RunResult r;
    r.dataset = "synthetic";
    r.status = pfa::RunStatus::Completed;
    r.config.algorithm = "isrl-dp-sgd";
    r.config.extra["trust"] = trust;
    r.config.epsilon = epsilon;
    r.config.lambda = 0.0;
    r.config.seed = seed;
    r.config.delta = kDelta;
    r.privacy.isPrivate = std::isfinite(epsilon);
    r.privacy.epsilonSpent = epsilon;
    r.privacy.delta = kDelta;
    r.theta = pfa::RowMatrix::Zero(1, kFeatures + 1);
    r.unitKind = "silo";
    pfa::RateInputs in;
    in.algorithm = r.config.algorithm;
    in.settings = r.config.extra;
    in.n = kRowsPerSilo;
    in.silos = kSilos;
    in.d = kFeatures;
    in.delta = kDelta;
    const pfa::RateShape rate = *pfa::theoryRate(in);
    double privacyPart = std::isfinite(epsilon) ? rate.f(epsilon) - rate.f(INFINITY) : 0.0;
    if (wiggle && std::isfinite(epsilon))
        privacyPart *= 1.0 + 0.3 * std::sin(2.5 * std::log(epsilon));
    const double offset = (static_cast<double>(seed) - 1.0) * 0.004;
    r.test.error = 0.12 + c * privacyPart + offset;
    for (int s = 0; s < kSilos; ++s) {
        pfa::UnitMetrics unit;
        unit.name = "silo " + std::to_string(s + 1);
        unit.trainRows = kRowsPerSilo;
        unit.testRows = 60;
        unit.testError = r.test.error * (0.7 + 0.6 * s / (kSilos - 1.0));
        r.units.push_back(unit);
    }
    pfa::RunContext context;
    context.runKey = pfa::runKey("synthetic(silos=8)", r.config);
    context.trainRows = kSilos * kRowsPerSilo;
    return makeRunEntry(id, std::move(r), std::move(context), QDateTime::currentDateTime());
}

const std::vector<double> kEpsilons = {0.75, 1.5, 3, 6, 12, 18};

/// isrl and central trust at every ε and at ε = ∞, three seeds each; ISRL's constant 4,
/// central's 6. `all`: the local and shuffle models too, the curves bent off the rates.
std::vector<RunEntryPtr> siloSweep(bool all = false) {
    std::vector<RunEntryPtr> entries;
    int id = 1;
    std::vector<std::pair<std::string, double>> models = {{"isrl", 4.0}, {"central", 6.0}};
    if (all) models = {{"local", 1.5}, {"isrl", 4.0}, {"shuffle", 5.0}, {"central", 6.0}};
    for (const auto& [trust, c] : models) {
        std::vector<double> epsilons = kEpsilons;
        epsilons.push_back(INFINITY);
        for (double epsilon : epsilons) {
            for (std::uint64_t seed : {0, 1, 2}) {
                entries.push_back(siloRun(id++, trust, epsilon, seed, c, all));
            }
        }
    }
    return entries;
}

QString screenshotPath(const char* name) {
    return QStringLiteral(PFA_SCREENSHOT_DIR "/") + QLatin1String(name);
}

}  // namespace

TEST_CASE("Error vs ε: a line per trust model, mean of the seeds, the rate's constant fitted",
          "[unit-views]") {
    SweepViewsPanel panel;
    panel.resize(1280, 720);
    panel.setEntries(siloSweep());
    panel.refreshNow();
    const ErrorEpsilonView* view = panel.errorEpsilonView();
    REQUIRE(view->lines().size() == 2);
    const auto& isrl = view->lines()[0];
    const auto& central = view->lines()[1];
    CHECK(isrl.name == QStringLiteral("isrl-dp-sgd (trust = isrl)"));
    CHECK(central.name == QStringLiteral("isrl-dp-sgd (trust = central)"));
    CHECK(isrl.points == 6);
    CHECK_FALSE(isrl.excessRisk);
    // The seeds' offsets cancel: the means follow the rate exactly, and the fit over the ε = ∞
    // level recovers the constants the runs were made with.
    REQUIRE(isrl.overlay);
    REQUIRE(central.overlay);
    CHECK(isrl.overPrivateLevel);
    CHECK(isrl.c == Approx(4.0).epsilon(1e-9));
    CHECK(central.c == Approx(6.0).epsilon(1e-9));
    const QStringList legend = view->legendNames();
    CHECK(legend.contains(QStringLiteral("rate (constants unknown, 1 fitted: c = 4)")));
    CHECK(legend.contains(QStringLiteral("rate (constants unknown, 1 fitted: c = 6)")));
    CHECK(legend.contains(QStringLiteral("ε = ∞")));
    CHECK(view->yTitle() == QStringLiteral("test error"));
    CHECK(view->noteText().contains(QStringLiteral("ISRL-DP, convex")));
    CHECK(view->noteText().contains(QStringLiteral("over the ε = ∞ level")));
    // The dashed overlay is in the line's colour, and distinguishable from it by its pen.
    QLineSeries* measured = nullptr;
    QLineSeries* overlay = nullptr;
    for (QAbstractSeries* series : view->chart()->series()) {
        auto* line = qobject_cast<QLineSeries*>(series);
        if (!line) continue;
        if (line->name() == isrl.name) measured = line;
        if (line->name().startsWith(QStringLiteral("rate")) && !overlay) overlay = line;
    }
    REQUIRE(measured);
    REQUIRE(overlay);
    CHECK(overlay->pen().color() == measured->pen().color());
    CHECK(overlay->pen().style() != measured->pen().style());
    CHECK(overlay->count() == 48);
    // Without the non-private runs the whole rate is fitted (no level to fit over).
    std::vector<RunEntryPtr> privateOnly;
    for (const RunEntryPtr& entry : siloSweep()) {
        if (std::isfinite(entry->result.config.epsilon)) privateOnly.push_back(entry);
    }
    panel.setEntries(privateOnly);
    panel.refreshNow();
    REQUIRE(view->lines().size() == 2);
    CHECK_FALSE(view->lines()[0].overPrivateLevel);
    CHECK(view->lines()[0].overlay);
    CHECK(view->noteText().contains(QStringLiteral("to the whole rate")));
    CHECK_FALSE(view->legendNames().contains(QStringLiteral("ε = ∞")));
}

TEST_CASE("Error vs ε shows excess risk where runs report it, and says when no rate is known",
          "[unit-views]") {
    ErrorEpsilonView view;
    view.resize(1000, 600);
    std::vector<pfa::SweepPoint> points;
    for (double epsilon : {1.0, 2.0, 4.0}) {
        for (int seed = 0; seed < 2; ++seed) {
            pfa::SweepPoint p;
            p.runKey = "dataset=d;algorithm=user-level-dp-sgd;epsilon=" + std::to_string(epsilon) +
                       ";seed=" + std::to_string(seed) + ";noise=naive";
            p.algorithm = "user-level-dp-sgd";
            p.epsilon = epsilon;
            p.testError = 0.3;
            p.excessRisk = 0.2 / epsilon + 0.01 * seed;
            points.push_back(p);
        }
    }
    const std::vector<pfa::SweepCell> cells = pfa::summarizePoints(points);
    REQUIRE(cells.size() == 3);
    CHECK(cells[0].excessRisk.n == 2);
    CHECK(cells[0].excessRisk.mean == Approx(0.205));
    view.setCells(cells, std::vector<std::optional<pfa::RateShape>>(cells.size()));
    REQUIRE(view.lines().size() == 1);
    CHECK(view.lines()[0].excessRisk);
    CHECK_FALSE(view.lines()[0].overlay);
    CHECK(view.yTitle() == QStringLiteral("excess risk"));
    CHECK(view.chart()->title().startsWith(QStringLiteral("Excess risk vs ε")));
    CHECK(view.noteText().contains(QStringLiteral("no theory rate known")));
    // Many lines: four notes under the chart, the rest in its tooltip.
    std::vector<pfa::SweepPoint> many;
    for (int line = 0; line < 6; ++line) {
        for (double epsilon : {1.0, 4.0}) {
            pfa::SweepPoint p;
            p.runKey = "dataset=d;algorithm=dp-sgd;epsilon=" + std::to_string(epsilon) +
                       ";seed=0;lr=" + std::to_string(line);
            p.algorithm = "dp-sgd";
            p.epsilon = epsilon;
            p.testError = 0.2 + 0.01 * line;
            many.push_back(p);
        }
    }
    const std::vector<pfa::SweepCell> manyCells = pfa::summarizePoints(many);
    view.setCells(manyCells, std::vector<std::optional<pfa::RateShape>>(manyCells.size()));
    REQUIRE(view.lines().size() == 6);
    CHECK(view.noteText().count(QLatin1Char('\n')) == 3);
    CHECK(view.noteText().endsWith(QStringLiteral("(2 more lines: hover here)")));
    CHECK_FALSE(view.view()->isEmpty());
    // Nothing to show: the empty state.
    view.setCells({}, {});
    CHECK(view.view()->isEmpty());
    CHECK(view.lines().empty());
}

TEST_CASE("Box statistics of the units' test errors", "[unit-views]") {
    const auto five = UnitSpreadView::fiveNumbers({4.0, 1.0, NAN, 3.0, 2.0});
    CHECK(five[0] == 1.0);
    CHECK(five[1] == Approx(1.75));
    CHECK(five[2] == Approx(2.5));
    CHECK(five[3] == Approx(3.25));
    CHECK(five[4] == 4.0);
    CHECK(std::isnan(UnitSpreadView::fiveNumbers({NAN})[2]));
    CHECK(UnitSpreadView::titleFor(QStringLiteral("silo")) ==
          QStringLiteral("Test error per silo"));
    CHECK(UnitSpreadView::titleFor(QStringLiteral("user")) ==
          QStringLiteral("Test error per user"));
}

TEST_CASE("Per-unit spread in the sweep views: one box per ε and trust model", "[unit-views]") {
    SweepViewsPanel panel;
    panel.resize(1280, 720);
    panel.setEntries(siloSweep());
    panel.refreshNow();
    const UnitSpreadView* spread = panel.unitSpreadView();
    CHECK_FALSE(spread->isEmpty());
    CHECK(spread->boxCount() == 2 * 7);  // two trust models × (six ε + ∞)
    CHECK(spread->chart()->title() == QStringLiteral("Test error per silo"));
}

TEST_CASE("Run details: the selected run's silos or users as a box, a line of text without units",
          "[unit-views]") {
    RunDetailsPanel panel;
    panel.resize(600, 700);
    panel.show();
    const RunEntryPtr silo = siloRun(3, "isrl", 1.5, 0, 4.0);
    panel.showRun(silo);
    CHECK(panel.unitSpread()->isVisibleTo(&panel));
    CHECK_FALSE(panel.unitNote()->isVisibleTo(&panel));
    CHECK(panel.unitSpread()->boxCount() == 1);
    CHECK(panel.unitSpread()->chart()->title() == QStringLiteral("Test error per silo"));

    pfa::RunResult plain = silo->result;
    plain.units.clear();
    plain.unitKind.clear();
    panel.showRun(makeRunEntry(4, plain, silo->context, QDateTime::currentDateTime()));
    CHECK_FALSE(panel.unitSpread()->isVisibleTo(&panel));
    CHECK(panel.unitNote()->isVisibleTo(&panel));
    CHECK(panel.unitNote()->text().contains(QStringLiteral("not split into silos or users")));

    pfa::RunResult users = silo->result;
    users.unitKind = "user";
    panel.showRuns({silo, makeRunEntry(5, users, silo->context, QDateTime::currentDateTime())});
    CHECK(panel.unitSpread()->isVisibleTo(&panel));
    CHECK(panel.unitSpread()->boxCount() == 2);
    // Silos and users side by side: "per unit".
    CHECK(panel.unitSpread()->chart()->title() == QStringLiteral("Test error per unit"));
}

TEST_CASE("Live error chart: excess risk replaces the test error, removed share dashed",
          "[unit-views][livecharts]") {
    LiveChartsPanel panel;
    panel.resize(1280, 720);
    panel.setSmoothingWindow(0);  // raw values (the choice is remembered across panels)
    pfa::TrainConfig config;
    config.algorithm = "user-level-dp-sgd";
    config.epsilon = 2.0;
    config.delta = 1e-5;
    config.epochs = 10;
    std::vector<pfa::EpochMetrics> history;
    for (int e = 1; e <= 10; ++e) {
        pfa::EpochMetrics m;
        m.epoch = e;
        m.step = e;
        m.testError = 0.4;
        m.excessRisk = 1.5 / e;  // above 1: not clamped like an error rate
        m.removedFraction = 0.05 * (e % 3);
        m.epsilonSpent = 0.2 * e;
        history.push_back(m);
    }
    panel.beginLiveRun(1, config);
    panel.appendLive(1, history);
    panel.refreshNow();
    QChart* chart = panel.chartOf(1);
    CHECK(chart->title() == QStringLiteral("Excess risk"));
    CHECK(panel.yAxisOf(1)->titleText() == QStringLiteral("excess risk"));
    CHECK(panel.yAxisOf(1)->max() >= 1.5);
    const auto sets = panel.seriesOf(1);
    REQUIRE(sets.size() == 1);
    CHECK(sets[0].line->count() == 10);
    CHECK(sets[0].line->at(0).y() == Approx(1.5));
    CHECK(sets[0].dashed->count() == 10);
    CHECK(sets[0].dashed->at(1).y() == Approx(0.1));
    REQUIRE(panel.dashedKeyOf(1));
    CHECK(panel.dashedKeyOf(1)->name() == QStringLiteral("share of units removed"));

    // A run without those read-outs: the test error again, no dashed line.
    for (pfa::EpochMetrics& m : history) {
        m.excessRisk = NAN;
        m.removedFraction = NAN;
    }
    panel.beginLiveRun(2, config);
    panel.appendLive(2, history);
    panel.refreshNow();
    CHECK(chart->title() == QStringLiteral("Test error"));
    CHECK(panel.yAxisOf(1)->titleText() == QStringLiteral("error rate"));
    CHECK(panel.yAxisOf(1)->max() <= 1.0);
    CHECK(panel.seriesOf(1)[0].dashed->count() == 0);
    CHECK(panel.seriesOf(1)[0].line->at(0).y() == Approx(0.4));
}

TEST_CASE("Screenshots of the error-vs-ε and per-unit views at 1280×720",
          "[unit-views][screenshot][slow]") {
    SweepViewsPanel panel;
    panel.resize(1280, 720);
    panel.setEntries(siloSweep(true));
    panel.show();
    panel.refreshNow();
    panel.tabs()->setCurrentWidget(panel.errorEpsilonView());
    QTest::qWait(50);
    // Four trust models, each with its fitted rate: noise shrinks from local to ISRL to central.
    REQUIRE(panel.errorEpsilonView()->lines().size() == 4);
    for (const auto& line : panel.errorEpsilonView()->lines()) {
        CHECK(line.overlay);
        CHECK(line.overPrivateLevel);
    }
    QImage shot = panel.grab().toImage();
    CHECK(shot.width() == 1280);
    REQUIRE(shot.save(screenshotPath("error-vs-epsilon.png")));
    panel.tabs()->setCurrentWidget(panel.unitSpreadView());
    QTest::qWait(50);
    REQUIRE(panel.grab().save(screenshotPath("unit-spread.png")));
}

TEST_CASE("Screenshots of the run details with silos and the live excess-risk chart",
          "[unit-views][screenshot]") {
    RunDetailsPanel details;
    details.resize(520, 700);
    details.show();
    details.showRun(siloRun(3, "isrl", 1.5, 0, 4.0));
    QTest::qWait(50);
    CHECK(details.unitSpread()->boxCount() == 1);
    REQUIRE(details.grab().save(screenshotPath("unit-spread-details.png")));

    LiveChartsPanel live;
    live.resize(1280, 720);
    live.setSmoothingWindow(0);
    live.show();
    pfa::TrainConfig config;
    config.algorithm = "user-level-dp-sgd";
    config.epsilon = 2.0;
    config.delta = 1e-5;
    config.epochs = 40;
    std::vector<pfa::EpochMetrics> history;
    for (int e = 1; e <= 40; ++e) {
        pfa::EpochMetrics m;
        m.epoch = e;
        m.step = e;
        m.trainLoss = 0.6 / std::sqrt(e);
        m.testError = 0.3;
        m.excessRisk = 0.8 / std::sqrt(e) + 0.02 * std::sin(e);
        m.removedFraction = 0.1 + 0.05 * std::sin(0.7 * e);
        m.epsilonSpent = 0.05 * e;
        history.push_back(m);
    }
    live.beginLiveRun(1, config);
    live.appendLive(1, history);
    live.refreshNow();
    QTest::qWait(50);
    CHECK(live.chartOf(1)->title() == QStringLiteral("Excess risk"));
    REQUIRE(live.grab().save(screenshotPath("live-excess-risk.png")));
}

TEST_CASE("Screenshots of the error-vs-ε and per-silo views from the trust-model preset",
          "[unit-views][screenshot][preset-shots][slow]") {
    // The preset as a user runs it: its data set (25 silos) chosen, its sweep started.
    auto window = test::readyWindow(2);
    const pfa::SweepPreset& preset = pfa::findSweepPreset("silos-trust-models");
    REQUIRE(window->experimentPanel()->selectDataset(preset.dataset));
    DatasetCard* card = window->datasetCard();
    REQUIRE(QTest::qWaitFor(
        [&] { return card->silosSummary().contains(QStringLiteral("25 silos")); }, 30000));
    REQUIRE(QTest::qWaitFor([&] { return window->experimentPanel()->problem().isEmpty(); }, 60000));
    QTemporaryDir dir;
    pfa::SweepSpec spec = preset.spec;
    spec.base.delta = window->experimentPanel()->config().delta;
    QSignalSpy finished(window->sweepController(), &SweepController::finished);
    QString error;
    REQUIRE(window->sweepActions()->startSweep(spec, 2, dir.filePath("trust.jsonl"), &error));
    REQUIRE(test::waitForSignals(finished, 1, 300000));
    SweepViewsPanel* views = window->sweepViews();
    views->refreshNow();
    // One line per trust model over the six finite ε, and one for ISRL-DP local SGD. Local and
    // ISRL pay visibly for privacy and get their dashed rate; central and shuffle sit near the
    // non-private level, where a fitted constant may come out non-positive (then none is drawn,
    // and said).
    const auto& lines = views->errorEpsilonView()->lines();
    REQUIRE(lines.size() == 5);
    QStringList names;
    for (const auto& line : lines) {
        if (line.name.contains(QStringLiteral("trust = local")) ||
            line.name.contains(QStringLiteral("trust = isrl"))) {
            CHECK(line.overlay);
        }
        CHECK(line.points == 6);
        names << line.name;
    }
    for (const char* trust : {"central", "shuffle", "isrl", "local"}) {
        CHECK(names.join(QLatin1Char('|'))
                  .contains(QStringLiteral("trust = ") + QLatin1String(trust)));
    }
    CHECK(names.join(QLatin1Char('|')).contains(QStringLiteral("isrl-local-sgd")));
    // As a user would look: the sweep views undocked at 1280×720.
    for (QDockWidget* dock : window->findChildren<QDockWidget*>()) {
        if (dock->objectName() != QLatin1String("sweepDock")) continue;
        dock->setFloating(true);
        dock->resize(1280, 720);
    }
    views->tabs()->setCurrentWidget(views->errorEpsilonView());
    QTest::qWait(200);
    REQUIRE(views->grab().save(screenshotPath("error-vs-epsilon-trust-preset.png")));
    views->tabs()->setCurrentWidget(views->unitSpreadView());
    QTest::qWait(200);
    REQUIRE(views->grab().save(screenshotPath("unit-spread-trust-preset.png")));
}

TEST_CASE("Per-unit spread draws no box where a line has no units, and no axis without any",
          "[unit-views]") {
    UnitSpreadView view;
    view.resize(640, 400);
    view.show();
    const QColor colour(200, 30, 30);
    // Two categories; the line has units at the first only (an ε without runs of it).
    view.setSeries(QStringLiteral("silo"), {QStringLiteral("ε = 1"), QStringLiteral("ε = 4")},
                   {{QStringLiteral("local"), colour, {{0.2, 0.25, 0.3, 0.35}, {}}}},
                   QStringLiteral("none"));
    QTest::qWait(50);
    CHECK(view.boxCount() == 1);
    const QImage image = view.view()->grab().toImage();
    const QRectF plot = view.chart()->plotArea();
    // Pixels of the box's colour (its pen, darker) in each half of the plot area.
    auto boxPixels = [&](double from, double to) {
        int count = 0;
        for (int x = static_cast<int>(plot.left() + from * plot.width());
             x < static_cast<int>(plot.left() + to * plot.width()); ++x) {
            for (int y = static_cast<int>(plot.top()); y < static_cast<int>(plot.bottom()); ++y) {
                const QColor pixel = image.pixelColor(x, y);
                if (pixel.red() > pixel.green() + 60 && pixel.red() > pixel.blue() + 60) ++count;
            }
        }
        return count;
    };
    CHECK(boxPixels(0.0, 0.5) > 50);  // the box that exists
    CHECK(boxPixels(0.5, 1.0) == 0);  // none where there are no units
    REQUIRE(image.save(screenshotPath("unit-spread-missing-epsilon.png")));
    // Whiskers stay within the plot: the y axis spans the values drawn.
    CHECK(view.chart()->axes(Qt::Vertical).front()->property("max").toDouble() >= 0.35);
    // Then data without units: the reason, and no axis left over from the boxes before.
    view.setSeries(QString(), {}, {}, QStringLiteral("No per-unit results"));
    CHECK(view.isEmpty());
    CHECK(view.boxCount() == 0);
    for (QAbstractAxis* axis : view.chart()->axes()) CHECK_FALSE(axis->isVisible());
}

TEST_CASE("Side by side, the runs' own setting that differs is listed: the trust model",
          "[unit-views][compare]") {
    RunDetailsPanel panel;
    panel.resize(900, 600);
    const RunEntryPtr central = siloRun(1, "central", 1.0, 0, 4.0);
    const RunEntryPtr local = siloRun(2, "local", 1.0, 0, 4.0);
    panel.showRuns({central, local});
    QTableWidget* table = panel.comparisonTable();
    int trustRow = -1;
    for (int r = 0; r < table->rowCount(); ++r) {
        if (table->item(r, 0)->text() == QString::fromStdString(pfa::findParameter("trust")->label))
            trustRow = r;
    }
    REQUIRE(trustRow >= 0);  // before, the table named no trust model at all
    CHECK(table->item(trustRow, 1)->text() == QStringLiteral("central"));
    CHECK(table->item(trustRow, 2)->text() == QStringLiteral("local"));
    CHECK(table->item(trustRow, 1)->font().bold());  // it differs
    // A setting the runs share is not repeated as an own-setting row.
    panel.showRuns({central, siloRun(3, "central", 2.0, 0, 4.0)});
    for (int r = 0; r < table->rowCount(); ++r)
        CHECK(table->item(r, 0)->text() !=
              QString::fromStdString(pfa::findParameter("trust")->label));
}

}  // namespace ui_unit_views_test
