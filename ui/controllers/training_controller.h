#pragma once

#include <QObject>
#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "core/config/train_config.h"
#include "core/sweep/prepared_dataset.h"
#include "ui/controllers/run_control.h"
#include "ui/runs/run_entry.h"
#include "ui/support/background.h"

namespace pfa::ui {

struct TrainingOutcome;

/// Runs the training runs of the GUI, one at a time, and everything that crosses threads for
/// them.
///
/// Runs (training and noise calibration) are tasks of one serial background queue — a
/// long-lived thread that takes them in order (see background.h); data sets come loaded, from
/// the DatasetController. Cancel, pause and step act directly on the run's RunControl (atomic
/// flag / condition variable), so they take effect within one minibatch whatever the GUI
/// thread is doing. Every run has an id; results of a run that was superseded or stopped
/// never reach the charts.
class TrainingController : public QObject {
    Q_OBJECT
public:
    enum class State { Idle, Running, Paused };
    Q_ENUM(State)

    explicit TrainingController(QObject* parent = nullptr);
    ~TrainingController() override;

    /// Starts a run on `data` (cancelling the current one, whose results are then dropped)
    /// and returns its id. With `singleEpoch`, the run pauses after its first epoch (the Step
    /// button).
    int startRun(const pfa::TrainConfig& config, const pfa::PreparedDatasetPtr& data,
                 bool singleEpoch = false);
    void pause();
    void resume();
    /// Runs one more epoch of the paused run, then pauses again.
    void step();
    /// Stops the current run within one minibatch; no further metrics of it are shown.
    void stop();
    /// Stops the current run and forgets it: its end is charged (runExecuted) but never shown
    /// (no runFinished). For when another session replaces the one the run belongs to.
    void abandon();
    /// Cancels everything and waits for the run in progress to stop (closing the window during
    /// a run).
    void shutdown();
    /// A fresh run id (shared with sweeps, so ids are unique in a session).
    int allocateRunId() { return m_nextRunId++; }
    /// Makes future ids larger than `id` (after a session with runs up to `id` was opened).
    void reserveRunIds(int id) { m_nextRunId = std::max(m_nextRunId, id + 1); }
    /// Called on the training thread as soon as a run has executed (before the GUI hears of
    /// it), with the run and its context: the privacy ledger charges it there, so that a run
    /// still going when the window closes is charged too.
    void setExecutedHook(std::function<void(const pfa::RunResult&, const pfa::RunContext&)> hook) {
        m_executedHook = std::move(hook);
    }

    State state() const { return m_state; }
    /// Id of the run whose metrics are being shown (0 if none).
    int activeRunId() const;

signals:
    /// A run started; `config` as given, with an automatic δ resolved (as the run resolves it).
    void runStarted(int runId, const pfa::TrainConfig& config);
    /// New epoch metrics of the active run, in order (possibly several at once).
    void epochsArrived(int runId, const std::vector<pfa::EpochMetrics>& metrics);
    /// A run ended: completed, diverged, or stopped by the user (`entry->stoppedByUser`).
    void runFinished(pfa::ui::RunEntryPtr entry);
    /// Every run that executed, also one superseded by a restart (live mode) whose results are
    /// never shown: the privacy ledger charges it. Emitted before runFinished.
    void runExecuted(pfa::ui::RunEntryPtr entry);
    void runFailed(int runId, const QString& message);
    void stateChanged(pfa::ui::TrainingController::State state);

private:
    // On the GUI thread, as a run's task reports.
    void drainMetrics(const std::shared_ptr<RunControl>& control);
    void runReturned(const std::shared_ptr<RunControl>& control, const TrainingOutcome& outcome,
                     const pfa::PreparedDatasetPtr& data);
    void runEnded(const std::shared_ptr<RunControl>& control, const pfa::RunResult& result,
                  const pfa::PreparedDatasetPtr& data);
    void setState(State state);
    bool isCurrent(const std::shared_ptr<RunControl>& control) const;

    std::shared_ptr<RunControl> m_active;
    std::set<int> m_stopped;
    std::map<int, std::string> m_runKeys;         ///< run key of each started run (sweep cells)
    std::map<int, pfa::TrainConfig> m_requested;  ///< settings as asked, of each started run
    State m_state = State::Idle;
    int m_nextRunId = 1;
    std::function<void(const pfa::RunResult&, const pfa::RunContext&)> m_executedHook;
    SerialQueue m_runs{QStringLiteral("pfa-training")};  ///< last: destroyed (waited for) first
};

}  // namespace pfa::ui
