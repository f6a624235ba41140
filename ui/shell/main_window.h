#pragma once

#include <QMainWindow>

#include "core/config/train_config.h"
#include "ui/actions/run_actions.h"
#include "ui/runs/run_entry.h"

class QAction;
class QDockWidget;
class QScrollArea;
class QUndoStack;

namespace pfa::ui {

class DatasetActions;
class DatasetCard;
class DatasetController;
class DatasetPresenter;
class ExperimentPanel;
class ToolActions;
class HistoryActions;
class ModelExportActions;
class LedgerBook;
class LedgerPanel;
class LedgerStatusLabel;
class LiveChartsPanel;
class LiveRunPresenter;
class PrivacyStatementView;
class ResultsFileController;
class RunDetailsPanel;
class RunHistoryModel;
class RunHistoryView;
class SessionActions;
class SessionController;
class SweepActions;
class SweepController;
class SweepViewsPanel;
class TradeoffChart;
class TrainingController;

/// The application window, a shell: it makes the panels, the controllers that own the work
/// (training, data sets, sweeps, results files, sessions) and the actions that drive them,
/// lays the panels out in dockable docks restored from QSettings, builds the menus and
/// connects the pieces. The work itself lives in the controllers; the live run's state and
/// what is on show, in the LiveRunPresenter.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Programmatic access (used by the UI tests).
    TrainingController* controller() const { return m_training; }
    DatasetController* datasetController() const { return m_datasets; }
    SweepController* sweepController() const { return m_sweep; }
    ResultsFileController* resultsFiles() const { return m_results; }
    SessionController* session() const { return m_session; }
    LedgerBook* ledgerBook() const { return m_ledger; }
    RunHistoryModel* historyModel() const { return m_history; }
    ExperimentPanel* experimentPanel() const { return m_panel; }

    /// Opens the privacy audit on run `id`'s settings and the loaded data set; refuses (with a
    /// message box, and the reason in `error`) when that data set is not the run's or the run
    /// makes no record-level claim the audit can test.
    bool auditRun(int id, QString* error = nullptr);
    LiveChartsPanel* liveCharts() const { return m_live; }
    TradeoffChart* tradeoffChart() const { return m_tradeoff; }
    RunHistoryView* historyView() const { return m_historyView; }
    PrivacyStatementView* privacyStatement() const { return m_statement; }
    RunDetailsPanel* runDetails() const { return m_details; }
    DatasetCard* datasetCard() const { return m_card; }
    SweepViewsPanel* sweepViews() const { return m_sweepViews; }
    LedgerPanel* ledgerPanel() const { return m_ledgerPanel; }
    /// The status-bar summary of the current data set's privacy ledger.
    LedgerStatusLabel* ledgerStatus() const { return m_ledgerStatus; }
    RunActions* runActions() const { return m_runActions; }
    HistoryActions* historyActions() const { return m_historyActions; }
    ModelExportActions* modelExportActions() const { return m_modelExport; }
    SweepActions* sweepActions() const { return m_sweepActions; }
    SessionActions* sessionActions() const { return m_sessionActions; }
    QUndoStack* undoStack() const { return m_undo; }
    QAction* runAction() const { return m_runActions->runAction(); }
    QAction* pauseAction() const { return m_runActions->pauseAction(); }
    QAction* stepAction() const { return m_runActions->stepAction(); }
    QAction* stopAction() const { return m_runActions->stopAction(); }
    QAction* resetAction() const { return m_runActions->resetAction(); }

    /// Ask before closing with unsaved runs (off in tests).
    void setConfirmOnClose(bool confirm) { m_confirmOnClose = confirm; }

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildToolbar();
    void buildDocks();
    void buildStatusBar();
    void buildMenus();
    void connectTraining();
    void connectDatasets();
    void connectSweepsAndSessions();
    void restoreSettings();
    /// Sizes the docks for the window's size (no saved layout): the charts get the most room,
    /// the docks what their contents need, also on a 1280×720 screen.
    void fitDocksToWindow();
    /// Keeps the experiment panel's scroll area at least as wide as the panel's smallest layout.
    void fitPanelScrollWidth();
    void saveSettings();
    void updateTitle();

    // Controllers and models.
    TrainingController* m_training;
    DatasetController* m_datasets;
    SweepController* m_sweep;
    RunHistoryModel* m_history;
    LedgerBook* m_ledger;
    ToolActions* m_tools = nullptr;
    ResultsFileController* m_results;
    QUndoStack* m_undo;
    // Panels.
    ExperimentPanel* m_panel;
    LiveChartsPanel* m_live;
    TradeoffChart* m_tradeoff;
    RunHistoryView* m_historyView;
    RunDetailsPanel* m_details;
    PrivacyStatementView* m_statement;
    DatasetCard* m_card;
    SweepViewsPanel* m_sweepViews;
    LedgerPanel* m_ledgerPanel;
    LedgerStatusLabel* m_ledgerStatus = nullptr;
    QScrollArea* m_panelScroll = nullptr;
    QDockWidget* m_experimentDock = nullptr;
    QDockWidget* m_tradeoffDock = nullptr;
    QDockWidget* m_historyDock = nullptr;
    QDockWidget* m_sweepDock = nullptr;
    QDockWidget* m_ledgerDock = nullptr;
    // Sessions and actions (need the panels).
    SessionController* m_session;
    RunActions* m_runActions;
    DatasetActions* m_datasetActions;
    HistoryActions* m_historyActions;
    ModelExportActions* m_modelExport;
    SweepActions* m_sweepActions;
    SessionActions* m_sessionActions;

    LiveRunPresenter* m_presenter = nullptr;         ///< the live run, and what is on show
    DatasetPresenter* m_datasetPresenter = nullptr;  ///< the panel's data set, and its views
    bool m_confirmOnClose = true;
    bool m_fitDocksOnShow = false;  ///< no saved dock layout: fitDocksToWindow() when shown
};

}  // namespace pfa::ui
