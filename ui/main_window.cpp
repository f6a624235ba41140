#include "ui/main_window.h"

#include <QProgressDialog>
#include <QDir>
#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <algorithm>

#include "app/fetch/dataset_fetcher.h"
#include "core/data/catalog.h"
#include "core/data/data_directory.h"
#include "core/sweep/prepared_dataset.h"
#include "core/util/format.h"
#include "core/sweep/run_record.h"
#include "core/sweep/sweep_preset.h"
#include "ui/about_text.h"
#include "ui/chart_view.h"
#include "ui/dataset_card.h"
#include "ui/dataset_controller.h"
#include "ui/epoch_time_estimate.h"
#include "ui/delete_runs_command.h"
#include "ui/download_dialog.h"
#include "ui/results_file_controller.h"
#include "ui/import_wizard.h"
#include "ui/sweep_controller.h"
#include "ui/sweep_dialog.h"
#include "ui/sweep_status_widget.h"
#include "ui/sweep_views_panel.h"
#include "ui/chart_export.h"
#include "ui/tradeoff_curves_view.h"
#include "ui/privacy_price_view.h"
#include "ui/heat_map_view.h"
#include "ui/experiment_panel.h"
#include "ui/live_charts_panel.h"
#include "ui/model_export.h"
#include "ui/run_actions.h"
#include "ui/run_details_panel.h"
#include "ui/privacy_ledger_book.h"
#include "ui/ledger_status_label.h"
#include "ui/privacy_ledger_panel.h"
#include "ui/run_history_model.h"
#include "ui/run_history_view.h"
#include "ui/session_controller.h"
#include "ui/session_file.h"
#include "ui/tradeoff_chart.h"

namespace pfa::ui {

namespace {

QDockWidget* makeDock(const QString& title, const QString& objectName, QWidget* content,
                      QMainWindow* window) {
    auto* dock = new QDockWidget(title, window);
    dock->setObjectName(objectName);  // needed by saveState/restoreState
    dock->setWidget(content);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                      QDockWidget::DockWidgetClosable);
    return dock;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    m_controller = new TrainingController(this);
    m_datasets = new DatasetController(this);
    m_panel = new ExperimentPanel();
    m_live = new LiveChartsPanel();
    m_tradeoff = new TradeoffChart();
    m_history = new RunHistoryModel(this);
    m_details = new RunDetailsPanel();
    m_statement = new PrivacyStatementView();
    m_card = new DatasetCard();
    m_sweep = new SweepController([this] { return m_controller->allocateRunId(); }, this);
    m_sweepViews = new SweepViewsPanel();
    m_ledger = new LedgerBook(this);
    m_results = new ResultsFileController(m_history, m_ledger, [this] { return m_controller->allocateRunId(); }, this);
    m_session = new SessionController(m_panel, m_history, m_ledger, this);
    m_ledgerPanel = new LedgerPanel(m_ledger);
    m_statement->setLedgerBook(m_ledger);
    m_undo = new QUndoStack(this);

    m_runActions = new RunActions(m_controller, m_datasets, m_panel, this);

    setCentralWidget(m_live);
    buildToolbar();
    buildDocks();
    buildMenus();
    connectController();

    m_stateLabel = new QLabel();
    statusBar()->addPermanentWidget(new SweepStatusWidget(m_sweep));
    m_ledgerStatus = new LedgerStatusLabel(m_ledger);
    connect(m_ledgerStatus, &LedgerStatusLabel::ledgerRequested, this, [this] {
        m_ledgerDock->show();
        m_ledgerDock->raise();
    });
    statusBar()->addPermanentWidget(m_ledgerStatus);
    statusBar()->addPermanentWidget(m_stateLabel);
    connect(m_runActions, &RunActions::changed, this, &MainWindow::updateActions);
    connect(m_runActions, &RunActions::message, statusBar(), &QStatusBar::showMessage);
    connect(m_runActions, &RunActions::stopped, this, [this] {
        m_live->detachLive();
        m_tradeoff->clearLivePoint();
    });
    connect(m_runActions, &RunActions::resetRequested, this, [this] {
        m_live->clear();
        m_tradeoff->clearLivePoint();
        m_historyView->clearSelection();
    });

    connect(m_panel, &ExperimentPanel::datasetRequestChanged, this, &MainWindow::onDatasetRequestChanged);
    connect(m_panel, &ExperimentPanel::downloadRequested, this, [this](const QString& name) { downloadDataset(name); });
    connect(m_panel, &ExperimentPanel::importFolderRequested, this, &MainWindow::importDatasetFolder);
    connect(m_panel, &ExperimentPanel::importFileRequested, this, &MainWindow::importOwnFile);
    connect(m_history, &RunHistoryModel::entriesChanged, this, [this] {
        m_tradeoff->setRuns(m_history->entries());
        m_sweepViews->setEntries(m_history->entries());
        updateActions();
    });
    connect(m_sweep, &SweepController::runsFinished, m_results, &ResultsFileController::merge);
    connect(m_results, &ResultsFileController::reading, this, [this](const QString& path) {
        statusBar()->showMessage(tr("Reading %1…").arg(QFileInfo(path).fileName()));
    });
    connect(m_results, &ResultsFileController::opened, this,
            [this](const QString& path, int added, int skipped, int damaged, const QString& error) {
                if (!error.isEmpty()) {
                    statusBar()->showMessage(error, 10000);
                    return;
                }
                statusBar()->showMessage(tr("%1: %2 run(s) added, %3 already in the history, %4 damaged line(s) skipped")
                                             .arg(QFileInfo(path).fileName())
                                             .arg(added)
                                             .arg(skipped)
                                             .arg(damaged),
                                         10000);
                m_sweepDock->raise();
            });
    connect(m_sweep, &SweepController::runsCutShort, m_ledger,
            qOverload<const std::vector<RunEntryPtr>&>(&LedgerBook::charge));
    connect(m_sweep, &SweepController::finished, this, [this](bool cancelled, const QString& error) {
        if (!error.isEmpty()) {
            QMessageBox::warning(this, tr("Sweep"), error);
        } else {
            statusBar()->showMessage(cancelled ? tr("Sweep stopped; finished runs are saved and a new start resumes it")
                                               : tr("Sweep finished"),
                                     10000);
        }
        updateActions();
    });
    connect(m_datasets, &DatasetController::importFinished, this, [this](const QString& name, const QString& error) {
        if (!error.isEmpty()) {
            QMessageBox::warning(this, tr("Import from folder"), error);
            return;
        }
        m_panel->refreshAvailability();
        statusBar()->showMessage(tr("%1 imported: checksums verified").arg(name), 8000);
    });
    connect(m_tradeoff, &TradeoffChart::runClicked, this, [this](int id) { m_historyView->selectRuns({id}); });
    connect(m_session, &SessionController::stateChanged, this, &MainWindow::updateTitle);
    connect(m_session, &SessionController::recentSessionsChanged, this, &MainWindow::rebuildRecentMenu);
    connect(m_session, &SessionController::aboutToOpen, this, [this] {
        m_controller->stop();
        m_live->clear();
        m_undo->clear();
    });
    connect(m_session, &SessionController::opened, this, [this](int highestRunId) {
        m_controller->reserveRunIds(highestRunId);
        m_statement->showRun(nullptr);
        m_details->showRun(nullptr);
    });

    restoreSettings();
    onDatasetRequestChanged();
    updateActions();
    updateTitle();
}

MainWindow::~MainWindow() { m_controller->shutdown(); }

QAction* MainWindow::runAction() const { return m_runActions->runAction(); }
QAction* MainWindow::pauseAction() const { return m_runActions->pauseAction(); }
QAction* MainWindow::stepAction() const { return m_runActions->stepAction(); }
QAction* MainWindow::stopAction() const { return m_runActions->stopAction(); }
QAction* MainWindow::resetAction() const { return m_runActions->resetAction(); }

void MainWindow::buildToolbar() {
    auto* toolbar = addToolBar(tr("Run controls"));
    toolbar->setObjectName(QStringLiteral("runToolbar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    for (QAction* action : m_runActions->actions()) toolbar->addAction(action);
    QFont bold = toolbar->font();
    bold.setBold(true);
    toolbar->widgetForAction(m_runActions->runAction())->setFont(bold);
}

void MainWindow::buildDocks() {
    auto* scroll = new QScrollArea();
    scroll->setWidget(m_panel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Wide enough for the panel's smallest layout plus a vertical scroll bar: never clipped.
    scroll->setMinimumWidth(m_panel->minimumSizeHint().width() +
                            scroll->verticalScrollBar()->sizeHint().width() + 6);
    auto* experimentDock = makeDock(tr("Experiment"), QStringLiteral("experimentDock"), scroll, this);
    addDockWidget(Qt::LeftDockWidgetArea, experimentDock);

    auto* tradeoffDock = makeDock(tr("Tradeoff"), QStringLiteral("tradeoffDock"), m_tradeoff, this);
    addDockWidget(Qt::RightDockWidgetArea, tradeoffDock);
    m_sweepDock = makeDock(tr("Sweep views"), QStringLiteral("sweepDock"), m_sweepViews, this);
    addDockWidget(Qt::RightDockWidgetArea, m_sweepDock);
    tabifyDockWidget(tradeoffDock, m_sweepDock);
    tradeoffDock->raise();

    m_historyView = new RunHistoryView(m_history);
    connect(m_historyView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &MainWindow::onHistorySelectionChanged);
    auto* historyDock = makeDock(tr("Run history"), QStringLiteral("historyDock"), m_historyView, this);
    addDockWidget(Qt::BottomDockWidgetArea, historyDock);

    auto* detailsDock = makeDock(tr("Run details"), QStringLiteral("detailsDock"), m_details, this);
    auto* statementDock =
        makeDock(tr("Privacy statement"), QStringLiteral("statementDock"), m_statement, this);
    auto* cardScroll = new QScrollArea();
    cardScroll->setWidget(m_card);
    cardScroll->setWidgetResizable(true);
    cardScroll->setFrameShape(QFrame::NoFrame);
    auto* cardDock = makeDock(tr("Data set"), QStringLiteral("datasetDock"), cardScroll, this);
    addDockWidget(Qt::BottomDockWidgetArea, detailsDock);
    addDockWidget(Qt::BottomDockWidgetArea, statementDock);
    addDockWidget(Qt::BottomDockWidgetArea, cardDock);
    splitDockWidget(historyDock, detailsDock, Qt::Horizontal);
    tabifyDockWidget(detailsDock, statementDock);
    tabifyDockWidget(statementDock, cardDock);
    m_ledgerDock = makeDock(tr("Privacy ledger"), QStringLiteral("ledgerDock"), m_ledgerPanel, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_ledgerDock);
    tabifyDockWidget(cardDock, m_ledgerDock);
    detailsDock->raise();
    resizeDocks({experimentDock, tradeoffDock}, {380, 520}, Qt::Horizontal);
    resizeDocks({historyDock}, {230}, Qt::Vertical);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_openAction = file->addAction(tr("&Open session…"), this, &MainWindow::openSession);
    m_openAction->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &recent"));
    m_saveAction = file->addAction(tr("&Save session"), this, &MainWindow::saveSession);
    m_saveAction->setShortcut(QKeySequence::Save);
    m_saveAsAction = file->addAction(tr("Save session &as…"), this, &MainWindow::saveSessionAs);
    m_saveAsAction->setShortcut(QKeySequence::SaveAs);
    file->addSeparator();
    file->addAction(tr("&Import data file…"), this, &MainWindow::importOwnFile);
    QAction* openResults = file->addAction(tr("Open sweep &results…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open sweep results"), QString(),
                                                          tr("Results (*.jsonl);;All files (*)"));
        if (!path.isEmpty()) m_results->open(path);
    });
    openResults->setToolTip(tr("Add the runs of a results file written by pfa-cli train, a cluster job or "
                               "an earlier sweep to the history and the sweep views"));
    file->addSeparator();
    file->addAction(tr("Export run history as &CSV…"), this, [this] { exportHistory(true); });
    file->addAction(tr("Export run history as &JSON…"), this, [this] { exportHistory(false); });
    QAction* exportModel = file->addAction(tr("Export &model of selected run…"), this, [this] {
        const QString path = exportSelectedRunModel(this, m_historyView->selectedRuns());
        if (path.isEmpty()) return;
        statusBar()->showMessage(tr("Model written to %1 (pfa-cli predict --run reads it)").arg(path), 8000);
    });
    exportModel->setObjectName(QStringLiteral("exportModelAction"));
    m_historyView->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_historyView->addAction(exportModel);
    QMenu* charts = file->addMenu(tr("Export &chart"));
    const QString names[] = {tr("Training loss…"), tr("Test error…"), tr("Fairness violation…"),
                             tr("Privacy spent…")};
    for (int i = 0; i < 4; ++i) {
        ChartView* view = m_live->views()[static_cast<std::size_t>(i)];
        charts->addAction(names[i], view, &ChartView::exportWithDialog);
    }
    charts->addAction(tr("Tradeoff…"), m_tradeoff->view(), &ChartView::exportWithDialog);
    charts->addSeparator();
    charts->addAction(tr("Sweep: tradeoff curves…"), m_sweepViews->tradeoffView()->view(), &ChartView::exportWithDialog);
    charts->addAction(tr("Sweep: price of privacy, error…"), m_sweepViews->priceView()->errorView(),
                      &ChartView::exportWithDialog);
    charts->addAction(tr("Sweep: price of privacy, violation…"), m_sweepViews->priceView()->violationView(),
                      &ChartView::exportWithDialog);
    charts->addAction(tr("Sweep: heat map…"), this, [this] { exportWithDialog(m_sweepViews->heatMap(), this); });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_undo->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_undo->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    m_deleteAction = edit->addAction(tr("&Delete selected runs"), this, &MainWindow::deleteSelectedRuns);
    m_deleteAction->setShortcut(QKeySequence::Delete);
    m_clearAction = edit->addAction(tr("&Clear history"), this, &MainWindow::clearHistory);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    for (QAction* action : m_runActions->actions()) run->addAction(action);

    QMenu* sweep = menuBar()->addMenu(tr("&Sweep"));
    QAction* newSweep = sweep->addAction(tr("&New sweep…"), this, [this] { openSweepDialog(); });
    newSweep->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+R")));
    QMenu* presets = sweep->addMenu(tr("&Presets (published experiments)"));
    for (const pfa::SweepPreset& preset : pfa::sweepPresets()) {
        const QString name = QString::fromStdString(preset.name);
        QAction* action = presets->addAction(QString::fromStdString(preset.title), this, [this, name] { runPreset(name); });
        action->setToolTip(QString::fromStdString(preset.source));
    }
    presets->setToolTipsVisible(true);
    sweep->addAction(tr("&Stop sweep"), this, [this] { m_sweep->stop(); });
    sweep->addSeparator();
    sweep->addAction(tr("Load &reference points…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Reference points"), QString(),
                                                          tr("CSV files (*.csv);;All files (*)"));
        if (path.isEmpty()) return;
        QString error;
        if (!m_sweepViews->loadReferencePoints(path, &error)) QMessageBox::warning(this, tr("Reference points"), error);
    });

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock : findChildren<QDockWidget*>()) m_viewMenu->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About PFA Explorer"), this, &MainWindow::showAbout);
}

void MainWindow::connectController() {
    connect(m_datasets, &DatasetController::datasetLoading, m_panel, &ExperimentPanel::setDatasetLoading);
    connect(m_datasets, &DatasetController::datasetReady, m_panel, &ExperimentPanel::setDataset);
    connect(m_datasets, &DatasetController::datasetReady, this, [this](const pfa::PreparedDatasetPtr& data) {
        if (!data || data->key != pfa::datasetKey(m_panel->datasetRequest())) return;
        m_card->showDataset(data);
        if (!m_pendingPreset.isEmpty()) {
            const QString preset = m_pendingPreset;
            m_pendingPreset.clear();
            QTimer::singleShot(0, this, [this, preset] { openSweepDialog(preset); });
        }
    });
    connect(m_datasets, &DatasetController::datasetFailed, this, [this](const QString& message) {
        m_card->showDataset(nullptr, tr("The data set could not be loaded: %1").arg(message));
    });
    connect(m_datasets, &DatasetController::datasetFailed, m_panel, &ExperimentPanel::setDatasetFailed);
    connect(m_controller, &TrainingController::runStarted, this,
            [this](int id, const pfa::TrainConfig& config) {
                m_liveConfig = config;
                m_live->beginLiveRun(id, config);
                statusBar()->showMessage(tr("Run %1 started").arg(id), 3000);
            });
    connect(m_controller, &TrainingController::epochsArrived, m_live, &LiveChartsPanel::appendLive);
    connect(m_controller, &TrainingController::epochsArrived, this,
            [this](int id, const std::vector<pfa::EpochMetrics>& metrics) {
                if (metrics.empty()) return;
                m_tradeoff->setLivePoint(id, m_liveConfig, metrics.back().violation, metrics.back().testError);
            });
    connect(m_controller, &TrainingController::runExecuted, m_ledger,
            qOverload<const RunEntryPtr&>(&LedgerBook::charge));
    connect(m_controller, &TrainingController::runFinished, this, &MainWindow::onRunFinished);
    connect(m_controller, &TrainingController::runFailed, this, [this](int id, const QString& message) {
        m_live->detachLive();
        m_tradeoff->clearLivePoint();
        statusBar()->showMessage(tr("Run %1 failed: %2").arg(id).arg(message), 15000);
        QMessageBox::warning(this, tr("Run %1 failed").arg(id), message);
    });
}

void MainWindow::onDatasetRequestChanged() {
    const std::string ledgerKey = pfa::ledgerKey(m_panel->datasetRequest());
    if (m_ledgerPanel->currentKey() != ledgerKey) m_ledgerPanel->showLedger(ledgerKey);
    m_ledgerStatus->showLedger(ledgerKey);
    const QString catalog = m_panel->currentCatalogName();
    if (!m_panel->catalogFilesPresent()) {
        m_card->showCatalogEntry(catalog);  // what it is, before any download
        return;
    }
    m_card->showDataset(nullptr, tr("Loading…"));
    m_datasets->requestDataset(m_panel->datasetRequest());
}

void MainWindow::downloadDataset(const QString& name, std::function<void()> afterSuccess) {
    if (name.isEmpty()) return;
    // Window-modal but not waited for: what happens after the download is a continuation.
    auto* dialog = new DownloadDialog(m_datasets, name, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::finished, this, [this, dialog, name, afterSuccess = std::move(afterSuccess)] {
        if (!dialog->error().isEmpty()) {
            if (!dialog->cancelled()) QMessageBox::warning(this, tr("Download"), dialog->error());
            statusBar()->showMessage(dialog->cancelled() ? tr("Download cancelled; it resumes next time")
                                                         : tr("Download failed"),
                                     8000);
            return;
        }
        statusBar()->showMessage(tr("%1 downloaded and verified").arg(name), 8000);
        m_panel->refreshAvailability();
        if (afterSuccess) afterSuccess();
    });
    dialog->start();
    dialog->open();
}

void MainWindow::importDatasetFolder(const QString& name) {
    if (name.isEmpty()) return;
    const QString folder = QFileDialog::getExistingDirectory(
        this, tr("Folder with the files of %1").arg(QString::fromStdString(pfa::findCatalogEntry(name.toStdString()).title)));
    if (folder.isEmpty()) return;
    // Hashing and copying run off the GUI thread; a window-modal progress dialog explains the
    // wait and goes when the controller reports the outcome.
    auto* progress = new QProgressDialog(tr("Verifying the checksums of the files in %1…").arg(folder), QString(), 0, 0, this);
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(300);
    connect(m_datasets, &DatasetController::importFinished, progress, &QObject::deleteLater, Qt::SingleShotConnection);
    m_datasets->importFromFolder(name, folder);
}

void MainWindow::importOwnFile() {
    ImportWizard wizard(this);
    if (wizard.exec() != QDialog::Accepted) return;
    m_panel->addUserFile(wizard.filePath(), wizard.schema());
}

void MainWindow::openSweepDialog(const QString& presetName) {
    const pfa::PreparedDatasetPtr data = m_datasets->dataset();
    if (!data || data->key != pfa::datasetKey(m_panel->datasetRequest())) {
        QMessageBox::information(this, tr("Sweep"), m_panel->problem().isEmpty()
                                                        ? tr("The data set is still loading; try again in a moment.")
                                                        : m_panel->problem());
        return;
    }
    if (m_sweep->isRunning()) {
        QMessageBox::information(this, tr("Sweep"), tr("A sweep is already running; stop it first."));
        return;
    }
    SweepDialog dialog(m_panel->config(), m_card->title(), data->context.trainRows, data->context.features,
                       measuredSecondsPerEpoch(m_history->entries(), *data), this);
    if (!presetName.isEmpty()) dialog.applyPreset(pfa::findSweepPreset(presetName.toStdString()));
    if (dialog.exec() != QDialog::Accepted) return;
    QString error;
    if (!startSweep(dialog.spec(), dialog.threads(), dialog.resultsFile(), &error)) {
        QMessageBox::warning(this, tr("Sweep"), error);
    }
}

bool MainWindow::startSweep(const pfa::SweepSpec& spec, int threads, const QString& resultsFile, QString* error) {
    const pfa::PreparedDatasetPtr data = m_datasets->dataset();
    if (!data) {
        if (error) *error = tr("No data set is loaded.");
        return false;
    }
    try {
        m_sweep->start(spec, data, threads, resultsFile);
    } catch (const std::exception& problem) {
        if (error) *error = QString::fromStdString(problem.what());
        return false;
    }
    m_sweepDock->raise();
    return true;
}

void MainWindow::runPreset(const QString& name) {
    const pfa::SweepPreset& preset = pfa::findSweepPreset(name.toStdString());
    if (!m_panel->selectDataset(preset.dataset)) return;
    if (!m_panel->catalogFilesPresent()) {
        const QString title = QString::fromStdString(pfa::findCatalogEntry(preset.dataset.name).title);
        const auto answer = QMessageBox::question(
            this, tr("Preset"), tr("The preset needs %1, which is not downloaded yet. Download it now?").arg(title));
        if (answer != QMessageBox::Yes) return;
        // The preset goes on once the files are here (the dialog is not waited for).
        downloadDataset(QString::fromStdString(preset.dataset.name), [this, name] {
            if (m_panel->catalogFilesPresent()) openPresetWhenLoaded(name);
        });
        return;
    }
    openPresetWhenLoaded(name);
}

void MainWindow::openPresetWhenLoaded(const QString& name) {
    const pfa::PreparedDatasetPtr data = m_datasets->dataset();
    if (data && data->key == pfa::datasetKey(m_panel->datasetRequest())) {
        openSweepDialog(name);
    } else {
        m_pendingPreset = name;  // opens when the data set has loaded
    }
}

void MainWindow::onRunFinished(const RunEntryPtr& entry) {
    m_tradeoff->clearLivePoint();
    if (entry->stoppedByUser) {
        statusBar()->showMessage(tr("Run %1 stopped after %2 steps (ε spent is charged for them)")
                                     .arg(entry->id)
                                     .arg(entry->result.steps),
                                 8000);
    } else if (entry->result.status == pfa::RunStatus::Diverged) {
        m_live->endLiveRun(entry->id, true);
        statusBar()->showMessage(tr("Run %1 diverged: %2")
                                     .arg(entry->id)
                                     .arg(QString::fromStdString(entry->result.message)),
                                 15000);
    } else {
        m_live->endLiveRun(entry->id, false);
        statusBar()->showMessage(tr("Run %1 finished: test error %2, violation %3")
                                     .arg(entry->id)
                                     .arg(entry->result.test.error, 0, 'f', 4)
                                     .arg(entry->violation(), 0, 'f', 4),
                                 8000);
    }
    m_history->append(entry);
    m_details->showRun(entry);
    m_statement->showRun(entry);
    m_tradeoff->setSelectedRun(entry->id);
}

void MainWindow::onHistorySelectionChanged() {
    const std::vector<RunEntryPtr> runs = m_historyView->selectedRuns();
    // While a run is live, selected runs are overlaid next to it; otherwise they replace it.
    if (m_controller->activeRunId() == 0) m_live->dropLive();
    m_live->showRuns(runs);
    const RunEntryPtr first = runs.empty() ? nullptr : runs.front();
    m_details->showRun(first);
    m_statement->showRun(first);
    m_tradeoff->setSelectedRun(first ? first->id : 0);
    updateActions();
}

void MainWindow::deleteSelectedRuns() {
    std::vector<int> ids;
    for (const RunEntryPtr& run : m_historyView->selectedRuns()) ids.push_back(run->id);
    if (ids.empty()) return;
    m_undo->push(new DeleteRunsCommand(m_history, ids));
    statusBar()->showMessage(tr("Deleted %1 run(s) — Edit → Undo brings them back").arg(ids.size()), 8000);
}

void MainWindow::clearHistory() {
    std::vector<int> ids;
    for (const RunEntryPtr& run : m_history->entries()) ids.push_back(run->id);
    if (ids.empty()) return;
    auto* command = new DeleteRunsCommand(m_history, ids);
    command->setText(tr("clear history"));
    m_undo->push(command);
}

void MainWindow::updateActions() {
    m_deleteAction->setEnabled(m_historyView->selectionModel()->hasSelection());
    m_clearAction->setEnabled(m_history->rowCount() > 0);
    m_stateLabel->setText(m_runActions->stateText());
}

void MainWindow::updateTitle() {
    setWindowTitle(tr("%1%2 — PFA Explorer")
                       .arg(m_session->displayName(), m_session->isModified() ? QStringLiteral("*") : QString()));
}

void MainWindow::saveSession() {
    if (m_session->path().isEmpty()) {
        saveSessionAs();
        return;
    }
    QString error;
    if (!m_session->saveTo(m_session->path(), &error)) QMessageBox::warning(this, tr("Save session"), error);
}

void MainWindow::saveSessionAs() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save session"),
                                                      m_session->path().isEmpty() ? tr("experiment.pfa") : m_session->path(),
                                                      tr("PFA Explorer sessions (*.pfa)"));
    if (path.isEmpty()) return;
    QString error;
    if (!m_session->saveTo(path.endsWith(QLatin1String(".pfa")) ? path : path + ".pfa", &error)) {
        QMessageBox::warning(this, tr("Save session"), error);
    }
}

void MainWindow::openSession() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), QString(),
                                                      tr("PFA Explorer sessions (*.pfa)"));
    if (path.isEmpty()) return;
    QString error;
    if (!m_session->openFrom(path, &error)) QMessageBox::warning(this, tr("Open session"), error);
}

void MainWindow::exportHistory(bool csv) {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export run history"), csv ? tr("runs.csv") : tr("runs.json"),
        csv ? tr("CSV files (*.csv)") : tr("JSON files (*.json)"));
    if (path.isEmpty()) return;
    QString error;
    const bool ok = csv ? exportHistoryCsv(path, m_history->entries(), &error)
                        : exportHistoryJson(path, m_history->entries(), &error);
    if (!ok) QMessageBox::warning(this, tr("Export run history"), error);
}

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    const QStringList recent = m_session->recentSessions();
    for (const QString& path : recent) {
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] {
            QString error;
            if (!m_session->openFrom(path, &error)) QMessageBox::warning(this, tr("Open session"), error);
        })->setToolTip(path);
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::restoreSettings() {
    QSettings settings;
    const QByteArray panel = settings.value(QStringLiteral("experiment")).toByteArray();
    if (!panel.isEmpty()) m_panel->fromJson(QJsonDocument::fromJson(panel).object());
    if (!restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray())) resize(1440, 900);
    restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
    rebuildRecentMenu();
}

void MainWindow::saveSettings() {
    QSettings settings;
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("windowState"), saveState());
    settings.setValue(QStringLiteral("experiment"),
                      QJsonDocument(m_panel->toJson()).toJson(QJsonDocument::Compact));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (m_confirmOnClose && m_session->hasUnsavedWork()) {
        const auto answer = QMessageBox::question(
            this, tr("Unsaved runs"),
            tr("This session has runs that are not saved. Save them before closing?"),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        if (answer == QMessageBox::Cancel) {
            event->ignore();
            return;
        }
        if (answer == QMessageBox::Save) {
            saveSession();
            if (m_session->isModified()) {  // the save was cancelled or failed
                event->ignore();
                return;
            }
        }
    }
    m_runActions->cancelLiveRestart();
    m_sweep->shutdown();       // sweep workers stop within one minibatch
    m_controller->shutdown();  // a run in progress stops within one minibatch
    saveSettings();
    event->accept();
}

void MainWindow::showAbout() { QMessageBox::about(this, tr("About PFA Explorer"), aboutText()); }

}  // namespace pfa::ui
