#pragma once

#include <condition_variable>
#include <mutex>
#include <vector>

#include "core/config/cancel_token.h"
#include "core/config/run_result.h"

namespace pfa::ui {

/// The control block of one run, shared by the GUI thread and the training thread.
///
/// The GUI sets flags (cancel, pause, single-epoch step) directly; the training thread blocks
/// in waitWhilePaused() between steps. Epoch metrics travel the other way through a
/// mutex-guarded buffer; `takeMetrics` drains it on the GUI thread. At most one queued
/// notification is outstanding at a time (see `pushMetrics`).
class RunControl {
public:
    explicit RunControl(int runId) : m_runId(runId) {}

    int runId() const { return m_runId; }
    const pfa::CancelToken& cancelToken() const { return m_cancel; }

    // --- GUI thread ---------------------------------------------------------------------
    /// Cancels the run and wakes it if paused.
    void cancel();
    bool cancelled() const { return m_cancel.cancelled(); }
    void setPaused(bool paused);
    /// Runs one more epoch, then pauses.
    void stepOneEpoch();
    bool paused() const;
    /// Moves the buffered metrics out and re-arms the notification.
    std::vector<pfa::EpochMetrics> takeMetrics();

    // --- training thread ----------------------------------------------------------------
    /// Blocks while paused (and not cancelled).
    void waitWhilePaused();
    /// Appends epoch metrics; returns true if the caller must post a notification (none
    /// outstanding). Also turns a pending single-epoch step into a pause.
    bool pushMetrics(const pfa::EpochMetrics& metrics);

private:
    const int m_runId;
    pfa::CancelToken m_cancel;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_paused = false;
    bool m_pauseAfterEpoch = false;
    bool m_notificationPending = false;
    std::vector<pfa::EpochMetrics> m_buffer;
};

}  // namespace pfa::ui
