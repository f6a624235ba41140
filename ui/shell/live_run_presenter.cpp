#include "ui/shell/live_run_presenter.h"

#include <QItemSelectionModel>
#include <QMessageBox>
#include <QTextDocument>

#include "core/sweep/prepared_dataset.h"
#include "ui/actions/run_actions.h"
#include "ui/charts/tradeoff_chart.h"
#include "ui/controllers/training_controller.h"
#include "ui/panels/experiment_panel.h"
#include "ui/panels/live_charts_panel.h"
#include "ui/panels/run_details_panel.h"
#include "ui/panels/sweep_views_panel.h"
#include "ui/runs/run_history_model.h"
#include "ui/runs/run_history_view.h"

namespace pfa::ui {

LiveRunPresenter::LiveRunPresenter(TrainingController* training, RunActions* runActions,
                                   const Views& views, QWidget* dialogParent, QObject* parent)
    : QObject(parent), m_training(training), m_views(views) {
    LiveChartsPanel* live = views.live;
    TradeoffChart* tradeoff = views.tradeoff;
    connect(training, &TrainingController::runStarted, this, &LiveRunPresenter::beginRun);
    connect(training, &TrainingController::epochsArrived, live, &LiveChartsPanel::appendLive);
    connect(training, &TrainingController::epochsArrived, this,
            [this](int id, const std::vector<pfa::EpochMetrics>& metrics) {
                if (metrics.empty()) return;
                m_views.tradeoff->setLivePoint(id, m_liveDatasetKey, m_liveConfig,
                                               metrics.back().violation, metrics.back().testError);
            });
    connect(training, &TrainingController::runFinished, this, &LiveRunPresenter::finishRun);
    connect(training, &TrainingController::runFailed, this,
            [live, tradeoff, dialogParent](int id, const QString& message) {
                live->detachLive();
                tradeoff->clearLivePoint();
                QMessageBox::warning(dialogParent, tr("Run %1 failed").arg(id),
                                     Qt::convertFromPlainText(message, Qt::WhiteSpaceNormal));
            });
    connect(runActions, &RunActions::stopped, this, [live, tradeoff] {
        live->detachLive();
        tradeoff->clearLivePoint();
    });
    connect(runActions, &RunActions::resetRequested, this, [this] {
        m_views.live->clear();
        m_views.tradeoff->clearLivePoint();
        m_views.tradeoff->clearTrail();
        m_views.historyView->clearSelection();
    });
    connect(views.history, &RunHistoryModel::entriesChanged, this, [this] {
        m_views.tradeoff->setRuns(m_views.history->entries());
        m_views.sweepViews->setEntries(m_views.history->entries());
    });
    connect(views.historyView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &LiveRunPresenter::showSelection);
    connect(tradeoff, &TradeoffChart::runClicked, this,
            [this](int id) { m_views.historyView->selectRuns({id}); });
    // The run list's ε squares in the tradeoff chart's colours.
    connect(tradeoff, &TradeoffChart::paletteChanged, views.history,
            &RunHistoryModel::setEpsilonPalette);
    // The tradeoff chart shows the panel's data set and notion (unless the user picks others).
    connect(views.panel, &ExperimentPanel::configChanged, this,
            &LiveRunPresenter::followExperiment);
}

void LiveRunPresenter::followExperiment() {
    m_views.tradeoff->followExperiment(
        QString::fromStdString(pfa::datasetKey(m_views.panel->datasetRequest())),
        m_views.panel->config().fairness);
}

void LiveRunPresenter::forgetSession() {
    m_views.live->clear();
    m_views.tradeoff->forgetTrail();  // its run ids belonged to the session being closed
}

void LiveRunPresenter::showNewSession() {
    m_views.historyView->clearSelection();
    m_views.statement->showRun(nullptr);
    m_views.details->showRun(nullptr);
    m_views.tradeoff->setSelectedRun(0);
}

void LiveRunPresenter::beginRun(int id, const pfa::TrainConfig& config) {
    m_liveConfig = config;
    m_liveDatasetKey = QString::fromStdString(pfa::datasetKey(m_views.panel->datasetRequest()));
    m_liveModeRunId = m_views.panel->liveMode() ? id : 0;
    m_views.live->beginLiveRun(id, config);
    m_views.tradeoff->showDataset(m_liveDatasetKey, config.fairness);  // where the run is
}

void LiveRunPresenter::finishRun(const RunEntryPtr& entry) {
    m_views.tradeoff->clearLivePoint();
    // Live mode's runs form one trail on the tradeoff chart, not a point each.
    if (entry->id == m_liveModeRunId) m_views.tradeoff->addToTrail(entry->id);
    if (!entry->stoppedByUser) {
        m_views.live->endLiveRun(entry->id, entry->result.status == pfa::RunStatus::Diverged);
    }
    m_views.history->append(entry);
    // The details show what the live charts draw: the new run, next to the runs compared.
    std::vector<RunEntryPtr> drawn{entry};
    for (const RunEntryPtr& run : m_views.historyView->selectedRuns()) {
        if (run->id != entry->id && m_views.live->colorOfRun(run->id).isValid())
            drawn.push_back(run);
    }
    showDetailsOf(drawn);
    m_views.statement->showRun(entry);
    m_views.tradeoff->setSelectedRun(entry->id);
}

void LiveRunPresenter::showSelection() {
    const std::vector<RunEntryPtr> runs = m_views.historyView->selectedRuns();
    // While a run is live, selected runs are overlaid next to it; otherwise they replace it.
    if (m_training->activeRunId() == 0) m_views.live->dropLive();
    m_views.live->showRuns(runs);
    RunEntryPtr first = runs.empty() ? nullptr : runs.front();
    // The statement is of the row the user clicked last (the current one), when it is selected.
    const QModelIndex current = m_views.historyView->currentIndex();
    if (current.isValid() && m_views.historyView->selectionModel()->isSelected(current)) {
        const int id = current.data(RunHistoryModel::RunIdRole).toInt();
        for (const RunEntryPtr& run : runs) {
            if (run->id == id) first = run;
        }
    }
    showDetailsOf(runs);
    m_views.statement->showRun(first);
    m_views.tradeoff->setSelectedRun(first ? first->id : 0);
}

void LiveRunPresenter::showDetailsOf(const std::vector<RunEntryPtr>& runs) {
    std::vector<QColor> colors;
    for (const RunEntryPtr& run : runs) colors.push_back(m_views.live->colorOfRun(run->id));
    m_views.details->showRuns(runs, colors);
}

}  // namespace pfa::ui
