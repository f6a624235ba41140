#include "core/sweep/grid_runner.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>

#include "core/algorithms/registry.h"
#include "core/util/error.h"

namespace pfa {

std::vector<TrainConfig> GridSpec::configurations() const {
    std::vector<TrainConfig> list;
    for (double epsilon : epsilons) {
        for (double lambda : lambdas) {
            for (std::uint64_t seed : seeds) {
                TrainConfig config = base;
                config.epsilon = epsilon;
                config.lambda = lambda;
                config.seed = seed;
                list.push_back(config);
            }
        }
    }
    return list;
}

namespace {

/// Appends lines to a file and pushes each to stable storage before returning.
class DurableAppender {
public:
    explicit DurableAppender(const std::string& path) {
        if (path.empty()) return;
        m_file = std::fopen(path.c_str(), "a");
        if (!m_file) {
            throw InputError("cannot open output file '" + path + "' for appending: " +
                             std::strerror(errno));
        }
    }
    ~DurableAppender() {
        if (m_file) std::fclose(m_file);
    }
    DurableAppender(const DurableAppender&) = delete;
    DurableAppender& operator=(const DurableAppender&) = delete;

    void append(const std::string& line) {
        if (!m_file) return;
        std::fputs(line.c_str(), m_file);
        std::fputc('\n', m_file);
        std::fflush(m_file);
        ::fsync(::fileno(m_file));  // survive a power cut, not just a crash
    }

private:
    std::FILE* m_file = nullptr;
};

}  // namespace

void validateGrid(const GridSpec& grid, const DataSplit& data) {
    for (const TrainConfig& config : grid.configurations()) {
        findAlgorithm(config.algorithm).validate(config, data);
    }
}

std::vector<RunResult> runGrid(const GridSpec& grid, const DataSplit& data,
                               const GridOptions& options, const CancelToken& cancel) {
    validateGrid(grid, data);
    const std::vector<TrainConfig> configs = grid.configurations();
    DurableAppender output(options.outputPath);
    std::mutex outputMutex;

    std::vector<std::optional<RunResult>> results(configs.size());
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        TrainingObserver quiet;
        for (;;) {
            const std::size_t index = next.fetch_add(1);
            if (index >= configs.size() || cancel.cancelled()) return;
            RunResult result;
            try {
                result = runAlgorithm(configs[index], data, quiet, cancel);
            } catch (const std::exception& error) {
                // A failing run must not take the whole grid down: record why it failed.
                RunResult failed;
                failed.config = configs[index];
                failed.dataset = data.train.name;
                failed.status = RunStatus::Failed;
                failed.message = error.what();
                failed.test.error = failed.trainLoss = std::numeric_limits<double>::quiet_NaN();
                result = std::move(failed);
            }
            // A run cut short by cancellation is not a finished run: do not record it.
            if (result.status == RunStatus::Cancelled && cancel.cancelled()) return;
            {
                std::lock_guard<std::mutex> lock(outputMutex);
                output.append(runRecordJson(result, options.context));
                if (options.onRunFinished) options.onRunFinished(index, result);
            }
            results[index] = std::move(result);
        }
    };

    unsigned threads = options.threads > 0 ? static_cast<unsigned>(options.threads)
                                           : std::max(1u, std::thread::hardware_concurrency());
    threads = std::min<unsigned>(threads, static_cast<unsigned>(std::max<std::size_t>(1, configs.size())));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
    for (std::thread& thread : pool) thread.join();

    std::vector<RunResult> finished;
    for (auto& result : results) {
        if (result) finished.push_back(std::move(*result));
    }
    return finished;
}

}  // namespace pfa
