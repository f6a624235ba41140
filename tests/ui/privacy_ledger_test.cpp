// The privacy side of the window (offscreen): the ledger charges every private run that ran —
// superseded live-mode runs, stopped runs, sweeps, runs cut short by Stop sweep — survives
// deleting runs, a session round trip and a discarded session (the persistent ledger, read back
// by a new window), and is reset only after a confirmation; the statement and the loss chart label
// the training-set diagnostics; δ = 0 is refused. Saves the README screenshots of the ledger and of
// a statement.
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtCharts/QChart>
#include <catch2/catch.hpp>
#include <cmath>

#include "core/privacy/dataset_ledger.h"
#include "core/privacy/ledger_store.h"
#include "core/sweep/prepared_dataset.h"
#include "ui/actions/history_actions.h"
#include "ui/actions/sweep_actions.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/heat_map_view.h"
#include "ui/charts/tradeoff_curves_view.h"
#include "ui/controllers/session_controller.h"
#include "ui/controllers/sweep_controller.h"
#include "ui/panels/epsilon_control.h"
#include "ui/panels/lambda_control.h"
#include "ui/panels/ledger_status_label.h"
#include "ui/panels/live_charts_panel.h"
#include "ui/panels/privacy_ledger_panel.h"
#include "ui/panels/run_details_panel.h"
#include "ui/runs/privacy_ledger_book.h"
#include "ui/runs/run_history_model.h"
#include "ui_test_support.h"

namespace ui_privacy_ledger_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

const pfa::privacy::DatasetLedger* currentLedger(const MainWindow& window) {
    return window.ledgerBook()->ledger(pfa::ledgerKey(window.experimentPanel()->datasetRequest()));
}

std::size_t chargedRuns(const MainWindow& window) {
    const pfa::privacy::DatasetLedger* ledger = currentLedger(window);
    return ledger ? ledger->entries().size() : 0;
}

QDockWidget* dock(MainWindow& window, const char* name) {
    return window.findChild<QDockWidget*>(QString::fromLatin1(name));
}

}  // namespace

TEST_CASE(
    "Ledger: superseded live-mode runs and stopped runs are charged, deleting refunds nothing",
    "[ui][ledger]") {
    auto window = readyWindow(2000);
    QSignalSpy started(window->controller(), &TrainingController::runStarted);
    QSignalSpy executed(window->controller(), &TrainingController::runExecuted);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(started, 1));
    window->experimentPanel()->liveModeBox()->setChecked(true);
    window->experimentPanel()->lambdaControl()->spinBox()->setValue(2.0);
    REQUIRE(waitForSignals(started, 2));
    QTest::qWait(300);  // the restarted run trains some steps
    clickToolbar(*window, window->stopAction());
    REQUIRE(waitForSignals(executed, 2, 30000));
    QTest::qWait(100);
    // Two runs touched the data: the superseded first run and the stopped restart; neither is
    // a finished run, yet both are charged.
    REQUIRE(chargedRuns(*window) == 2);
    const pfa::privacy::DatasetLedger* ledger = currentLedger(*window);
    for (const pfa::privacy::LedgerEntry& entry : ledger->entries()) {
        CHECK(entry.accounting.steps > 0);
        CHECK(entry.epsilon > 0.0);
    }
    CHECK(ledger->entries()[1].status == "stopped");
    CHECK(window->ledgerStatus()->text().contains(QStringLiteral("2 private run(s)")));

    const double before = ledger->totals().epsilon;
    window->historyActions()->clearHistory();
    CHECK(window->historyModel()->rowCount() == 0);
    CHECK(chargedRuns(*window) == 2);
    CHECK(currentLedger(*window)->totals().epsilon == before);

    // A non-private run is not charged.
    window->experimentPanel()->liveModeBox()->setChecked(false);
    window->experimentPanel()->epsilonControl()->setValue(INFINITY);
    window->experimentPanel()->epochsBox()->setValue(3);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 1));
    CHECK(chargedRuns(*window) == 2);
    window->liveCharts()->refreshNow();
    CHECK(window->liveCharts()->lossChartTag().isEmpty());  // nothing private is shown
}

TEST_CASE(
    "Ledger after a small sweep: every run listed, Stop sweep charges cut-short runs, the "
    "session keeps it",
    "[ui][ledger][screenshot][slow]") {
    auto window = readyWindow(30);
    QTemporaryDir dir;
    QSignalSpy finished(window->sweepController(), &SweepController::finished);
    QString error;
    REQUIRE(window->sweepActions()->startSweep(smallGrid(*window, {1.0, 3.0}, {0.0, 2.0}, 2, 30), 2,
                                               dir.filePath("small.jsonl"), &error));
    REQUIRE(waitForSignals(finished, 1, 60000));
    QTest::qWait(300);
    REQUIRE(chargedRuns(*window) == 8);
    LedgerPanel* panel = window->ledgerPanel();
    CHECK(panel->table()->rowCount() == 8);
    const pfa::privacy::LedgerTotals totals = currentLedger(*window)->totals();
    CHECK(totals.epsilon < totals.naiveEpsilon);
    CHECK(totals.naiveEpsilon > 15.0);  // 4 runs at ε ≈ 1 and 4 at ε ≈ 3
    CHECK(panel->totalsText().contains(QStringLiteral("Rényi-DP composition of 8 private run(s)")));
    CHECK(window->ledgerStatus()->text().contains(QStringLiteral("8 private run(s)")));

    // The README picture: the ledger dock after the sweep.
    QDockWidget* ledgerDock = dock(*window, "ledgerDock");
    REQUIRE(ledgerDock);
    ledgerDock->raise();
    window->resizeDocks({ledgerDock}, {330}, Qt::Vertical);
    QTest::qWait(200);
    REQUIRE(window->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/privacy-ledger.png")));
    // The panel alone, as large as a reader would open it.
    LedgerPanel large(window->ledgerBook());
    large.showLedger(pfa::ledgerKey(window->experimentPanel()->datasetRequest()));
    large.resize(1060, 420);
    large.show();
    QTest::qWait(100);
    CHECK(large.table()->rowCount() == 8);
    REQUIRE(large.grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/privacy-ledger-panel.png")));

    // Stop a long sweep early: the runs it cut short ran, so they are charged too (they are
    // not in the results file and not in the history).
    QSignalSpy stopped(window->sweepController(), &SweepController::finished);
    REQUIRE(window->sweepActions()->startSweep(smallGrid(*window, {2.0}, {1.0}, 2, 5000), 2,
                                               dir.filePath("long.jsonl"), &error));
    QTest::qWait(700);
    window->sweepController()->stop();
    REQUIRE(waitForSignals(stopped, 1, 30000));
    QTest::qWait(300);
    CHECK(window->historyModel()->rowCount() == 8);
    CHECK(chargedRuns(*window) == 10);

    // Saved and reopened: the ledger comes back with every charged run.
    const QString session = dir.filePath("ledger.pfa");
    REQUIRE(window->session()->saveTo(session, &error));
    auto reopened = readyWindow(30);
    REQUIRE(reopened->session()->openFrom(session, &error));
    QTest::qWait(100);
    REQUIRE(chargedRuns(*reopened) == 10);
    CHECK(currentLedger(*reopened)->totals().epsilon == currentLedger(*window)->totals().epsilon);
}

namespace {

/// Answers the next message box with `button` and keeps its text in `*text`, while the
/// returned timer lives.
std::unique_ptr<QTimer> answerNextMessageBox(QMessageBox::StandardButton button, QString* text) {
    auto poll = std::make_unique<QTimer>();
    poll->setInterval(20);
    QTimer* timer = poll.get();
    QObject::connect(timer, &QTimer::timeout, timer, [timer, button, text] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) return;
        *text = box->text();
        timer->stop();
        box->button(button)->click();
    });
    poll->start();
    return poll;
}

std::string currentKey(const MainWindow& window) {
    return pfa::ledgerKey(window.experimentPanel()->datasetRequest());
}

/// The persistent ledger of the window's data set once its file has been read with `runs`
/// runs in it (nullopt when that does not happen).
std::optional<PersistentLedgerView> persistentWith(const MainWindow& window, std::size_t runs) {
    std::optional<PersistentLedgerView> view;
    const bool arrived = QTest::qWaitFor(
        [&] {
            view = window.ledgerBook()->persistentLedger(currentKey(window));
            return view && view->read && view->ledger.entries().size() == runs;
        },
        20000);
    if (!arrived) return std::nullopt;
    return view;
}

}  // namespace

TEST_CASE("Ledger: what a run spent survives discarding the session, and a new window shows it",
          "[ui][ledger][persistent]") {
    const QString folder = freshLedgerFolder();
    double spent = 0.0;
    QString path;
    {
        auto window = readyWindow(30, folder);
        QSignalSpy finished(window->controller(), &TrainingController::runFinished);
        clickToolbar(*window, window->runAction());
        REQUIRE(waitForSignals(finished, 1));
        const std::optional<PersistentLedgerView> view = persistentWith(*window, 1);
        REQUIRE(view);
        spent = view->ledger.totals().epsilon;
        CHECK(spent > 0.0);
        CHECK(spent == currentLedger(*window)->totals().epsilon);
        path = QString::fromStdString(view->path);
        CHECK(path.startsWith(folder));
        CHECK(window->ledgerPanel()->whereText().contains(QDir::toNativeSeparators(path)));
        CHECK(window->ledgerStatus()->text().contains(
            QStringLiteral("1 private run(s), all sessions")));
        // Quit without saving: the session is discarded (the window closes unasked in tests).
        REQUIRE(window->session()->hasUnsavedWork());
        REQUIRE(window->close());
    }
    REQUIRE(QFileInfo::exists(path));
    // A new window, a new session: nothing in its history or session, the spending still there.
    auto later = readyWindow(30, folder);
    CHECK(later->historyModel()->rowCount() == 0);
    CHECK(chargedRuns(*later) == 0);
    const std::optional<PersistentLedgerView> view = persistentWith(*later, 1);
    REQUIRE(view);
    CHECK(view->ledger.totals().epsilon == spent);
    CHECK(later->ledgerStatus()->text().contains(QStringLiteral("1 private run(s), all sessions")));
    CHECK(later->ledgerPanel()->table()->rowCount() == 1);
    CHECK(later->ledgerPanel()->totalsText().contains(
        QStringLiteral("Rényi-DP composition of 1 private run(s)")));
    CHECK_FALSE(later->ledgerStatus()->toolTip().isEmpty());
}

TEST_CASE(
    "Ledger: Reset asks first and says what it means, Cancel keeps the spending, Reset forgets it",
    "[ui][ledger][persistent]") {
    const QString folder = freshLedgerFolder();
    auto window = readyWindow(30, folder);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 1));
    REQUIRE(persistentWith(*window, 1));
    LedgerPanel* panel = window->ledgerPanel();
    CHECK(panel->resetButton()->isEnabled());
    CHECK_FALSE(panel->resetButton()->toolTip().isEmpty());
    CHECK_FALSE(panel->exportButton()->toolTip().isEmpty());

    // Exports: CSV (one line per run) and JSON (totals and runs).
    QTemporaryDir dir;
    QString error;
    REQUIRE(panel->exportTo(dir.filePath(QStringLiteral("ledger.csv")), &error));
    QFile csv(dir.filePath(QStringLiteral("ledger.csv")));
    REQUIRE(csv.open(QIODevice::ReadOnly));
    CHECK(csv.readAll().count('\n') == 3);  // totals comment, header, one run
    REQUIRE(panel->exportTo(dir.filePath(QStringLiteral("ledger.json")), &error));
    QFile json(dir.filePath(QStringLiteral("ledger.json")));
    REQUIRE(json.open(QIODevice::ReadOnly));
    CHECK(json.readAll().contains("\"runs\":1"));

    // Cancel: nothing changes.
    QString question;
    auto answer = answerNextMessageBox(QMessageBox::Cancel, &question);
    CHECK_FALSE(panel->requestReset());
    answer.reset();
    CHECK(question.contains(QStringLiteral("does not make the data private again")));
    CHECK(question.contains(QStringLiteral("cannot be undone")));
    CHECK(question.contains(QStringLiteral("forgets the 1 private run(s)")));
    REQUIRE(persistentWith(*window, 1));
    const std::string fingerprint = window->ledgerBook()->dataFingerprint(currentKey(*window));
    CHECK(pfa::privacy::LedgerStore(folder.toStdString()).read(fingerprint).resets == 0);

    // Reset: the runs are forgotten (the file says so), nothing spent is shown.
    answer = answerNextMessageBox(QMessageBox::Reset, &question);
    CHECK(panel->requestReset());
    answer.reset();
    REQUIRE(persistentWith(*window, 0));
    const pfa::privacy::StoredLedger stored =
        pfa::privacy::LedgerStore(folder.toStdString()).read(fingerprint);
    CHECK(stored.resets == 1);
    CHECK(stored.forgotten == 1);
    CHECK(window->ledgerStatus()->text().contains(QStringLiteral("nothing spent")));
    CHECK_FALSE(panel->resetButton()->isEnabled());
    CHECK(panel->whereText().contains(QStringLiteral("reset 1 time(s)")));
}

TEST_CASE("Statement and loss chart label the training-set diagnostics, the switch leaves them out",
          "[ui][privacy][screenshot]") {
    auto window = readyWindow(30);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 1));
    QTest::qWait(100);
    window->liveCharts()->refreshNow();
    CHECK(window->liveCharts()->lossChartTag() == QStringLiteral("diagnostic — not private"));
    const QString statement = window->privacyStatement()->text();
    CHECK(statement.contains(QStringLiteral("Not protected — diagnostics")));
    CHECK(statement.contains(QStringLiteral("they can be switched off): the training loss")));
    CHECK(statement.contains(QStringLiteral("Ledger of this data set now")));

    QDockWidget* statementDock = dock(*window, "statementDock");
    REQUIRE(statementDock);
    statementDock->raise();
    window->resizeDocks({statementDock}, {330}, Qt::Vertical);
    QTest::qWait(200);
    REQUIRE(window->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/privacy-statement.png")));
    // The whole statement, as a reader sees it in a larger panel.
    PrivacyStatementView full;
    full.setLedgerBook(window->ledgerBook());
    full.showRun(finishedEntry(finished, 0));
    full.resize(980, 640);
    full.show();
    QTest::qWait(100);
    CHECK(full.text() == statement);
    REQUIRE(full.grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/privacy-statement-panel.png")));

    // Diagnostics off: the private run records none, and the chart says why it is empty.
    window->experimentPanel()->diagnosticsBox()->setChecked(false);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 2));
    const RunEntryPtr quiet = finishedEntry(finished, 1);
    CHECK(std::isnan(quiet->result.trainLoss));
    CHECK_FALSE(quiet->result.privacy.diagnosticsRecorded);
    CHECK(quiet->result.privacy.statement.find(
              "Training-set diagnostics: not recorded for this run") != std::string::npos);
    CHECK(quiet->result.privacy.statement.find("Not protected — diagnostics") == std::string::npos);
}

TEST_CASE("Delta 0 is refused in the panel instead of meaning 1/n^2", "[ui][privacy]") {
    auto window = readyWindow(5);
    window->experimentPanel()->deltaEdit()->setText(QStringLiteral("0"));
    CHECK(window->experimentPanel()->problem().contains(
        QStringLiteral("δ = 0 is invalid: it must be in (0, 1)")));
    CHECK_FALSE(window->runAction()->isEnabled());
    window->experimentPanel()->deltaEdit()->setText(QStringLiteral("1e-6"));
    CHECK(window->experimentPanel()->problem().isEmpty());
    window->experimentPanel()->deltaEdit()->clear();
    CHECK(window->experimentPanel()->problem().isEmpty());
}

TEST_CASE("Sweep views show published-calibration runs at their certified epsilon",
          "[ui][privacy][sweep]") {
    // Two λ cells of one published curve at nominal ε = 1 that the accountant certifies at 6.6
    // and 8.6, and a conservative curve at ε = 1.
    auto cell = [](double lambda, bool published, double certified, double error,
                   double violation) {
        pfa::SweepCell c;
        c.algorithm = "dp-fermi";
        c.fairness = "dp";
        c.epsilon = 1.0;
        c.lambda = lambda;
        c.knownGaps = published;
        c.testError = pfa::meanSd({error, error + 0.002});
        c.violation = pfa::meanSd({violation, violation + 0.004});
        c.epsilonSpent = pfa::meanSd({certified, certified});
        c.runs = 2;
        return c;
    };
    const std::vector<pfa::SweepCell> cells = {
        cell(0.5, true, 6.6, 0.18, 0.12), cell(1.0, true, 8.6, 0.2, 0.08),
        cell(0.5, false, 0.99, 0.17, 0.15), cell(1.0, false, 0.99, 0.18, 0.1)};
    TradeoffCurvesView view;
    view.setCells(cells, QStringLiteral("demographic parity"));
    const QStringList names = view.curveNames();
    REQUIRE(names.size() == 2);
    CHECK(names.contains(QStringLiteral("dp-fermi, ε = 1")));
    CHECK(names.contains(QStringLiteral("dp-fermi (published), certified ε 6.6–8.6")));
    const QString tip = view.tooltipAt(0.082, 0.201);
    CHECK(tip.contains(QStringLiteral("certified ε = 8.6")));
    CHECK(tip.contains(QStringLiteral("nominal ε = 1")));

    HeatMapView heat;
    heat.setCells(cells, QStringLiteral("dp-fermi"), HeatMapView::Metric::TestError,
                  QStringLiteral("dp"));
    CHECK(heat.filledCells() == 4);  // published and conservative ε = 1 are separate rows
}

}  // namespace ui_privacy_ledger_test
