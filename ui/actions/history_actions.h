#pragma once

#include <QObject>

class QAction;
class QUndoStack;
class QWidget;

namespace pfa::ui {

class RunHistoryModel;
class RunHistoryView;

/// What the user does with the run history: delete the selected runs or clear it, undo and
/// redo that, export the history as CSV or JSON, export the selected run's model. Enabled by
/// the selection and the number of runs.
class HistoryActions : public QObject {
    Q_OBJECT
public:
    /// `window` parents the file dialogs; deletions go on `undo`.
    HistoryActions(RunHistoryModel* history, RunHistoryView* view, QUndoStack* undo,
                   QWidget* window);

    QAction* undoAction() const { return m_undoAction; }
    QAction* redoAction() const { return m_redoAction; }
    QAction* deleteAction() const { return m_delete; }
    QAction* clearAction() const { return m_clear; }
    QAction* exportCsvAction() const { return m_exportCsv; }
    QAction* exportJsonAction() const { return m_exportJson; }

    void deleteSelectedRuns();
    /// Removes every run (undoable).
    void clearHistory();

signals:
    /// For the status bar.
    void message(const QString& text, int timeoutMs);

private:
    void exportHistory(bool csv);
    void update();

    RunHistoryModel* m_history;
    RunHistoryView* m_view;
    QUndoStack* m_undo;
    QWidget* m_window;
    QAction* m_undoAction;
    QAction* m_redoAction;
    QAction* m_delete;
    QAction* m_clear;
    QAction* m_exportCsv;
    QAction* m_exportJson;
};

}  // namespace pfa::ui
