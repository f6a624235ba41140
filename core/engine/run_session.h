#pragma once

// The bookkeeping every training loop shares, so that a loop keeps only its step: the result
// being built, the wall clock, cancellation, the observer, divergence, the evaluated history and
// the ε so far from the run's own accountant. A loop drives it like this:
//
//     RunSession session(observer, cancel, "rounds");
//     for (long t = 0; t < T; ++t) {
//         if (session.cancelled(t)) break;
//         ... the family's step ...
//         if (!finite) { session.diverge("..."); break; }
//         bool stop = session.stepped(info);
//         if (RunSession::evaluationDue(t + 1, T, config.evaluateEvery))
//             stop = session.evaluated(metrics) || stop;
//         if (session.stopRequested(stop, t + 1, T)) break;
//     }
//     ... the released model and its final metrics into session.result() ...
//     return session.finish();
#include <algorithm>
#include <chrono>
#include <functional>
#include <string>

#include "core/config/cancel_token.h"
#include "core/config/run_result.h"

namespace pfa {

/// One run's shared bookkeeping (see above). Not copyable; lives for one run on its thread.
class RunSession {
public:
    /// `stepName` names the loop's steps in messages ("steps", "rounds"). The clock starts here.
    RunSession(TrainingObserver& observer, const CancelToken& cancel,
               std::string stepName = "steps");
    RunSession(const RunSession&) = delete;
    RunSession& operator=(const RunSession&) = delete;

    /// The result being built: the loop fills its model, metrics and report.
    RunResult& result() { return m_result; }
    const RunResult& result() const { return m_result; }

    /// Wall time since the session started, in seconds.
    double seconds() const;

    /// The ε spent after a number of steps, from the accountant of the mechanisms the loop runs;
    /// stamped on every evaluated epoch. Unset: +∞ (not private).
    void setEpsilonSoFar(std::function<double(long steps)> epsilonAfter) {
        m_epsilonAfter = std::move(epsilonAfter);
    }

    /// Before a step, with `done` steps taken: whether cancellation was requested. Marks the
    /// result cancelled ("cancelled after `done` steps") when it was.
    bool cancelled(long done);

    /// After a step: records `info.step` as the steps taken and shows the step to the observer.
    /// True when the observer asks to stop (see stopRequested).
    bool stepped(const StepInfo& info);

    /// Whether the model is evaluated after step `done` of `total` in a loop that counts steps or
    /// rounds: every `evaluateEvery` steps (the run's evaluate-every setting), but no more than
    /// about `points` times a run (every ⌊total/points⌋ steps when that is more), and always
    /// after the last. evaluate-every 1 is the loop's own schedule.
    static bool evaluationDue(long done, long total, long evaluateEvery, long points = 50) {
        return dueEvery(done, total, std::max(evaluateEvery, total / points));
    }
    /// Whether step `done` of `total` is a multiple of `every` (at least 1) or the last.
    static bool dueEvery(long done, long total, long every) {
        return done % std::max(every, 1L) == 0 || done == total;
    }

    /// An evaluated model's metrics: stamped with the ε so far (at `metrics.step`) and the
    /// wall time, kept in the history and shown to the observer. True when the observer asks
    /// to stop.
    bool evaluated(EpochMetrics metrics);

    /// Whether the loop stops after step `done` of `total` because the observer asked
    /// (`stop`). The last step completes the run whatever the observer says; an earlier stop
    /// marks the result cancelled ("stopped after `done` steps").
    bool stopRequested(bool stop, long done, long total);

    /// Marks the run diverged; `message` says where and which setting helps.
    void diverge(std::string message);

    bool diverged() const { return m_result.status == RunStatus::Diverged; }

    /// The finished result, with the run's wall time. Call once, last.
    RunResult finish();

private:
    TrainingObserver& m_observer;
    const CancelToken& m_cancel;
    std::string m_stepName;
    std::chrono::steady_clock::time_point m_start;
    std::function<double(long)> m_epsilonAfter;
    RunResult m_result;
};

}  // namespace pfa
