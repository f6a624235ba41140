#pragma once

#include <atomic>

namespace pfa {

/// A cancellation flag shared between the thread that requests cancellation (e.g. the GUI
/// thread) and the training thread, which checks it before every minibatch.
class CancelToken {
public:
    /// Requests cancellation; safe from any thread.
    void cancel() { m_cancelled.store(true, std::memory_order_relaxed); }
    /// True once cancel() was called.
    bool cancelled() const { return m_cancelled.load(std::memory_order_relaxed); }
    /// Clears the flag so the token can be reused for the next run.
    void reset() { m_cancelled.store(false, std::memory_order_relaxed); }

private:
    std::atomic<bool> m_cancelled{false};
};

}  // namespace pfa
