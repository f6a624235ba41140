// DIFF2 and DP-GD from the window: the synthetic teacher network is offered as a built-in data
// set, a diff2 run on it records the squared gradient norm and the accountant's ε, and the
// sweep dialog's "Auto-tune" choice tunes the candidates off the GUI thread, one record per ε
// and seed that says its choice is not covered.
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "core/sweep/prepared_dataset.h"
#include "core/sweep/sweep_preset.h"
#include "ui/actions/sweep_actions.h"
#include "ui/controllers/sweep_controller.h"
#include "ui/dialogs/sweep_dialog.h"
#include "ui/panels/dataset_card.h"
#include "ui/panels/epsilon_control.h"
#include "ui/panels/live_curve.h"
#include "ui/runs/privacy_ledger_book.h"
#include "ui/runs/run_history_model.h"
#include "ui_test_support.h"

namespace ui_diff2_gui_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

TEST_CASE("diff2 runs on the built-in teacher-network data from the window", "[ui][diff2]") {
    auto window = readyWindow();
    ExperimentPanel* panel = window->experimentPanel();
    const int data = panel->datasetBox()->findData(QStringLiteral("synthetic-teacher"));
    REQUIRE(data >= 0);
    CHECK_FALSE(panel->datasetBox()->itemData(data, Qt::ToolTipRole).toString().isEmpty());
    const int algorithm = panel->algorithmBox()->findData(QStringLiteral("diff2"));
    REQUIRE(algorithm >= 0);
    panel->algorithmBox()->setCurrentIndex(algorithm);
    panel->datasetBox()->setCurrentIndex(data);
    panel->epsilonControl()->setValue(2.0);
    const bool ready = QTest::qWaitFor([&] { return panel->problem().isEmpty(); }, 20000);
    INFO(panel->problem().toStdString());
    REQUIRE(ready);
    CHECK(window->datasetCard()->title() == QStringLiteral("Synthetic teacher network (built-in)"));

    const RunEntryPtr entry = runFromWindow(*window);
    REQUIRE(entry->isComplete());
    CHECK(entry->result.config.algorithm == "diff2");
    CHECK(entry->result.privacy.epsilonSpent > 0.0);
    CHECK(entry->result.privacy.epsilonSpent <= 2.0);
    CHECK(std::isfinite(entry->result.history.back().gradientNormSquared));
    CHECK(entry->result.regression.known);
    QTest::qWait(300);
    CHECK(window->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/diff2-teacher-run.png")));
}

TEST_CASE("The sweep dialog's auto-tune tunes each epsilon and seed off the GUI thread",
          "[ui][auto-tune]") {
    {
        pfa::TrainConfig base;
        SweepDialog dialog(base, QStringLiteral("Teacher"), 16000, 8, 0.01, nullptr);
        dialog.applyPreset(pfa::findSweepPreset("diff2-vs-dp-gd"));
        CHECK(dialog.problem().isEmpty());
        CHECK_FALSE(dialog.autoTune());
        QComboBox* tuning = nullptr;
        for (QComboBox* box : dialog.findChildren<QComboBox*>()) {
            if (box->findData(QStringLiteral("auto-tune")) >= 0) tuning = box;
        }
        REQUIRE(tuning);
        CHECK_FALSE(tuning->toolTip().isEmpty());
        tuning->setCurrentIndex(tuning->findData(QStringLiteral("auto-tune")));
        CHECK(dialog.autoTune());
        CHECK(dialog.summaryLabel()->text().contains(QStringLiteral("Auto-tune")));
        CHECK(dialog.spec().tuning == pfa::Tuning::NotCovered);
        dialog.show();
        QTest::qWait(50);
        CHECK(dialog.grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/sweep-dialog-auto-tune.png")));
    }

    auto window = readyWindow();
    QTemporaryDir dir;
    const QString results = dir.filePath("tuned.jsonl");
    pfa::SweepSpec spec = smallGrid(*window, {1.0}, {0.0}, 2, 1);
    spec.algorithms = {"dp-gd"};
    spec.base.extra["gd-rounds"] = "60";
    pfa::SweepAxis clips;
    clips.parameter = "full-clip";
    clips.values = {0.3, 1.0};
    spec.axes = {clips};
    QSignalSpy started(window->sweepController(), &SweepController::started);
    QSignalSpy finished(window->sweepController(), &SweepController::finished);
    QSignalSpy runs(window->sweepController(), &SweepController::runsFinished);
    QString error;
    REQUIRE(window->sweepActions()->startSweep(spec, 2, results, &error, true));
    CHECK(error.isEmpty());
    REQUIRE(started.count() == 1);
    CHECK(started.at(0).at(0).toInt() == 2);  // two seeds: two tuning problems
    REQUIRE(waitForSignals(finished, 1, 120000));
    CHECK_FALSE(finished.at(0).at(0).toBool());
    CHECK(finished.at(0).at(1).toString().isEmpty());
    QTest::qWait(50);
    int records = 0;
    for (const RunEntryPtr& entry : window->historyModel()->entries()) {
        if (entry->result.config.algorithm != "dp-gd") continue;
        ++records;
        CHECK(entry->context.runKey.rfind("auto-tune|", 0) == 0);
        CHECK(entry->result.privacy.tuning == "auto-tune");
        CHECK(entry->result.privacy.statement.find("the choice is NOT covered by any ε") !=
              std::string::npos);
    }
    CHECK(records == 2);
    // Every trial ran on the rows: the ledger charges them besides the two final runs.
    const pfa::privacy::DatasetLedger* ledger =
        window->ledgerBook()->ledger(pfa::ledgerKey(window->experimentPanel()->datasetRequest()));
    REQUIRE(ledger);
    const auto trials = std::count_if(ledger->entries().begin(), ledger->entries().end(),
                                      [](const pfa::privacy::LedgerEntry& e) {
                                          return e.label.rfind("auto-tune trial", 0) == 0;
                                      });
    CHECK(trials >= 2);
    CHECK(ledger->entries().size() == static_cast<std::size_t>(trials) + 2);
}

TEST_CASE("A round algorithm's live curves are drawn at its rounds, an epoch one's at its epochs",
          "[ui][diff2]") {
    // DIFF2 evaluates every 20 rounds: its history's `epoch` numbers the evaluations (1, 2, …),
    // its `step` the rounds. The charts' x axis counts rounds, so the points must sit there.
    pfa::TrainConfig diff2;
    diff2.algorithm = "diff2";
    diff2.extra["gd-rounds"] = "400";
    LiveCurve rounds = LiveCurve::forRun(1, diff2);
    CHECK(rounds.epochs == 400);
    CHECK(rounds.unit == QStringLiteral("round"));
    pfa::TrainConfig fermi;
    fermi.algorithm = "dp-fermi";
    fermi.epochs = 200;
    LiveCurve epochs = LiveCurve::forRun(2, fermi);
    for (int e = 1; e <= 20; ++e) {
        pfa::EpochMetrics m;
        m.epoch = e;
        m.step = 20L * e;
        m.trainLoss = 1.0 / e;
        rounds.metrics.push_back(m);
        m.epoch = 10 * e;  // DP-FERMI's epochs, evaluated every 10, 9 steps each
        m.step = 90L * e;
        epochs.metrics.push_back(m);
    }
    const LiveCurve::Drawn& byRound = rounds.pointsFor(live_chart::kLoss, 0, 800.0, 400.0);
    REQUIRE(byRound.line.size() == 20);
    CHECK(byRound.line.front().x() == 20.0);
    CHECK(byRound.line.back().x() == 400.0);
    const LiveCurve::Drawn& byEpoch = epochs.pointsFor(live_chart::kLoss, 0, 800.0, 200.0);
    REQUIRE(byEpoch.line.size() == 20);
    CHECK(byEpoch.line.back().x() == 200.0);
}

}  // namespace ui_diff2_gui_test
