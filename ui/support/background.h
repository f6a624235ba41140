#pragma once

// The one way the GUI runs work off the GUI thread.
//
// Every background task of the GUI — loading a data set, a training run, a sweep, a download,
// verifying and copying files, reading a results file, previewing and checking an own data
// file — goes through runInBackground() (or a SerialQueue, which is the same thing on a
// single thread of its own). Why this mechanism, and why only one:
//
//  * Results arrive on the GUI thread as a continuation. The work runs on a QThreadPool via
//    QtConcurrent::run; its completion is delivered by a QFutureWatcher that is a child of
//    the receiving object, so it is called on the receiver's thread and never after the
//    receiver is gone (QFuture::then(context, …) of Qt 6.4 does not promise the latter).
//    Nobody waits: no nested event loop, no blocking join on the GUI thread (shutdown aside).
//  * Progress goes the same way. TaskContext::post() queues a call to the receiver; calls
//    queued after the receiver (and with it the task's watcher) was destroyed are dropped.
//  * Cancellation is the core's CancelToken, which the training loop, the sweep runner, the
//    downloads and the file readers already check; cancelling never discards the outcome, so
//    a stopped run, sweep or download still reports how far it got.
//  * Work that must not overlap (training runs, data-set loads) uses a SerialQueue: a pool of
//    one long-lived thread runs its tasks one after another in the order given, which is the
//    worker-thread pattern expressed with the same tasks.
//  * The tasks run on a pool of their own, not QThreadPool::globalInstance(): a sweep's
//    supervising task or a slow download may hold a thread for minutes, and on a two-core
//    machine the global pool has two threads.
//
// std::thread, a QThread of its own, fire-and-forget QtConcurrent::run and local QEventLoops
// are not used in ui/ (tests/ui/background_test.cpp checks).

#include <QFutureWatcher>
#include <QMetaObject>
#include <QObject>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>

#include "core/config/cancel_token.h"

namespace pfa::ui {

namespace detail {

/// Shared by a task's work, its watcher and its handles.
struct TaskState {
    pfa::CancelToken cancel;
    std::mutex mutex;             ///< guards `receiver`
    QObject* receiver = nullptr;  ///< null once the task's watcher (or the receiver) is gone
    std::chrono::steady_clock::time_point lastProgress;  ///< touched by the work's thread only
    /// The work has returned. (Not the future's state: takeResult() resets that.)
    std::atomic<bool> returned{false};
};

}  // namespace detail

/// What background work sees of its task: whether it was asked to stop, and a way to send
/// progress to the receiver on the GUI thread.
class TaskContext {
public:
    explicit TaskContext(std::shared_ptr<detail::TaskState> state) : m_state(std::move(state)) {}

    /// The task's cancel token (pass it to the core, which checks it every minibatch).
    const pfa::CancelToken& cancelToken() const { return m_state->cancel; }
    bool cancelled() const { return m_state->cancel.cancelled(); }

    /// Calls `update()` on the receiver's thread, after the updates posted before it and before
    /// the task's completion; dropped when the receiver is destroyed first.
    template <typename Update>
    void post(Update&& update) const {
        std::lock_guard<std::mutex> lock(m_state->mutex);
        if (m_state->receiver) {
            QMetaObject::invokeMethod(m_state->receiver, std::forward<Update>(update),
                                      Qt::QueuedConnection);
        }
    }

    /// True at most about twenty times a second: progress worth posting (the GUI does not
    /// need more, and a flood of queued calls would stall it).
    bool progressDue() const {
        const auto now = std::chrono::steady_clock::now();
        if (now - m_state->lastProgress < std::chrono::milliseconds(50)) return false;
        m_state->lastProgress = now;
        return true;
    }

private:
    std::shared_ptr<detail::TaskState> m_state;
};

/// A handle on a background task (cheap to copy; default-constructed: no task).
class BackgroundTask {
public:
    BackgroundTask() = default;
    BackgroundTask(std::shared_ptr<detail::TaskState> state, QFuture<void> future)
        : m_state(std::move(state)), m_future(std::move(future)) {}

    /// The work has not returned yet (queued or running).
    bool isRunning() const { return m_state && !m_state->returned.load(); }
    /// Asks the work to stop (its cancel token); its completion still arrives, with whatever
    /// the work reports for a cancelled task.
    void cancel() const {
        if (m_state) m_state->cancel.cancel();
    }
    /// Blocks until the work has returned. Only for shutting down, after cancel(), and never
    /// for a task of a SerialQueue (wait for the queue instead).
    void waitForFinished() {
        if (isRunning()) m_future.waitForFinished();
    }

private:
    std::shared_ptr<detail::TaskState> m_state;
    QFuture<void> m_future;
};

/// The pool every background task runs on unless it belongs to a SerialQueue.
QThreadPool* backgroundPool();

namespace detail {

template <typename Work>
using WorkResult = typename std::conditional_t<std::is_invocable_v<Work&, TaskContext&>,
                                               std::invoke_result<Work&, TaskContext&>,
                                               std::invoke_result<Work&>>::type;

template <typename Work>
WorkResult<Work> callWork(Work& work, TaskContext& context) {
    if constexpr (std::is_invocable_v<Work&, TaskContext&>) {
        return work(context);
    } else {
        return work();
    }
}

/// Delivers a task's completion on the receiver's thread. It is the receiver's child, so it
/// goes with the receiver; while it lives, the task may post to the receiver.
template <typename Result>
class TaskWatcher final : public QFutureWatcher<Result> {
public:
    TaskWatcher(std::shared_ptr<TaskState> state, QObject* receiver)
        : QFutureWatcher<Result>(receiver), m_state(std::move(state)) {
        std::lock_guard<std::mutex> lock(m_state->mutex);
        m_state->receiver = receiver;
    }
    ~TaskWatcher() override {
        std::lock_guard<std::mutex> lock(m_state->mutex);
        m_state->receiver = nullptr;
    }

private:
    std::shared_ptr<TaskState> m_state;
};

}  // namespace detail

/// Runs `work` on `pool` and then `done` with its result on `receiver`'s thread (the GUI
/// thread), unless `receiver` was destroyed meanwhile. `work` is called as work(TaskContext&)
/// when it takes one, else as work(); it must not throw (it reports failures in its result)
/// and must not touch `receiver` except through TaskContext::post. `done` takes the result
/// (nothing for void work).
template <typename Work, typename Done>
BackgroundTask runInBackground(QObject* receiver, Work&& work, Done&& done,
                               QThreadPool* pool = backgroundPool()) {
    using Result = detail::WorkResult<std::decay_t<Work>>;
    auto state = std::make_shared<detail::TaskState>();
    auto* watcher = new detail::TaskWatcher<Result>(state, receiver);
    QObject::connect(watcher, &QFutureWatcherBase::finished, receiver,
                     [watcher, done = std::forward<Done>(done)]() mutable {
                         watcher->deleteLater();
                         if constexpr (std::is_void_v<Result>) {
                             done();
                         } else {
                             done(watcher->future().takeResult());
                         }
                     });
    QFuture<Result> future =
        QtConcurrent::run(pool, [state, work = std::forward<Work>(work)]() mutable {
            // Marks the return however the work returns (with a value or not).
            struct MarkReturned {
                detail::TaskState& state;
                ~MarkReturned() { state.returned.store(true); }
            } mark{*state};
            TaskContext context(state);
            return detail::callWork(work, context);
        });
    watcher->setFuture(future);
    return BackgroundTask(std::move(state), QFuture<void>(future));
}

/// Background tasks that must not overlap — training runs, data-set loads — run one after
/// another, in the order given, on one long-lived thread of their own.
class SerialQueue {
public:
    explicit SerialQueue(const QString& name);
    /// Waits for the queued tasks: make them return early first (cancel them).
    ~SerialQueue();
    SerialQueue(const SerialQueue&) = delete;
    SerialQueue& operator=(const SerialQueue&) = delete;

    /// As runInBackground, after the tasks given before.
    template <typename Work, typename Done>
    BackgroundTask run(QObject* receiver, Work&& work, Done&& done) {
        return runInBackground(receiver, std::forward<Work>(work), std::forward<Done>(done),
                               &m_pool);
    }
    /// Blocks until every queued task has returned (shutting down, after cancelling them).
    void waitForDone();

private:
    QThreadPool m_pool;
};

}  // namespace pfa::ui
