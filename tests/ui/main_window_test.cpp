// UI behaviour of the main window (offscreen): runs from the panel, stop, live mode, what keeps
// the GUI thread free (the run's own thread, coalesced notifications), sessions, history undo.
#include <QComboBox>
#include <QDir>
#include <QFormLayout>
#include <QItemSelectionModel>
#include <QJsonObject>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QUndoStack>
#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <thread>

#include "ui/actions/history_actions.h"
#include "ui/charts/tradeoff_chart.h"
#include "ui/controllers/dataset_controller.h"
#include "ui/controllers/run_control.h"
#include "ui/controllers/session_controller.h"
#include "ui/panels/epsilon_control.h"
#include "ui/panels/lambda_control.h"
#include "ui/panels/live_charts_panel.h"
#include "ui/panels/run_details_panel.h"
#include "ui/runs/run_history_model.h"
#include "ui/runs/run_history_view.h"
#include "ui_test_support.h"

namespace ui_main_window_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

TEST_CASE("A run started from the panel adds a tradeoff point and a history row", "[ui]") {
    auto window = readyWindow(40);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 1));
    const RunEntryPtr entry = finishedEntry(finished, 0);
    CHECK(entry->result.status == pfa::RunStatus::Completed);
    CHECK(entry->result.config.epochs == 40);
    CHECK(window->historyModel()->rowCount() == 1);
    CHECK(window->tradeoffChart()->pointCount() == 1);
    CHECK(window->controller()->state() == TrainingController::State::Idle);
    // The privacy statement of the new run is on show, as the core wrote it, followed by the
    // data set's ledger total (which the statement does not cover).
    const QString shown = window->privacyStatement()->text();
    // Headed by the run it is of.
    CHECK(shown.startsWith(QStringLiteral("Run %1: dp-fermi on ").arg(entry->id)));
    CHECK(shown.contains(QString::fromStdString(entry->result.privacy.statement)));
    CHECK(shown.contains(QStringLiteral("Ledger of this data set now (not covered above): ε = ")));
    CHECK(window->privacyStatement()->text().contains(QStringLiteral("Rényi-DP accountant")));
}

TEST_CASE("The privacy statement names its run and follows the row clicked last",
          "[ui][statement]") {
    auto window = readyWindow(10);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    for (int run = 0; run < 3; ++run) {
        clickToolbar(*window, window->runAction());
        REQUIRE(waitForSignals(finished, run + 1));
    }
    const auto& entries = window->historyModel()->entries();
    const int first = entries[0]->id, second = entries[1]->id, third = entries[2]->id;
    auto shownRun = [&] {
        const QString text = window->privacyStatement()->text();
        return text.section(QLatin1Char(':'), 0, 0);  // "Run N"
    };
    CHECK(shownRun() == QStringLiteral("Run %1").arg(third));  // the run that just finished
    // Click the first run, then ctrl-click the second: the statement is the second's.
    RunHistoryView* view = window->historyView();
    view->selectRuns({first});
    CHECK(shownRun() == QStringLiteral("Run %1").arg(first));
    for (int row = 0; row < view->model()->rowCount(); ++row) {
        const QModelIndex index = view->model()->index(row, 0);
        if (index.data(RunHistoryModel::RunIdRole).toInt() != second) continue;
        view->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::Select | QItemSelectionModel::Rows);
    }
    CHECK(view->selectedRuns().size() == 2);
    CHECK(shownRun() == QStringLiteral("Run %1").arg(second));
}

TEST_CASE("Stop ends the run within one epoch and no late points arrive", "[ui]") {
    auto window = readyWindow(20000);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    LiveChartsPanel* live = window->liveCharts();

    SECTION("stopping a running run") {
        clickToolbar(*window, window->runAction());
        REQUIRE(QTest::qWaitFor(
            [&] {
                live->refreshNow();
                return live->livePointCount() >= 5;
            },
            20000));
        CHECK(window->tradeoffChart()->hasLivePoint());  // the running run's current position
        clickToolbar(*window, window->stopAction());
        CHECK_FALSE(window->tradeoffChart()->hasLivePoint());
        live->refreshNow();
        const int shownAtStop = live->livePointCount();
        REQUIRE(waitForSignals(finished, 1, 60000));
        const RunEntryPtr entry = finishedEntry(finished, 0);
        CHECK(entry->stoppedByUser);
        CHECK(entry->result.status == pfa::RunStatus::Cancelled);
        CHECK(entry->result.history.size() < 20000);
        QTest::qWait(400);
        live->refreshNow();
        CHECK(live->livePointCount() == shownAtStop);  // no late points
        CHECK_FALSE(window->tradeoffChart()->hasLivePoint());
        CHECK(window->tradeoffChart()->pointCount() == 0);  // a stopped run is not a tradeoff point
        CHECK(window->historyModel()->rowCount() == 1);     // but it is listed (its ε was spent)
    }

    SECTION("the run ends within one epoch of the click") {
        // Hold the run at an epoch's end first, so the number of finished epochs is known
        // exactly, then stop. Step while running: the run pauses after the epoch in progress,
        // and the state turns Paused only once that epoch's metrics have arrived — the worker
        // is then blocked before its next step (Pause alone would say Paused at once, while
        // the worker may still finish an epoch: how long that takes is the machine's business).
        clickToolbar(*window, window->runAction());
        REQUIRE(QTest::qWaitFor(
            [&] {
                live->refreshNow();
                return live->livePointCount() >= 5;
            },
            20000));
        clickToolbar(*window, window->stepAction());
        REQUIRE(QTest::qWaitFor(
            [&] { return window->controller()->state() == TrainingController::State::Paused; },
            60000));
        live->refreshNow();
        const int shownAtStop = live->livePointCount();
        clickToolbar(*window, window->stopAction());
        REQUIRE(waitForSignals(finished, 1, 60000));
        const RunEntryPtr entry = finishedEntry(finished, 0);
        // At most the epoch in progress (evaluated as a partial epoch) was added.
        CHECK(static_cast<int>(entry->result.history.size()) <= shownAtStop + 1);
        QTest::qWait(300);
        live->refreshNow();
        CHECK(live->livePointCount() == shownAtStop);
    }
}

TEST_CASE("Live mode: three quick lambda changes give one finished run with the last lambda",
          "[ui][slow]") {
    // A run far too long to end by itself is in flight when the user starts dragging: it must
    // be superseded (whatever the machine's speed), never finished.
    auto window = readyWindow(1000000);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    QSignalSpy started(window->controller(), &TrainingController::runStarted);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(started, 1));
    window->experimentPanel()->epochsBox()->setValue(40);  // the restart: a short run
    window->experimentPanel()->liveModeBox()->setChecked(true);
    LambdaControl* lambda = window->experimentPanel()->lambdaControl();
    // Three moves with no event handled between them: quicker than any debounce, on any
    // machine (pauses between them would race the 150 ms timer on a busy one).
    lambda->spinBox()->setValue(2.0);
    lambda->spinBox()->setValue(3.0);
    lambda->spinBox()->setValue(4.5);
    CHECK(started.count() == 1);  // nothing restarts before the debounce
    REQUIRE(waitForSignals(finished, 1, 120000));
    QTest::qWait(600);  // nothing else may arrive
    CHECK(finished.count() == 1);
    CHECK(started.count() == 2);  // the first run and one restart after the debounce
    const RunEntryPtr entry = finishedEntry(finished, 0);
    CHECK(entry->result.config.lambda == 4.5);
    CHECK(entry->result.config.epochs == 40);
    CHECK(entry->result.status == pfa::RunStatus::Completed);
    CHECK(window->historyModel()->rowCount() == 1);
}

// How long the GUI thread waits while a run trains depends on the machine and its load: that
// is measured by pfa-gui-bench (tests/bench), not asserted here. What keeps it short is checked:
// the run trains on a thread of its own, and its epochs reach the GUI through one queued
// notification at a time, however many epochs end before the GUI thread drains them.
TEST_CASE("A run trains on the training thread, never on the GUI thread", "[ui][responsiveness]") {
    auto window = readyWindow(30);
    const std::thread::id gui = std::this_thread::get_id();
    std::thread::id trainedOn = gui;
    window->controller()->setExecutedHook(
        [&trainedOn](const pfa::RunResult&, const pfa::RunContext&) {
            trainedOn = std::this_thread::get_id();  // read after runFinished: ordered by it
        });
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 1, 60000));
    CHECK(finishedEntry(finished, 0)->result.history.size() == 30);
    CHECK(trainedOn != gui);
}

TEST_CASE("Epoch metrics cross to the GUI with at most one notification outstanding",
          "[ui][responsiveness]") {
    RunControl control(1);
    pfa::EpochMetrics metrics;
    metrics.epoch = 1;
    CHECK(control.pushMetrics(metrics));  // the first one asks for a notification
    int notifications = 1;
    for (int epoch = 2; epoch <= 1000; ++epoch) {
        metrics.epoch = epoch;
        if (control.pushMetrics(metrics)) ++notifications;
    }
    CHECK(notifications == 1);  // 999 more epochs, no more queued calls
    const std::vector<pfa::EpochMetrics> drained = control.takeMetrics();
    REQUIRE(drained.size() == 1000);
    CHECK(drained.front().epoch == 1);
    CHECK(drained.back().epoch == 1000);
    CHECK(control.takeMetrics().empty());
    metrics.epoch = 1001;
    CHECK(control.pushMetrics(metrics));  // drained: the next epoch notifies again
}

TEST_CASE("Session round trip: save, clear, open gives the identical history", "[ui][session]") {
    auto window = readyWindow(25);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 1));
    window->experimentPanel()->lambdaControl()->spinBox()->setValue(3.0);
    window->experimentPanel()->epsilonControl()->setValue(INFINITY);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 2));
    const std::vector<RunEntryPtr> before = window->historyModel()->entries();
    REQUIRE(before.size() == 2);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("experiment.pfa"));
    QString error;
    REQUIRE(window->session()->saveTo(path, &error));
    window->historyActions()->clearHistory();
    CHECK(window->historyModel()->rowCount() == 0);
    CHECK(window->tradeoffChart()->pointCount() == 0);
    REQUIRE(window->session()->openFrom(path, &error));
    const std::vector<RunEntryPtr> after = window->historyModel()->entries();
    REQUIRE(after.size() == before.size());
    for (std::size_t i = 0; i < before.size(); ++i) {
        const pfa::RunResult& a = before[i]->result;
        const pfa::RunResult& b = after[i]->result;
        CHECK(after[i]->id == before[i]->id);
        CHECK(b.config.lambda == a.config.lambda);
        CHECK(b.config.epsilon == a.config.epsilon);
        CHECK(b.test.error == a.test.error);
        CHECK(b.test.dpGap == a.test.dpGap);
        CHECK(b.privacy.statement == a.privacy.statement);
        REQUIRE(b.history.size() == a.history.size());
        for (std::size_t e = 0; e < a.history.size(); ++e) {
            CHECK(b.history[e].trainLoss == a.history[e].trainLoss);
            CHECK(b.history[e].violation == a.history[e].violation);
            const bool sameEpsilon = b.history[e].epsilonSpent == a.history[e].epsilonSpent;
            CHECK(sameEpsilon);
        }
    }
    CHECK(window->tradeoffChart()->pointCount() == 2);
    // The settings came back too.
    CHECK(window->experimentPanel()->config().lambda == 3.0);
    CHECK(std::isinf(window->experimentPanel()->config().epsilon));
    // A damaged file is refused with a message, and nothing is lost.
    QFile broken(dir.filePath(QStringLiteral("broken.pfa")));
    REQUIRE(broken.open(QIODevice::WriteOnly));
    broken.write("{\"format\": \"pfa-explorer-session\", \"runs\": [ {\"record\": 3");
    broken.close();
    CHECK_FALSE(window->session()->openFrom(broken.fileName(), &error));
    // In the user's words (cut off), not the JSON parser's.
    CHECK(error.contains(QStringLiteral("is incomplete: the file ends too early")));
    CHECK_FALSE(error.contains(QStringLiteral("at byte")));
    CHECK(window->historyModel()->rowCount() == 2);
}

TEST_CASE("Deleting runs is undoable, and selecting two runs compares them", "[ui]") {
    auto window = readyWindow(20);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    for (double lambda : {0.0, 2.0}) {
        window->experimentPanel()->lambdaControl()->spinBox()->setValue(lambda);
        clickToolbar(*window, window->runAction());
        REQUIRE(waitForSignals(finished, lambda == 0.0 ? 1 : 2));
    }
    const int first = window->historyModel()->entries()[0]->id;
    const int second = window->historyModel()->entries()[1]->id;
    window->historyView()->selectRuns({first, second});
    window->liveCharts()->refreshNow();
    CHECK(window->historyView()->selectionModel()->selectedRows().size() == 2);
    window->historyView()->selectRuns({first});
    window->historyActions()->clearHistory();
    CHECK(window->historyModel()->rowCount() == 0);
    window->undoStack()->undo();
    REQUIRE(window->historyModel()->rowCount() == 2);
    CHECK(window->historyModel()->entries()[0]->id == first);
    CHECK(window->tradeoffChart()->pointCount() == 2);
}

TEST_CASE("Pause holds the run and Step advances one epoch at a time", "[ui]") {
    auto window = readyWindow(5000);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    LiveChartsPanel* live = window->liveCharts();
    clickToolbar(*window, window->stepAction());  // from idle: run exactly one epoch
    REQUIRE(QTest::qWaitFor(
        [&] { return window->controller()->state() == TrainingController::State::Paused; }, 60000));
    QTest::qWait(200);
    live->refreshNow();
    CHECK(live->livePointCount() == 1);
    clickToolbar(*window, window->stepAction());
    REQUIRE(QTest::qWaitFor(
        [&] {
            live->refreshNow();
            return live->livePointCount() == 2;
        },
        60000));
    QTest::qWait(200);
    live->refreshNow();
    CHECK(live->livePointCount() == 2);
    CHECK(window->controller()->state() == TrainingController::State::Paused);
    clickToolbar(*window, window->stopAction());
    REQUIRE(waitForSignals(finished, 1, 60000));
    CHECK(finishedEntry(finished, 0)->stoppedByUser);
}

TEST_CASE("Invalid settings are explained inline and disable Run", "[ui]") {
    auto window = readyWindow(20);
    ExperimentPanel* panel = window->experimentPanel();
    panel->epochsBox()->setValue(1);
    panel->epsilonControl()->setValue(0.05);  // too little budget is caught by the run, not here
    CHECK(panel->problem().isEmpty());
    panel->algorithmBox()->setCurrentIndex(
        panel->algorithmBox()->findData(QStringLiteral("dp-fermi")));
    panel->deltaEdit()->setText(QStringLiteral("abc"));
    CHECK(panel->problem().contains(QStringLiteral("δ")));
    CHECK_FALSE(window->runAction()->isEnabled());
    panel->deltaEdit()->setText(QStringLiteral("2"));
    CHECK(panel->problem().contains(QStringLiteral("δ = 2 is invalid")));
    panel->deltaEdit()->setText(QString());
    CHECK(panel->problem().isEmpty());
    CHECK(window->runAction()->isEnabled());
    // Non-private algorithms show ε = ∞ and cannot be given a budget.
    panel->algorithmBox()->setCurrentIndex(panel->algorithmBox()->findData(QStringLiteral("erm")));
    CHECK(std::isinf(panel->config().epsilon));
    CHECK(panel->config().lambda == 0.0);
    CHECK(panel->problem().isEmpty());
}

TEST_CASE("The split method: chosen in the panel, carried by runs and settings, no wider panel",
          "[ui][split]") {
    auto window = readyWindow(3);
    ExperimentPanel* panel = window->experimentPanel();
    CHECK(panel->datasetRequest().split.method == pfa::SplitMethod::Seeded);
    CHECK(panel->toJson()["split-method"].toString() == QStringLiteral("seeded"));

    // The combo box with its long entry does not make the panel any wider.
    for (QToolButton* button : panel->findChildren<QToolButton*>()) {
        if (button->text() == QStringLiteral("Advanced") && !button->isChecked()) button->click();
    }
    REQUIRE(panel->splitMethodBox()->isVisibleTo(panel));
    auto* form = qobject_cast<QFormLayout*>(panel->splitMethodBox()->parentWidget()->layout());
    REQUIRE(form);
    const int withSplit = panel->minimumSizeHint().width();
    form->setRowVisible(panel->splitMethodBox(), false);
    const int withoutSplit = panel->minimumSizeHint().width();
    form->setRowVisible(panel->splitMethodBox(), true);
    CHECK(withSplit <= withoutSplit);

    // Choosing the pandas split reloads the data with it; a run records it.
    panel->splitMethodBox()->setCurrentIndex(
        panel->splitMethodBox()->findData(QStringLiteral("pandas")));
    panel->splitSeedBox()->setValue(100);
    const std::string key = pfa::datasetKey(panel->datasetRequest());
    CHECK(key.find("|split=100,0.25,pandas") != std::string::npos);
    REQUIRE(QTest::qWaitFor(
        [&] {
            const pfa::PreparedDatasetPtr data = window->datasetController()->dataset();
            return data && data->key == key && panel->problem().isEmpty();
        },
        60000));
    CHECK(window->datasetController()->dataset()->context.splitMethod ==
          pfa::SplitMethod::PandasSample);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 1));
    const RunEntryPtr run = window->historyModel()->entries().back();
    CHECK(run->context.splitMethod == pfa::SplitMethod::PandasSample);
    CHECK(run->context.splitSeed == 100);

    // Settings round trip; settings saved before the split existed give the default split.
    const QJsonObject settings = panel->toJson();
    CHECK(settings["split-method"].toString() == QStringLiteral("pandas"));
    ExperimentPanel other;
    other.fromJson(settings);
    CHECK(pfa::datasetKey(other.datasetRequest()) == key);
    {
        // Sessions of earlier versions spelt them with underscores.
        QJsonObject earlier = settings;
        for (const char* field : {"split-method", "split-seed", "test-fraction"})
            earlier.remove(QLatin1String(field));
        earlier["split_method"] = QStringLiteral("pandas");
        earlier["split_seed"] = 100;
        earlier["test_fraction"] = settings["test-fraction"];
        ExperimentPanel restored;
        restored.fromJson(earlier);
        CHECK(pfa::datasetKey(restored.datasetRequest()) == key);
    }
    QJsonObject old = settings;
    for (const char* field : {"split-method", "split-seed", "test-fraction"})
        old.remove(QLatin1String(field));
    other.fromJson(old);
    const pfa::SplitOptions split = other.datasetRequest().split;
    CHECK(split.method == pfa::SplitMethod::Seeded);
    CHECK(split.seed == 0);
    CHECK(split.testFraction == 0.25);
    // A preset's split is shown as it is.
    pfa::SplitOptions published;
    published.method = pfa::SplitMethod::PandasSample;
    published.seed = 100;
    published.testFraction = 0.2;
    other.setSplit(published);
    CHECK(other.datasetRequest().split.method == pfa::SplitMethod::PandasSample);
    CHECK(other.datasetRequest().split.seed == 100);
    CHECK(other.datasetRequest().split.testFraction == 0.2);
}

TEST_CASE("Closing the window during a run stops it cleanly", "[ui]") {
    auto window = readyWindow(100000);
    // Set before the run starts, which takes the hook along (it replaces the ledger's here).
    std::atomic<bool> executed{false};
    pfa::RunResult ended;
    window->controller()->setExecutedHook(
        [&](const pfa::RunResult& result, const pfa::RunContext&) {
            ended = result;
            executed = true;
        });
    clickToolbar(*window, window->runAction());
    LiveChartsPanel* live = window->liveCharts();
    REQUIRE(QTest::qWaitFor(
        [&] {
            live->refreshNow();
            return live->livePointCount() >= 3;
        },
        20000));
    CHECK(window->close());
    // close() returns once the run has stopped: it ended on its thread, cancelled part-way,
    // before close() returned (how long that took is the machine's business, not a claim).
    REQUIRE(executed.load());
    CHECK(ended.status == pfa::RunStatus::Cancelled);
    CHECK(ended.history.size() >= 3);
    CHECK(ended.history.size() < 100000);
    CHECK(window->controller()->state() == TrainingController::State::Idle);
    CHECK(window->controller()->activeRunId() == 0);
    window.reset();  // destroying the window after close must not hang or crash
    CHECK_FALSE(window);
}

TEST_CASE("The experiment panel sets the stabilised method's settings and keeps them in sessions",
          "[panel][stabilise]") {
    ExperimentPanel panel;
    panel.resize(460, 900);
    panel.advancedToggle()->click();
    // Defaults: the averaged iterate decided by the run (auto), the group-sum W-stream, joint clip.
    pfa::TrainConfig config = panel.config();
    CHECK_FALSE(config.averaging.has_value());
    CHECK(config.wStream == pfa::WStream::GroupMasses);
    CHECK(config.lossClipShare == 0.0);
    CHECK(panel.lossClipShareBox()->text() == QStringLiteral("0"));

    panel.averagingBox()->setCurrentIndex(panel.averagingBox()->findData(QStringLiteral("none")));
    panel.wStreamBox()->setCurrentIndex(panel.wStreamBox()->findData(QStringLiteral("gradient")));
    panel.lossClipShareBox()->setText(QStringLiteral("0.5"));
    config = panel.config();
    REQUIRE(config.averaging.has_value());
    CHECK(*config.averaging == pfa::IterateAveraging::None);
    CHECK(config.wStream == pfa::WStream::ClippedGradient);
    CHECK(config.lossClipShare == 0.5);

    ExperimentPanel other;
    other.fromJson(panel.toJson());
    CHECK(*other.config().averaging == pfa::IterateAveraging::None);
    CHECK(other.config().wStream == pfa::WStream::ClippedGradient);
    CHECK(other.config().lossClipShare == 0.5);
    // Settings saved before these controls existed give the defaults.
    QJsonObject old = panel.toJson();
    for (const char* field : {"averaging", "w-stream", "loss-clip-share"})
        old.remove(QLatin1String(field));
    other.fromJson(old);
    CHECK_FALSE(other.config().averaging.has_value());
    CHECK(other.config().wStream == pfa::WStream::GroupMasses);
    CHECK(other.config().lossClipShare == 0.0);

    panel.show();
    CHECK(panel.grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/experiment-panel-advanced.png")));
}

}  // namespace ui_main_window_test
