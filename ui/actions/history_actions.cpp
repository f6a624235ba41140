#include "ui/actions/history_actions.h"

#include <QAction>
#include <QFileDialog>
#include <QItemSelectionModel>
#include <QKeySequence>
#include <QMessageBox>
#include <QTextDocument>
#include <QUndoStack>

#include "ui/runs/delete_runs_command.h"
#include "ui/runs/run_history_model.h"
#include "ui/runs/run_history_view.h"
#include "ui/runs/session_file.h"

namespace pfa::ui {

HistoryActions::HistoryActions(RunHistoryModel* history, RunHistoryView* view, QUndoStack* undo,
                               QWidget* window)
    : QObject(window), m_history(history), m_view(view), m_undo(undo), m_window(window) {
    m_undoAction = undo->createUndoAction(this, tr("&Undo"));
    m_undoAction->setShortcut(QKeySequence::Undo);
    m_redoAction = undo->createRedoAction(this, tr("&Redo"));
    m_redoAction->setShortcut(QKeySequence::Redo);
    m_delete = new QAction(tr("&Delete selected runs"), this);
    m_delete->setShortcut(QKeySequence::Delete);
    m_clear = new QAction(tr("&Clear history"), this);
    m_exportCsv = new QAction(tr("Export run history as &CSV…"), this);
    m_exportJson = new QAction(tr("Export run history as &JSON…"), this);
    connect(m_delete, &QAction::triggered, this, &HistoryActions::deleteSelectedRuns);
    connect(m_clear, &QAction::triggered, this, &HistoryActions::clearHistory);
    connect(m_exportCsv, &QAction::triggered, this, [this] { exportHistory(true); });
    connect(m_exportJson, &QAction::triggered, this, [this] { exportHistory(false); });
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(m_history, &RunHistoryModel::entriesChanged, this, &HistoryActions::update);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &HistoryActions::update);
    update();
}

void HistoryActions::deleteSelectedRuns() {
    std::vector<int> ids;
    for (const RunEntryPtr& run : m_view->selectedRuns()) ids.push_back(run->id);
    if (ids.empty()) return;
    m_undo->push(new DeleteRunsCommand(m_history, ids));
    emit message(tr("Deleted %1 run(s) — Edit → Undo brings them back").arg(ids.size()), 8000);
}

void HistoryActions::clearHistory() {
    std::vector<int> ids;
    for (const RunEntryPtr& run : m_history->entries()) ids.push_back(run->id);
    if (ids.empty()) return;
    auto* command = new DeleteRunsCommand(m_history, ids);
    command->setText(tr("clear history"));
    m_undo->push(command);
}

void HistoryActions::exportHistory(bool csv) {
    const QString path = QFileDialog::getSaveFileName(
        m_window, tr("Export run history"), csv ? tr("runs.csv") : tr("runs.json"),
        csv ? tr("CSV files (*.csv)") : tr("JSON files (*.json)"));
    if (path.isEmpty()) return;
    QString error;
    const bool ok = csv ? exportHistoryCsv(path, m_history->entries(), &error)
                        : exportHistoryJson(path, m_history->entries(), &error);
    if (!ok)
        QMessageBox::warning(m_window, tr("Export run history"),
                             Qt::convertFromPlainText(error, Qt::WhiteSpaceNormal));
}

void HistoryActions::update() {
    m_delete->setEnabled(m_view->selectionModel()->hasSelection());
    m_clear->setEnabled(m_history->rowCount() > 0);
}

}  // namespace pfa::ui
