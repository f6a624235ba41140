// Personalised private SGD from the window: the personalised users are offered as a built-in data
// set, and a ppsgd run on them finishes with the ε the accountant certifies for one user.
#include <QComboBox>
#include <QDir>
#include <QSignalSpy>
#include <QTest>
#include <catch2/catch.hpp>
#include <cmath>

#include "ui/actions/run_actions.h"
#include "ui/panels/dataset_card.h"
#include "ui/panels/epsilon_control.h"
#include "ui/runs/run_history_model.h"
#include "ui_test_support.h"

namespace ui_ppsgd_gui_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

TEST_CASE("ppsgd runs on the built-in personalised users from the window", "[ui][ppsgd][slow]") {
    auto window = readyWindow();
    ExperimentPanel* panel = window->experimentPanel();
    const int data = panel->datasetBox()->findData(QStringLiteral("synthetic-personalised"));
    REQUIRE(data >= 0);
    CHECK_FALSE(panel->datasetBox()->itemData(data, Qt::ToolTipRole).toString().isEmpty());
    const int algorithm = panel->algorithmBox()->findData(QStringLiteral("ppsgd"));
    REQUIRE(algorithm >= 0);
    panel->algorithmBox()->setCurrentIndex(algorithm);
    panel->datasetBox()->setCurrentIndex(data);
    panel->epsilonControl()->setValue(1.0);
    const bool ready = QTest::qWaitFor([&] { return panel->problem().isEmpty(); }, 20000);
    INFO(panel->problem().toStdString());
    REQUIRE(ready);
    CHECK(window->datasetCard()->title() ==
          QStringLiteral("Synthetic personalised users (built-in)"));

    const RunEntryPtr entry = runFromWindow(*window);
    REQUIRE(entry->isComplete());
    CHECK(entry->result.config.algorithm == "ppsgd");
    CHECK(entry->result.privacy.unit == "user");
    CHECK(entry->result.privacy.epsilonSpent > 0.0);
    CHECK(entry->result.privacy.epsilonSpent <= 1.0);
    CHECK(std::isfinite(entry->result.history.back().excessRisk));
    CHECK(entry->result.units.size() == 1000);
    QTest::qWait(300);
    CHECK(window->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/ppsgd-personalised-run.png")));
}

TEST_CASE("ppsgd on data without users is refused in the window, saying how to get users",
          "[ui][ppsgd]") {
    auto window = readyWindow();
    window->resize(1280, 720);
    ExperimentPanel* panel = window->experimentPanel();
    // The built-in synthetic data has no users by default.
    REQUIRE(panel->datasetRequest().name == "synthetic");
    panel->algorithmBox()->setCurrentIndex(
        panel->algorithmBox()->findData(QStringLiteral("ppsgd")));
    const bool refused = QTest::qWaitFor(
        [&] { return panel->problem().contains(QStringLiteral("has no users")); }, 20000);
    INFO(panel->problem().toStdString());
    REQUIRE(refused);
    CHECK(panel->problem().contains(QStringLiteral("synthetic-personalised")));
    // The status bar may cut the reason at 720 pixels: the Run button's tooltip holds it all.
    CHECK_FALSE(window->runAction()->isEnabled());
    CHECK(window->runAction()->toolTip().contains(panel->problem()));
    const std::size_t runs = window->historyModel()->entries().size();
    window->runActions()->startRun();
    QTest::qWait(300);
    CHECK(window->historyModel()->entries().size() == runs);  // nothing ran
    CHECK(window->grab().save(
        QStringLiteral(PFA_SCREENSHOT_DIR "/ppsgd-without-users-1280x720.png")));
}

}  // namespace ui_ppsgd_gui_test
