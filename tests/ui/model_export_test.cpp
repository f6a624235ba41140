// File → Export model of selected run… (offscreen): the file holds the run's exact model and only
// what its guarantee covers, the dialog warns about seeded noise and trains the run again with
// secure noise, and the action explains why it cannot export when no single run with a model is
// selected.
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <catch2/catch.hpp>
#include <functional>

#include "core/sweep/saved_model.h"
#include "core/util/json_value.h"
#include "ui/actions/model_export_actions.h"
#include "ui/dialogs/model_export_dialog.h"
#include "ui/runs/run_history_model.h"
#include "ui/runs/run_history_view.h"
#include "ui_test_support.h"

namespace ui_model_export_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

/// Triggers `action`; the modal dialog it opens (if any) goes to `handle`, which closes it.
/// Returns whether a dialog opened. A second dialog (e.g. an error after the file dialog) is
/// closed and fails the test instead of blocking it.
bool triggerWithDialog(QAction* action, const std::function<void(QWidget*)>& handle) {
    int opened = 0;
    QPointer<QWidget> handled;  // null again once that dialog is gone
    QTimer poll;
    poll.setInterval(20);
    QObject::connect(&poll, &QTimer::timeout, [&] {
        QWidget* modal = QApplication::activeModalWidget();
        if (!modal || modal == handled) return;
        if (++opened == 1) {
            handled = modal;
            handle(modal);
        } else {
            auto* box = qobject_cast<QMessageBox*>(modal);
            FAIL_CHECK(
                "unexpected dialog: " << (box ? box->text() : modal->windowTitle()).toStdString());
            modal->close();
        }
    });
    poll.start();
    action->trigger();  // returns once the dialogs are closed
    poll.stop();
    return opened > 0;
}

/// The text of the message box `action` shows (closing it).
QString messageOf(QAction* action) {
    QString text;
    const bool opened = triggerWithDialog(action, [&](QWidget* modal) {
        auto* box = qobject_cast<QMessageBox*>(modal);
        REQUIRE(box);
        text = box->text();
        box->accept();
    });
    REQUIRE(opened);
    return text;
}

}  // namespace

/// The model export dialog the action opened (it opens with open(): the action returns at once).
ModelExportDialog* openedDialog(MainWindow& window) {
    ModelExportDialog* dialog = nullptr;
    (void)QTest::qWaitFor(
        [&] {
            dialog = window.modelExportActions()->dialog();
            return dialog && dialog->isVisible();
        },
        60000);
    return dialog;
}

TEST_CASE("Export model writes the selected run's exact model, without seed or diagnostics",
          "[ui][export]") {
    auto window = readyWindow(5);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 1));
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 2));
    const RunEntryPtr entry = finishedEntry(finished, 0);
    REQUIRE(entry->result.theta.size() > 0);
    REQUIRE(entry->result.privacy.isPrivate);
    REQUIRE_FALSE(entry->result.config.secureNoise);  // the default: seeded noise
    auto* action = window->findChild<QAction*>(QStringLiteral("exportModelAction"));
    REQUIRE(action);
    CHECK(window->historyView()->actions().contains(action));  // also in the context menu
    CHECK_FALSE(action->toolTip().isEmpty());

    window->historyView()->selectRuns({});
    CHECK(messageOf(action).contains(QStringLiteral("Select a run")));
    window->historyView()->selectRuns({entry->id, finishedEntry(finished, 1)->id});
    CHECK(messageOf(action).contains(QStringLiteral("2 runs are selected")));

    // A run opened from an older file has no model.
    pfa::RunResult old = entry->result;
    old.theta.resize(0, 0);
    old.W.resize(0, 0);
    pfa::RunContext oldContext = entry->context;
    oldContext.preprocessing.reset();
    const int oldId = window->controller()->allocateRunId();
    window->historyModel()->append(
        makeRunEntry(oldId, old, oldContext, QDateTime::currentDateTime()));
    window->historyView()->selectRuns({oldId});
    CHECK(messageOf(action).contains(QStringLiteral("has no model")));

    window->historyView()->selectRuns({entry->id});
    action->trigger();
    ModelExportDialog* dialog = openedDialog(*window);
    REQUIRE(dialog);
    CHECK(dialog->path().endsWith(QStringLiteral("model-run-%1.json").arg(entry->id)));
    // The seeded run: warned, and training it again with secure noise is the default.
    REQUIRE(dialog->warningLabel());
    CHECK(dialog->warningLabel()->isVisible());
    CHECK(dialog->warningLabel()->text().contains(QStringLiteral("Secure noise (OS entropy)")));
    REQUIRE(dialog->rerunButton());
    CHECK(dialog->rerunButton()->isEnabled());
    CHECK(dialog->rerunButton()->isDefault());
    CHECK(dialog->exportButton()->text() == QStringLiteral("Export anyway"));
    // What the file holds, labelled: the preprocessing statistics are not protected.
    const QString contents = dialog->contentsText();
    CHECK(contents.contains(QStringLiteral("Not protected")));
    CHECK(contents.contains(QStringLiteral("mean and standard deviation")));
    CHECK(contents.contains(QStringLiteral("the run seed")));
    CHECK(contents.contains(QStringLiteral("training-set diagnostics")));  // left out
    CHECK_FALSE(dialog->testMetricsBox()->isChecked());
    CHECK_FALSE(dialog->diagnosticsBox()->isChecked());
    for (QWidget* control :
         {static_cast<QWidget*>(dialog->testMetricsBox()),
          static_cast<QWidget*>(dialog->diagnosticsBox()),
          static_cast<QWidget*>(dialog->pathEdit()), static_cast<QWidget*>(dialog->exportButton()),
          static_cast<QWidget*>(dialog->rerunButton())})
        CHECK_FALSE(control->toolTip().isEmpty());
    CHECK(dialog->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/model-export-seeded.png")));

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("model.json"));
    dialog->pathEdit()->setText(path);
    QTest::mouseClick(dialog->exportButton(), Qt::LeftButton);
    REQUIRE(
        QTest::qWaitFor([&] { return window->modelExportActions()->dialog() == nullptr; }, 60000));
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    const std::string text = file.readAll().toStdString();
    const pfa::JsonValue json = pfa::parseJson(text);
    const std::vector<pfa::JsonValue>& theta = json.at("model").at("theta").items();
    REQUIRE(static_cast<long>(theta.size()) == entry->result.theta.rows());
    for (std::size_t a = 0; a < theta.size(); ++a) {
        const std::vector<double> row = theta[a].numbers();
        REQUIRE(static_cast<long>(row.size()) == entry->result.theta.cols());
        for (std::size_t j = 0; j < row.size(); ++j) {
            CHECK(row[j] == entry->result.theta(static_cast<long>(a), static_cast<long>(j)));
        }
    }
    CHECK(json.at("preprocessing").at("feature_names").items().size() ==
          static_cast<std::size_t>(entry->context.features));
    CHECK(json.at("preprocessing").has("not_protected"));
    CHECK_FALSE(json.has("seed"));
    CHECK_FALSE(json.has("history"));
    CHECK_FALSE(json.has("train_loss"));
    CHECK(json.at("export").at("noise").asString() == "seeded");
    // pfa-cli predict reads it: the same model.
    const pfa::SavedModel saved = pfa::loadSavedModel(path.toStdString());
    CHECK(saved.run.theta == entry->result.theta);
    CHECK_FALSE(saved.seedKnown);
}

TEST_CASE("Export model of a seeded run trains it again with secure noise, then exports that",
          "[ui][export]") {
    auto window = readyWindow(5);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 1));
    const RunEntryPtr seeded = finishedEntry(finished, 0);
    window->historyView()->selectRuns({seeded->id});
    window->modelExportActions()->action()->trigger();
    ModelExportDialog* dialog = openedDialog(*window);
    REQUIRE(dialog);
    REQUIRE(dialog->rerunButton());
    dialog->testMetricsBox()->setChecked(true);  // kept for the new run's export
    CHECK(dialog->contentsText().contains(QStringLiteral("test metrics")));
    QTemporaryDir dir;
    dialog->pathEdit()->setText(dir.filePath(QStringLiteral("model-run-%1.json").arg(seeded->id)));
    QTest::mouseClick(dialog->rerunButton(), Qt::LeftButton);

    // The same settings again, with secure noise; its model is offered when it finishes.
    REQUIRE(waitForSignals(finished, 2));
    const RunEntryPtr secure = finishedEntry(finished, 1);
    CHECK(secure->result.config.secureNoise);
    CHECK(secure->result.privacy.noiseSource == pfa::privacy::NoiseSource::Secure);
    CHECK(secure->result.config.epsilon == seeded->result.config.epsilon);
    CHECK(secure->result.config.lambda == seeded->result.config.lambda);
    CHECK(secure->result.config.algorithm == seeded->result.config.algorithm);
    dialog = openedDialog(*window);
    REQUIRE(dialog);
    CHECK(dialog->entry()->id == secure->id);
    CHECK_FALSE(dialog->warningLabel());  // nothing to warn about
    CHECK_FALSE(dialog->rerunButton());
    CHECK(dialog->exportButton()->text() == QStringLiteral("Export"));
    CHECK(dialog->exportButton()->isDefault());
    CHECK(dialog->testMetricsBox()->isChecked());
    CHECK(dialog->path().endsWith(QStringLiteral("model-run-%1.json").arg(secure->id)));
    QTest::mouseClick(dialog->exportButton(), Qt::LeftButton);
    QFile file(dialog->path());
    REQUIRE(QTest::qWaitFor([&] { return file.exists(); }, 60000));
    REQUIRE(file.open(QIODevice::ReadOnly));
    const pfa::JsonValue json = pfa::parseJson(file.readAll().toStdString());
    CHECK(json.at("export").at("noise").asString() == "os-entropy");
    CHECK_FALSE(json.at("export").has("warning"));
    CHECK(json.has("test_error"));  // asked for, labelled in the export block
}

TEST_CASE("Export model: training again is offered only on the run's own data", "[ui][export]") {
    auto window = readyWindow(5);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 1));
    RunEntry other = *finishedEntry(finished, 0);
    other.id = window->controller()->allocateRunId();
    other.context.runKey = "dataset=compas(sex)|split=0:0.25;algorithm=dp-fermi";
    const QString problem = window->modelExportActions()->rerunProblem(other);
    CHECK(problem.contains(QStringLiteral("load its data set")));
    auto entry = std::make_shared<const RunEntry>(other);
    window->historyModel()->append(entry);
    window->historyView()->selectRuns({other.id});
    window->modelExportActions()->action()->trigger();
    ModelExportDialog* dialog = openedDialog(*window);
    REQUIRE(dialog);
    REQUIRE(dialog->rerunButton());
    CHECK_FALSE(dialog->rerunButton()->isEnabled());
    CHECK(dialog->rerunButton()->toolTip() == problem);
    CHECK(dialog->exportButton()->isDefault());
    dialog->reject();
}

}  // namespace ui_model_export_test
