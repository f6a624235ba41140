// user-level-dp-sgd in the window: on data without users the panel says why it cannot run; on
// Parkinsons (users by subject) it trains and its run states a per-user guarantee.
#include <QComboBox>
#include <QDir>
#include <QSignalSpy>
#include <QTest>
#include <catch2/catch.hpp>

#include "ui/controllers/dataset_controller.h"
#include "ui/panels/experiment_panel.h"
#include "ui_test_support.h"

namespace ui_user_level_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

TEST_CASE("user-level-dp-sgd: refused with a reason on data without users", "[ui][user-level]") {
    auto window = readyWindow(20);
    ExperimentPanel* panel = window->experimentPanel();
    QComboBox* algorithms = panel->algorithmBox();
    algorithms->setCurrentIndex(algorithms->findData(QStringLiteral("user-level-dp-sgd")));
    REQUIRE(panel->config().algorithm == "user-level-dp-sgd");
    // The built-in synthetic data has no users.
    CHECK(panel->problem().contains(QStringLiteral("needs data with users")));
    CHECK_FALSE(window->runAction()->isEnabled());
    CHECK(window->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/user-level-no-users.png")));
}

TEST_CASE("user-level-dp-sgd: trains on Parkinsons, one person per user",
          "[ui][user-level][needs-data]") {
    const QString folder = sharedDatasetFolder(QStringLiteral("parkinsons-telemonitoring"));
    if (folder.isEmpty())
        PFA_SKIP_TEST(missingDatasetReason(QStringLiteral("parkinsons-telemonitoring")));
    auto window = readyWindow(20);
    ExperimentPanel* panel = window->experimentPanel();
    QComboBox* algorithms = panel->algorithmBox();
    algorithms->setCurrentIndex(algorithms->findData(QStringLiteral("user-level-dp-sgd")));
    REQUIRE(panel->config().algorithm == "user-level-dp-sgd");
    QComboBox* datasets = panel->datasetBox();
    datasets->setCurrentIndex(datasets->findData(QStringLiteral("parkinsons")));
    if (!panel->catalogFilesPresent()) {
        QSignalSpy imported(window->datasetController(), &DatasetController::importFinished);
        window->datasetController()->importFromFolder(QStringLiteral("parkinsons"), folder);
        REQUIRE(waitForSignals(imported, 1, 60000));
    }
    REQUIRE(QTest::qWaitFor([&] { return panel->problem().isEmpty(); }, 20000));
    CHECK(window->runAction()->isEnabled());
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 1, 60000));
    const RunEntryPtr run = finishedEntry(finished, 0);
    CHECK(run->result.status == pfa::RunStatus::Completed);
    CHECK(run->result.privacy.unit == "user");
    CHECK(run->result.unitKind == "user");
    CHECK(run->result.privacy.statement.find("per user under replace-one adjacency") !=
          std::string::npos);
    CHECK(window->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/user-level-parkinsons.png")));
}

}  // namespace ui_user_level_test
