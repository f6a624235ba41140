// Heavy-tailed regression from the window: the generator is offered as a built-in data set with
// its knobs (the feature tail from Gaussian to infinite variance, with the admissible tail index
// beside it), the knobs reach the data request and its key, and an accelerated-clipped-gd run
// reports its excess risk over the exact optimum with the ε the accountant certifies.
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QtCharts/QValueAxis>
#include <catch2/catch.hpp>
#include <cmath>

#include "core/sweep/prepared_dataset.h"
#include "core/sweep/sweep_preset.h"
#include "ui/actions/sweep_actions.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/error_epsilon_view.h"
#include "ui/charts/tradeoff_chart.h"
#include "ui/controllers/sweep_controller.h"
#include "ui/panels/dataset_card.h"
#include "ui/panels/epsilon_control.h"
#include "ui/panels/generator_knob_forms.h"
#include "ui/panels/live_charts_panel.h"
#include "ui/panels/sweep_views_panel.h"
#include "ui_test_support.h"

namespace ui_heavy_tail_gui_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

TEST_CASE("Heavy-tailed data: knobs from Gaussian to infinite variance, and an accelerated run",
          "[ui][accelerated-clipped-gd][excess-risk]") {
    auto window = readyWindow();
    ExperimentPanel* panel = window->experimentPanel();
    const int data = panel->datasetBox()->findData(QStringLiteral("synthetic-heavy-tailed"));
    REQUIRE(data >= 0);
    CHECK_FALSE(panel->datasetBox()->itemData(data, Qt::ToolTipRole).toString().isEmpty());
    // The generator's rows come from its knob declarations: shown while it is chosen.
    GeneratorKnobForms* knobs = panel->generatorKnobs();
    REQUIRE(knobs != nullptr);
    auto* featureTail = qobject_cast<QLineEdit*>(knobs->field("heavy-feature-tail"));
    REQUIRE(featureTail != nullptr);
    CHECK_FALSE(featureTail->isVisibleTo(panel));
    panel->datasetBox()->setCurrentIndex(data);
    CHECK(featureTail->isVisibleTo(panel));
    CHECK(knobs->field("heavy-outlier-share")->isVisibleTo(panel));
    CHECK_FALSE(knobs->field("synthetic-rows")->isVisibleTo(panel));
    CHECK(featureTail->toolTip().contains(QStringLiteral("synthetic-heavy-tailed data set")));

    // ν = 3: k = 2.5; ν = 1.5: infinite variance, said as such; inf: ν = ∞ in the request.
    CHECK(knobs->noteText().contains(QStringLiteral("k = ν − 0.5 = 2.5")));
    const std::string defaultKey = pfa::datasetKey(panel->datasetRequest());
    QSignalSpy reload(panel, &ExperimentPanel::datasetRequestChanged);
    featureTail->setText(QStringLiteral("1.5"));
    CHECK(knobs->noteText().contains(QStringLiteral("infinite variance")));
    // The data is generated again once, after the typing pauses.
    CHECK(reload.wait(2000));
    CHECK(panel->grab().save(
        QStringLiteral(PFA_SCREENSHOT_DIR "/heavy-tailed-knobs-infinite-variance.png")));
    CHECK(panel->datasetRequest().knobs<pfa::HeavyTailedOptions>().featureTail == 1.5);
    CHECK(pfa::datasetKey(panel->datasetRequest()) != defaultKey);
    featureTail->setText(QStringLiteral("inf"));
    CHECK(std::isinf(panel->datasetRequest().knobs<pfa::HeavyTailedOptions>().featureTail));
    CHECK(knobs->noteText().contains(QStringLiteral("every k")));
    // Sessions keep the knobs, under their names (the command line's spelling).
    const QJsonObject saved = panel->toJson();
    CHECK(saved.value(QStringLiteral("heavy-feature-tail")).toString() == QStringLiteral("inf"));
    featureTail->setText(QStringLiteral("3"));
    panel->fromJson(saved);
    CHECK(std::isinf(panel->datasetRequest().knobs<pfa::HeavyTailedOptions>().featureTail));
    // A session of an earlier version kept them in a "heavy_tailed" object.
    QJsonObject earlier = saved;
    for (const QString& key : earlier.keys()) {
        if (key.startsWith(QStringLiteral("heavy-"))) earlier.remove(key);
    }
    earlier.insert(
        QStringLiteral("heavy_tailed"),
        QJsonObject{{QStringLiteral("feature_tail"), 4.0}, {QStringLiteral("outlier_share"), 0.0}});
    panel->fromJson(earlier);
    CHECK(panel->datasetRequest().knobs<pfa::HeavyTailedOptions>().featureTail == 4.0);
    CHECK(panel->datasetRequest().knobs<pfa::HeavyTailedOptions>().outlierShare == 0.0);
    featureTail->setText(QStringLiteral("3"));
    knobs->field("heavy-outlier-share")->setProperty("text", QStringLiteral("0.01"));

    const int algorithm = panel->algorithmBox()->findData(QStringLiteral("accelerated-clipped-gd"));
    REQUIRE(algorithm >= 0);
    panel->algorithmBox()->setCurrentIndex(algorithm);
    panel->epsilonControl()->setValue(1.0);
    const bool ready = QTest::qWaitFor([&] { return panel->problem().isEmpty(); }, 20000);
    INFO(panel->problem().toStdString());
    REQUIRE(ready);
    CHECK(window->datasetCard()->title() ==
          QStringLiteral("Synthetic heavy-tailed regression (built-in)"));

    const RunEntryPtr entry = runFromWindow(*window);
    REQUIRE(entry->isComplete());
    CHECK(entry->result.config.algorithm == "accelerated-clipped-gd");
    CHECK(entry->result.privacy.epsilonSpent > 0.0);
    CHECK(entry->result.privacy.epsilonSpent <= 1.0);
    CHECK(std::isfinite(entry->result.regression.excessRisk));
    CHECK(entry->summary().contains(QStringLiteral("excess risk")));
    // Its own settings and unit: steps, not "400 epochs, batch 1024" it does not read.
    CHECK(entry->summary().contains(QStringLiteral(" steps")));
    CHECK_FALSE(entry->summary().contains(QStringLiteral("epochs")));
    CHECK_FALSE(entry->summary().contains(QStringLiteral("batch")));
    CHECK(entry->progressText().endsWith(QStringLiteral(" steps")));
    CHECK_FALSE(entry->progressText().contains(QStringLiteral("epoch")));
    QTest::qWait(300);
    // Regression has no fairness notion: the choice is off, and says why.
    CHECK_FALSE(panel->fairnessBox()->isEnabled());
    CHECK(panel->fairnessBox()->toolTip().contains(QStringLiteral("regression")));
    // A regression run's loss is the squared loss, not the classifiers' log loss.
    CHECK(window->liveCharts()->yAxisOf(0)->titleText() == QStringLiteral("squared loss"));
    // The live charts count steps too, up to the run's own number of them.
    for (int chart = 0; chart < 4; ++chart) {
        INFO("live chart " << chart);
        CHECK(window->liveCharts()->xAxisOf(chart)->titleText() == QStringLiteral("step"));
        CHECK(window->liveCharts()->xAxisOf(chart)->max() <
              static_cast<double>(entry->result.config.epochs));
    }
    // The charts that cannot show a regression run say why, not "press Run".
    CHECK(window->tradeoffChart()->view()->isEmpty());
    CHECK(window->tradeoffChart()->view()->emptyMessage().startsWith(
        QStringLiteral("Regression runs have no fairness violation")));
    CHECK(window->liveCharts()->viewOf(2)->emptyMessage().startsWith(
        QStringLiteral("Regression: no fairness violation")));
    CHECK(window->grab().save(
        QStringLiteral(PFA_SCREENSHOT_DIR "/heavy-tailed-accelerated-run.png")));
}

TEST_CASE("The heavy-tails-epsilon preset as a user runs it: excess risk against ε with the rates",
          "[ui][accelerated-clipped-gd][proximal-clipped-gd][excess-risk][preset-shots]") {
    auto window = readyWindow(2);
    const pfa::SweepPreset& preset = pfa::findSweepPreset("heavy-tails-epsilon");
    ExperimentPanel* panel = window->experimentPanel();
    panel->algorithmBox()->setCurrentIndex(
        panel->algorithmBox()->findData(QStringLiteral("accelerated-clipped-gd")));
    REQUIRE(panel->selectDataset(preset.dataset));
    const bool ready = QTest::qWaitFor([&] { return panel->problem().isEmpty(); }, 30000);
    INFO(panel->problem().toStdString());
    REQUIRE(ready);
    QTemporaryDir dir;
    pfa::SweepSpec spec = preset.spec;
    spec.seeds = {0, 1};  // the preset has 5; two keep the test short
    QSignalSpy finished(window->sweepController(), &SweepController::finished);
    QString error;
    REQUIRE(window->sweepActions()->startSweep(spec, 2, dir.filePath("heavy.jsonl"), &error));
    REQUIRE(waitForSignals(finished, 1, 300000));
    SweepViewsPanel* views = window->sweepViews();
    views->refreshNow();
    // Three algorithms × three clip rules, each over the six ε, plotting the excess risk with
    // the heavy-tail rate at the run's k.
    const auto& lines = views->errorEpsilonView()->lines();
    REQUIRE(lines.size() == 9);
    QStringList names;
    for (const auto& line : lines) {
        CHECK(line.excessRisk);
        CHECK(line.points == 6);
        names << line.name;
    }
    CHECK(names.join(QLatin1Char('|')).contains(QStringLiteral("clip-rule = naive")));
    CHECK(names.join(QLatin1Char('|')).contains(QStringLiteral("clip-rule = worst-case")));
    CHECK(views->errorEpsilonView()->noteText().contains(QStringLiteral("heavy tails")));
    for (QDockWidget* dock : window->findChildren<QDockWidget*>()) {
        if (dock->objectName() != QLatin1String("sweepDock")) continue;
        dock->setFloating(true);
        dock->resize(1280, 720);
    }
    views->tabs()->setCurrentWidget(views->errorEpsilonView());
    QTest::qWait(200);
    CHECK(views->grab().save(
        QStringLiteral(PFA_SCREENSHOT_DIR "/error-vs-epsilon-heavy-tails-preset.png")));
}

}  // namespace ui_heavy_tail_gui_test
