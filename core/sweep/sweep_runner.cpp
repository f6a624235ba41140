#include "core/sweep/sweep_runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "core/algorithms/registry.h"
#include "core/engine/design_matrix.h"
#include "core/engine/run_streams.h"
#include "core/sweep/results_file.h"
#include "core/sweep/run_ledger.h"
#include "core/sweep/sweep_spec.h"
#include "core/util/cpu_count.h"
#include "core/util/error.h"

namespace pfa {

void describeTuning(RunResult& result, const SweepRun& run) {
    privacy::PrivacyReport& report = result.privacy;
    if (!report.isPrivate) return;
    if (run.tuning == Tuning::NotCovered && run.tuningCandidates < 2) return;
    report.tuning = tuningName(run.tuning);
    report.tuningCandidates = run.tuningCandidates;
    report.tuningGridEpsilon = run.gridEpsilon;
    report.statement = privacy::renderPrivacyStatement(report, "", "");
}

std::vector<SweepRun> shardRuns(const std::vector<SweepRun>& runs, int index, int count) {
    if (count < 1 || index < 0 || index >= count) {
        throw InputError("shard " + std::to_string(index) + "/" + std::to_string(count) +
                         " is invalid: use I/N with 0 <= I < N");
    }
    std::vector<SweepRun> shard;
    for (const SweepRun& run : runs) {
        if (run.index % static_cast<std::size_t>(count) == static_cast<std::size_t>(index))
            shard.push_back(run);
    }
    return shard;
}

namespace {

/// Loads each distinct data set once.
std::map<std::string, PreparedDatasetPtr> loadAll(const std::vector<SweepRun>& runs,
                                                  const DatasetProvider& provider) {
    std::map<std::string, PreparedDatasetPtr> data;
    for (const SweepRun& run : runs) {
        if (!data.count(run.dataset)) data[run.dataset] = provider(run.dataset);
    }
    return data;
}

/// A sweep's runs report to nobody step by step.
struct SweepObserver : TrainingObserver {
    bool showsBatchLoss() const override { return false; }
};

/// Runs a group may train together: at most this many (fewer on large data: togetherLimit), so
/// that a group's memory stays small beside the data.
constexpr std::size_t kMaxTogether = 32;
/// What the evaluation buffers of one group may take in all: each run keeps full-pass buffers
/// for its training and test rows, so on large data fewer runs train together.
constexpr double kGroupEvaluationBytes = 2.0 * 1024 * 1024 * 1024;

/// The key under which a run may train together with others (Algorithm::togetherKey, within
/// one family of algorithms and one data set). Empty for a run that trains alone.
std::string togetherKey(const SweepRun& run, const Dataset& train) {
    const TrainConfig& c = run.config;
    const Algorithm& algorithm = findAlgorithm(c.algorithm);
    const std::string own = algorithm.togetherKey(c, train);
    if (own.empty()) return "";
    return "family=" + algorithm.togetherFamily() + ";dataset=" + run.dataset + ";" + own;
}

/// The work items of a sweep: groups of runs trained together (in order of their first run,
/// at most togetherLimit each) and single runs. Groups are halved until every thread has an
/// item: a half draws the same batches as the whole, so results do not change.
std::vector<std::vector<std::size_t>> trainingGroups(
    const std::vector<SweepRun>& runs, unsigned threads,
    const std::map<std::string, PreparedDatasetPtr>& data) {
    std::vector<std::vector<std::size_t>> items;
    std::map<std::string, std::size_t> open;  // key → its item still taking runs
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const DataSplit& split = data.at(runs[i].dataset)->split;
        const std::string key = togetherKey(runs[i], split.train);
        if (key.empty()) {
            items.push_back({i});
            continue;
        }
        const auto found = open.find(key);
        if (found != open.end() &&
            items[found->second].size() <
                togetherLimit(static_cast<long>(split.train.rows() + split.test.rows()),
                              split.train.numClasses())) {
            items[found->second].push_back(i);
            continue;
        }
        open[key] = items.size();
        items.push_back({i});
    }
    while (items.size() < threads) {
        auto largest =
            std::max_element(items.begin(), items.end(),
                             [](const auto& a, const auto& b) { return a.size() < b.size(); });
        if (largest == items.end() || largest->size() < 2) break;
        const auto half = largest->begin() + static_cast<std::ptrdiff_t>(largest->size() / 2);
        std::vector<std::size_t> second(half, largest->end());
        largest->erase(half, largest->end());
        items.push_back(std::move(second));
    }
    // Groups take longest: when their number is not a multiple of the threads, the last ones
    // train while the other threads idle (five groups of one seed each on two threads: three
    // on one thread, two on the other). Halving the largest evens that out at the cost of one
    // more pass over its batches.
    const auto groups = [&items] {
        return static_cast<unsigned>(std::count_if(
            items.begin(), items.end(), [](const auto& item) { return item.size() > 1; }));
    };
    for (unsigned k = 1; k < threads && groups() > 0 && groups() % threads != 0; ++k) {
        auto largest =
            std::max_element(items.begin(), items.end(),
                             [](const auto& a, const auto& b) { return a.size() < b.size(); });
        if (largest->size() < 4) break;  // halves of one run would train alone
        const auto half = largest->begin() + static_cast<std::ptrdiff_t>(largest->size() / 2);
        std::vector<std::size_t> second(half, largest->end());
        largest->erase(half, largest->end());
        items.push_back(std::move(second));
    }
    return items;
}

std::string describe(const SweepRun& run) {
    return run.config.algorithm + " on " + run.dataset + " (epsilon " +
           std::to_string(run.config.epsilon) + ", lambda " + std::to_string(run.config.lambda) +
           ", seed " + std::to_string(run.config.seed) + ")";
}

}  // namespace

std::size_t togetherLimit(long rows, int classes) {
    const double perRun = static_cast<double>(rows) *
                          ((3.0 * std::max(2, classes) + 1.0) * sizeof(double) + sizeof(int));
    const double fits = std::floor(kGroupEvaluationBytes / std::max(perRun, 1.0));
    return static_cast<std::size_t>(std::clamp(fits, 1.0, static_cast<double>(kMaxTogether)));
}

void validateSweep(const std::vector<SweepRun>& runs, const DatasetProvider& provider) {
    const auto data = loadAll(runs, provider);
    for (const SweepRun& run : runs) {
        try {
            const Algorithm& algorithm = findAlgorithm(run.config.algorithm);
            prepareRun(algorithm, run.config, data.at(run.dataset)->split);
        } catch (const InputError& error) {
            throw InputError(std::string(error.what()) + " [" + describe(run) + "]");
        }
    }
}

SweepOutcome runSweep(const SweepSpec& spec, const DatasetProvider& provider,
                      const SweepOptions& options, const CancelToken& cancel) {
    using Clock = std::chrono::steady_clock;
    const auto started = Clock::now();
    std::vector<SweepRun> runs = shardRuns(spec.expand(), options.shardIndex, options.shardCount);

    SweepOutcome outcome;
    outcome.progress.total = runs.size();
    if (options.resume && !options.outputPath.empty()) {
        // One read of the file serves both the skipping and the caller's view of what is done.
        const ResultsFileContent content = readResultsFile(options.outputPath);
        std::map<std::string, const JsonValue*> done;
        for (const JsonValue& record : content.records) {
            if (record.has("run_key")) done.emplace(record.at("run_key").asString(), &record);
        }
        std::vector<SweepRun> toRun;
        for (SweepRun& run : runs) {
            const auto found = done.find(run.key);
            if (found == done.end()) {
                toRun.push_back(std::move(run));
            } else if (options.onAlreadyDone) {
                options.onAlreadyDone(run, *found->second);
            }
        }
        outcome.progress.alreadyDone = runs.size() - toRun.size();
        runs = std::move(toRun);
    }
    const auto data = loadAll(runs, provider);
    validateSweep(runs, [&](const std::string& key) { return data.at(key); });

    ResultsAppender output(options.outputPath);
    std::mutex mutex;  // guards output, progress and the callback
    std::vector<std::optional<RunResult>> results(runs.size());
    unsigned threads = options.threads > 0 ? static_cast<unsigned>(options.threads)
                                           : static_cast<unsigned>(availableCpus());
    threads =
        std::min<unsigned>(threads, static_cast<unsigned>(std::max<std::size_t>(1, runs.size())));
    const std::vector<std::vector<std::size_t>> items = trainingGroups(runs, threads, data);
    std::atomic<std::size_t> next{0};
    // What follows a run however it ended; false when the sweep was cancelled.
    auto complete = [&](std::size_t i, RunResult result) {
        const SweepRun& run = runs[i];
        const PreparedDataset& sweepData = *data.at(run.dataset);
        RunContext context = sweepData.context;
        context.runKey = run.key;
        // It touched the rows however it ended: charged before anything else.
        if (options.onCharge) {
            if (auto entry = ledgerEntryForRun(result, context, runLabel(result.config))) {
                std::lock_guard<std::mutex> lock(mutex);
                try {
                    options.onCharge(context, {*entry});
                } catch (const std::exception& error) {
                    if (outcome.chargeError.empty()) outcome.chargeError = error.what();
                }
            }
        }
        // A run cut short by cancellation is not a finished run: it is not recorded.
        if (result.status == RunStatus::Cancelled && cancel.cancelled()) {
            if (options.onRunCutShort) {
                std::lock_guard<std::mutex> lock(mutex);
                options.onRunCutShort(run, result);
            }
            return false;
        }
        describeTuning(result, run);
        const std::string line = runRecordJson(result, context);
        std::lock_guard<std::mutex> lock(mutex);
        output.append(line);
        SweepProgress& p = outcome.progress;
        ++p.finished;
        if (result.status == RunStatus::Failed || result.status == RunStatus::Diverged) ++p.failed;
        p.elapsedSeconds = std::chrono::duration<double>(Clock::now() - started).count();
        p.etaSeconds = p.elapsedSeconds / static_cast<double>(p.finished) *
                       static_cast<double>(runs.size() - p.finished);
        if (options.onRunFinished) options.onRunFinished(run, result, p);
        results[i] = std::move(result);
        return true;
    };
    // Each data set's fingerprints read once for the sweep, not once per run: its training
    // rows' (what its runs' random streams are keyed by) and its test rows' (with the training
    // rows', the key of references cached across runs, e.g. the excess-risk reference).
    std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> fingerprints;
    for (const auto& [key, prepared] : data)
        fingerprints[key] = {dataFingerprint(prepared->split.train),
                             dataFingerprint(prepared->split.test)};
    // Their designs built once for the sweep, not once per run (the data does not change).
    std::vector<std::unique_ptr<DesignRetention>> keptDesigns;
    for (const auto& [key, prepared] : data) {
        keptDesigns.push_back(std::make_unique<DesignRetention>(prepared->split.train.X));
        keptDesigns.push_back(std::make_unique<DesignRetention>(prepared->split.test.X));
    }
    auto worker = [&] {
        for (;;) {
            const std::size_t item = next.fetch_add(1);
            if (item >= items.size() || cancel.cancelled()) return;
            const std::vector<std::size_t>& members = items[item];
            const PreparedDataset& sweepData = *data.at(runs[members.front()].dataset);
            const auto& [trainFingerprint, testFingerprint] =
                fingerprints.at(runs[members.front()].dataset);
            const KnownDataFingerprint knownTrain(sweepData.split.train, trainFingerprint);
            const KnownDataFingerprint knownTest(sweepData.split.test, testFingerprint);
            std::vector<TrainConfig> configs;
            for (const std::size_t i : members) configs.push_back(runs[i].config);
            std::vector<SweepObserver> quiet(members.size());
            std::vector<TrainingObserver*> observers;
            for (SweepObserver& observer : quiet) observers.push_back(&observer);
            std::vector<RunResult> trained;
            try {
                trained = members.size() == 1
                              ? std::vector<RunResult>{runAlgorithm(
                                    configs.front(), sweepData.split, quiet.front(), cancel)}
                              : runAlgorithmTogether(configs, sweepData.split, observers, cancel);
            } catch (const std::exception& error) {
                // One failing run must not take the sweep down: record why it failed.
                trained.clear();
                for (const TrainConfig& config : configs) {
                    RunResult failed;
                    failed.config = config;
                    failed.dataset = sweepData.split.train.name;
                    failed.status = RunStatus::Failed;
                    failed.message = error.what();
                    failed.test.error = failed.trainLoss = std::numeric_limits<double>::quiet_NaN();
                    trained.push_back(std::move(failed));
                }
            }
            bool going = true;
            for (std::size_t k = 0; k < members.size(); ++k) {
                if (!complete(members[k], std::move(trained[k]))) going = false;
            }
            if (!going) return;
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
    for (std::thread& thread : pool) thread.join();

    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (!results[i]) continue;
        outcome.runs.push_back(runs[i]);
        outcome.results.push_back(std::move(*results[i]));
    }
    outcome.cancelled = cancel.cancelled();
    outcome.progress.elapsedSeconds = std::chrono::duration<double>(Clock::now() - started).count();
    return outcome;
}

}  // namespace pfa
