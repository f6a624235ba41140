#pragma once

#include <functional>

#include "core/config/cancel_token.h"

namespace pfa::audit {

/// Runs job(0), …, job(jobs − 1) on `threads` threads (the caller's among them), each job once,
/// until all are done, `cancel` fires or a job throws; then rethrows the first exception.
void runAuditJobs(long jobs, unsigned threads, const CancelToken& cancel,
                  const std::function<void(long job)>& job);

}  // namespace pfa::audit
