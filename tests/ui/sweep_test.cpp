// UI behaviour of sweeps (offscreen): a small grid fills the sweep views, a stopped sweep
// resumes without rerunning finished runs, reference points are drawn or refused precisely,
// and a sweep's runs execute on its own threads, below the GUI thread's priority.
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTextStream>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <mutex>
#include <set>
#include <thread>

#include "core/sweep/sweep_preset.h"
#include "ui/actions/history_actions.h"
#include "ui/actions/sweep_actions.h"
#include "ui/charts/chart_export.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/heat_map_view.h"
#include "ui/charts/privacy_price_view.h"
#include "ui/charts/tradeoff_chart.h"
#include "ui/charts/tradeoff_curves_view.h"
#include "ui/controllers/dataset_controller.h"
#include "ui/controllers/results_file_controller.h"
#include "ui/controllers/sweep_controller.h"
#include "ui/dialogs/sweep_dialog.h"
#include "ui/panels/sweep_views_panel.h"
#include "ui/runs/run_history_model.h"
#include "ui/support/worker_priority.h"
#include "ui_test_support.h"

namespace ui_sweep_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

int lineCount(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return -1;
    int lines = 0;
    while (!file.atEnd()) {
        if (!file.readLine().trimmed().isEmpty()) ++lines;
    }
    return lines;
}

}  // namespace

TEST_CASE("A 2 x 2 x 2 sweep fills the tradeoff view with 4 points and whiskers", "[ui][sweep]") {
    auto window = readyWindow();
    QTemporaryDir dir;
    const QString results = dir.filePath("sweep.jsonl");
    QSignalSpy finished(window->sweepController(), &SweepController::finished);
    QString error;
    QAction* stop = window->sweepActions()->stopSweepAction();
    REQUIRE(stop);
    CHECK_FALSE(stop->isEnabled());  // no sweep to stop
    REQUIRE(window->sweepActions()->startSweep(smallGrid(*window, {1.0, 4.0}, {0.0, 2.0}, 2, 30), 2,
                                               results, &error));
    CHECK(error.isEmpty());
    CHECK(window->sweepController()->isRunning());
    CHECK(stop->isEnabled());
    REQUIRE(waitForSignals(finished, 1, 60000));
    CHECK_FALSE(stop->isEnabled());
    CHECK_FALSE(finished.at(0).at(0).toBool());        // not cancelled
    CHECK(finished.at(0).at(1).toString().isEmpty());  // no error
    QTest::qWait(50);  // the last batch of results is delivered by a queued call

    CHECK(window->historyModel()->rowCount() == 8);
    CHECK(lineCount(results) == 8);
    std::set<int> ids;
    for (const RunEntryPtr& entry : window->historyModel()->entries()) {
        ids.insert(entry->id);
        CHECK_FALSE(entry->context.runKey.empty());
    }
    CHECK(ids.size() == 8);  // ids are unique in the session

    SweepViewsPanel* views = window->sweepViews();
    views->refreshNow();
    REQUIRE(views->cells().size() == 4);
    int spread = 0;
    for (const pfa::SweepCell& cell : views->cells()) {
        CHECK(cell.runs == 2);
        if (cell.testError.sd > 0.0 || cell.violation.sd > 0.0) ++spread;
    }
    CHECK(spread >= 2);  // the noisy (λ > 0) cells differ between seeds
    CHECK(views->tradeoffView()->pointCount() == 4);
    CHECK(views->tradeoffView()->whiskerCount() == 4);
    CHECK(views->heatMap()->filledCells() == 4);
    CHECK(views->priceView()->pointCount() == 2);  // the two ε at the chosen λ
    CHECK(views->priceLambda() == 2.0);  // the middle of the λ grid, though λ = 0 came first

    // A single run from the panel keeps a fresh, larger id.
    QSignalSpy single(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(single, 1));
    CHECK(ids.count(finishedEntry(single, 0)->id) == 0);
}

TEST_CASE("A stopped sweep resumes without rerunning its finished runs", "[ui][sweep][slow]") {
    auto window = readyWindow();
    QTemporaryDir dir;
    const QString results = dir.filePath("sweep.jsonl");
    const pfa::SweepSpec spec = smallGrid(*window, {1.0}, {0.0, 1.0, 2.0}, 4, 400);
    QSignalSpy finished(window->sweepController(), &SweepController::finished);
    REQUIRE(window->sweepActions()->startSweep(spec, 1, results));
    REQUIRE(QTest::qWaitFor([&] { return window->historyModel()->rowCount() >= 2; }, 60000));
    window->sweepController()->stop();
    REQUIRE(waitForSignals(finished, 1, 60000));
    CHECK(finished.at(0).at(0).toBool());  // cancelled
    QTest::qWait(50);
    const int done = window->historyModel()->rowCount();
    CHECK(done < 12);
    CHECK(lineCount(results) == done);

    REQUIRE(window->sweepActions()->startSweep(spec, 2, results));
    REQUIRE(waitForSignals(finished, 2, 120000));
    QTest::qWait(50);
    CHECK_FALSE(finished.at(1).at(0).toBool());
    CHECK(lineCount(results) == 12);                  // nothing finished was run twice
    CHECK(window->historyModel()->rowCount() == 12);  // nor listed twice
    std::set<std::string> keys;
    for (const RunEntryPtr& entry : window->historyModel()->entries())
        keys.insert(entry->context.runKey);
    CHECK(keys.size() == 12);
}

TEST_CASE("Reference points are drawn as hollow markers, bad rows are named", "[ui][sweep]") {
    SweepViewsPanel views;
    views.resize(900, 600);
    QTemporaryDir dir;
    const QString good = dir.filePath("published.csv");
    {
        QFile file(good);
        REQUIRE(file.open(QIODevice::WriteOnly | QIODevice::Text));
        QTextStream(&file) << "dataset,method,fairness,epsilon,lambda,error,violation\n"
                              "synthetic,Paper A,dp,1,,0.25,0.05\n"
                              "synthetic,Paper A,dp,4,,0.22,0.04\n"
                              "synthetic,Paper B,dp,inf,1,0.20,0.03\n";
    }
    QString error;
    REQUIRE(views.loadReferencePoints(good, &error));
    CHECK(views.tradeoffView()->referenceCount() == 3);
    CHECK(views.tradeoffView()->referenceMethods() ==
          QStringList{QStringLiteral("Paper A"), QStringLiteral("Paper B")});

    const QString bad = dir.filePath("bad.csv");
    {
        QFile file(bad);
        REQUIRE(file.open(QIODevice::WriteOnly | QIODevice::Text));
        QTextStream(&file) << "dataset,method,fairness,epsilon,lambda,error,violation\n"
                              "synthetic,Paper A,dp,1,,0.25,0.05\n"
                              "synthetic,Paper A,dp,one,,0.22,0.04\n";
    }
    CHECK_FALSE(views.loadReferencePoints(bad, &error));
    CHECK(error.contains(QStringLiteral("bad.csv")));
    CHECK(error.contains(QStringLiteral("bad.csv:3")));
    CHECK(error.contains(QStringLiteral("epsilon")));
    CHECK(views.tradeoffView()->referenceCount() == 3);  // the good points stay
}

// How long the GUI thread waits while a sweep uses every core depends on the machine and its
// load: pfa-gui-bench (tests/bench) measures it. What keeps it short is checked here: the runs
// execute on the sweep's own threads, below the GUI thread's priority.
TEST_CASE("A sweep's runs execute off the GUI thread, below its priority",
          "[ui][sweep][responsiveness]") {
    auto window = readyWindow();
    QTemporaryDir dir;
    const std::thread::id gui = std::this_thread::get_id();
    const int guiNice = BelowGuiPriority::currentNice();
    std::mutex mutex;
    int executions = 0, onGui = 0, notLowered = 0;
    // Called on the thread that executed each run, as it ends (the window's ledger is not
    // needed here).
    window->sweepController()->setLedger(
        [&](const pfa::RunContext&, const std::vector<pfa::privacy::LedgerEntry>&) {
            const bool here = std::this_thread::get_id() == gui;
            const bool lowered = BelowGuiPriority::currentNice() >= std::min(guiNice + 10, 19);
            std::lock_guard<std::mutex> lock(mutex);
            ++executions;
            onGui += here ? 1 : 0;
            notLowered += lowered ? 0 : 1;
        },
        {});
    int delivered = 0;
    QObject::connect(window->sweepController(), &SweepController::runsFinished, window.get(),
                     [&delivered](const std::vector<RunEntryPtr>& runs) {
                         delivered += static_cast<int>(runs.size());
                     });
    QSignalSpy finished(window->sweepController(), &SweepController::finished);
    REQUIRE(window->sweepActions()->startSweep(
        smallGrid(*window, {0.5, 1.0, 4.0}, {0.0, 1.0, 4.0}, 3, 60), 0, dir.filePath("s.jsonl")));
    REQUIRE(waitForSignals(finished, 1, 300000));
    CHECK(finished.at(0).at(1).toString().isEmpty());
    CHECK(window->historyModel()->rowCount() == 27);
    std::lock_guard<std::mutex> lock(mutex);
    CHECK(executions == 27);
    CHECK(onGui == 0);
#if defined(__linux__)
    CHECK(notLowered == 0);  // elsewhere there is no nice value per thread to lower
#endif
    CHECK(delivered == 27);  // each run reached the GUI once
}

TEST_CASE("Work below the GUI's priority: the scope lowers the thread and the threads it starts",
          "[ui][responsiveness]") {
#if defined(__linux__)
    std::thread([] {
        const int before = BelowGuiPriority::currentNice();
        int inScope = before;
        int started = before;
        {
            const BelowGuiPriority belowGui;
            inScope = BelowGuiPriority::currentNice();
            std::thread([&started] { started = BelowGuiPriority::currentNice(); }).join();
        }
        CHECK(inScope == std::min(before + 10, 19));
        CHECK(started == inScope);  // a sweep's or audit's own threads inherit it
    }).join();
#else
    PFA_SKIP_TEST("only Linux keeps a nice value per thread");
#endif
}

TEST_CASE("Screenshots of the sweep views (a results file, then a reference overlay)",
          "[ui][screenshot][slow]") {
    // PFA_SWEEP_RESULTS / PFA_REFERENCE_POINTS pick the files (the README's pictures come from
    // the Adult preset); without them a small synthetic sweep stands in.
    auto window = readyWindow();
    QTemporaryDir dir;
    QString results = qEnvironmentVariable("PFA_SWEEP_RESULTS");
    if (results.isEmpty()) {
        results = dir.filePath("synthetic.jsonl");
        QSignalSpy finished(window->sweepController(), &SweepController::finished);
        REQUIRE(window->sweepActions()->startSweep(
            smallGrid(*window, {0.5, 2.0, 8.0}, {0.0, 1.0, 3.0}, 3, 40), 0, results));
        REQUIRE(waitForSignals(finished, 1, 120000));
        QTest::qWait(50);
        window->historyActions()->clearHistory();
    }
    QSignalSpy opened(window->resultsFiles(), &ResultsFileController::opened);
    window->resultsFiles()->open(results);
    REQUIRE(waitForSignals(opened, 1, 60000));
    INFO(opened.at(0).at(4).toString().toStdString());
    REQUIRE(opened.at(0).at(4).toString().isEmpty());
    const int added = opened.at(0).at(1).toInt();
    CHECK(added > 0);
    CHECK(window->historyModel()->rowCount() == added);
    // Opening the same file again adds nothing.
    window->resultsFiles()->open(results);
    REQUIRE(waitForSignals(opened, 2, 60000));
    CHECK(opened.at(1).at(1).toInt() == 0);
    CHECK(opened.at(1).at(2).toInt() == added);

    SweepViewsPanel* views = window->sweepViews();
    views->refreshNow();
    REQUIRE(views->tradeoffView()->pointCount() > 0);
    CHECK(views->tradeoffView()->whiskerCount() ==
          static_cast<std::size_t>(views->tradeoffView()->pointCount()));
    CHECK(views->priceView()->pointCount() > 0);
    CHECK(views->heatMap()->filledCells() > 0);
    const QString shots = QStringLiteral(PFA_SCREENSHOT_DIR);
    QDir().mkpath(shots);
    QString error;
    auto save = [&](ExportableView* view, const QString& name, int minimumWidth) {
        const QString path = shots + QLatin1Char('/') + name;
        REQUIRE(exportChart(view, path, ExportFormat::Png, 96, &error));
        CHECK(QImage(path).width() >= minimumWidth);
    };
    // A view on a tab never shown still exports at a full size.
    save(views->heatMap(), QStringLiteral("sweep-heat-map-unshown.png"), 900);
    save(views->priceView()->errorView(), QStringLiteral("sweep-price-error-unshown.png"), 900);

    QTest::qWait(200);
    CHECK(window->width() <= 1440);  // the sweep views do not force the window wider than asked
    REQUIRE(window->grab().save(shots + QStringLiteral("/main-window-sweep.png")));
    // As a user would for a closer look: the sweep views undocked into a large window.
    QDockWidget* dock = nullptr;
    for (QDockWidget* d : window->findChildren<QDockWidget*>()) {
        if (d->objectName() == QLatin1String("sweepDock")) dock = d;
    }
    REQUIRE(dock);
    dock->setFloating(true);
    dock->resize(1240, 780);
    dock->show();
    for (int tab = 0; tab < 3; ++tab) {
        views->tabs()->setCurrentIndex(tab);
        QTest::qWait(100);
    }
    views->tabs()->setCurrentIndex(0);
    QTest::qWait(100);
    save(views->tradeoffView()->view(), QStringLiteral("sweep-tradeoff-curves.png"), 1000);
    REQUIRE(dock->grab().save(shots + QStringLiteral("/sweep-panel-tradeoff.png")));
    views->tabs()->setCurrentIndex(1);
    QTest::qWait(100);
    REQUIRE(dock->grab().save(shots + QStringLiteral("/sweep-price-of-privacy.png")));
    save(views->priceView()->errorView(), QStringLiteral("sweep-price-error.png"), 400);
    views->tabs()->setCurrentIndex(2);
    QTest::qWait(100);
    save(views->heatMap(), QStringLiteral("sweep-heat-map.png"), 1000);
    views->tabs()->setCurrentIndex(3);
    QTest::qWait(100);
    REQUIRE(dock->grab().save(shots + QStringLiteral("/sweep-error-vs-epsilon.png")));
    views->tabs()->setCurrentIndex(0);
    QTest::qWait(100);

    QString references = qEnvironmentVariable("PFA_REFERENCE_POINTS");
    if (references.isEmpty()) {
        references = dir.filePath("reference.csv");
        QFile file(references);
        REQUIRE(file.open(QIODevice::WriteOnly | QIODevice::Text));
        QTextStream(&file) << "dataset,method,fairness,epsilon,lambda,error,violation\n"
                              "synthetic,Other method,dp,1,,0.30,0.05\n"
                              "synthetic,Other method,dp,inf,,0.28,0.03\n";
    }
    REQUIRE(views->loadReferencePoints(references, &error));
    CHECK(views->tradeoffView()->referenceCount() > 0);
    save(views->tradeoffView()->view(), QStringLiteral("sweep-reference-overlay.png"), 1000);
}

TEST_CASE("Sweep dialog: a preset fills it, the run count and estimate show, bad values are named",
          "[ui][sweep]") {
    pfa::TrainConfig base;
    SweepDialog dialog(base, QStringLiteral("UI Adult"), 33916, 102, 0.006, nullptr);
    dialog.applyPreset(pfa::findSweepPreset("adult-dp"));
    CHECK(dialog.problem().isEmpty());
    pfa::SweepSpec spec = dialog.spec();
    CHECK(spec.datasets.empty());  // the window sets its data set
    spec.datasets = {"adult"};
    CHECK(spec.size() == 540);  // 4 ε × 9 λ × 15 seeds
    CHECK(spec.base.epochs == 200);
    CHECK(spec.base.batchSize == 1024);
    CHECK(spec.base.calibration == pfa::Calibration::Published);
    CHECK(dialog.estimatedSeconds() > 0.0);
    CHECK(dialog.summaryLabel()->text().contains(QStringLiteral("540 runs")));
    CHECK(dialog.startButton()->isEnabled());
    dialog.show();
    QTest::qWait(50);
    REQUIRE(dialog.grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/sweep-dialog.png")));

    dialog.epsilonEdit()->setText(QStringLiteral("0.5, abc"));
    CHECK(dialog.problem().contains(QStringLiteral("abc")));
    CHECK_FALSE(dialog.startButton()->isEnabled());
    dialog.epsilonEdit()->setText(QStringLiteral("1"));
    dialog.lambdaEdit()->setText(QStringLiteral("0, -1"));
    CHECK(dialog.problem().contains(QStringLiteral("-1")));
    CHECK_FALSE(dialog.startButton()->isEnabled());
    dialog.lambdaEdit()->setText(QStringLiteral("0, 1"));
    CHECK(dialog.problem().isEmpty());
    CHECK(
        dialog.summaryLabel()->text().contains(QStringLiteral("30 runs")));  // 1 ε × 2 λ × 15 seeds
}

TEST_CASE(
    "A preset chooses its data set, waits for it to load and opens the sweep dialog without "
    "blocking",
    "[ui][sweep][needs-data]") {
    const QString folder = sharedDatasetFolder(QStringLiteral("parkinsons-telemonitoring"));
    if (folder.isEmpty())
        PFA_SKIP_TEST(missingDatasetReason(QStringLiteral("parkinsons-telemonitoring")));
    auto window = readyWindow();
    QSignalSpy imported(window->datasetController(), &DatasetController::importFinished);
    window->datasetController()->importFromFolder(QStringLiteral("parkinsons"), folder);
    REQUIRE(waitForSignals(imported, 1, 60000));
    REQUIRE(imported.at(0).at(1).toString().toStdString() == "");

    window->sweepActions()->runPreset(QStringLiteral("parkinsons-dp"));  // returns at once
    CHECK(window->experimentPanel()->datasetRequest().name == "parkinsons");
    SweepDialog* dialog = nullptr;
    REQUIRE(QTest::qWaitFor(
        [&] {
            dialog = window->findChild<SweepDialog*>();
            return dialog && dialog->isVisible();
        },
        20000));
    CHECK(dialog->windowTitle().startsWith(QStringLiteral("Preset — ")));
    CHECK(dialog->spec().base.epochs == pfa::findSweepPreset("parkinsons-dp").spec.base.epochs);
    dialog->reject();
    QTest::qWait(50);
    CHECK_FALSE(window->sweepController()->isRunning());
}

TEST_CASE("Sweep dialog: a preset's choice axis and its further axes are kept",
          "[ui][sweep][axes]") {
    pfa::TrainConfig base;
    SweepDialog dialog(base, QStringLiteral("Synthetic"), 7500, 8, 0.01, nullptr);
    dialog.setResultsFile(QStringLiteral("/tmp/unused.jsonl"));
    dialog.applyPreset(pfa::findSweepPreset("silos-trust-models"));
    CHECK(dialog.problem().isEmpty());
    pfa::SweepSpec spec = dialog.spec();
    REQUIRE(spec.axes.size() == 1);
    CHECK(spec.axes[0].parameter == "trust");
    CHECK(spec.axes[0].choices == std::vector<std::string>{"central", "shuffle", "isrl", "local"});
    spec.datasets = {"synthetic"};
    // ε (with ∞) × seeds × (trust models of isrl-dp-sgd, and isrl-local-sgd once)
    CHECK(spec.size() == 7 * 5 * (4 + 1));

    // A misspelt trust model is named, and the sweep cannot start.
    dialog.axisValuesEdit()->setText(QStringLiteral("central,nobody"));
    CHECK(dialog.problem().contains(QStringLiteral("nobody")));
    CHECK_FALSE(dialog.startButton()->isEnabled());

    dialog.applyPreset(pfa::findSweepPreset("ppsgd-personalised"));
    spec = dialog.spec();
    REQUIRE(spec.axes.size() == 2);  // the edited first axis and the kept second one
    std::set<std::string> names{spec.axes[0].parameter, spec.axes[1].parameter};
    CHECK(names == std::set<std::string>{"base-step", "personalisation"});
    CHECK(dialog.summaryLabel()->text().contains(QStringLiteral("Also swept")));

    // A preset's settings for one algorithm only are not in the form's fields: the summary
    // names them.
    CHECK_FALSE(dialog.summaryLabel()->text().contains(QStringLiteral("one algorithm only")));
    dialog.applyPreset(pfa::findSweepPreset("adult-eo-baselines"));
    const QString summary = dialog.summaryLabel()->text();
    INFO(summary.toStdString());
    CHECK(summary.contains(QStringLiteral("Settings of one algorithm only, from the preset")));
    CHECK(summary.contains(QStringLiteral("dp-reductions (game-rounds 20)")));
    CHECK(summary.contains(QStringLiteral("dp-fermi (min-group-share 0.1, scope all-features)")));
}

TEST_CASE("A point's context menu runs its settings with 4 more seeds: its spread shows",
          "[ui][sweep][more-seeds]") {
    auto window = readyWindow(20);
    REQUIRE(runWithLambdas(*window, {2.0}));
    const RunEntryPtr first = window->historyModel()->entries().back();
    TradeoffChart* chart = window->tradeoffChart();
    // Right-click on the point: its action, found where the point is drawn.
    const QPoint at = chart->viewportPosOf(first->id);
    REQUIRE(at.x() >= 0);
    CHECK(chart->runAt(at) == first->id);
    CHECK(chart->runAt(at + QPoint(200, 200)) == 0);
    REQUIRE(runPointWithMoreSeeds(*window, first->id));
    // Five runs of the same settings, seeds s … s + 4, all on the chart.
    std::set<std::uint64_t> seeds;
    for (const RunEntryPtr& entry : window->historyModel()->entries()) {
        const pfa::TrainConfig& c = entry->result.config;
        if (c.algorithm == first->result.config.algorithm &&
            c.epsilon == first->result.config.epsilon && c.lambda == first->result.config.lambda)
            seeds.insert(c.seed);
    }
    const std::uint64_t s = first->result.config.seed;
    CHECK(seeds == std::set<std::uint64_t>{s, s + 1, s + 2, s + 3, s + 4});
    CHECK(chart->pointCount() == 5);
    // The sweep views put them in one cell: same settings, five seeds.
    SweepViewsPanel* views = window->sweepViews();
    views->refreshNow();
    bool fiveInOne = false;
    for (const pfa::SweepCell& cell : views->cells()) fiveInOne = fiveInOne || cell.runs == 5;
    CHECK(fiveInOne);
}

TEST_CASE(
    "The Sweep menu lists certified presets first, the as-published ones last with what "
    "they certify",
    "[ui][sweep][preset]") {
    auto window = readyWindow(5);
    QMenu* presets = nullptr;
    for (QAction* top : window->menuBar()->actions()) {
        if (!top->menu() || top->text() != QStringLiteral("&Sweep")) continue;
        for (QAction* action : top->menu()->actions()) {
            if (action->menu() && action->text().startsWith(QStringLiteral("&Presets")))
                presets = action->menu();
        }
    }
    REQUIRE(presets != nullptr);
    const QList<QAction*> entries = presets->actions();
    REQUIRE(entries.size() == static_cast<int>(pfa::sweepPresets().size()));
    // The first a user sees certifies every ε it shows; the last three are the papers'
    // calibration, titled with the nominal ε and the ε it certifies.
    CHECK_FALSE(entries.front()->text().contains(QStringLiteral("as published")));
    for (int i = entries.size() - 3; i < entries.size(); ++i) {
        const QString title = entries[i]->text();
        INFO(title.toStdString());
        CHECK(title.contains(QStringLiteral("certif")));
        CHECK(title.contains(QStringLiteral("nominal")));
    }
    presets->popup(QPoint(0, 0));
    QTest::qWait(100);
    CHECK(presets->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/sweep-presets-menu.png")));
    presets->close();
}

}  // namespace ui_sweep_test
