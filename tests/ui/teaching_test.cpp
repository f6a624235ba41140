// The teaching panel (plain-words explanations with the current run's numbers, following the
// control the user is on) and the guided tour of a first launch.
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTextBrowser>
#include <QToolBar>
#include <catch2/catch.hpp>
#include <cmath>

#include "core/algorithms/registry.h"
#include "ui/charts/tradeoff_chart.h"
#include "ui/panels/epsilon_control.h"
#include "ui/panels/live_charts_panel.h"
#include "ui/panels/teaching_panel.h"
#include "ui/panels/teaching_texts.h"
#include "ui/shell/guided_tour.h"
#include "ui_test_support.h"

namespace ui_teaching_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

TeachingPanel* teachingOf(MainWindow& window) {
    auto* panel = window.findChild<TeachingPanel*>();
    if (!panel) throw std::runtime_error("the window has no teaching panel");
    return panel;
}

QDockWidget* dockOf(QWidget* widget) {
    for (QWidget* w = widget; w; w = w->parentWidget()) {
        if (auto* dock = qobject_cast<QDockWidget*>(w)) return dock;
    }
    return nullptr;
}

QWidget* runButtonOf(MainWindow& window) {
    for (QToolBar* bar : window.findChildren<QToolBar*>()) {
        if (QWidget* button = bar->widgetForAction(window.runAction())) return button;
    }
    return nullptr;
}

/// A two-group result for finishRun: group A selected at 0.62, B at 0.41.
RunEntryPtr fakeRun(int id, const pfa::TrainConfig& config) {
    pfa::RunResult result;
    result.config = config;
    result.config.delta = 1e-5;
    result.status = pfa::RunStatus::Completed;
    result.test.error = 0.231;
    result.test.dpGap = 0.21;
    result.test.eoGap = 0.30;
    result.test.eoppGap = 0.12;
    pfa::GroupRow a;
    a.group = "A";
    a.n = 1500;
    a.selectionRate = 0.62;
    a.truePositiveRate = 0.80;
    a.falsePositiveRate = 0.40;
    pfa::GroupRow b;
    b.group = "B";
    b.n = 500;
    b.selectionRate = 0.41;
    b.truePositiveRate = 0.68;
    b.falsePositiveRate = 0.10;
    result.test.groups = {a, b};
    result.privacy.isPrivate = true;
    result.privacy.epsilonTarget = config.epsilon;
    result.privacy.epsilonSpent = 0.987;
    result.privacy.delta = 1e-5;
    pfa::EpochMetrics last;
    last.epoch = 40;
    last.step = 400;
    last.testError = 0.231;
    last.violation = 0.21;
    last.epsilonSpent = 0.987;
    result.history = {last};
    return makeRunEntry(id, result, {}, QDateTime::currentDateTime());
}

}  // namespace

TEST_CASE("Teaching panel: the e^ε reading follows the chosen ε, labelled as the target",
          "[ui][teaching]") {
    auto window = readyWindow(40);
    TeachingPanel* teaching = teachingOf(*window);
    window->experimentPanel()->algorithmBox()->setCurrentIndex(
        window->experimentPanel()->algorithmBox()->findData(QStringLiteral("dp-fermi")));
    window->experimentPanel()->epsilonControl()->setValue(1.0);
    QString privacy = teaching->topicText(TeachingPanel::Topic::Privacy);
    CHECK(privacy.contains(QStringLiteral("e") + QStringLiteral("ε = 2.72")));  // sup flattens
    CHECK(privacy.contains(QStringLiteral("target ε = 1")));
    CHECK(privacy.contains(QStringLiteral("one row")));
    CHECK(privacy.contains(QStringLiteral("Not protected")));
    CHECK_FALSE(privacy.contains(QStringLiteral("Spent")));  // no run: no spent ε shown

    window->experimentPanel()->epsilonControl()->setValue(2.0);
    privacy = teaching->topicText(TeachingPanel::Topic::Privacy);
    CHECK(privacy.contains(QStringLiteral("eε = 7.39")));
    CHECK(privacy.contains(QStringLiteral("target ε = 2")));
    CHECK(teaching->text().contains(QStringLiteral("eε = 7.39")));  // and it is on show
}

TEST_CASE("Teaching panel: a real run's epochs and result bring the spent ε and the group rates",
          "[ui][teaching]") {
    auto window = readyWindow(15);
    TeachingPanel* teaching = teachingOf(*window);
    CHECK(teaching->topicText(TeachingPanel::Topic::Fairness).contains(QStringLiteral("Run once")));
    QSignalSpy epochs(window->controller(), &TrainingController::epochsArrived);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 1, 60000));
    REQUIRE(epochs.count() >= 1);
    const RunEntryPtr entry = finishedEntry(finished, 0);
    REQUIRE(entry->result.test.groups.size() == 2);

    // The spent ε is the accountant's, as the run reports it.
    const QString privacy = teaching->topicText(TeachingPanel::Topic::Privacy);
    const double spent = entry->result.privacy.epsilonSpent;
    CHECK(privacy.contains(QStringLiteral("ε = %1").arg(QString::number(spent, 'g', 3))));
    CHECK(privacy.contains(QStringLiteral("certified by the accountant, run %1").arg(entry->id)));

    // The selection rate of each group of the run's test table, and the gap between them.
    const QString fairness = teaching->topicText(TeachingPanel::Topic::Fairness);
    const auto& groups = entry->result.test.groups;
    for (const pfa::GroupRow& g : groups) {
        CHECK(fairness.contains(QStringLiteral("%1").arg(QString::fromStdString(g.group))));
        CHECK(fairness.contains(QString::number(g.selectionRate, 'f', 2)));
    }
    const double gap = std::abs(groups[0].selectionRate - groups[1].selectionRate);
    CHECK(fairness.contains(QStringLiteral("gap %1").arg(QString::number(gap, 'f', 2))));
    CHECK(fairness.contains(QStringLiteral("selection rate")));
    CHECK_FALSE(
        fairness.contains(QStringLiteral("(majority) (majority)")));  // the data's names say it
    CHECK(fairness.contains(QStringLiteral("ERMI")));

    // λ's section carries the run's test error and violation.
    const QString lambda = teaching->topicText(TeachingPanel::Topic::Lambda);
    CHECK(lambda.contains(
        QStringLiteral("test error %1").arg(QString::number(entry->result.test.error, 'f', 2))));
    CHECK(lambda.contains(
        QStringLiteral("violation %1").arg(QString::number(entry->violation(), 'f', 2))));
}

TEST_CASE("Teaching panel: the rates behind the gap of each notion, majority and minority named",
          "[ui][teaching]") {
    TeachingPanel teaching;
    pfa::TrainConfig config;
    config.algorithm = "dp-fermi";
    config.epsilon = 1.0;

    SECTION("demographic parity: selection rates") {
        config.fairness = pfa::FairnessNotion::DemographicParity;
        teaching.setConfig(config);
        teaching.beginRun(7, config);
        teaching.finishRun(fakeRun(7, config));
        const QString text = teaching.topicText(TeachingPanel::Topic::Fairness);
        CHECK(text.contains(
            QStringLiteral("selection rate: A (majority) 0.62, B (minority) 0.41 → gap 0.21")));
        CHECK_FALSE(text.contains(QStringLiteral("true-positive rate")));
    }
    SECTION("equalized odds: true- and false-positive rates") {
        config.fairness = pfa::FairnessNotion::EqualizedOdds;
        teaching.setConfig(config);
        teaching.finishRun(fakeRun(8, config));
        const QString text = teaching.topicText(TeachingPanel::Topic::Fairness);
        CHECK(text.contains(
            QStringLiteral("true-positive rate: A (majority) 0.80, B (minority) 0.68 → gap 0.12")));
        CHECK(text.contains(QStringLiteral(
            "false-positive rate: A (majority) 0.40, B (minority) 0.10 → gap 0.30")));
    }
    SECTION("a run of another notion does not stand for this one") {
        config.fairness = pfa::FairnessNotion::DemographicParity;
        teaching.finishRun(fakeRun(9, config));
        config.fairness = pfa::FairnessNotion::EqualOpportunity;
        teaching.setConfig(config);
        const QString text = teaching.topicText(TeachingPanel::Topic::Fairness);
        CHECK_FALSE(text.contains(QStringLiteral("0.62")));
        CHECK(text.contains(QStringLiteral("Equal opportunity")));
    }
}

TEST_CASE("Teaching panel: never an ε the accountant did not compute", "[ui][teaching]") {
    TeachingPanel teaching;
    pfa::TrainConfig config;
    config.algorithm = "dp-fermi";
    config.epsilon = 4.0;
    teaching.setConfig(config);
    teaching.beginRun(3, config);
    // Running, no epoch yet: no spent ε at all.
    QString privacy = teaching.topicText(TeachingPanel::Topic::Privacy);
    CHECK_FALSE(privacy.contains(QStringLiteral("Spent (certified")));
    CHECK(privacy.contains(QStringLiteral("after its first epoch")));
    // An epoch reports the accountant's ε so far.
    pfa::EpochMetrics epoch;
    epoch.epoch = 5;
    epoch.step = 50;
    epoch.epsilonSpent = 1.25;
    epoch.testError = 0.3;
    epoch.violation = 0.1;
    teaching.addEpochs(3, {epoch});
    privacy = teaching.topicText(TeachingPanel::Topic::Privacy);
    CHECK(privacy.contains(QStringLiteral("run 3, after epoch 5, 50 steps): ε = 1.25")));
    CHECK(privacy.contains(QStringLiteral("target ε = 4")));
    // Metrics of another run are ignored.
    epoch.epsilonSpent = 3.5;
    teaching.addEpochs(2, {epoch});
    CHECK_FALSE(teaching.topicText(TeachingPanel::Topic::Privacy).contains(QStringLiteral("3.5")));

    SECTION("not private: no promise, no factor") {
        config.epsilon = std::numeric_limits<double>::infinity();
        teaching.setConfig(config);
        privacy = teaching.topicText(TeachingPanel::Topic::Privacy);
        CHECK(privacy.contains(QStringLiteral("no privacy promise")));
        CHECK_FALSE(privacy.contains(QStringLiteral("odds")));
    }
    SECTION("an algorithm without a paragraph of its own: its registry description") {
        config.algorithm = "dp-sgd-linear";
        teaching.setConfig(config);
        const QString text = teaching.topicText(TeachingPanel::Topic::Algorithm);
        CHECK(text.contains(
            QString::fromStdString(pfa::findAlgorithm("dp-sgd-linear").description())));
        CHECK(text.contains(QStringLiteral("In short:")));
    }
    SECTION("a non-private algorithm") {
        config.algorithm = "erm";
        teaching.setConfig(config);
        CHECK(teaching.topicText(TeachingPanel::Topic::Privacy)
                  .contains(QStringLiteral("not private")));
        CHECK(teaching.topicText(TeachingPanel::Topic::Lambda)
                  .contains(QStringLiteral("no fairness term")));
    }
}

TEST_CASE("Teaching panel: follows the focused control and can be hidden", "[ui][teaching]") {
    auto window = readyWindow(40);
    window->activateWindow();
    REQUIRE(QTest::qWaitForWindowActive(window.get(), 60000));
    TeachingPanel* teaching = teachingOf(*window);
    ExperimentPanel* panel = window->experimentPanel();
    QDockWidget* dock = dockOf(teaching);
    REQUIRE(dock);
    dock->show();
    dock->raise();

    window->experimentPanel()->algorithmBox()->setFocus();
    REQUIRE(QTest::qWaitFor([&] { return teaching->topic() == TeachingPanel::Topic::Algorithm; },
                            60000));
    panel->lambdaControl()->spinBox()->setFocus();
    REQUIRE(
        QTest::qWaitFor([&] { return teaching->topic() == TeachingPanel::Topic::Lambda; }, 60000));
    // λ comes first in the text on show.
    CHECK(teaching->text().trimmed().startsWith(QStringLiteral("λ: accuracy against fairness")));
    panel->epsilonControl()->spinBox()->setFocus();
    REQUIRE(
        QTest::qWaitFor([&] { return teaching->topic() == TeachingPanel::Topic::Privacy; }, 60000));
    CHECK(teaching->text().trimmed().startsWith(QStringLiteral("ε and δ")));
    panel->datasetBox()->setFocus();
    REQUIRE(
        QTest::qWaitFor([&] { return teaching->topic() == TeachingPanel::Topic::Data; }, 60000));
    CHECK(teaching->text().trimmed().startsWith(QStringLiteral("The data")));
    CHECK(teaching->topicText(TeachingPanel::Topic::Data)
              .contains(QStringLiteral("7500 training rows")));
    panel->deltaEdit()->setFocus();
    REQUIRE(
        QTest::qWaitFor([&] { return teaching->topic() == TeachingPanel::Topic::Privacy; }, 60000));
    panel->fairnessBox()->setFocus();
    REQUIRE(QTest::qWaitFor([&] { return teaching->topic() == TeachingPanel::Topic::Fairness; },
                            60000));
    // A control the panel does not explain leaves the topic as it was.
    panel->epochsBox()->setFocus();
    QTest::qWait(50);
    CHECK(teaching->topic() == TeachingPanel::Topic::Fairness);

    // View → Teaching panel hides and shows it.
    QAction* toggle = dock->toggleViewAction();
    CHECK(toggle->isCheckable());
    CHECK(toggle->text() == QStringLiteral("Teaching panel"));
    toggle->trigger();
    CHECK_FALSE(dock->isVisible());
    toggle->trigger();
    CHECK(dock->isVisible());
}

TEST_CASE("Teaching panel: resting the mouse on the λ control brings up λ", "[ui][teaching]") {
    auto window = readyWindow(40);
    TeachingPanel* teaching = teachingOf(*window);
    teaching->setTopic(TeachingPanel::Topic::Data);
    QEvent enter(QEvent::Enter);
    QApplication::sendEvent(window->experimentPanel()->lambdaControl(), &enter);
    CHECK(teaching->topic() == TeachingPanel::Topic::Data);  // passing over changes nothing yet
    REQUIRE(
        QTest::qWaitFor([&] { return teaching->topic() == TeachingPanel::Topic::Lambda; }, 60000));
    // Leaving before the delay cancels.
    QApplication::sendEvent(window->experimentPanel()->epsilonControl(), &enter);
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(window->experimentPanel()->epsilonControl(), &leave);
    QTest::qWait(500);
    CHECK(teaching->topic() == TeachingPanel::Topic::Lambda);
}

TEST_CASE(
    "Guided tour: first launch only, Next follows the widgets, Skip records it, Help reopens it",
    "[ui][tour]") {
    auto window = readyWindow(40);  // clean settings: a first launch
    window->resize(1280, 720);      // as on a projector
    QTest::qWait(50);
    CHECK_FALSE(window->findChild<GuidedTour*>());  // the window never starts it by itself
    qunsetenv("PFA_NO_TOUR");
    REQUIRE(GuidedTour::showOnFirstLaunch(window.get()));
    REQUIRE(QTest::qWaitFor(
        [&] {
            auto* tour = window->findChild<GuidedTour*>();
            return tour && tour->isActive();
        },
        60000));
    GuidedTour* tour = GuidedTour::of(window.get());
    ExperimentPanel* panel = window->experimentPanel();
    CHECK(tour->currentStep() == 0);
    CHECK(tour->currentTarget() == panel->datasetBox());
    CHECK(tour->bubble()->isVisible());
    CHECK_FALSE(tour->backButton()->isEnabled());
    // The bubble sits beside its target, not on it.
    const QRect target(panel->datasetBox()->mapTo(window.get(), QPoint(0, 0)),
                       panel->datasetBox()->size());
    CHECK_FALSE(tour->bubble()->geometry().intersects(target));
    // Not modal: the window's controls still take input while the tour is shown.
    CHECK(tour->testAttribute(Qt::WA_TransparentForMouseEvents));
    QTest::mouseClick(tour->nextButton(), Qt::LeftButton);
    CHECK(tour->currentTarget() == runButtonOf(*window));
    QTest::mouseClick(tour->nextButton(), Qt::LeftButton);
    CHECK(tour->currentTarget() == panel->lambdaControl());
    QTest::mouseClick(tour->nextButton(), Qt::LeftButton);
    CHECK(tour->currentTarget() == panel->epsilonControl());
    // No monotone rule one noisy run can contradict on screen: the trend is on average, and
    // the way to see it (seeds) is named.
    {
        QString shown;
        for (QLabel* label : tour->bubble()->findChildren<QLabel*>()) shown += label->text();
        CHECK(shown.contains(QStringLiteral("on average")));
        CHECK(shown.contains(QStringLiteral("seeds")));
        CHECK(shown.contains(QStringLiteral("Run this point with 4 more seeds")));
        CHECK_FALSE(shown.contains(QStringLiteral("less accuracy")));
    }
    QTest::mouseClick(tour->backButton(), Qt::LeftButton);
    CHECK(tour->currentTarget() == panel->lambdaControl());
    QTest::mouseClick(tour->nextButton(), Qt::LeftButton);
    QTest::mouseClick(tour->nextButton(), Qt::LeftButton);
    CHECK(tour->currentTarget() == window->tradeoffChart());
    CHECK(window->tradeoffChart()->isVisible());  // its dock raised
    {
        // The bubble does not hide the chart it points to.
        const QRect chart(window->tradeoffChart()->mapTo(window.get(), QPoint(0, 0)),
                          window->tradeoffChart()->size());
        const QRect overlap = tour->bubble()->geometry().intersected(chart);
        INFO("bubble covers " << overlap.width() * overlap.height() << " of "
                              << chart.width() * chart.height() << " pixels of the chart");
        CHECK(overlap.width() * overlap.height() < chart.width() * chart.height() / 4);
    }
    QTest::mouseClick(tour->nextButton(), Qt::LeftButton);
    CHECK(tour->currentTarget() == teachingOf(*window));
    CHECK(teachingOf(*window)->isVisible());
    CHECK(tour->nextButton()->text() == QStringLiteral("Done"));

    // Skip closes it and records it: no tour on the next launch.
    CHECK_FALSE(QSettings().value(QLatin1String(GuidedTour::seenKey())).toBool());
    QTest::mouseClick(tour->skipButton(), Qt::LeftButton);
    CHECK_FALSE(tour->isActive());
    CHECK_FALSE(tour->bubble()->isVisible());
    CHECK(QSettings().value(QLatin1String(GuidedTour::seenKey())).toBool());
    CHECK_FALSE(GuidedTour::showOnFirstLaunch(window.get()));

    // Help → Guided tour opens it again, at the first step.
    auto* action = window->findChild<QAction*>(QStringLiteral("guidedTourAction"));
    REQUIRE(action);
    action->trigger();
    CHECK(tour->isActive());
    CHECK(tour->currentStep() == 0);
    CHECK(tour->currentTarget() == panel->datasetBox());
    // Done on the last step closes it too.
    for (int i = 1; i < tour->stepCount(); ++i) tour->next();
    QTest::mouseClick(tour->nextButton(), Qt::LeftButton);
    CHECK_FALSE(tour->isActive());
}

TEST_CASE("Guided tour: PFA_NO_TOUR keeps a first launch quiet", "[ui][tour]") {
    auto window = readyWindow(40);
    qputenv("PFA_NO_TOUR", "1");
    CHECK_FALSE(GuidedTour::showOnFirstLaunch(window.get()));
    qunsetenv("PFA_NO_TOUR");
    QTest::qWait(600);
    CHECK_FALSE(window->findChild<GuidedTour*>());
}

TEST_CASE("Teaching panel: during a run, the last finished run's rates are labelled as its own",
          "[ui][teaching]") {
    TeachingPanel teaching;
    pfa::TrainConfig config;
    config.algorithm = "dp-fermi";
    teaching.setConfig(config);
    teaching.finishRun(fakeRun(1, config));
    config.lambda = 4.0;
    teaching.setConfig(config);
    teaching.beginRun(2, config);
    pfa::EpochMetrics epoch;
    epoch.epoch = 12;
    epoch.step = 120;
    epoch.epsilonSpent = 0.4;
    epoch.testError = 0.27;
    epoch.violation = 0.08;
    teaching.addEpochs(2, {epoch});
    const QString text = teaching.topicText(TeachingPanel::Topic::Fairness);
    CHECK(text.contains(QStringLiteral("Right now (run 2, epoch 12): gap 0.08")));
    CHECK(
        text.contains(QStringLiteral("At the end of run 1 (the last finished, λ = 1, test rows)")));
    CHECK(text.contains(
        QStringLiteral("selection rate: A (majority) 0.62, B (minority) 0.41 → gap 0.21")));
    CHECK(teaching.topicText(TeachingPanel::Topic::Lambda)
              .contains(QStringLiteral(
                  "Right now (run 2, epoch 12, λ = 4): test error 0.27, violation 0.08")));
}

TEST_CASE("Screenshots of the teaching panel and the guided tour",
          "[ui][teaching][screenshot][slow]") {
    {
        auto window = readyWindow(200);
        REQUIRE(runWithLambdas(*window, {1.0}));  // a finished run: its group rates
        TeachingPanel* teaching = teachingOf(*window);
        ExperimentPanel* panel = window->experimentPanel();
        panel->lambdaControl()->spinBox()->setValue(4.0);
        // Ten times the epochs the picture needs: on a busy machine the training thread could
        // finish 200 before the GUI thread gets to pause it.
        panel->epochsBox()->setValue(2000);
        clickToolbar(*window, window->runAction());
        LiveChartsPanel* live = window->liveCharts();
        REQUIRE(QTest::qWaitFor(
            [&] {
                live->refreshNow();
                return live->livePointCount() >= 80;
            },
            60000));
        clickToolbar(*window, window->pauseAction());  // a still picture of a run in progress
        QDockWidget* dock = dockOf(teaching);
        dock->show();
        dock->raise();
        window->activateWindow();
        REQUIRE(QTest::qWaitForWindowActive(window.get(), 60000));
        panel->fairnessBox()->setFocus();
        REQUIRE(QTest::qWaitFor([&] { return teaching->topic() == TeachingPanel::Topic::Fairness; },
                                60000));
        // The run's epochs reach the panel through the event loop: on a busy machine later than
        // any fixed wait, so wait for them (the text must still say where the run is).
        CHECK(QTest::qWaitFor(
            [&] {
                live->refreshNow();
                return teaching->text().contains(QStringLiteral("Right now (run 2, epoch"));
            },
            60000));
        const QString path = QStringLiteral(PFA_SCREENSHOT_DIR "/teaching-panel-during-run.png");
        REQUIRE(window->grab().save(path));
        clickToolbar(*window, window->stopAction());
    }
    {
        auto window = readyWindow(40);
        GuidedTour* tour = GuidedTour::of(window.get());
        tour->start();
        QTest::qWait(200);
        REQUIRE(tour->currentStep() == 0);
        const QString path = QStringLiteral(PFA_SCREENSHOT_DIR "/guided-tour-first-step.png");
        REQUIRE(window->grab().save(path));
        // Every step on a projector's 1280×720, to look at: the bubble inside the window.
        window->resize(1280, 720);
        for (int step = 0; step < tour->stepCount(); ++step) {
            QTest::qWait(100);
            CHECK(window->rect().contains(tour->bubble()->geometry()));
            REQUIRE(window->grab().save(
                QStringLiteral(PFA_SCREENSHOT_DIR "/guided-tour-step-%1-1280x720.png")
                    .arg(step + 1)));
            tour->next();
        }
        CHECK_FALSE(tour->isActive());
    }
}

TEST_CASE("The teaching panel says who adds the noise and what personalisation keeps local",
          "[ui][teaching][trust]") {
    TeachingFacts facts;
    facts.config.algorithm = "isrl-dp-sgd";
    facts.config.epsilon = 1.0;
    facts.config.extra["trust"] = "local";
    const QString silos = teaching_texts::privacyHtml(facts);
    INFO(silos.toStdString());
    CHECK(silos.contains(QStringLiteral("Who is trusted")));
    CHECK(silos.contains(QStringLiteral("<b>Each record (local DP)</b>")));
    CHECK(silos.contains(QStringLiteral("Trusted server")));  // the others are named
    {
        QTextBrowser shown;
        shown.setHtml(silos);
        shown.resize(420, 640);
        CHECK(shown.grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/teaching-trust-model.png")));
    }
    // The default (no value chosen) is the declared one: each silo.
    facts.config.extra.erase("trust");
    CHECK(
        teaching_texts::privacyHtml(facts).contains(QStringLiteral("<b>Each silo (ISRL-DP)</b>")));

    facts.config.algorithm = "ppsgd";
    facts.config.extra = {{"personalisation", "0.5"}};
    const QString personal = teaching_texts::privacyHtml(facts);
    INFO(personal.toStdString());
    CHECK(personal.contains(QStringLiteral("Personalisation</i> a = 0.5")));
    CHECK_FALSE(personal.contains(QStringLiteral("Who is trusted")));
    // An algorithm with neither says nothing of them.
    facts.config.algorithm = "dp-fermi";
    facts.config.extra.clear();
    const QString fermi = teaching_texts::privacyHtml(facts);
    CHECK_FALSE(fermi.contains(QStringLiteral("Who is trusted")));
    CHECK_FALSE(fermi.contains(QStringLiteral("Personalisation")));
}

}  // namespace ui_teaching_test
