#pragma once

#include <QObject>
#include <QString>
#include <vector>

#include "core/config/train_config.h"
#include "ui/runs/run_entry.h"

class QWidget;

namespace pfa::ui {

class ExperimentPanel;
class LiveChartsPanel;
class PrivacyStatementView;
class RunActions;
class RunDetailsPanel;
class RunHistoryModel;
class RunHistoryView;
class SweepViewsPanel;
class TradeoffChart;
class TrainingController;

/// The live run and what the user looks at: owns the live run's state (its settings, data set
/// and whether live mode started it) and routes a training run's start, epochs, end and failure
/// to the live charts and the tradeoff chart (its live point, and live mode's trail), and the
/// run-history selection (or a run just finished) to the live charts, the run details, the
/// privacy statement and the tradeoff chart's selection. The window makes it and keeps none of
/// this state.
class LiveRunPresenter : public QObject {
    Q_OBJECT
public:
    /// The views it drives; they must outlive it.
    struct Views {
        ExperimentPanel* panel = nullptr;
        LiveChartsPanel* live = nullptr;
        TradeoffChart* tradeoff = nullptr;
        RunHistoryModel* history = nullptr;
        RunHistoryView* historyView = nullptr;
        RunDetailsPanel* details = nullptr;
        PrivacyStatementView* statement = nullptr;
        SweepViewsPanel* sweepViews = nullptr;
    };

    /// Follows `training` and `runActions` (stop, reset); a failed run's message box opens
    /// over `dialogParent`.
    LiveRunPresenter(TrainingController* training, RunActions* runActions, const Views& views,
                     QWidget* dialogParent, QObject* parent = nullptr);

    /// Shows the panel's data set and notion in the tradeoff chart (when they changed).
    void followExperiment();
    /// A session is being replaced: what it drew goes (its run ids belong to it).
    void forgetSession();
    /// A session was opened: nothing of the replaced one stays on show.
    void showNewSession();

private:
    void beginRun(int id, const pfa::TrainConfig& config);
    void finishRun(const RunEntryPtr& entry);
    void showSelection();
    /// Run details of `runs` (side by side when several), columns in their live-chart colours.
    void showDetailsOf(const std::vector<RunEntryPtr>& runs);

    TrainingController* m_training;
    Views m_views;
    pfa::TrainConfig m_liveConfig;  ///< settings of the run whose metrics are arriving
    QString m_liveDatasetKey;       ///< its data set (datasetKey())
    int m_liveModeRunId = 0;        ///< the run started in live mode, if any: it joins the trail
};

}  // namespace pfa::ui
