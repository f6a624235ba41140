#include "ui/support/worker_priority.h"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#endif

namespace pfa::ui {

namespace {

constexpr int kNiceIncrement = 10;

#if defined(__linux__)
// Linux keeps a nice value per thread: PRIO_PROCESS with a thread id addresses one thread.
id_t threadId() { return static_cast<id_t>(::syscall(SYS_gettid)); }
#endif

}  // namespace

int BelowGuiPriority::currentNice() {
#if defined(__linux__)
    errno = 0;
    const int nice = ::getpriority(PRIO_PROCESS, threadId());
    return errno == 0 ? nice : 0;
#else
    return 0;
#endif
}

BelowGuiPriority::BelowGuiPriority() {
#if defined(__linux__)
    m_previous = currentNice();
    m_changed = ::setpriority(PRIO_PROCESS, threadId(), m_previous + kNiceIncrement) == 0;
#endif
}

BelowGuiPriority::~BelowGuiPriority() {
#if defined(__linux__)
    if (m_changed) (void)::setpriority(PRIO_PROCESS, threadId(), m_previous);
#endif
}

}  // namespace pfa::ui
