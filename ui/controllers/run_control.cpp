#include "ui/controllers/run_control.h"

namespace pfa::ui {

void RunControl::cancel() {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_cancel.cancel();
    }
    m_wake.notify_all();
}

void RunControl::setPaused(bool paused) {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_paused = paused;
        if (!paused) m_pauseAfterEpoch = false;
    }
    m_wake.notify_all();
}

void RunControl::stepOneEpoch() {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_paused = false;
        m_pauseAfterEpoch = true;
    }
    m_wake.notify_all();
}

bool RunControl::paused() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_paused;
}

std::vector<pfa::EpochMetrics> RunControl::takeMetrics() {
    std::lock_guard<std::mutex> lock(m_mutex);
    std::vector<pfa::EpochMetrics> out;
    out.swap(m_buffer);
    m_notificationPending = false;
    return out;
}

void RunControl::waitWhilePaused() {
    std::unique_lock<std::mutex> lock(m_mutex);
    m_wake.wait(lock, [this] { return !m_paused || m_cancel.cancelled(); });
}

bool RunControl::pushMetrics(const pfa::EpochMetrics& metrics) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_buffer.push_back(metrics);
    if (m_pauseAfterEpoch) {
        m_pauseAfterEpoch = false;
        m_paused = true;
    }
    if (m_notificationPending) return false;
    m_notificationPending = true;
    return true;
}

}  // namespace pfa::ui
