// DP-FERMI's competitors from the window: a DP post-processing run on the built-in data, in the
// sensitive-only scope it requires, draws its whole γ-curve (one run, one ε) as a curve in the
// tradeoff chart, and a PF-LD run names its dual step where other runs name λ.
#include <QComboBox>
#include <QDir>
#include <QSignalSpy>
#include <QTest>
#include <catch2/catch.hpp>

#include "ui/charts/tradeoff_chart.h"
#include "ui/panels/epsilon_control.h"
#include "ui/panels/lambda_control.h"
#include "ui/panels/parameter_form.h"
#include "ui_test_support.h"

namespace ui_baselines_gui_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

TEST_CASE("DP post-processing runs from the window and draws its γ-curve", "[ui][baselines]") {
    auto window = readyWindow(20);
    ExperimentPanel* panel = window->experimentPanel();
    panel->algorithmBox()->setCurrentIndex(
        panel->algorithmBox()->findData(QStringLiteral("dp-postprocessing")));
    panel->fairnessBox()->setCurrentIndex(panel->fairnessBox()->findData(QStringLiteral("eo")));
    chooseSetting(panel, "scope", QStringLiteral("sensitive-only"));
    panel->epsilonControl()->setValue(1.0);
    // λ means nothing to it: the control is off.
    CHECK_FALSE(panel->lambdaControl()->slider()->isEnabled());

    const RunEntryPtr entry = runFromWindow(*window);
    REQUIRE(entry->isComplete());
    CHECK(entry->result.config.algorithm == "dp-postprocessing");
    CHECK(entry->result.curve.size() > 10);
    CHECK(entry->result.privacy.epsilonSpent == Approx(1.0).margin(1e-12));
    CHECK_THAT(entry->result.privacy.statement, Catch::Contains("decision time"));
    CHECK(entry->summary().contains(QStringLiteral("γ = 0.02")));
    // One run, one curve in the tradeoff chart (its headline point marked as a point).
    const bool drawn =
        QTest::qWaitFor([&] { return window->tradeoffChart()->curveCount() == 1; }, 60000);
    CHECK(drawn);
    QTest::qWait(300);
    CHECK(window->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/dp-postprocessing-run.png")));
}

TEST_CASE("PF-LD runs from the window, its dual step where λ would be", "[ui][baselines]") {
    auto window = readyWindow(5);
    ExperimentPanel* panel = window->experimentPanel();
    panel->algorithmBox()->setCurrentIndex(
        panel->algorithmBox()->findData(QStringLiteral("pf-ld")));
    panel->epsilonControl()->setValue(2.0);
    CHECK((panel->settingsForm()->isShown("dual-step") ||
           panel->advancedSettingsForm()->isShown("dual-step")));
    const RunEntryPtr entry = runFromWindow(*window);
    REQUIRE(entry->isComplete());
    CHECK(entry->result.privacy.epsilonSpent <= 2.0);
    CHECK(entry->result.privacy.epsilonSpent > 1.9);
    CHECK(entry->summary().contains(QStringLiteral("s = 0.2")));
    QTest::qWait(300);
    CHECK(window->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/pf-ld-run.png")));
}

}  // namespace ui_baselines_gui_test
