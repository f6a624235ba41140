// Presentation mode (View → Presentation mode, F5): one switch enlarges every chart by the
// presentation factor (fonts, pens, markers, also charts made later), hides the side panels and
// goes full screen; Esc or the switch restores the exact previous layout.
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFontMetrics>
#include <QImage>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <catch2/catch.hpp>

#include "ui/charts/chart_export.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/tradeoff_chart.h"
#include "ui/controllers/sweep_controller.h"
#include "ui/panels/epsilon_control.h"
#include "ui/panels/lambda_control.h"
#include "ui/panels/live_charts_panel.h"
#include "ui/panels/teaching_panel.h"
#include "ui/runs/run_history_model.h"
#include "ui/shell/presenter_controls.h"
#include "ui_test_support.h"

namespace ui_presentation_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

QAction* presentationAction(MainWindow& window) {
    return window.findChild<QAction*>(QStringLiteral("presentationAction"));
}

/// The first chart view of `panel` that is on screen.
ChartView* shownChartView(QWidget* panel) {
    for (ChartView* view : panel->findChildren<ChartView*>())
        if (view->isVisible()) return view;
    return nullptr;
}

QScatterSeries* firstScatter(QChart* chart) {
    for (QAbstractSeries* series : chart->series())
        if (auto* scatter = qobject_cast<QScatterSeries*>(series); scatter && scatter->count() > 0)
            return scatter;
    return nullptr;
}

QLineSeries* firstLine(QChart* chart) {
    for (QAbstractSeries* series : chart->series())
        if (auto* line = qobject_cast<QLineSeries*>(series); line && line->count() > 0) return line;
    return nullptr;
}

/// What a viewer sees: a size in the chart's own units times the view's scale.
struct Drawn {
    double axisLabelPoints = 0, titlePoints = 0, penWidth = 0, markerSize = 0, scale = 0;
};

Drawn drawnSizes(ChartView* live, ChartView* tradeoff) {
    Drawn d;
    d.scale = live->drawnScale();
    const QAbstractAxis* axis = live->chart()->axes().front();
    d.axisLabelPoints = axis->labelsFont().pointSizeF() * live->drawnScale();
    d.titlePoints = live->chart()->titleFont().pointSizeF() * live->drawnScale();
    d.penWidth = firstLine(live->chart())->pen().widthF() * live->drawnScale();
    d.markerSize = firstScatter(tradeoff->chart())->markerSize() * tradeoff->drawnScale();
    return d;
}

}  // namespace

TEST_CASE("Presentation mode enlarges the charts, hides the side panels and restores the layout",
          "[ui][presentation]") {
    auto window = readyWindow(30);
    REQUIRE(runWithLambdas(*window, {0.0, 1.0}));
    // The charts redraw at most 30 times a second: draw the finished runs now rather than
    // depending on a timer having fired.
    window->liveCharts()->refreshNow();
    QAction* toggle = presentationAction(*window);
    REQUIRE(toggle);
    CHECK(toggle->isCheckable());
    CHECK(toggle->shortcut() == QKeySequence(Qt::Key_F5));
    CHECK_FALSE(toggle->toolTip().isEmpty());

    ChartView* live = shownChartView(window->liveCharts());
    ChartView* tradeoff = window->tradeoffChart()->view();
    REQUIRE(live);
    REQUIRE(firstLine(live->chart()));
    REQUIRE(firstScatter(tradeoff->chart()));
    const Drawn before = drawnSizes(live, tradeoff);
    CHECK(before.scale == Approx(1.0));
    settleLayouts();
    const QByteArray stateBefore = window->saveState();
    const QRect geometryBefore = window->geometry();
    auto* experimentDock = window->findChild<QDockWidget*>(QStringLiteral("experimentDock"));
    auto* historyDock = window->findChild<QDockWidget*>(QStringLiteral("historyDock"));
    auto* tradeoffDock = window->findChild<QDockWidget*>(QStringLiteral("tradeoffDock"));
    REQUIRE(experimentDock);
    REQUIRE(historyDock);
    REQUIRE(tradeoffDock);
    REQUIRE(experimentDock->isVisible());
    REQUIRE(historyDock->isVisible());
    const QKeySequence stopKeys = window->stopAction()->shortcut();

    // On: everything drawn 1.3 times larger, only the charts (and the run controls) shown.
    toggle->trigger();
    QTest::qWait(50);
    CHECK(toggle->isChecked());
    const double factor = chart_style::kPresentationFactor;
    CHECK(chart_style::presentationScale() == Approx(factor));
    const Drawn on = drawnSizes(live, tradeoff);
    CHECK(on.scale == Approx(factor));
    CHECK(on.axisLabelPoints == Approx(before.axisLabelPoints * factor));
    CHECK(on.titlePoints == Approx(before.titlePoints * factor));
    CHECK(on.penWidth == Approx(before.penWidth * factor));
    CHECK(on.markerSize == Approx(before.markerSize * factor));
    // The chart is laid out at 1/factor of its view, so it still fills the view.
    CHECK(live->chart()->size().width() * factor == Approx(live->viewport()->width()).margin(1));
    CHECK_FALSE(experimentDock->isVisible());
    CHECK_FALSE(historyDock->isVisible());
    CHECK(tradeoffDock->isVisible());
    CHECK_FALSE(window->menuBar()->isVisible());
    CHECK_FALSE(window->statusBar()->isVisible());
    CHECK(window->windowState().testFlag(Qt::WindowFullScreen));
    // A visible way out on the toolbar, and Esc (Stop gives it up meanwhile).
    auto* leave = window->findChild<QAction*>(QStringLiteral("leavePresentationAction"));
    REQUIRE(leave);
    CHECK(leave->isEnabled());
    bool leaveOnToolbar = false;
    for (QToolBar* bar : window->findChildren<QToolBar*>())
        leaveOnToolbar = leaveOnToolbar || bar->widgetForAction(leave);
    CHECK(leaveOnToolbar);
    CHECK(window->stopAction()->shortcut() != QKeySequence(Qt::Key_Escape));

    // A chart made while presenting is enlarged too.
    {
        auto* chart = new QChart();
        auto* series = new QLineSeries();
        series->append(0, 0);
        series->append(1, 1);
        chart->addSeries(series);
        ChartView fresh(chart);
        fresh.resize(600, 400);
        fresh.show();
        QTest::qWait(20);
        CHECK(fresh.drawnScale() == Approx(factor));
        CHECK(chart->size().width() == Approx(fresh.viewport()->width() / factor).margin(1));
    }

    // Esc: back exactly as before (the window has the keyboard again: the test chart had it).
    window->activateWindow();
    REQUIRE(QTest::qWaitForWindowActive(window.get(), 60000));
    QTest::keyClick(window.get(), Qt::Key_Escape);
    QTest::qWait(50);
    CHECK_FALSE(toggle->isChecked());
    CHECK(chart_style::presentationScale() == Approx(1.0));
    const Drawn off = drawnSizes(live, tradeoff);
    CHECK(off.scale == Approx(1.0));
    CHECK(off.axisLabelPoints == Approx(before.axisLabelPoints));
    CHECK(off.penWidth == Approx(before.penWidth));
    CHECK(off.markerSize == Approx(before.markerSize));
    CHECK(experimentDock->isVisible());
    CHECK(historyDock->isVisible());
    CHECK(window->menuBar()->isVisible());
    CHECK(window->statusBar()->isVisible());
    CHECK_FALSE(window->windowState().testFlag(Qt::WindowFullScreen));
    INFO("geometry before " << geometryBefore.x() << "," << geometryBefore.y() << " "
                            << geometryBefore.width() << "x" << geometryBefore.height()
                            << ", after " << window->geometry().x() << "," << window->geometry().y()
                            << " " << window->geometry().width() << "x"
                            << window->geometry().height());
    CHECK(window->geometry() == geometryBefore);
    settleLayouts();
    CHECK(window->saveState() == stateBefore);
    CHECK_FALSE(leave->isEnabled());
    CHECK(window->stopAction()->shortcut() == stopKeys);

    // The switch itself also toggles both ways.
    toggle->trigger();
    CHECK_FALSE(experimentDock->isVisible());
    toggle->trigger();
    QTest::qWait(50);
    CHECK(experimentDock->isVisible());
    settleLayouts();
    CHECK(window->saveState() == stateBefore);
}

TEST_CASE("Presenting at 1280×720 keeps λ, ε and live mode at hand, and the sweep views on show",
          "[ui][presentation]") {
    auto window = readyWindow(10);
    window->resize(1280, 720);
    QTest::qWait(50);
    ExperimentPanel* panel = window->experimentPanel();
    auto* presenter = window->findChild<PresenterControls*>(QStringLiteral("presenterControls"));
    REQUIRE(presenter);
    CHECK_FALSE(presenter->isVisible());  // only while presenting
    auto* sweepDock = window->findChild<QDockWidget*>(QStringLiteral("sweepDock"));
    REQUIRE(sweepDock);
    sweepDock->show();
    sweepDock->raise();  // the lecture is on the sweep views
    QTest::qWait(50);
    REQUIRE(sweepDock->isVisible());

    QAction* toggle = presentationAction(*window);
    toggle->trigger();
    QTest::qWait(100);
    CHECK(sweepDock->isVisible());  // F5 does not switch away from them
    CHECK_FALSE(panel->isVisible());
    REQUIRE(presenter->isVisible());
    // On screen, not folded into the toolbar's overflow menu.
    CHECK(presenter->lambdaControl()->isVisible());
    CHECK(presenter->epsilonControl()->isVisible());
    CHECK(presenter->widgetForAction(presenter->liveAction())->isVisible());
    // Large and readable: the presenter's controls grow like the charts.
    CHECK(presenter->font().pointSizeF() ==
          Approx(QApplication::font().pointSizeF() * chart_style::kPresentationFactor));
    // λ and ε move the experiment's, both ways; live mode too.
    presenter->lambdaControl()->setValue(6.0);
    CHECK(panel->lambdaControl()->value() == 6.0);
    panel->epsilonControl()->setValue(0.5);
    CHECK(presenter->epsilonControl()->value() == 0.5);
    presenter->epsilonControl()->setValue(2.0);
    CHECK(panel->config().epsilon == 2.0);
    presenter->liveAction()->trigger();
    CHECK(panel->liveMode());
    // In live mode, moving λ here starts a run, as the panel's slider does.
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    presenter->lambdaControl()->setValue(3.0);
    REQUIRE(waitForSignals(finished, 1, 60000));
    CHECK(finishedEntry(finished, 0)->result.config.lambda == 3.0);
    QTest::qWait(300);  // the charts redraw at most 30 times a second
    CHECK(window->grab().save(
        QStringLiteral(PFA_SCREENSHOT_DIR "/presentation-1280x720-presenter-controls.png")));
    presenter->liveAction()->trigger();
    CHECK_FALSE(panel->liveMode());

    toggle->trigger();
    QTest::qWait(50);
    CHECK_FALSE(presenter->isVisible());
    CHECK(panel->isVisible());
    CHECK(panel->lambdaControl()->value() == 3.0);
}

TEST_CASE("Closing in presentation mode saves the usual layout", "[ui][presentation]") {
    auto window = readyWindow(10);
    const QByteArray stateBefore = window->saveState();
    presentationAction(*window)->trigger();
    REQUIRE(chart_style::presentationScale() == Approx(chart_style::kPresentationFactor));
    window->close();
    CHECK(chart_style::presentationScale() == Approx(1.0));
    CHECK(QSettings().value(QStringLiteral("windowState")).toByteArray() == stateBefore);
}

TEST_CASE("Presentation mode screenshot after a run on the default data",
          "[ui][presentation][screenshot]") {
    QSettings().clear();
    MainWindow window;  // the defaults, as on a first start
    window.setConfirmOnClose(false);
    window.show();
    REQUIRE(QTest::qWaitFor([&] { return window.experimentPanel()->problem().isEmpty(); }, 60000));
    REQUIRE(runWithLambdas(window, {0.0, 1.0}));
    presentationAction(window)->trigger();
    QTest::qWait(300);
    CHECK(window.grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/presentation-mode.png")));
    presentationAction(window)->trigger();
}

TEST_CASE(
    "The instructor's lecture, end to end in presentation mode: λ and ε live, the spread "
    "of a point, the teaching panel, a slide",
    "[ui][presentation][instructor][slow]") {
    // The lecture as the instructor gave it: fresh window on the built-in data at 1280×720
    // (under xvfb-run with -screen 0 1280x720x24 the full screen is that too), one run, F5,
    // live mode, λ up, ε down and off, four more seeds of a point, the teaching panel, a slide.
    QElapsedTimer clock;
    clock.start();
    auto window = readyWindow(40);
    window->resize(1280, 720);
    QTest::qWait(50);
    ExperimentPanel* panel = window->experimentPanel();
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 1, 60000));
    QAction* toggle = presentationAction(*window);
    toggle->trigger();
    QTest::qWait(100);
    auto* presenter = window->findChild<PresenterControls*>(QStringLiteral("presenterControls"));
    REQUIRE(presenter);
    REQUIRE(presenter->isVisible());
    presenter->liveAction()->trigger();
    REQUIRE(panel->liveMode());
    TradeoffChart* chart = window->tradeoffChart();
    // λ up: each move reruns and the point moves along one ε line of the trail.
    for (double lambda : {1.0, 4.0, 16.0}) {
        const int before = finished.count();
        presenter->lambdaControl()->setValue(lambda);
        REQUIRE(waitForSignals(finished, before + 1, 60000));
        QTest::qWait(250);  // the live-mode pause and a redraw
        CHECK(finishedEntry(finished, finished.count() - 1)->result.config.lambda == lambda);
    }
    CHECK(window->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/instructor-1-lambda.png")));
    // ε down, then off: a new trail line per budget, colours told apart.
    for (double epsilon : {0.3, 3.0}) {
        const int before = finished.count();
        presenter->epsilonControl()->setValue(epsilon);
        REQUIRE(waitForSignals(finished, before + 1, 60000));
        QTest::qWait(250);
    }
    CHECK(chart->pointCount() + chart->trailCount() >= 5);
    CHECK(window->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/instructor-2-epsilon.png")));
    // Every live chart's vertical title is whole, if need be in its short form ("violation"
    // for "violation / ERMI"): never Qt's "violation…".
    for (ChartView* view : window->liveCharts()->findChildren<ChartView*>()) {
        if (!view->isVisible()) continue;
        const double plotHeight = view->chart()->plotArea().height();
        for (QAbstractAxis* axis : view->chart()->axes(Qt::Vertical)) {
            INFO(axis->titleText().toStdString() << " on a plot " << plotHeight << " high");
            CHECK(QFontMetrics(axis->titleFont()).horizontalAdvance(axis->titleText()) <=
                  plotHeight);
        }
    }
    presenter->liveAction()->trigger();  // live off before the seeds: nothing moves meanwhile
    // "Is that just noise?": the last point with four more seeds.
    const RunEntryPtr last = window->historyModel()->entries().back();
    REQUIRE(runPointWithMoreSeeds(*window, last->id));
    CHECK(window->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/instructor-3-seeds.png")));
    // The teaching panel on what ε promised for it.
    auto* teachingDock = window->findChild<QDockWidget*>(QStringLiteral("teachingDock"));
    REQUIRE(teachingDock);
    teachingDock->show();
    teachingDock->raise();
    QTest::qWait(200);
    auto* teaching = window->findChild<TeachingPanel*>();
    REQUIRE(teaching);
    CHECK(teaching->text().contains(QStringLiteral("attacker")));
    CHECK(window->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/instructor-4-teaching.png")));
    // A slide of the tradeoff, then Esc.
    QTemporaryDir dir;
    QString error;
    REQUIRE(exportChart(chart->view(), dir.filePath(QStringLiteral("slide.png")), ExportFormat::Png,
                        150, &error));
    CHECK(QImage(dir.filePath(QStringLiteral("slide.png"))).width() > 600);
    toggle->trigger();
    QTest::qWait(50);
    CHECK(panel->isVisible());
    WARN("the instructor's lecture took " << clock.elapsed() / 1000.0 << " s, "
                                          << window->historyModel()->rowCount() << " runs");
}

}  // namespace ui_presentation_test
