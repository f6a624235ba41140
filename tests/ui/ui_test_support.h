#pragma once

// Helpers shared by the UI tests.
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QDoubleSpinBox>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QToolBar>
#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include "../core/test_skip.h"
#include "core/sweep/sweep_spec.h"
#include "ui/charts/tradeoff_chart.h"
#include "ui/controllers/sweep_controller.h"
#include "ui/controllers/training_controller.h"
#include "ui/panels/experiment_panel.h"
#include "ui/panels/lambda_control.h"
#include "ui/panels/parameter_form.h"
#include "ui/shell/main_window.h"

/// Where UI tests save the screenshots they take (README pictures and pictures to look at),
/// relative to the test's working directory unless the build defines it.
#ifndef PFA_SCREENSHOT_DIR
#define PFA_SCREENSHOT_DIR "screenshots"
#endif

namespace pfa::ui::test {

/// A folder of privacy ledgers of its own, inside the test run's throw-away data folder.
inline QString freshLedgerFolder() {
    static int made = 0;
    return QDir(qEnvironmentVariable("XDG_DATA_HOME"))
        .filePath(QStringLiteral("ledgers-%1").arg(++made));
}

/// A fresh main window on clean settings, shown, with its data set loaded. Its persistent
/// privacy ledgers are kept in `ledgerFolder` (empty: a fresh folder of its own, so that runs
/// of earlier tests on the same data are not counted).
inline std::unique_ptr<MainWindow> readyWindow(int epochs = 40, const QString& ledgerFolder = {}) {
    QSettings().clear();
    qputenv("PFA_LEDGER_DIR",
            (ledgerFolder.isEmpty() ? freshLedgerFolder() : ledgerFolder).toUtf8());
    auto window = std::make_unique<MainWindow>();
    window->setConfirmOnClose(false);
    window->resize(1440, 900);
    window->show();
    const bool ready =
        QTest::qWaitFor([&] { return window->experimentPanel()->problem().isEmpty(); }, 60000);
    if (!ready)
        throw std::runtime_error("data set did not load: " +
                                 window->experimentPanel()->problem().toStdString());
    window->experimentPanel()->epochsBox()->setValue(epochs);
    return window;
}

/// Clicks the toolbar button of `action`, as a user would.
inline void clickToolbar(MainWindow& window, QAction* action) {
    for (QToolBar* bar : window.findChildren<QToolBar*>()) {
        if (QWidget* button = bar->widgetForAction(action)) {
            QTest::mouseClick(button, Qt::LeftButton);
            return;
        }
    }
    throw std::runtime_error("no toolbar button for the action");
}

/// Waits until `spy` has at least `count` signals (or the timeout passes).
/// Lets every pending layout run to its end: a layout may post further layout requests (a
/// legend that wraps onto another row changes its chart's minimum size, which moves a dock),
/// so it repeats until a round finds none left. What a test then reads of the window is its
/// settled state, however busy the machine (no timing involved).
inline void settleLayouts() {
    for (int round = 0; round < 20; ++round) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
    }
}

inline bool waitForSignals(QSignalSpy& spy, int count, int timeoutMs = 60000) {
    return QTest::qWaitFor([&] { return spy.count() >= count; }, timeoutMs);
}

/// What the tradeoff chart's context menu does on run `id`'s point: "Run this point with 4 more
/// seeds", then waits for that small sweep to finish. False when the action is missing or
/// the sweep did not finish.
inline bool runPointWithMoreSeeds(MainWindow& window, int id, int timeoutMs = 180000) {
    QMenu menu;
    window.tradeoffChart()->fillPointMenu(&menu, id);
    QAction* more = menu.findChild<QAction*>(QStringLiteral("moreSeeds"));
    if (!more) return false;
    QSignalSpy finished(window.sweepController(), &SweepController::finished);
    more->trigger();
    if (!waitForSignals(finished, 1, timeoutMs)) return false;
    QTest::qWait(100);
    return true;
}

/// A DP-FERMI grid on the window's loaded data set: `epsilons` × `lambdas` × `seeds` seeds.
inline pfa::SweepSpec smallGrid(const MainWindow& window, std::vector<double> epsilons,
                                std::vector<double> lambdas, int seeds, int epochs) {
    pfa::SweepSpec spec;
    spec.base = window.experimentPanel()->config();
    spec.base.epochs = epochs;
    spec.algorithms = {"dp-fermi"};
    spec.notions = {pfa::FairnessNotion::DemographicParity};
    spec.epsilons = std::move(epsilons);
    spec.lambdas = std::move(lambdas);
    spec.seeds.clear();
    for (int s = 0; s < seeds; ++s) spec.seeds.push_back(static_cast<std::uint64_t>(s));
    return spec;
}

/// The run entry carried by a runFinished signal.
inline RunEntryPtr finishedEntry(const QSignalSpy& spy, int index) {
    return spy.at(index).at(0).value<RunEntryPtr>();
}

/// Runs the panel's settings once per λ in `lambdas`, one after the other, as a user would
/// (spin box, then Run); true when every run finished.
inline bool runWithLambdas(MainWindow& window, const std::vector<double>& lambdas) {
    QSignalSpy finished(window.controller(), &TrainingController::runFinished);
    int expected = 0;
    for (double lambda : lambdas) {
        window.experimentPanel()->lambdaControl()->spinBox()->setValue(lambda);
        clickToolbar(window, window.runAction());
        if (!waitForSignals(finished, ++expected)) return false;
    }
    return true;
}

/// The settings combo box of parameter `name` (ordinary or advanced); null when it is no combo box.
inline QComboBox* settingBox(ExperimentPanel* panel, const std::string& name) {
    QWidget* field = panel->settingsForm()->field(name);
    if (!field) field = panel->advancedSettingsForm()->field(name);
    return qobject_cast<QComboBox*>(field);
}

/// Chooses `value` in the settings combo box of parameter `name` (ordinary or advanced).
inline void chooseSetting(ExperimentPanel* panel, const std::string& name, const QString& value) {
    QComboBox* box = settingBox(panel, name);
    REQUIRE(box != nullptr);
    const int index = box->findData(value);
    REQUIRE(index >= 0);
    box->setCurrentIndex(index);
}

/// Runs the panel's configuration from the toolbar and returns the finished run.
inline RunEntryPtr runFromWindow(MainWindow& window) {
    ExperimentPanel* panel = window.experimentPanel();
    const bool ready = QTest::qWaitFor([&] { return panel->problem().isEmpty(); }, 30000);
    INFO(panel->problem().toStdString());
    REQUIRE(ready);
    QSignalSpy finished(window.controller(), &TrainingController::runFinished);
    clickToolbar(window, window.runAction());
    REQUIRE(waitForSignals(finished, 1, 120000));
    return finishedEntry(finished, 0);
}

/// The folder of the offline copy of a catalog data set (under pfa::test::sharedDatasetsRoot():
/// $PFA_SHARED_DATASETS, else beside the project), or "" when it is not there: a test that needs
/// it then skips with PFA_SKIP_TEST, before its first assertion.
inline QString sharedDatasetFolder(const QString& folderName) {
    const QString root = QString::fromStdString(pfa::test::sharedDatasetsRoot().string());
    const QString folder = QDir(root).filePath(folderName);
    return QDir(folder).exists() ? folder : QString();
}

/// Why a test needing the offline copy `folderName` skips.
inline std::string missingDatasetReason(const QString& folderName) {
    return "the offline copy " +
           QDir(QString::fromStdString(pfa::test::sharedDatasetsRoot().string()))
               .filePath(folderName)
               .toStdString() +
           " is not present (PFA_SHARED_DATASETS)";
}

}  // namespace pfa::ui::test
