// What each run protects, where runs are set up and compared (offscreen): "Sensitive attribute
// only" shows (and runs) replace-one adjacency in the Advanced section; the run history names each
// run's unit and adjacency; the tradeoff chart, the sweep views and the side-by-side details warn
// when runs of different protection share them, and name each.
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <catch2/catch.hpp>

#include "core/config/config_validation.h"
#include "ui/charts/chart_legend.h"
#include "ui/charts/tradeoff_chart.h"
#include "ui/charts/tradeoff_curves_view.h"
#include "ui/controllers/dataset_controller.h"
#include "ui/panels/epsilon_control.h"
#include "ui/panels/parameter_form.h"
#include "ui/panels/run_details_panel.h"
#include "ui/panels/sweep_views_panel.h"
#include "ui/panels/teaching_panel.h"
#include "ui/runs/run_history_model.h"
#include "ui/runs/run_history_view.h"
#include "ui_test_support.h"

namespace ui_protection_views_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

/// The adjacency the engine resolves for the panel's settings on the loaded data.
pfa::privacy::Adjacency resolvedAdjacency(MainWindow& window) {
    const pfa::PreparedDatasetPtr data = window.datasetController()->dataset();
    REQUIRE(data);
    return pfa::resolveDefaults(window.experimentPanel()->config(), data->split).adjacency;
}

QString historyCell(MainWindow& window, int id, int column) {
    const int row = window.historyModel()->rowOf(id);
    REQUIRE(row >= 0);
    return window.historyModel()->index(row, column).data().toString();
}

}  // namespace

TEST_CASE("Sensitive attribute only: Advanced shows replace-one, disabled and explained",
          "[ui][protection]") {
    auto window = readyWindow(3);
    ExperimentPanel* panel = window->experimentPanel();
    panel->algorithmBox()->setCurrentIndex(
        panel->algorithmBox()->findData(QStringLiteral("dp-fermi")));
    panel->epsilonControl()->setValue(1.0);
    QComboBox* adjacency = settingBox(panel, "adjacency");
    REQUIRE(adjacency);
    chooseSetting(panel, "scope", QStringLiteral("all-features"));
    CHECK(adjacency->currentData().toString() == QStringLiteral("add-remove"));
    CHECK(adjacency->isEnabled());
    CHECK(resolvedAdjacency(*window) == pfa::privacy::Adjacency::AddRemove);

    // The scope's own explanation says what it protects and what it costs.
    QComboBox* scope = settingBox(panel, "scope");
    REQUIRE(scope);
    const int sensitive = scope->findData(QStringLiteral("sensitive-only"));
    CHECK(scope->itemData(sensitive, Qt::ToolTipRole)
              .toString()
              .contains(QStringLiteral("replace-one")));
    CHECK(scope->toolTip().contains(QStringLiteral("twice the noise")));

    chooseSetting(panel, "scope", QStringLiteral("sensitive-only"));
    // What runs: replace-one. What the row shows: the same, disabled, with the reason first.
    CHECK(resolvedAdjacency(*window) == pfa::privacy::Adjacency::Replace);
    CHECK(adjacency->currentData().toString() == QStringLiteral("replace"));
    CHECK_FALSE(adjacency->isEnabled());
    CHECK(
        adjacency->toolTip().contains(QStringLiteral("only the sensitive attribute is protected")));
    CHECK(forcedAdjacencyReason(panel->config()).contains(QStringLiteral("twice")));
    // The setting itself is the user's (the run key does not change with the display).
    CHECK(panel->config().adjacency == pfa::privacy::Adjacency::AddRemove);
    CHECK(panel->toJson().value(QStringLiteral("adjacency")).toString() ==
          QStringLiteral("add-remove"));

    // The teaching panel explains the same.
    auto* teaching = window->findChild<TeachingPanel*>();
    REQUIRE(teaching);
    const QString privacy = teaching->topicText(TeachingPanel::Topic::Privacy);
    CHECK(privacy.contains(QStringLiteral("sensitive attribute")));
    CHECK(privacy.contains(QStringLiteral("replace one")));
    CHECK(privacy.contains(QStringLiteral("twice the noise")));
    CHECK_FALSE(privacy.contains(QStringLiteral("whether a given person is in the training data")));

    panel->advancedToggle()->click();
    QTest::qWait(100);
    CHECK(panel->grab().save(
        QStringLiteral(PFA_SCREENSHOT_DIR "/scope-sensitive-only-advanced.png")));

    // The run and its history row agree: DP-FERMI's conservative calibration noises whole
    // records, under replace-one.
    const RunEntryPtr run = runFromWindow(*window);
    REQUIRE(run->isComplete());
    CHECK(run->result.privacy.adjacency.rfind("replace-one", 0) == 0);
    CHECK(run->protectionText() == QStringLiteral("record, replace-one"));
    CHECK(historyCell(*window, run->id, RunHistoryModel::Protects) ==
          QStringLiteral("record, replace-one"));
    CHECK(window->historyModel()
              ->headerData(RunHistoryModel::Protects, Qt::Horizontal, Qt::DisplayRole)
              .toString() == QStringLiteral("Protects"));
    CHECK_FALSE(window->historyModel()
                    ->headerData(RunHistoryModel::Protects, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .isEmpty());

    // Back to whole records: the user's own choice shows again, editable.
    chooseSetting(panel, "scope", QStringLiteral("all-features"));
    CHECK(adjacency->isEnabled());
    CHECK(adjacency->currentData().toString() == QStringLiteral("add-remove"));
    chooseSetting(panel, "adjacency", QStringLiteral("replace"));
    chooseSetting(panel, "scope", QStringLiteral("sensitive-only"));
    chooseSetting(panel, "scope", QStringLiteral("all-features"));
    CHECK(adjacency->currentData().toString() == QStringLiteral("replace"));

    // Fixed-size batches force replace-one too, as the engine does.
    chooseSetting(panel, "adjacency", QStringLiteral("add-remove"));
    chooseSetting(panel, "sampling", QStringLiteral("shuffle"));
    CHECK(resolvedAdjacency(*window) == pfa::privacy::Adjacency::Replace);
    CHECK_FALSE(adjacency->isEnabled());
    CHECK(adjacency->currentData().toString() == QStringLiteral("replace"));
    CHECK(adjacency->toolTip().contains(QStringLiteral("fixed-size batches")));
    chooseSetting(panel, "sampling", QStringLiteral("poisson"));
    CHECK(adjacency->isEnabled());
    CHECK(resolvedAdjacency(*window) == pfa::privacy::Adjacency::AddRemove);
}

TEST_CASE("Runs of different protection: every comparing view names each and warns",
          "[ui][protection]") {
    auto window = readyWindow(20);
    ExperimentPanel* panel = window->experimentPanel();
    panel->fairnessBox()->setCurrentIndex(panel->fairnessBox()->findData(QStringLiteral("eo")));
    panel->algorithmBox()->setCurrentIndex(
        panel->algorithmBox()->findData(QStringLiteral("dp-fermi")));
    panel->epsilonControl()->setValue(1.0);
    chooseSetting(panel, "scope", QStringLiteral("all-features"));
    const RunEntryPtr records = runFromWindow(*window);
    REQUIRE(records->isComplete());

    // One protection: the chart says what it is, without a warning.
    TradeoffChart* chart = window->tradeoffChart();
    REQUIRE(QTest::qWaitFor([&] { return chart->pointCount() >= 1; }, 60000));
    CHECK_FALSE(chart->mixesProtection());
    CHECK(chart->protectionLabel()->isVisibleTo(chart));
    CHECK(chart->protectionLabel()->text() ==
          QStringLiteral("Protects: record, add/remove-one (every private run shown)."));
    CHECK(chart->exportContext().caption.contains(
        QStringLiteral("protects: record, add/remove-one")));

    panel->algorithmBox()->setCurrentIndex(
        panel->algorithmBox()->findData(QStringLiteral("dp-postprocessing")));
    chooseSetting(panel, "scope", QStringLiteral("sensitive-only"));
    const RunEntryPtr attribute = runFromWindow(*window);
    REQUIRE(attribute->isComplete());
    CHECK(attribute->protectionText() ==
          QStringLiteral("a record's sensitive attribute, replace-one"));

    // The run history names both.
    CHECK(historyCell(*window, records->id, RunHistoryModel::Protects) ==
          QStringLiteral("record, add/remove-one"));
    CHECK(historyCell(*window, attribute->id, RunHistoryModel::Protects) ==
          QStringLiteral("a record's sensitive attribute, replace-one"));

    // The tradeoff chart warns, and its legend and points name each protection.
    REQUIRE(QTest::qWaitFor([&] { return chart->mixesProtection(); }, 60000));
    const QString warning = chart->protectionLabel()->text();
    CHECK(warning.contains(QStringLiteral("different protection")));
    CHECK(warning.contains(QStringLiteral("1 run: record, add/remove-one")));
    CHECK(warning.contains(QStringLiteral("1 run: a record's sensitive attribute, replace-one")));
    CHECK(chart->protectionLabel()->isVisibleTo(chart));
    QStringList legend;
    for (const ChartLegend::Entry& entry : chart->legend()->entries()) legend << entry.text;
    CHECK(legend.contains(QStringLiteral("dp-fermi — record, add/remove-one")));
    CHECK(legend.contains(
        QStringLiteral("dp-postprocessing — a record's sensitive attribute, replace-one")));
    CHECK(chart->toolTipAt(chart->viewportPosOf(records->id))
              .contains(QStringLiteral("protects: record, add/remove-one")));
    CHECK(chart->exportContext().caption.contains(QStringLiteral("different protection")));
    QTest::qWait(300);
    CHECK(window->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/mixed-protection-window.png")));
    CHECK(chart->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/mixed-protection-tradeoff.png")));

    // The sweep views: the same warning, and each curve says what its runs protect.
    SweepViewsPanel* sweeps = window->sweepViews();
    sweeps->refreshNow();
    CHECK(sweeps->protectionLabel()->text().contains(QStringLiteral("different protection")));
    bool named = false;
    for (const QString& name : sweeps->tradeoffView()->curveNames())
        named = named || name.contains(QStringLiteral("protects: a record"));
    CHECK(named);
    for (QWidget* w = sweeps; w; w = w->parentWidget()) {
        if (auto* dock = qobject_cast<QDockWidget*>(w)) {
            dock->show();
            dock->raise();
        }
    }
    QTest::qWait(400);
    CHECK(sweeps->grab().save(
        QStringLiteral(PFA_SCREENSHOT_DIR "/mixed-protection-sweep-views.png")));

    // Side by side: the details name each run's protection and warn.
    window->historyView()->selectRuns({records->id, attribute->id});
    REQUIRE(QTest::qWaitFor(
        [&] { return window->runDetails()->summaryText().contains(QStringLiteral("⚠")); }, 60000));
    CHECK(window->runDetails()->summaryText().contains(QStringLiteral("different protection")));
}

}  // namespace ui_protection_views_test
