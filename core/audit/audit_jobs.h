#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <limits>
#include <mutex>

#include "core/audit/privacy_audit.h"
#include "core/config/algorithm.h"
#include "core/config/cancel_token.h"

namespace pfa::audit {

/// Runs job(0), …, job(jobs − 1) on `threads` threads (the caller's among them), each job once,
/// until all are done, `cancel` fires or a job throws; then rethrows the first exception.
void runAuditJobs(long jobs, unsigned threads, const CancelToken& cancel,
                  const std::function<void(long job)>& job);

/// One run an audit trains and what it claims.
struct AuditRun {
    RunResult result;
    double claimedEpsilon = 0.0;  ///< the accountant's ε (broken: the ε it pretends)
    /// Broken mechanism only: the accountant's ε for the noise actually added.
    double actualEpsilon = std::numeric_limits<double>::quiet_NaN();
    bool cancelled = false;  ///< stopped by `cancel`: no score
};

/// Trains one run of an audit: options.config's algorithm as registered, or the deliberately
/// broken DP-SGD when options.brokenNoiseDivisor > 1, with `config` (its seed set) on `data`
/// and `observer` (the white-box audit's hook, or a quiet one). The run goes to
/// options.onModelTrained (under `lock`; `withCanary`: a canary record was in its rows)
/// however it ended. Throws InputError when it did not complete (diverged).
AuditRun trainAuditRun(const AuditOptions& options, const TrainConfig& config,
                       const DataSplit& data, TrainingObserver& observer, bool withCanary,
                       const CancelToken& cancel, std::mutex& lock);

/// What every design's result starts with: the method, the algorithm and its mechanism (named
/// as deliberately broken when it is), the confidence, the training rows, the audited settings
/// and the audit's seed.
AuditResult startAuditResult(const AuditOptions& options, const Algorithm& algorithm,
                             const Dataset& train);

/// The settings every run of an audit at target `epsilon` trains with: options.config at that
/// ε with its automatic values resolved once, on `largest` (the most rows a run sees), so that
/// all runs share batch size, δ and settings whatever data they get; no diagnostics (not
/// needed, and not covered by the guarantee), evaluated only at the end.
TrainConfig auditRunConfig(const Algorithm& algorithm, const AuditOptions& options, double epsilon,
                           const DataSplit& largest);

/// The audit's training threads: options.threads, or every core when it is 0.
unsigned auditThreads(const AuditOptions& options);

/// The point of target ε `epsilon` whose `models` runs started at `start`: its ε, models and
/// seconds so far (the rest for the caller to fill).
AuditPoint startAuditPoint(double epsilon, std::chrono::steady_clock::time_point start,
                           long models);

/// Adds one run's claims to `point`: the largest ε claimed, and the largest ε of the noise
/// actually added (the broken mechanism's runs; NaN, as the point starts, otherwise).
void foldClaims(AuditPoint& point, double claimed, double actual);

/// Counts the audit's finished runs and reports each to `progress` (serialised by `lock`).
class AuditProgressCounter {
public:
    AuditProgressCounter(const AuditProgress& progress, long total, std::mutex& lock)
        : m_progress(progress), m_total(total), m_lock(lock) {}
    /// One more run finished.
    void finished();

private:
    const AuditProgress& m_progress;
    const long m_total;
    std::mutex& m_lock;
    std::atomic<long> m_done{0};
};

}  // namespace pfa::audit
