#include "core/engine/run_session.h"

#include <limits>

namespace pfa {

RunSession::RunSession(TrainingObserver& observer, const CancelToken& cancel, std::string stepName)
    : m_observer(observer),
      m_cancel(cancel),
      m_stepName(std::move(stepName)),
      m_start(std::chrono::steady_clock::now()) {}

double RunSession::seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
}

bool RunSession::cancelled(long done) {
    if (!m_cancel.cancelled()) return false;
    m_result.status = RunStatus::Cancelled;
    m_result.message = "cancelled after " + std::to_string(done) + " " + m_stepName;
    return true;
}

bool RunSession::stepped(const StepInfo& info) {
    m_result.steps = info.step;
    return m_observer.onStep(info);
}

bool RunSession::evaluated(EpochMetrics metrics) {
    metrics.epsilonSpent =
        m_epsilonAfter ? m_epsilonAfter(metrics.step) : std::numeric_limits<double>::infinity();
    metrics.seconds = seconds();
    m_result.history.push_back(metrics);
    return m_observer.onEpochEnd(m_result.history.back());
}

bool RunSession::stopRequested(bool stop, long done, long total) {
    if (!stop || done >= total) return false;
    m_result.status = RunStatus::Cancelled;
    m_result.message = "stopped after " + std::to_string(done) + " " + m_stepName;
    return true;
}

void RunSession::diverge(std::string message) {
    m_result.status = RunStatus::Diverged;
    m_result.message = std::move(message);
}

RunResult RunSession::finish() {
    m_result.seconds = seconds();
    return std::move(m_result);
}

}  // namespace pfa
