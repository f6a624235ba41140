// File → Export model of selected run… (offscreen): the file holds the run's exact model, and
// the action explains why it cannot export when no single run with a model is selected.
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <catch2/catch.hpp>
#include <functional>

#include "core/sweep/saved_model.h"
#include "core/util/json_value.h"
#include "ui/runs/run_history_model.h"
#include "ui/runs/run_history_view.h"
#include "ui_test_support.h"

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

TEST_CASE("Export model writes the selected run's exact model", "[ui][export]") {
    auto window = readyWindow(5);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 1));
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 2));
    const RunEntryPtr entry = finishedEntry(finished, 0);
    REQUIRE(entry->result.theta.size() > 0);
    auto* action = window->findChild<QAction*>(QStringLiteral("exportModelAction"));
    REQUIRE(action);
    CHECK(window->historyView()->actions().contains(action));  // also in the context menu

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

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("model.json"));
    window->historyView()->selectRuns({entry->id});
    const bool asked = triggerWithDialog(action, [&](QWidget* modal) {
        auto* dialog = qobject_cast<QFileDialog*>(modal);
        REQUIRE(dialog);
        CHECK(dialog->selectedFiles().value(0).endsWith(
            QStringLiteral("model-run-%1.json").arg(entry->id)));
        // Typed as a user would (selectFile leaves a focused name field alone).
        auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
        REQUIRE(name);
        name->setText(path);
        static_cast<QDialog*>(dialog)->accept();  // QFileDialog::accept, which is protected
    });
    REQUIRE(asked);
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    const pfa::JsonValue json = pfa::parseJson(file.readAll().toStdString());
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
    // pfa-cli predict reads it: the same model.
    const pfa::SavedModel saved = pfa::loadSavedModel(path.toStdString());
    CHECK(saved.run.theta == entry->result.theta);
}
