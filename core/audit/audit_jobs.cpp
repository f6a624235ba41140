#include "core/audit/audit_jobs.h"

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

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

}  // namespace pfa::audit
