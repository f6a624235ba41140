#pragma once

#include <functional>
#include <limits>
#include <mutex>

#include "core/audit/privacy_audit.h"
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

}  // namespace pfa::audit
