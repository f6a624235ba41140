// Learning with public data from the window: the Gaussian linear regression data is offered as a
// built-in data set and semi-dp-sgd runs on it with its ε certified for the private rows; the
// mean-estimation panel (View menu) moves its curves with the sliders, and its Monte-Carlo check
// runs off the GUI thread and draws points with error bars.
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <catch2/catch.hpp>
#include <cmath>

#include "core/privacy/weighted_gaussian_mean.h"
#include "core/sweep/sweep_preset.h"
#include "ui/actions/sweep_actions.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/error_epsilon_view.h"
#include "ui/charts/privacy_price_view.h"
#include "ui/charts/whisker_item.h"
#include "ui/controllers/sweep_controller.h"
#include "ui/dialogs/public_mean_dialog.h"
#include "ui/panels/dataset_card.h"
#include "ui/panels/epsilon_control.h"
#include "ui/panels/sweep_views_panel.h"
#include "ui_test_support.h"

namespace ui_public_data_gui_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

TEST_CASE("semi-dp-sgd runs on the built-in linear regression data from the window",
          "[ui][semi-dp-sgd]") {
    auto window = readyWindow();
    ExperimentPanel* panel = window->experimentPanel();
    const int data = panel->datasetBox()->findData(QStringLiteral("synthetic-linear"));
    REQUIRE(data >= 0);
    CHECK_FALSE(panel->datasetBox()->itemData(data, Qt::ToolTipRole).toString().isEmpty());
    const int algorithm = panel->algorithmBox()->findData(QStringLiteral("semi-dp-sgd"));
    REQUIRE(algorithm >= 0);
    panel->algorithmBox()->setCurrentIndex(algorithm);
    panel->datasetBox()->setCurrentIndex(data);
    panel->epsilonControl()->setValue(1.0);
    panel->epochsBox()->setValue(3);
    const bool ready = QTest::qWaitFor([&] { return panel->problem().isEmpty(); }, 30000);
    INFO(panel->problem().toStdString());
    REQUIRE(ready);
    CHECK(window->datasetCard()->title() ==
          QStringLiteral("Synthetic linear regression (built-in)"));

    const RunEntryPtr entry = runFromWindow(*window);
    REQUIRE(entry->isComplete());
    CHECK(entry->result.config.algorithm == "semi-dp-sgd");
    CHECK(entry->result.privacy.epsilonSpent > 0.0);
    CHECK(entry->result.privacy.epsilonSpent <= 1.0);
    CHECK_THAT(entry->result.privacy.protectedData, Catch::Contains("NO protection"));
    // The generator's optimum is known: the excess risk is the test MSE minus 0.25.
    CHECK(entry->result.history.back().excessRisk ==
          Approx(entry->result.history.back().testError - 0.25).margin(1e-12));
    QTest::qWait(300);
    CHECK(window->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/semi-dp-sgd-run.png")));
}

TEST_CASE("The mean-estimation panel follows its sliders and runs its Monte-Carlo check",
          "[ui][public-mean]") {
    auto window = readyWindow();
    QAction* open = window->findChild<QAction*>(QStringLiteral("publicMeanAction"));
    REQUIRE(open != nullptr);
    CHECK_FALSE(open->toolTip().isEmpty());
    open->trigger();
    auto* dialog = window->findChild<PublicMeanDialog*>();
    REQUIRE(dialog != nullptr);
    REQUIRE(QTest::qWaitForWindowExposed(dialog, 60000));

    // The curve is the formula: its lowest point sits at r* (within the grid step).
    QLineSeries* curve = dialog->weightCurve();
    REQUIRE(curve->count() == 201);
    const pfa::privacy::WeightedMeanProblem problem = dialog->problem();
    const QList<QPointF> before = curve->points();
    const auto lowest =
        std::min_element(before.begin(), before.end(),
                         [](const QPointF& a, const QPointF& b) { return a.y() < b.y(); });
    CHECK(std::abs(lowest->x() - pfa::privacy::optimalWeight(problem) * problem.privateSamples) <=
          0.005 + 1e-12);
    CHECK(before[100].y() ==
          Approx(pfa::privacy::weightedMeanMse(problem, 0.5 / problem.privateSamples)));

    // A larger ε: less noise, a lower curve wherever the private samples weigh.
    dialog->epsilonSlider()->setValue(dialog->epsilonSlider()->value() + 30);
    const QList<QPointF> after = curve->points();
    CHECK(after[200].y() < before[200].y());
    CHECK(after[0].y() == Approx(before[0].y()));  // r = 0: public samples only, no noise

    // The Monte-Carlo check, small enough to be quick: points with error bars near the line.
    dialog->samplesBox()->setValue(1000);
    dialog->dimensionSlider()->setValue(20);  // d = 10
    dialog->repetitionsBox()->setValue(400);
    QSignalSpy done(dialog, &PublicMeanDialog::monteCarloFinished);
    QTest::mouseClick(dialog->monteCarloButton(), Qt::LeftButton);
    CHECK(dialog->monteCarloRunning());
    REQUIRE(waitForSignals(done, 1, 60000));
    QScatterSeries* points = dialog->monteCarloPoints();
    REQUIRE(points->count() >= 5);
    CHECK(dialog->monteCarloWhiskers()->count() == static_cast<std::size_t>(points->count()));
    const pfa::privacy::WeightedMeanProblem small = dialog->problem();
    for (const QPointF& point : points->points()) {
        const double formula =
            pfa::privacy::weightedMeanMse(small, point.x() / small.privateSamples);
        CHECK(point.y() == Approx(formula).epsilon(0.15));
    }
    // Moving a slider clears the points of the old problem.
    dialog->shareSlider()->setValue(dialog->shareSlider()->value() + 20);
    CHECK(points->count() == 0);

    // Every chart exports like the others (ChartView), and the panel looks right.
    CHECK(dialog->views().size() == 3);
    QTest::qWait(300);
    dialog->shareSlider()->setValue(dialog->shareSlider()->value() - 20);
    QTest::mouseClick(dialog->monteCarloButton(), Qt::LeftButton);
    REQUIRE(waitForSignals(done, 2, 60000));
    QTest::qWait(300);
    CHECK(dialog->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/public-mean-panel.png")));
}

TEST_CASE("The public-data-epsilon preset runs from the window with its rates drawn",
          "[ui][semi-dp-sgd][screenshot][preset-shots][slow]") {
    auto window = readyWindow(2);
    ExperimentPanel* panel = window->experimentPanel();
    panel->algorithmBox()->setCurrentIndex(
        panel->algorithmBox()->findData(QStringLiteral("semi-dp-sgd")));
    const pfa::SweepPreset& preset = pfa::findSweepPreset("public-data-epsilon");
    REQUIRE(window->experimentPanel()->selectDataset(preset.dataset));
    REQUIRE(QTest::qWaitFor(
        [&] { return window->datasetCard()->title().contains(QStringLiteral("linear")); }, 30000));
    const bool ready = QTest::qWaitFor([&] { return panel->problem().isEmpty(); }, 60000);
    INFO(panel->problem().toStdString());
    REQUIRE(ready);
    QTemporaryDir dir;
    pfa::SweepSpec spec = preset.spec;
    spec.seeds = {0, 1};  // two seeds: a screenshot, not the measurement
    spec.base.delta = window->experimentPanel()->config().delta;
    QSignalSpy finished(window->sweepController(), &SweepController::finished);
    QString error;
    REQUIRE(window->sweepActions()->startSweep(spec, 2, dir.filePath("public.jsonl"), &error));
    REQUIRE(waitForSignals(finished, 1, 600000));
    SweepViewsPanel* views = window->sweepViews();
    views->refreshNow();
    // dp-sgd-linear, and semi-dp-sgd per public share, use of the rows and weight rule.
    const auto& lines = views->errorEpsilonView()->lines();
    REQUIRE(lines.size() == 9);
    int semiWithRate = 0;
    for (const auto& line : lines) {
        CHECK(line.points == 6);
        if (line.name.contains(QStringLiteral("semi-dp-sgd")) && line.overlay) ++semiWithRate;
    }
    CHECK(semiWithRate >= 1);
    // The price of privacy: test errors drawn; regression runs have no fairness violation, and
    // its chart says so instead of plotting NaN.
    PrivacyPriceView* price = views->priceView();
    CHECK(price->pointCount() > 0);
    CHECK_FALSE(price->errorView()->isEmpty());
    CHECK(price->violationView()->isEmpty());
    CHECK(price->violationView()->emptyMessage().contains(QStringLiteral("regression")));
    for (QDockWidget* dock : window->findChildren<QDockWidget*>()) {
        if (dock->objectName() != QLatin1String("sweepDock")) continue;
        dock->setFloating(true);
        dock->resize(1280, 720);
    }
    views->tabs()->setCurrentWidget(views->errorEpsilonView());
    QTest::qWait(200);
    CHECK(views->grab().save(
        QStringLiteral(PFA_SCREENSHOT_DIR "/error-vs-epsilon-public-data-preset.png")));
}

}  // namespace ui_public_data_gui_test
