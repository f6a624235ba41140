#pragma once

#include <QObject>
#include <QString>

class QAction;
class QWidget;

namespace pfa::ui {

class RunHistoryModel;
class RunHistoryView;

/// File → Export report…: the one-page report (core/report, the same as `pfa-cli report`) of
/// the selected run — or, with none selected, of the latest completed run — with every run of
/// the history on its tradeoff chart and in its ledger. PDF or HTML by the file's extension,
/// written off the GUI thread.
class ReportExport : public QObject {
    Q_OBJECT
public:
    ReportExport(RunHistoryModel* history, RunHistoryView* view, QWidget* window);

    /// The menu action (disabled while the history holds no run).
    QAction* action() const { return m_action; }

    /// Writes the report to `path` (.pdf, .html) in the background; `finished` follows (and,
    /// for an export chosen from the menu that failed, a message box).
    void exportTo(const QString& path);

signals:
    /// The export ended: `ok`, and a message for the status bar or the error box.
    void finished(bool ok, const QString& message);

private:
    void update();
    void chooseFile();

    RunHistoryModel* m_history;
    RunHistoryView* m_view;
    QWidget* m_window;
    QAction* m_action;
    bool m_busy = false;
    bool m_fromMenu = false;  ///< the running export was asked for from the menu
};

}  // namespace pfa::ui
