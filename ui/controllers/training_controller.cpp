#include "ui/controllers/training_controller.h"

#include <exception>

#include "core/algorithms/registry.h"
#include "core/sweep/sweep_spec.h"
#include "ui/controllers/training_worker.h"

namespace pfa::ui {

TrainingController::TrainingController(QObject* parent) : QObject(parent) {
    qRegisterMetaType<RunEntryPtr>();
}

TrainingController::~TrainingController() { shutdown(); }

void TrainingController::shutdown() {
    // Runs still queued were superseded, so cancelled already: they return at once.
    if (m_active) m_active->cancel();
    m_runs.waitForDone();
    m_active.reset();
    setState(State::Idle);
}

int TrainingController::startRun(const pfa::TrainConfig& config,
                                 const pfa::PreparedDatasetPtr& data, bool singleEpoch) {
    if (m_active) m_active->cancel();  // superseded: its late results are dropped by id
    auto control = std::make_shared<RunControl>(allocateRunId());
    m_runKeys[control->runId()] = pfa::runKey(data->key, config);
    m_requested[control->runId()] = config;
    if (singleEpoch) control->stepOneEpoch();
    m_active = control;
    auto train = [this, control, config, data, hook = m_executedHook,
                  runKey = m_runKeys[control->runId()]](TaskContext& task) {
        TrainingOutcome outcome = trainRun(control, config, data, [this, &task, control] {
            task.post([this, control] { drainMetrics(control); });
        });
        if (hook && outcome.kind == TrainingOutcome::Kind::Ran && outcome.result) {
            pfa::RunContext context = data->context;
            context.runKey = runKey;
            hook(*outcome.result, context);
        }
        return outcome;
    };
    m_runs.run(this, std::move(train), [this, control, data](const TrainingOutcome& outcome) {
        runReturned(control, outcome, data);
    });
    setState(State::Running);
    // The charts name the δ the accountant will use: "auto" resolved as the run resolves it.
    pfa::TrainConfig shown = config;
    if (shown.delta == 0.0) {
        try {
            shown.delta = pfa::findAlgorithm(config.algorithm).resolve(config, data->split).delta;
        } catch (const std::exception&) {
            // Invalid settings: the run fails and says why; no δ to show meanwhile.
        }
    }
    emit runStarted(control->runId(), shown);
    return control->runId();
}

void TrainingController::pause() {
    if (!m_active || m_stopped.count(m_active->runId())) return;
    m_active->setPaused(true);
    setState(State::Paused);
}

void TrainingController::resume() {
    if (!m_active || m_stopped.count(m_active->runId())) return;
    m_active->setPaused(false);
    setState(State::Running);
}

void TrainingController::step() {
    if (!m_active || m_stopped.count(m_active->runId())) return;
    m_active->stepOneEpoch();
    setState(State::Running);
}

void TrainingController::stop() {
    if (!m_active) return;
    m_stopped.insert(m_active->runId());
    m_active->cancel();
    setState(State::Idle);
}

void TrainingController::abandon() {
    if (!m_active) return;
    m_active->cancel();
    m_stopped.erase(m_active->runId());
    m_active.reset();  // no longer current: a late end is charged, never shown
    setState(State::Idle);
}

int TrainingController::activeRunId() const {
    if (!m_active || m_stopped.count(m_active->runId())) return 0;
    return m_active->runId();
}

bool TrainingController::isCurrent(const std::shared_ptr<RunControl>& control) const {
    return control == m_active;
}

void TrainingController::drainMetrics(const std::shared_ptr<RunControl>& control) {
    std::vector<pfa::EpochMetrics> metrics = control->takeMetrics();
    if (!isCurrent(control) || m_stopped.count(control->runId()) || metrics.empty()) return;
    emit epochsArrived(control->runId(), metrics);
    if (control->paused() && m_state == State::Running) setState(State::Paused);
}

void TrainingController::runReturned(const std::shared_ptr<RunControl>& control,
                                     const TrainingOutcome& outcome,
                                     const pfa::PreparedDatasetPtr& data) {
    if (outcome.kind == TrainingOutcome::Kind::Ran) {
        runEnded(control, *outcome.result, data);
        return;
    }
    m_runKeys.erase(control->runId());
    m_requested.erase(control->runId());
    if (!isCurrent(control)) return;
    m_stopped.erase(control->runId());
    m_active.reset();
    setState(State::Idle);
    if (outcome.kind == TrainingOutcome::Kind::Failed)
        emit runFailed(control->runId(), outcome.error);
}

void TrainingController::runEnded(const std::shared_ptr<RunControl>& control,
                                  const pfa::RunResult& result,
                                  const pfa::PreparedDatasetPtr& data) {
    auto entry = std::make_shared<RunEntry>();
    entry->id = control->runId();
    entry->finished = QDateTime::currentDateTime();
    entry->stoppedByUser = m_stopped.count(control->runId()) > 0;
    entry->result = result;
    entry->context = data->context;
    entry->context.runKey = m_runKeys[control->runId()];
    m_runKeys.erase(control->runId());
    if (const auto asked = m_requested.find(control->runId()); asked != m_requested.end()) {
        entry->requested = asked->second;
        m_requested.erase(asked);
    }
    // It touched the data whether or not anyone sees its results: charge it first.
    emit runExecuted(entry);
    if (!isCurrent(control)) return;  // superseded (live mode): never shown
    // Metrics still buffered (the last epoch) must reach the charts before the end.
    drainMetrics(control);
    m_stopped.erase(control->runId());
    m_active.reset();
    setState(State::Idle);
    emit runFinished(entry);
}

void TrainingController::setState(State state) {
    if (m_state == state) return;
    m_state = state;
    emit stateChanged(state);
}

}  // namespace pfa::ui
