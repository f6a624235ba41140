// Tools → Privacy audit: a small audit runs off the GUI thread and fills the chart (claimed ε
// beside the proved lower bound), the table and the plain-words verdict, for DP-SGD and for the
// deliberately broken mechanism; the numbers export as CSV and JSON.
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <QtCharts/QBarSet>
#include <catch2/catch.hpp>

#include "core/util/format.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/tradeoff_chart.h"
#include "ui/dialogs/privacy_audit_dialog.h"
#include "ui_test_support.h"

namespace ui_privacy_audit_gui_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

/// Chooses the audit's method.
void chooseMethod(PrivacyAuditDialog& dialog, pfa::audit::AuditMethod method) {
    const int index = dialog.methodBox()->findData(static_cast<int>(method));
    REQUIRE(index >= 0);
    dialog.methodBox()->setCurrentIndex(index);
}

/// Runs the dialog's audit and waits for it.
void runAudit(PrivacyAuditDialog& dialog, int timeoutMs = 120000) {
    QSignalSpy finished(&dialog, &PrivacyAuditDialog::auditFinished);
    QTest::mouseClick(dialog.runButton(), Qt::LeftButton);
    CHECK(dialog.running());
    REQUIRE(waitForSignals(finished, 1, timeoutMs));
    REQUIRE(dialog.result().has_value());
}

}  // namespace

TEST_CASE("The privacy audit opens from the Tools menu", "[ui][audit]") {
    auto window = readyWindow();
    QAction* action = window->findChild<QAction*>(QStringLiteral("privacyAuditAction"));
    REQUIRE(action != nullptr);
    action->trigger();
    auto* dialog = window->findChild<PrivacyAuditDialog*>();
    REQUIRE(dialog != nullptr);
    CHECK(dialog->isVisible());
    CHECK(dialog->algorithmBox()->currentData().toString() == QStringLiteral("dp-sgd"));
    // Only record-level private classifiers are offered.
    CHECK(dialog->algorithmBox()->findData(QStringLiteral("erm")) < 0);
    CHECK(dialog->algorithmBox()->findData(QStringLiteral("user-level-dp-sgd")) < 0);
    CHECK_FALSE(dialog->brokenCheck()->toolTip().isEmpty());
    CHECK_FALSE(dialog->modelsBox()->toolTip().isEmpty());
    action->trigger();  // the same dialog again, not a second one
    CHECK(window->findChildren<PrivacyAuditDialog*>().size() == 1);
}

TEST_CASE("A small audit of DP-SGD fills the chart, the table and the verdict", "[ui][audit]") {
    PrivacyAuditDialog dialog;
    dialog.show();
    chooseMethod(dialog, pfa::audit::AuditMethod::ManyModels);
    dialog.epsilonsEdit()->setText(QStringLiteral("1, 4"));
    dialog.modelsBox()->setValue(8);
    dialog.epochsBox()->setValue(5);
    runAudit(dialog);
    const auto& result = *dialog.result();
    REQUIRE(result.points.size() == 2);
    QTableWidget* table = dialog.table();
    REQUIRE(table->rowCount() == 2);
    for (int row = 0; row < 2; ++row) {
        const auto& point = result.points[static_cast<std::size_t>(row)];
        CHECK(table->item(row, 0)->text() == QString::number(point.targetEpsilon));
        CHECK(table->item(row, 1)->text().toDouble() == Approx(point.claimedEpsilon).epsilon(1e-2));
        CHECK(table->item(row, 2)->text().toDouble() == Approx(point.epsilonLower).margin(1e-2));
        CHECK(table->item(row, 7)->text() == QStringLiteral("16"));
        CHECK(dialog.claimedBars()->at(row) == point.claimedEpsilon);
        CHECK(dialog.boundBars()->at(row) == point.epsilonLower);
        CHECK(point.epsilonLower <= point.claimedEpsilon);
        CHECK_FALSE(dialog.boundBars()->isBarSelected(row));
    }
    CHECK(dialog.claimedBars()->at(0) == Approx(1.0).epsilon(0.01));
    CHECK(dialog.claimedBars()->at(1) == Approx(4.0).epsilon(0.01));
    const QString words = dialog.explanation()->text();
    CHECK(words.contains(QStringLiteral("the accountant claims ε ≤ ")));
    CHECK(words.count(QStringLiteral("consistent")) == 2);
    CHECK_FALSE(dialog.chartView()->isEmpty());
    CHECK(dialog.csvText().count(QLatin1Char('\n')) == 3);
    CHECK(dialog.jsonText().contains(QStringLiteral("\"claimed_epsilon\"")));
}

TEST_CASE("The audit shows the broken mechanism failing its claim", "[ui][audit]") {
    PrivacyAuditDialog dialog;
    dialog.show();
    chooseMethod(dialog, pfa::audit::AuditMethod::ManyModels);
    dialog.epsilonsEdit()->setText(QStringLiteral("1"));
    dialog.modelsBox()->setValue(40);
    dialog.brokenCheck()->setChecked(true);
    CHECK_FALSE(dialog.algorithmBox()->isEnabled());
    dialog.divisorBox()->setValue(100.0);
    runAudit(dialog);
    const auto& result = *dialog.result();
    REQUIRE(result.points.size() == 1);
    CHECK(result.broken);
    CHECK(result.points[0].epsilonLower > 1.0);
    CHECK(dialog.boundBars()->at(0) > dialog.claimedBars()->at(0));
    CHECK(
        dialog.explanation()->text().contains(QStringLiteral("does <b>not</b> deliver its claim")));
    CHECK(dialog.chartView()->chart()->title().contains(QStringLiteral("DELIBERATELY BROKEN")));
    CHECK(dialog.boundBars()->isBarSelected(0));  // drawn in the violation colour
}

TEST_CASE("A run's point on the tradeoff chart audits that run's settings on its data",
          "[ui][audit][audit-run]") {
    auto window = readyWindow(5);
    const RunEntryPtr run = runFromWindow(*window);
    REQUIRE(run->isComplete());
    const pfa::TrainConfig& config = run->result.config;
    QMenu menu;
    window->tradeoffChart()->fillPointMenu(&menu, run->id);
    QAction* audit = menu.findChild<QAction*>(QStringLiteral("auditRun"));
    REQUIRE(audit != nullptr);
    CHECK_FALSE(audit->toolTip().isEmpty());
    audit->trigger();
    auto* dialog = window->findChild<PrivacyAuditDialog*>();
    REQUIRE(dialog != nullptr);
    CHECK(dialog->isVisible());
    REQUIRE(dialog->auditedRun().has_value());
    CHECK(dialog->auditedRun()->config.algorithm == config.algorithm);
    CHECK(dialog->auditedRun()->config.epochs == config.epochs);
    CHECK(dialog->auditedRun()->config.batchSize == config.batchSize);
    CHECK(dialog->auditedRun()->config.lambda == config.lambda);
    CHECK(dialog->targetLabel()->text().contains(QStringLiteral("run %1").arg(run->id)));
    CHECK(dialog->epsilonsEdit()->text().toStdString() == pfa::formatNumber(config.epsilon));
    // The run's settings are shown, not edited.
    CHECK_FALSE(dialog->algorithmBox()->isEnabled());
    CHECK_FALSE(dialog->epochsBox()->isEnabled());
    CHECK_FALSE(dialog->brokenCheck()->isEnabled());
    CHECK(dialog->methodBox()->currentData().toInt() ==
          static_cast<int>(pfa::audit::AuditMethod::OneRunGradient));
    dialog->canariesBox()->setValue(200);
    runAudit(*dialog);
    const auto& result = *dialog->result();
    CHECK(result.method == pfa::audit::AuditMethod::OneRunGradient);
    CHECK(result.config.algorithm == config.algorithm);
    CHECK(result.config.clipTheta == config.clipTheta);
    CHECK(result.trainingRows == static_cast<long>(dialog->auditedRun()->data->split.train.rows()));
    REQUIRE(result.points.size() == 1);
    // The audit's runs are the run's mechanism: the accountant claims the run's ε.
    CHECK(result.points[0].claimedEpsilon == Approx(run->certifiedEpsilon()).epsilon(1e-6));
    CHECK(result.points[0].canaries == 200);
    CHECK(dialog->table()->horizontalHeaderItem(3)->text() == QStringLiteral("guesses"));
    CHECK(dialog->explanation()->text().contains(QStringLiteral("Steinke")));
    // The export says what was audited, on what, by which method.
    const QString json = dialog->jsonText();
    CHECK(json.contains(QString::fromStdString(run->context.datasetDescription)));
    CHECK(json.contains(QStringLiteral("white-box")));
    CHECK(json.contains(QStringLiteral("\"canary_included\"")));
    CHECK(dialog->csvText().startsWith(QStringLiteral("method,")));
    QDir().mkpath(QStringLiteral(PFA_SCREENSHOT_DIR));
    QTest::qWait(200);  // the chart lays its new title and legend out
    CHECK(dialog->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/privacy-audit-of-a-run.png")));
    // Back to the built-in data and editable settings.
    dialog->clearAuditedRun();
    CHECK_FALSE(dialog->auditedRun().has_value());
    CHECK(dialog->algorithmBox()->isEnabled());
    CHECK(dialog->targetLabel()->text().contains(QStringLiteral("built-in")));
}

TEST_CASE("A bad ε list is reported, not run", "[ui][audit]") {
    PrivacyAuditDialog dialog;
    dialog.epsilonsEdit()->setText(QStringLiteral("1, abc"));
    QTest::mouseClick(dialog.runButton(), Qt::LeftButton);
    CHECK_FALSE(dialog.running());
    CHECK_FALSE(dialog.result().has_value());
}

TEST_CASE("Screenshots of the privacy audit", "[.][audit-screenshots]") {
    {
        PrivacyAuditDialog dialog;
        dialog.show();
        runAudit(dialog, 600000);  // white box, 10,000 gradient canaries, ε = 1, 4, 16
        QTest::qWait(200);
        CHECK(
            dialog.grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/privacy-audit-white-box.png")));
    }
    {
        PrivacyAuditDialog dialog;
        dialog.show();
        chooseMethod(dialog, pfa::audit::AuditMethod::ManyModels);
        dialog.modelsBox()->setValue(200);
        runAudit(dialog, 600000);
        QTest::qWait(200);
        CHECK(dialog.grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/privacy-audit-correct.png")));
    }
    PrivacyAuditDialog dialog;
    dialog.show();
    chooseMethod(dialog, pfa::audit::AuditMethod::ManyModels);
    dialog.epsilonsEdit()->setText(QStringLiteral("1, 4"));
    dialog.modelsBox()->setValue(200);
    dialog.brokenCheck()->setChecked(true);
    dialog.divisorBox()->setValue(10.0);
    runAudit(dialog, 600000);
    QTest::qWait(200);
    CHECK(dialog.grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/privacy-audit-broken.png")));
}

}  // namespace ui_privacy_audit_gui_test
