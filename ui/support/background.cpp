#include "ui/support/background.h"

#include <QCoreApplication>
#include <QThread>
#include <algorithm>

#include "core/util/cpu_count.h"

namespace pfa::ui {

namespace {

/// Most tasks wait (for the disk, the network, a sweep's own workers) rather than compute, so
/// more threads than cores are fine; the limit only bounds a burst.
QThreadPool* makeBackgroundPool() {
    auto* pool = new QThreadPool();
    pool->setObjectName(QStringLiteral("pfa-background"));
    pool->setMaxThreadCount(std::max(8, 2 * pfa::availableCpus()));
    // As Qt does for its global pool: the application's end waits for tasks still running
    // (cancelled by their owners by then), so none outlives the libraries it uses.
    qAddPostRoutine([] { backgroundPool()->waitForDone(); });
    return pool;
}

}  // namespace

QThreadPool* backgroundPool() {
    static QThreadPool* const pool = makeBackgroundPool();  // lives as long as the program
    return pool;
}

SerialQueue::SerialQueue(const QString& name) {
    m_pool.setObjectName(name);
    m_pool.setMaxThreadCount(1);
    m_pool.setExpiryTimeout(-1);  // one long-lived thread
}

SerialQueue::~SerialQueue() { m_pool.waitForDone(); }

void SerialQueue::waitForDone() { m_pool.waitForDone(); }

}  // namespace pfa::ui
