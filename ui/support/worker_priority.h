#pragma once

namespace pfa::ui {

/// Lowers the calling thread's scheduling priority (nice +10 on Linux) for its lifetime, so
/// that compute-bound work started from it — a sweep or an audit, whose runner spawns its own
/// threads, which inherit the value — always yields the CPU to the GUI thread. On a machine
/// with as many busy threads as cores the GUI thread would otherwise wait its turn for tens of
/// milliseconds. The destructor puts the old value back where the system allows it (an
/// unprivileged process may not raise a priority again; the pool thread then stays lower,
/// which suits background work). Elsewhere than Linux it does nothing.
class BelowGuiPriority {
public:
    BelowGuiPriority();
    ~BelowGuiPriority();
    BelowGuiPriority(const BelowGuiPriority&) = delete;
    BelowGuiPriority& operator=(const BelowGuiPriority&) = delete;

    /// The calling thread's nice value (0 where unknown), for tests.
    static int currentNice();

private:
    int m_previous = 0;
    bool m_changed = false;
};

}  // namespace pfa::ui
