#pragma once

#include <cstddef>
#include <deque>
#include <mutex>
#include <utility>

namespace pfa {

/// The most recent results of a costly computation that many runs repeat (the runs of a sweep
/// on one data set), by key, shared between threads. Keeps the last `kept` results.
template <typename Key, typename Value>
class RecentResults {
public:
    explicit RecentResults(std::size_t kept) : m_kept(kept) {}

    /// The result for `key`: the kept one, or `compute()` (called outside the lock), kept.
    template <typename Compute>
    Value get(const Key& key, Compute&& compute) {
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            for (const auto& [known, value] : m_recent)
                if (known == key) return value;
        }
        Value value = compute();
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_recent.emplace_back(key, value);
        if (m_recent.size() > m_kept) m_recent.pop_front();
        return value;
    }

private:
    std::size_t m_kept;
    std::mutex m_mutex;
    std::deque<std::pair<Key, Value>> m_recent;
};

}  // namespace pfa
