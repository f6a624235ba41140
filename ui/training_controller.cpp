#include "ui/training_controller.h"

#include <QMetaObject>

#include "core/sweep/sweep_spec.h"
#include "ui/training_worker.h"

namespace pfa::ui {

TrainingController::TrainingController(QObject* parent) : QObject(parent) {
    qRegisterMetaType<RunEntryPtr>();
    m_thread.setObjectName(QStringLiteral("pfa-training"));
    m_worker = new TrainingWorker(this);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
}

TrainingController::~TrainingController() { shutdown(); }

void TrainingController::shutdown() {
    if (!m_thread.isRunning()) return;
    if (m_active) m_active->cancel();
    m_thread.quit();
    m_thread.wait();
    m_active.reset();
    setState(State::Idle);
}

int TrainingController::startRun(const pfa::TrainConfig& config,
                                 const pfa::PreparedDatasetPtr& data, bool singleEpoch) {
    if (m_active) m_active->cancel();  // superseded: its late results are dropped by id
    auto control = std::make_shared<RunControl>(allocateRunId());
    m_runKeys[control->runId()] = pfa::runKey(data->key, config);
    if (singleEpoch) control->stepOneEpoch();
    m_active = control;
    QMetaObject::invokeMethod(
        m_worker,
        [worker = m_worker, control, config, data] { worker->train(control, config, data); },
        Qt::QueuedConnection);
    setState(State::Running);
    emit runStarted(control->runId(), config);
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

void TrainingController::runEnded(const std::shared_ptr<RunControl>& control,
                                  const std::shared_ptr<pfa::RunResult>& result,
                                  const pfa::PreparedDatasetPtr& data) {
    auto entry = std::make_shared<RunEntry>();
    entry->id = control->runId();
    entry->finished = QDateTime::currentDateTime();
    entry->stoppedByUser = m_stopped.count(control->runId()) > 0;
    entry->result = *result;
    entry->context = data->context;
    entry->context.runKey = m_runKeys[control->runId()];
    m_runKeys.erase(control->runId());
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

void TrainingController::runErrored(const std::shared_ptr<RunControl>& control,
                                    const QString& message) {
    if (!isCurrent(control)) return;
    m_stopped.erase(control->runId());
    m_active.reset();
    setState(State::Idle);
    emit runFailed(control->runId(), message);
}

void TrainingController::runSkipped(const std::shared_ptr<RunControl>& control) {
    if (!isCurrent(control)) return;
    m_stopped.erase(control->runId());
    m_active.reset();
    setState(State::Idle);
}

void TrainingController::setState(State state) {
    if (m_state == state) return;
    m_state = state;
    emit stateChanged(state);
}

}  // namespace pfa::ui
