#include "core/audit/audit_jobs.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "core/algorithms/registry.h"
#include "core/audit/broken_dp_sgd.h"
#include "core/util/cpu_count.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "core/util/random.h"

namespace pfa::audit {

void runAuditJobs(long jobs, unsigned threads, const CancelToken& cancel,
                  const std::function<void(long job)>& job) {
    std::atomic<long> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr failure;
    std::mutex failureMutex;
    auto worker = [&]() {
        while (!cancel.cancelled() && !failed.load()) {
            const long index = next.fetch_add(1);
            if (index >= jobs) return;
            try {
                job(index);
            } catch (...) {
                std::lock_guard<std::mutex> lock(failureMutex);
                if (!failure) failure = std::current_exception();
                failed.store(true);
                return;
            }
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads && static_cast<long>(t) < jobs; ++t) pool.emplace_back(worker);
    worker();
    for (std::thread& thread : pool) thread.join();
    if (failure) std::rethrow_exception(failure);
}

AuditResult startAuditResult(const AuditOptions& options, const Algorithm& algorithm,
                             const Dataset& train) {
    AuditResult result;
    result.method = options.method;
    result.algorithm = algorithm.name();
    result.broken = options.brokenNoiseDivisor > 1.0;
    result.mechanism = result.broken ? algorithm.name() + ", DELIBERATELY BROKEN: noise ÷ " +
                                           formatNumber(options.brokenNoiseDivisor) +
                                           " (claims the target ε; for demonstration)"
                                     : algorithm.name();
    result.confidence = options.confidence;
    result.trainingRows = static_cast<long>(train.rows());
    result.config = options.config;
    result.seed = options.seed;
    return result;
}

TrainConfig auditRunConfig(const Algorithm& algorithm, const AuditOptions& options, double epsilon,
                           const DataSplit& largest) {
    TrainConfig base = options.config;
    base.epsilon = epsilon;
    base.recordDiagnostics = false;
    TrainConfig resolved = prepareRun(algorithm, base, largest).config();
    if (resolved.epochs > 0) resolved.evaluateEvery = resolved.epochs;
    return resolved;
}

unsigned auditThreads(const AuditOptions& options) {
    return options.threads > 0 ? static_cast<unsigned>(options.threads)
                               : static_cast<unsigned>(availableCpus());
}

AuditPoint startAuditPoint(double epsilon, std::chrono::steady_clock::time_point start,
                           long models) {
    AuditPoint point;
    point.targetEpsilon = epsilon;
    point.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    point.modelsTrained = models;
    return point;
}

void foldClaims(AuditPoint& point, double claimed, double actual) {
    point.claimedEpsilon = std::max(point.claimedEpsilon, claimed);
    if (!std::isnan(actual)) {
        point.actualEpsilon =
            std::isnan(point.actualEpsilon) ? actual : std::max(point.actualEpsilon, actual);
    }
}

void AuditProgressCounter::finished() {
    const long done = m_done.fetch_add(1) + 1;
    if (!m_progress) return;
    const std::lock_guard<std::mutex> guard(m_lock);
    m_progress(done, m_total);
}

AuditRun trainAuditRun(const AuditOptions& options, const TrainConfig& config,
                       const DataSplit& data, TrainingObserver& observer, bool withCanary,
                       const CancelToken& cancel, std::mutex& lock) {
    AuditRun run;
    if (options.brokenNoiseDivisor > 1.0) {
        BrokenRun broken =
            runBrokenDpSgd(config, data, options.brokenNoiseDivisor, cancel, &observer);
        run.result = std::move(broken.result);
        run.claimedEpsilon = broken.claimedEpsilon;
        run.actualEpsilon = broken.actualEpsilon;
    } else {
        run.result = runAlgorithm(config, data, observer, cancel);
        run.claimedEpsilon = run.result.privacy.epsilonSpent;
    }
    if (options.onModelTrained) {
        if (run.result.runUid.empty()) run.result.runUid = newRunUid();
        const std::lock_guard<std::mutex> guard(lock);
        options.onModelTrained(run.result, withCanary);
    }
    run.cancelled = run.result.status == RunStatus::Cancelled || cancel.cancelled();
    if (!run.cancelled && run.result.status != RunStatus::Completed) {
        throw InputError("a run of the audit did not train (" + run.result.message +
                         "); choose a smaller step size or fewer epochs");
    }
    return run;
}

}  // namespace pfa::audit
