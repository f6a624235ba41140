// The first launch's Run (pfa::firstRunConfig) and a λ drag in live mode show the fairness
// tradeoff: the panel starts on the first-run settings, and moving λ from 0 to the default in
// live mode restarts the run and moves the final violation by a clear margin.
#include <QComboBox>
#include <QDir>
#include <QSlider>
#include <catch2/catch.hpp>

#include "ui/panels/live_charts_panel.h"
#include "ui_test_support.h"

namespace ui_first_run_gui_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

TEST_CASE("First run: the panel starts on the first-run settings", "[ui][first-run]") {
    QSettings().clear();
    MainWindow window;
    window.setConfirmOnClose(false);
    REQUIRE(QTest::qWaitFor([&] { return window.experimentPanel()->problem().isEmpty(); }, 60000));
    const pfa::TrainConfig first = pfa::firstRunConfig();
    const pfa::TrainConfig shown = window.experimentPanel()->config();
    CHECK(shown.algorithm == first.algorithm);
    CHECK(shown.epsilon == first.epsilon);
    CHECK(shown.lambda == first.lambda);
    CHECK(shown.epochs == first.epochs);
    CHECK(shown.lrTheta == first.lrTheta);
    CHECK(shown.lambda != pfa::TrainConfig{}.lambda);  // not the generic default
    CHECK_FALSE(shown.averaging.has_value());          // auto: the average for this private run
    // The reported-model setting says that the curves are those of the reported model.
    REQUIRE(window.experimentPanel()->averagingBox());
    CHECK(window.experimentPanel()->averagingBox()->toolTip().contains(
        QStringLiteral("live curves")));
}

TEST_CASE("First run: a lambda drag in live mode moves the violation visibly", "[ui][first-run]") {
    QSettings().clear();
    auto window = std::make_unique<MainWindow>();
    window->setConfirmOnClose(false);
    window->resize(1440, 900);
    window->show();
    REQUIRE(QTest::qWaitFor([&] { return window->experimentPanel()->problem().isEmpty(); }, 60000));
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    window->experimentPanel()->liveModeBox()->setChecked(true);
    LambdaControl* lambda = window->experimentPanel()->lambdaControl();
    // Drag to 0 (fairness off), wait for the live run; then back to the first run's λ.
    lambda->slider()->setValue(0);
    REQUIRE(waitForSignals(finished, 1, 60000));
    lambda->slider()->setValue(LambdaControl::positionFor(pfa::firstRunConfig().lambda));
    REQUIRE(waitForSignals(finished, 2, 60000));
    const RunEntryPtr plain = finishedEntry(finished, 0), fair = finishedEntry(finished, 1);
    REQUIRE(plain->result.status == pfa::RunStatus::Completed);
    REQUIRE(fair->result.status == pfa::RunStatus::Completed);
    CHECK(plain->result.config.lambda == 0.0);
    CHECK(fair->result.config.lambda == pfa::firstRunConfig().lambda);
    const double before = plain->result.test.violation(plain->result.config.fairness);
    const double after = fair->result.test.violation(fair->result.config.fairness);
    INFO("violation at λ = 0: " << before << ", at λ = 3: " << after);
    // Measured: 0.223 and 0.101 (seed 0); the generic λ = 1 gave 0.160.
    CHECK(before - after >= 0.1);
    QTest::qWait(300);
    CHECK(window->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/first-run-lambda-drag.png")));
}

}  // namespace ui_first_run_gui_test
