#pragma once

#include <QMainWindow>
#include <functional>
#include <vector>

#include "core/sweep/sweep_spec.h"
#include "ui/run_entry.h"
#include "ui/training_controller.h"

class QAction;
class QDockWidget;
class QMenu;
class QUndoStack;
class QLabel;

namespace pfa::ui {

class ExperimentPanel;
class LiveChartsPanel;
class TradeoffChart;
class RunHistoryModel;
class RunDetailsPanel;
class PrivacyStatementView;
class DatasetCard;
class DatasetController;
class ResultsFileController;
class SessionController;
class SweepController;
class SweepViewsPanel;
class LedgerBook;
class LedgerPanel;
class LedgerStatusLabel;
class RunActions;
class RunHistoryView;

/// The application window: experiment controls, run controls, live charts, the tradeoff
/// chart, the run history, run details and the privacy statement, in dockable panels whose
/// layout is restored from QSettings.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Programmatic access (used by the UI tests and by menu actions).
    TrainingController* controller() const { return m_controller; }
    DatasetController* datasetController() const { return m_datasets; }
    ResultsFileController* resultsFiles() const { return m_results; }
    SessionController* session() const { return m_session; }
    ExperimentPanel* experimentPanel() const { return m_panel; }
    LiveChartsPanel* liveCharts() const { return m_live; }
    TradeoffChart* tradeoffChart() const { return m_tradeoff; }
    RunHistoryModel* historyModel() const { return m_history; }
    RunHistoryView* historyView() const { return m_historyView; }
    PrivacyStatementView* privacyStatement() const { return m_statement; }
    RunDetailsPanel* runDetails() const { return m_details; }
    DatasetCard* datasetCard() const { return m_card; }
    SweepController* sweepController() const { return m_sweep; }
    SweepViewsPanel* sweepViews() const { return m_sweepViews; }
    LedgerBook* ledgerBook() const { return m_ledger; }
    LedgerPanel* ledgerPanel() const { return m_ledgerPanel; }
    /// The status-bar summary of the current data set's privacy ledger.
    LedgerStatusLabel* ledgerStatus() const { return m_ledgerStatus; }
    /// Starts a sweep on the loaded data set (what the sweep dialog's Start does); false with
    /// the reason when it cannot start.
    bool startSweep(const pfa::SweepSpec& spec, int threads, const QString& resultsFile, QString* error = nullptr);
    QUndoStack* undoStack() const { return m_undo; }
    RunActions* runActions() const { return m_runActions; }
    QAction* runAction() const;
    QAction* pauseAction() const;
    QAction* stepAction() const;
    QAction* stopAction() const;
    QAction* resetAction() const;

    /// Removes every run (undoable).
    void clearHistory();
    /// Ask before closing with unsaved runs (off in tests).
    void setConfirmOnClose(bool confirm) { m_confirmOnClose = confirm; }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildToolbar();
    void buildMenus();
    void buildDocks();
    void connectController();
    void restoreSettings();
    void saveSettings();
    void updateActions();
    void updateTitle();
    void onRunFinished(const RunEntryPtr& entry);
    void onHistorySelectionChanged();
    void saveSession();
    void saveSessionAs();
    void openSession();
    void exportHistory(bool csv);
    void deleteSelectedRuns();
    void rebuildRecentMenu();
    void showAbout();
    void onDatasetRequestChanged();
    /// Opens the download dialog for `name` without waiting for it; `afterSuccess` runs once
    /// the files are downloaded and verified.
    void downloadDataset(const QString& name, std::function<void()> afterSuccess = {});
    void importDatasetFolder(const QString& name);
    void importOwnFile();
    void openSweepDialog(const QString& preset = QString());
    void runPreset(const QString& name);
    /// Opens the preset's sweep dialog now, or once its data set has loaded.
    void openPresetWhenLoaded(const QString& name);

    TrainingController* m_controller;
    DatasetController* m_datasets;
    ResultsFileController* m_results;
    SessionController* m_session;
    ExperimentPanel* m_panel;
    LiveChartsPanel* m_live;
    TradeoffChart* m_tradeoff;
    RunHistoryModel* m_history;
    RunHistoryView* m_historyView;
    RunDetailsPanel* m_details;
    PrivacyStatementView* m_statement;
    DatasetCard* m_card;
    SweepController* m_sweep;
    SweepViewsPanel* m_sweepViews;
    QDockWidget* m_sweepDock = nullptr;
    LedgerBook* m_ledger;
    LedgerPanel* m_ledgerPanel;
    QDockWidget* m_ledgerDock = nullptr;
    LedgerStatusLabel* m_ledgerStatus = nullptr;
    QString m_pendingPreset;  ///< preset waiting for its data set to load
    QUndoStack* m_undo;
    QLabel* m_stateLabel;

    RunActions* m_runActions;
    QAction* m_saveAction = nullptr;
    QAction* m_saveAsAction = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_deleteAction = nullptr;
    QAction* m_clearAction = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;

    pfa::TrainConfig m_liveConfig;  ///< settings of the run whose metrics are arriving
    bool m_confirmOnClose = true;
};

}  // namespace pfa::ui
