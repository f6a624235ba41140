#include "ui/shell/main_window.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QJsonDocument>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <QUndoStack>
#include <algorithm>

#include "ui/actions/chart_export_menu.h"
#include "ui/actions/dataset_actions.h"
#include "ui/actions/history_actions.h"
#include "ui/actions/model_export_actions.h"
#include "ui/actions/report_export.h"
#include "ui/actions/session_actions.h"
#include "ui/actions/sweep_actions.h"
#include "ui/actions/tool_actions.h"
#include "ui/charts/tradeoff_chart.h"
#include "ui/controllers/dataset_controller.h"
#include "ui/controllers/results_file_controller.h"
#include "ui/controllers/session_controller.h"
#include "ui/controllers/sweep_controller.h"
#include "ui/controllers/training_controller.h"
#include "ui/dialogs/privacy_audit_dialog.h"
#include "ui/panels/dataset_card.h"
#include "ui/panels/experiment_panel.h"
#include "ui/panels/ledger_status_label.h"
#include "ui/panels/live_charts_panel.h"
#include "ui/panels/privacy_ledger_panel.h"
#include "ui/panels/run_details_panel.h"
#include "ui/panels/sweep_status_widget.h"
#include "ui/panels/sweep_views_panel.h"
#include "ui/panels/teaching_panel.h"
#include "ui/runs/privacy_ledger_book.h"
#include "ui/runs/run_history_model.h"
#include "ui/runs/run_history_view.h"
#include "ui/shell/about_text.h"
#include "ui/shell/dataset_presenter.h"
#include "ui/shell/docks.h"
#include "ui/shell/guided_tour.h"
#include "ui/shell/live_run_presenter.h"
#include "ui/shell/panel_wiring.h"
#include "ui/shell/presentation_mode.h"
#include "ui/shell/presenter_controls.h"

namespace pfa::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    m_training = new TrainingController(this);
    m_datasets = new DatasetController(this);
    const auto allocateRunId = [this] { return m_training->allocateRunId(); };
    m_sweep = new SweepController(allocateRunId, this);
    m_history = new RunHistoryModel(this);
    m_ledger = new LedgerBook(this);
    // Every execution is charged to the persistent ledger of its rows on the thread it ran on,
    // before anything else can happen to it (the window closing, a session discarded).
    m_training->setExecutedHook(m_ledger->backgroundCharger());
    m_sweep->setLedger(
        m_ledger->backgroundEntryCharger(),
        [book = m_ledger](const pfa::RunContext& context,
                          const std::vector<pfa::privacy::LedgerEntry>& entries,
                          bool stored) { book->chargeEntries(context, entries, stored); });
    m_results = new ResultsFileController(m_history, m_ledger, allocateRunId, this);
    m_undo = new QUndoStack(this);

    m_panel = new ExperimentPanel();
    m_live = new LiveChartsPanel();
    m_tradeoff = new TradeoffChart();
    m_historyView = new RunHistoryView(m_history);
    m_details = new RunDetailsPanel();
    m_statement = new PrivacyStatementView();
    m_statement->setLedgerBook(m_ledger);
    m_card = new DatasetCard();
    m_sweepViews = new SweepViewsPanel();
    m_ledgerPanel = new LedgerPanel(m_ledger);

    m_session = new SessionController(m_panel, m_history, m_ledger, this);
    m_runActions = new RunActions(m_training, m_datasets, m_panel, this);
    m_datasetActions = new DatasetActions(m_datasets, m_panel, this);
    m_historyActions = new HistoryActions(m_history, m_historyView, m_undo, this);
    m_modelExport = new ModelExportActions(m_training, m_datasets, m_historyView, this);
    m_sweepActions = new SweepActions(m_sweep, m_results, m_datasets, m_panel, m_history, m_card,
                                      m_sweepViews, m_datasetActions, this);
    m_sessionActions = new SessionActions(m_session, this);

    setCentralWidget(m_live);
    buildToolbar();
    buildDocks();
    buildStatusBar();
    buildMenus();
    connectTraining();
    connectDatasets();
    connectSweepsAndSessions();

    restoreSettings();
    m_datasetPresenter->followPanel();
    updateTitle();
}

MainWindow::~MainWindow() { m_training->shutdown(); }

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
    auto dock = [this](const QString& title, const char* objectName, QWidget* content) {
        return makeDock(this, title, objectName, content);
    };
    m_panelScroll = scrolled(m_panel);
    m_panelScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    fitPanelScrollWidth();
    m_panel->installEventFilter(this);  // its smallest width may change with the data set
    m_experimentDock = dock(tr("Experiment"), "experimentDock", m_panelScroll);
    // The settings run the full height of the window (the run history goes beside them): on a
    // 720-pixel screen ε, λ and Live mode show without scrolling.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    addDockWidget(Qt::LeftDockWidgetArea, m_experimentDock);

    QDockWidget* tradeoffDock = dock(tr("Tradeoff"), "tradeoffDock", m_tradeoff);
    m_tradeoffDock = tradeoffDock;
    // Scrolled: the sweep views (a heat map beside three charts) and the ledger's table must
    // not make the window too large for a 1280×720 screen, even as hidden tabs.
    m_sweepDock = dock(tr("Sweep views"), "sweepDock", scrolled(m_sweepViews));
    addDockWidget(Qt::RightDockWidgetArea, tradeoffDock);
    addDockWidget(Qt::RightDockWidgetArea, m_sweepDock);
    tabifyDockWidget(tradeoffDock, m_sweepDock);
    // Plain-words explanations with the current run's numbers, beside the tradeoff (View menu).
    auto* teaching = new TeachingPanel();
    connectTeaching(teaching, m_panel, m_training, m_datasets);
    QDockWidget* teachingDock = dock(tr("Teaching panel"), "teachingDock", teaching);
    addDockWidget(Qt::RightDockWidgetArea, teachingDock);
    tabifyDockWidget(m_sweepDock, teachingDock);
    tradeoffDock->raise();

    QDockWidget* historyDock = dock(tr("Run history"), "historyDock", m_historyView);
    m_historyDock = historyDock;
    // Scrolled, as the ledger: below the charts, which need the height of a 720-pixel screen.
    QDockWidget* detailsDock = dock(tr("Run details"), "detailsDock", scrolled(m_details));
    QDockWidget* statementDock =
        dock(tr("Privacy statement"), "statementDock", scrolled(m_statement));
    QDockWidget* cardDock = dock(tr("Data set"), "datasetDock", scrolled(m_card));
    m_ledgerDock = dock(tr("Privacy ledger"), "ledgerDock", scrolled(m_ledgerPanel));
    for (QDockWidget* bottom : {historyDock, detailsDock, statementDock, cardDock, m_ledgerDock}) {
        addDockWidget(Qt::BottomDockWidgetArea, bottom);
    }
    splitDockWidget(historyDock, detailsDock, Qt::Horizontal);
    tabifyDockWidget(detailsDock, statementDock);
    tabifyDockWidget(statementDock, cardDock);
    tabifyDockWidget(cardDock, m_ledgerDock);
    detailsDock->raise();
}

void MainWindow::fitPanelScrollWidth() {
    // Wide enough for the panel's smallest layout plus a vertical scroll bar: never clipped.
    m_panelScroll->setMinimumWidth(m_panel->minimumSizeHint().width() +
                                   m_panelScroll->verticalScrollBar()->sizeHint().width() + 6);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_panel && event->type() == QEvent::LayoutRequest) fitPanelScrollWidth();
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::fitDocksToWindow() {
    // 1280×720: 330 + 345 wide beside the charts, 160 high below them; 1920×1080: 400 + 520,
    // 230 high.
    const int experiment =
        std::max(m_experimentDock->minimumSizeHint().width(), std::min(width() * 26 / 100, 400));
    const int tradeoff = std::clamp(width() * 27 / 100, 300, 520);
    resizeDocks({m_experimentDock, m_tradeoffDock}, {experiment, tradeoff}, Qt::Horizontal);
    resizeDocks({m_historyDock}, {std::clamp(height() * 22 / 100, 150, 230)}, Qt::Vertical);
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (m_fitDocksOnShow) {
        m_fitDocksOnShow = false;
        fitDocksToWindow();
    }
}

void MainWindow::buildStatusBar() {
    auto* sweepStatus = new SweepStatusWidget();
    connectSweepStatus(sweepStatus, m_sweep);
    statusBar()->addPermanentWidget(sweepStatus);
    m_ledgerStatus = new LedgerStatusLabel(m_ledger);
    statusBar()->addPermanentWidget(m_ledgerStatus);
    auto* stateLabel = new QLabel(m_runActions->stateText());
    statusBar()->addPermanentWidget(stateLabel);
    connect(m_ledgerStatus, &LedgerStatusLabel::ledgerRequested, this, [this] {
        m_ledgerDock->show();
        m_ledgerDock->raise();
    });
    connect(m_runActions, &RunActions::changed, stateLabel, [this, stateLabel] {
        stateLabel->setText(m_runActions->stateText());
        stateLabel->setToolTip(m_panel->problem());  // "Not ready": why, in full
    });
    connect(m_runActions, &RunActions::message, statusBar(), &QStatusBar::showMessage);
    connect(m_ledger, &LedgerBook::storeFailed, this, [this](const QString& message) {
        statusBar()->showMessage(
            tr("The privacy ledger could not be written or read: %1").arg(message));
    });
    connect(m_datasetActions, &DatasetActions::message, statusBar(), &QStatusBar::showMessage);
    connect(m_historyActions, &HistoryActions::message, statusBar(), &QStatusBar::showMessage);
    connect(m_modelExport, &ModelExportActions::message, statusBar(), &QStatusBar::showMessage);
    connect(m_sweepActions, &SweepActions::message, statusBar(), &QStatusBar::showMessage);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_sessionActions->fillMenu(file);
    file->addSeparator();
    file->addAction(m_datasetActions->importFileAction());
    file->addAction(m_sweepActions->openResultsAction());
    file->addSeparator();
    file->addActions({m_historyActions->exportCsvAction(), m_historyActions->exportJsonAction(),
                      m_modelExport->action()});
    fillChartExportMenu(
        file->addMenu(tr("Export &chart")),
        {m_live->exportEntries(), m_tradeoff->exportEntries(), m_sweepViews->exportEntries()},
        this);
    auto* report = new ReportExport(m_history, m_historyView, this);  // its errors: a message box
    connect(report, &ReportExport::finished, this, [this](bool ok, const QString& text) {
        if (ok) statusBar()->showMessage(text, 8000);
    });
    file->addAction(report->action());
    file->addSeparator();
    file->addAction(tr("&Quit"), this, &QWidget::close)->setShortcut(QKeySequence::Quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addActions({m_historyActions->undoAction(), m_historyActions->redoAction()});
    edit->addSeparator();
    edit->addActions({m_historyActions->deleteAction(), m_historyActions->clearAction()});

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    for (QAction* action : m_runActions->actions()) run->addAction(action);

    m_sweepActions->fillMenu(menuBar()->addMenu(tr("&Sweep")));

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    auto* tools = m_tools = new ToolActions(m_ledger, this);
    view->addAction(tools->publicMeanAction());
    view->setToolTipsVisible(true);
    view->addSeparator();
    // The presenter's λ, ε and live mode: a toolbar shown only while presenting.
    auto* presenter = new PresenterControls(m_panel, this);
    addToolBar(Qt::BottomToolBarArea, presenter);  // a row of its own, under the charts
    presenter->hide();
    view->addAction(
        (new PresentationMode(this, m_tradeoffDock, {m_live, m_tradeoff}, presenter))->action());

    menuBar()->addMenu(tr("&Tools"))->addAction(tools->privacyAuditAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* tour =
        help->addAction(tr("&Guided tour"), this, [this] { GuidedTour::of(this)->start(); });
    tour->setObjectName(QStringLiteral("guidedTourAction"));
    help->addAction(tr("&About PFA Explorer"), this,
                    [this] { QMessageBox::about(this, tr("About PFA Explorer"), aboutText()); });
}

void MainWindow::connectDatasets() {
    m_datasetPresenter = new DatasetPresenter(m_datasets, m_ledger,
                                              {.panel = m_panel,
                                               .card = m_card,
                                               .ledgerPanel = m_ledgerPanel,
                                               .ledgerStatus = m_ledgerStatus,
                                               .live = m_presenter},
                                              this);
}

void MainWindow::connectTraining() {
    const LiveRunPresenter::Views views{m_panel,       m_live,    m_tradeoff,  m_history,
                                        m_historyView, m_details, m_statement, m_sweepViews};
    m_presenter = new LiveRunPresenter(m_training, m_runActions, views, this, this);
    connect(m_training, &TrainingController::runExecuted, m_ledger,
            qOverload<const RunEntryPtr&>(&LedgerBook::charge));
}

bool MainWindow::auditRun(int id, QString* error) {
    const auto refuse = [&](const QString& reason) {
        if (error) *error = reason;
        QMessageBox::information(this, tr("Privacy audit"), reason);
        return false;
    };
    const RunEntryPtr run = m_history->entry(id);
    if (!run) return refuse(tr("No data set is loaded."));
    QString whyNot;
    const pfa::PreparedDatasetPtr data =
        m_datasets->datasetOfRun(run->id, run->context.runKey, &whyNot);
    if (!data) return refuse(whyNot);
    pfa::audit::AuditOptions options;
    options.config = run->result.config;
    options.method = pfa::audit::AuditMethod::OneRunInput;
    options.epsilons = {run->result.config.epsilon};
    const std::string problem = pfa::audit::auditApplicability(options, data->split);
    if (!problem.empty()) {
        return refuse(tr("The audit cannot test run %1: %2.")
                          .arg(run->id)
                          .arg(QString::fromStdString(problem)));
    }
    m_tools->auditRun({tr("run %1").arg(run->id), run->result.config, data});
    return true;
}

void MainWindow::connectSweepsAndSessions() {
    connect(m_sweep, &SweepController::runsFinished, m_results, &ResultsFileController::merge);
    connect(m_sweep, &SweepController::runsCutShort, m_ledger,
            qOverload<const std::vector<RunEntryPtr>&>(&LedgerBook::charge));
    connect(m_sweepActions, &SweepActions::sweepViewsChanged, m_sweepDock, &QDockWidget::raise);
    // A point's "run with 4 more seeds" (the tradeoff chart's context menu).
    connect(m_tradeoff, &TradeoffChart::moreSeedsRequested, this, [this](int id) {
        if (const RunEntryPtr entry = m_history->entry(id)) m_sweepActions->runMoreSeeds(entry);
    });
    // A point's "audit this run's privacy claim".
    connect(m_tradeoff, &TradeoffChart::auditRequested, this, [this](int id) { auditRun(id); });
    connect(m_session, &SessionController::stateChanged, this, &MainWindow::updateTitle);
    connect(m_session, &SessionController::aboutToOpen, this, [this] {
        // A run of the session being replaced must not end up in the opened one (nor its
        // statement on show): it is charged to the ledger, never listed.
        m_training->abandon();
        m_runActions->cancelLiveRestart();
        m_presenter->forgetSession();
        m_undo->clear();
    });
    connect(m_session, &SessionController::opened, this, [this](int highestRunId) {
        m_training->reserveRunIds(highestRunId);
        m_presenter->showNewSession();
    });
}

void MainWindow::updateTitle() {
    setWindowTitle(tr("%1%2 — PFA Explorer")
                       .arg(m_session->displayName(),
                            m_session->isModified() ? QStringLiteral("*") : QString()));
}

void MainWindow::restoreSettings() {
    QSettings settings;
    const QByteArray panel = settings.value(QStringLiteral("experiment")).toByteArray();
    if (!panel.isEmpty()) m_panel->fromJson(QJsonDocument::fromJson(panel).object());
    if (!restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray())) {
        // First start: roomy, but never larger than the screen (a 1280×720 projector).
        resize(QSize(1440, 900).boundedTo(screen()->availableGeometry().size()));
    }
    m_fitDocksOnShow = !restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
}

void MainWindow::saveSettings() {
    QSettings settings;
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("windowState"), saveState());
    settings.setValue(QStringLiteral("experiment"),
                      QJsonDocument(m_panel->toJson()).toJson(QJsonDocument::Compact));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (m_confirmOnClose && !m_sessionActions->mayClose()) {
        event->ignore();
        return;
    }
    m_runActions->cancelLiveRestart();
    m_sweep->shutdown();     // sweep workers stop within one minibatch
    m_training->shutdown();  // a run in progress stops within one minibatch
    saveSettings();
    event->accept();
}

}  // namespace pfa::ui
