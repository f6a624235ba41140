// pfa-cli bench: one DP-FERMI epoch against a plain two-pass reference on the same matrix.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "core/algorithms/registry.h"
#include "core/data/builtin_datasets.h"
#include "core/data/preprocessing.h"
#include "core/generators/dataset_loading.h"
#include "core/sweep/prepared_dataset.h"
#include "core/sweep/sweep_preset.h"
#include "core/sweep/sweep_runner.h"
#include "core/util/cpu_count.h"

namespace pfa::cli {

namespace {

using Clock = std::chrono::steady_clock;

const char* const kBenchHelp =
    "usage: pfa-cli bench [--data-dir DIR] [--epochs N] [--repeats R]\n"
    "                     [--preset NAME [--preset-seeds N] [--preset-epochs N] [--threads N]]\n"
    "                     [--memory ROWSxFEATURES]\n"
    "\n"
    "Times one DP-FERMI epoch (conservative calibration, eps = 1, lambda = 1, batch 1024,\n"
    "Poisson sampling, including the end-of-epoch evaluation) on Adult-sized data and a plain\n"
    "two-pass reference over the same matrix (z = X·theta, r = sigmoid(z) - y, g = X^T r) in\n"
    "the same process. Prints both medians and their ratio, ending with 'ratio: R'.\n"
    "\n"
    "  --data-dir DIR   folder with adult.data and adult.test (default: synthetic data of\n"
    "                   Adult's size, 45,222 rows x 102 features)\n"
    "  --epochs N       DP-FERMI epochs to time (default 8; the first is warm-up)\n"
    "  --repeats R      reference repetitions (default 50)\n"
    "  --preset NAME    first, time the whole sweep of a preset (e.g. adult-dp) on all cores,\n"
    "                   results to a temporary file; prints its wall time, the line\n"
    "                   'preset_seconds: S', 'preset_cpu_seconds: C' (processor time of all\n"
    "                   threads, steadier than wall time) and, machine-independently,\n"
    "                   'preset_ratio: P':\n"
    "                   wall time x threads / (the runs' epochs summed x the two-pass\n"
    "                   reference on the preset's training rows), or n/a for algorithms that\n"
    "                   count rounds (data from --data-dir, else the data folder)\n"
    "  --preset-seeds N only the preset's first N seeds (a shorter, labelled measurement)\n"
    "  --preset-epochs N  override the preset's epochs (likewise labelled)\n"
    "  --threads N      parallel runs for --preset (default 0 = all cores)\n"
    "  --evaluation-share  with --preset: run the sweep again evaluating each run only at\n"
    "                   its end and print 'evaluation_share: S', the share of the preset's\n"
    "                   time its evaluations during training take (1 - again / first), and\n"
    "                   'evaluation_cpu_share: S' the same from processor time (steadier)\n"
    "  --memory RxD     first, the peak memory of preparing and training on synthetic data\n"
    "                   of R rows x D numeric features (one epoch of DP-FERMI, in a child\n"
    "                   process, nothing written): prints 'peak_memory_ratio: M', the peak\n"
    "                   resident memory / the raw feature matrix (R x D doubles)\n"
    "  --help           this text\n";

/// User and system processor time of this process so far, all threads together.
double processCpuSeconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const auto seconds = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
    };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

/// Records when each step and each epoch ended.
class TimingObserver : public TrainingObserver {
public:
    bool onStep(const StepInfo& step) override {
        m_lastStep[step.epoch] = Clock::now();
        if (!m_firstStep) m_firstStep = m_lastStep[step.epoch];
        return false;
    }
    bool onEpochEnd(const EpochMetrics& metrics) override {
        m_epochEnd.push_back(Clock::now());
        m_epochs.push_back(metrics.epoch);
        return false;
    }
    std::vector<Clock::time_point> m_epochEnd;
    std::vector<int> m_epochs;
    std::map<int, Clock::time_point> m_lastStep;
    std::optional<Clock::time_point> m_firstStep;
};

/// The median time of the plain two-pass reference over `train`'s rows with a bias column
/// (z = X·θ, r = σ(z) − y, g = Xᵀr), over `repeats` repetitions; `checksum` keeps the work.
double twoPassReferenceSeconds(const Dataset& train, long repeats, double& checksum) {
    const Eigen::Index n = train.rows();
    const RowMatrix& X = train.X.withBias();
    Eigen::VectorXd theta = Eigen::VectorXd::Constant(X.cols(), 0.01);
    Eigen::VectorXd z(n), gradient(X.cols());
    const Eigen::VectorXd y = train.y.cast<double>();
    std::vector<double> seconds;
    for (long r = 0; r < repeats; ++r) {
        const auto t0 = Clock::now();
        z.noalias() = X * theta;
        z = (1.0 / (1.0 + (-z.array()).exp())).matrix() - y;
        gradient.noalias() = X.transpose() * z;
        seconds.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
        checksum += gradient(0);
        theta -= 1e-6 * gradient;
    }
    return median(seconds);
}

/// Prepares synthetic data of `rows` × `features` as a sweep does (load, split, encode) and
/// trains one DP-FERMI epoch on it in a child process; prints the child's peak resident memory
/// against the raw feature matrix. Run before anything else, so that the child starts small.
void measurePeakMemory(long rows, long features) {
    std::fflush(stdout);
    const pid_t child = fork();
    if (child < 0) throw std::runtime_error("bench --memory: fork failed");
    if (child == 0) {
        int status = 0;
        try {
            DatasetRequest request;
            request.knobs<SyntheticOptions>().rows = static_cast<int>(rows);
            request.knobs<SyntheticOptions>().features = static_cast<int>(features);
            const PreparedDatasetPtr prepared = prepareDataset(request);
            TrainConfig config;
            config.algorithm = kDefaultAlgorithm;
            config.epochs = 1;
            TimingObserver observer;
            CancelToken cancel;
            const RunResult result = runAlgorithm(config, prepared->split, observer, cancel);
            status = result.status == RunStatus::Completed ? 0 : 3;
        } catch (const std::exception& error) {
            std::fprintf(stderr, "pfa-cli bench --memory: %s\n", error.what());
            status = 4;
        }
        std::fflush(stderr);
        _exit(status);
    }
    int status = 0;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error("bench --memory: the measured run failed");
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    const double peakBytes = static_cast<double>(usage.ru_maxrss) * 1024.0;
    const double rawBytes = static_cast<double>(rows) * static_cast<double>(features) * 8.0;
    std::printf(
        "memory: %ld rows x %ld features (raw feature matrix %.0f MB), prepared and "
        "trained for one epoch: peak %.0f MB resident\n",
        rows, features, rawBytes / 1e6, peakBytes / 1e6);
    std::printf("peak_memory_ratio: %.2f\n", peakBytes / rawBytes);
    std::fflush(stdout);
}

/// Runs the whole sweep of `presetName` and prints its wall time and its machine-independent
/// ratio; results go to a temporary file that is removed afterwards.
void timePreset(const Arguments& args, const std::string& presetName, long repeats) {
    const SweepPreset& preset = findSweepPreset(presetName);
    SweepSpec spec = preset.spec;
    std::string reduced;
    if (args.has("preset-seeds")) {
        const long seeds = args.integer("preset-seeds", 0);
        if (seeds < 1 || seeds > static_cast<long>(spec.seeds.size())) {
            throw UsageError("--preset-seeds must be between 1 and " +
                             std::to_string(spec.seeds.size()));
        }
        spec.seeds.resize(static_cast<std::size_t>(seeds));
        reduced += ", reduced to " + std::to_string(seeds) + " seed(s)";
    }
    if (args.has("preset-epochs")) {
        const long epochs = args.integer("preset-epochs", 0);
        if (epochs < 1 || epochs > 100000)
            throw UsageError("--preset-epochs must be between 1 and 100000");
        spec.base.epochs = static_cast<int>(epochs);
        reduced += ", reduced to " + std::to_string(epochs) + " epoch(s)";
    }
    const long threads = args.integer("threads", 0);
    if (threads < 0 || threads > 1024) throw UsageError("--threads must be between 0 and 1024");
    DatasetRequest request = preset.dataset;
    request.dataDirectory = args.text("data-dir", request.dataDirectory);

    const auto loadStart = Clock::now();
    const PreparedDatasetPtr prepared = prepareDataset(request);
    const double loadSeconds = std::chrono::duration<double>(Clock::now() - loadStart).count();
    spec.datasets = {prepared->key};
    const DatasetProvider provider = [&](const std::string&) { return prepared; };

    namespace fs = std::filesystem;
    const fs::path output = fs::temp_directory_path() / ("pfa-bench-" + presetName + "-" +
                                                         std::to_string(::getpid()) + ".jsonl");
    fs::remove(output);
    SweepOptions options;
    options.threads = static_cast<int>(threads);
    options.outputPath = output.string();
    options.resume = false;
    CancelToken never;
    const auto sweep = [&](const SweepSpec& sweepSpec) {
        SweepOutcome done;
        try {
            done = runSweep(sweepSpec, provider, options, never);
        } catch (...) {
            fs::remove(output);
            throw;
        }
        fs::remove(output);
        return done;
    };
    const double cpuBefore = processCpuSeconds();
    const SweepOutcome outcome = sweep(spec);
    const double cpuSeconds = processCpuSeconds() - cpuBefore;
    const int usedThreads = threads > 0 ? static_cast<int>(threads) : availableCpus();
    // What the hardware allows, in units of its own speed: one two-pass reference per run-epoch
    // on each thread gives 1. Each run's own epochs (a preset may give algorithms different
    // ones); runs of algorithms that count rounds rather than epochs over the training rows have
    // no such measure.
    double runEpochs = 0.0;
    std::set<std::string> roundBased;
    for (const SweepRun& run : outcome.runs) {
        if (readsParameter(findAlgorithm(run.config.algorithm), "epochs"))
            runEpochs += static_cast<double>(run.config.epochs);
        else
            roundBased.insert(run.config.algorithm);
    }
    // The base epochs and batch say what the runs do only when every run counts epochs.
    const std::string shape = roundBased.empty()
                                  ? " x " + std::to_string(spec.base.epochs) + " epochs, batch " +
                                        std::to_string(spec.base.batchSize)
                                  : "";
    std::printf(
        "preset %s (%zu runs: %zu eps x %zu lambda x %zu seeds%s%s): wall time %.2f s on %d "
        "thread(s), %zu failed (data loading %.1f s, not included)\n",
        presetName.c_str(), outcome.progress.total, spec.epsilons.size(), spec.lambdas.size(),
        spec.seeds.size(), shape.c_str(), reduced.c_str(), outcome.progress.elapsedSeconds,
        usedThreads, outcome.progress.failed, loadSeconds);
    std::printf("preset_seconds: %.2f\n", outcome.progress.elapsedSeconds);
    // Processor time of every thread: steadier than wall time on a busy or virtual machine
    // (a few per cent between measurements where wall time moves by 10-20 %).
    std::printf("preset_cpu_seconds: %.2f\n", cpuSeconds);
    if (args.has("evaluation-share")) {
        // The same sweep evaluating each run once, at its end: the difference is what the
        // evaluations during training cost.
        bool evaluates = false;
        for (const SweepRun& run : outcome.runs)
            evaluates |= readsParameter(findAlgorithm(run.config.algorithm), "evaluate-every");
        if (!evaluates) {
            std::printf(
                "evaluation_share: n/a (no algorithm of the preset reads evaluate-every)\n");
        } else {
            SweepSpec finalOnly = spec;
            finalOnly.base.evaluateEvery = 1000000000;
            const double quietCpuBefore = processCpuSeconds();
            const SweepOutcome quiet = sweep(finalOnly);
            const double quietCpu = processCpuSeconds() - quietCpuBefore;
            const double share =
                1.0 - quiet.progress.elapsedSeconds / outcome.progress.elapsedSeconds;
            std::printf(
                "preset evaluating each run only at its end: wall time %.1f s, processor time "
                "%.1f s (as declared, evaluate-every %d: %.1f s and %.1f s)\n",
                quiet.progress.elapsedSeconds, quietCpu, spec.base.evaluateEvery,
                outcome.progress.elapsedSeconds, cpuSeconds);
            std::printf("evaluation_share: %.3f\n", std::max(0.0, share));
            // The same from processor time: steadier on a busy machine (see above).
            std::printf("evaluation_cpu_share: %.3f\n",
                        std::max(0.0, 1.0 - quietCpu / std::max(cpuSeconds, 1e-9)));
        }
    }
    if (!roundBased.empty()) {
        std::string names;
        for (const std::string& name : roundBased) names += (names.empty() ? "" : ", ") + name;
        std::printf(
            "preset_ratio: n/a (%s count%s work in rounds, not epochs over the training "
            "rows: compare preset_seconds or preset_cpu_seconds on one machine)\n",
            names.c_str(), roundBased.size() == 1 ? "s its" : " their");
        std::fflush(stdout);
        return;
    }
    double checksum = 0;
    const double reference = twoPassReferenceSeconds(prepared->split.train, repeats, checksum);
    std::printf(
        "preset per run-epoch: %.1f s x %d thread(s) / (%.0f run-epochs x reference %.3f ms on "
        "its %ld training rows; checksum %.3g)\n",
        outcome.progress.elapsedSeconds, usedThreads, runEpochs, 1e3 * reference,
        static_cast<long>(prepared->split.train.rows()), checksum);
    std::printf("preset_ratio: %.3f\n",
                outcome.progress.elapsedSeconds * usedThreads / (runEpochs * reference));
    std::fflush(stdout);
}

}  // namespace

int benchCommand(int argc, char** argv) {
    const Arguments args(argc, argv, 2,
                         {"data-dir", "epochs", "repeats", "preset", "preset-seeds",
                          "preset-epochs", "threads", "memory"},
                         {"help", "evaluation-share"});
    if (args.has("help")) {
        std::fputs(kBenchHelp, stdout);
        return 0;
    }
    const long epochs = args.integer("epochs", 8);
    const long repeats = args.integer("repeats", 50);
    if (epochs < 3 || epochs > 1000) throw UsageError("--epochs must be between 3 and 1000");
    if (repeats < 3 || repeats > 100000) throw UsageError("--repeats must be between 3 and 100000");
    for (const char* presetOnly :
         {"preset-seeds", "preset-epochs", "threads", "evaluation-share"}) {
        if (args.has(presetOnly) && !args.has("preset")) {
            throw UsageError(std::string("--") + presetOnly + " only goes with --preset");
        }
    }
    if (args.has("memory")) {
        // Before anything else: the child process starts as small as this one is now.
        const std::string size = args.text("memory");
        long rows = 0, features = 0;
        char rest = 0;
        if (std::sscanf(size.c_str(), "%ldx%ld%c", &rows, &features, &rest) != 2 || rows < 100 ||
            rows > 2000000000L || features < 1 || features > 100000) {
            throw UsageError(
                "--memory takes ROWSxFEATURES, e.g. 4000000x50 (at least 100 rows, "
                "1 to 100000 features), not '" +
                size + "'");
        }
        measurePeakMemory(rows, features);
    }
    // The preset first, so that the last line stays 'ratio: R'.
    if (args.has("preset")) timePreset(args, args.text("preset"), repeats);

    DatasetRequest request;
    if (args.has("data-dir")) {
        request.name = "adult";
        request.dataDirectory = args.text("data-dir");
    } else {
        request.knobs<SyntheticOptions>().rows = 45222;
        request.knobs<SyntheticOptions>().features = 102;
    }
    const DataSplit data = splitAndEncode(loadBuiltinDataset(request));
    const Eigen::Index n = data.train.rows();
    std::printf("data: %s — %ld training rows x %ld columns (bias included)\n",
                describeDatasetRequest(request).c_str(), static_cast<long>(n),
                static_cast<long>(data.train.features() + 1));

    // DP-FERMI epochs.
    TrainConfig config;
    config.algorithm = kDefaultAlgorithm;
    config.epsilon = 1.0;
    config.lambda = 1.0;
    config.epochs = static_cast<int>(epochs);
    config.batchSize = 1024;
    TimingObserver timing;
    CancelToken cancel;
    const auto started = Clock::now();
    const RunResult result = runAlgorithm(config, data, timing, cancel);
    std::vector<double> epochSeconds, stepSeconds;
    for (std::size_t e = 1; e < timing.m_epochEnd.size(); ++e) {
        epochSeconds.push_back(
            std::chrono::duration<double>(timing.m_epochEnd[e] - timing.m_epochEnd[e - 1]).count());
        stepSeconds.push_back(std::chrono::duration<double>(timing.m_lastStep[timing.m_epochs[e]] -
                                                            timing.m_epochEnd[e - 1])
                                  .count());
    }
    // Until the first step ended (one step of the first epoch included): the first epoch less
    // the median one came out negative when the machine was busy during the later epochs.
    const double setup = timing.m_firstStep
                             ? std::chrono::duration<double>(*timing.m_firstStep - started).count()
                             : 0.0;

    // Two-pass reference over the same (bias-augmented) matrix.
    double checksum = 0;
    const double reference = twoPassReferenceSeconds(data.train, repeats, checksum);

    const double epoch = median(epochSeconds);
    const double steps = median(stepSeconds);
    std::printf(
        "dp-fermi epoch (conservative, eps=1, lambda=1, batch %d, %ld steps/epoch, "
        "status %s): median %.3f ms over %zu epochs (steps %.3f ms, end-of-epoch "
        "evaluation %.3f ms; one-time setup incl. noise calibration and the first step "
        "%.1f ms)\n",
        config.batchSize, static_cast<long>((n + config.batchSize - 1) / config.batchSize),
        runStatusName(result.status).c_str(), 1e3 * epoch, epochSeconds.size(), 1e3 * steps,
        1e3 * (epoch - steps), 1e3 * setup);
    std::printf(
        "two-pass reference (X*theta, then X^T r): median %.3f ms over %ld repetitions "
        "(checksum %.3g)\n",
        1e3 * reference, repeats, checksum);
    std::printf("ratio: %.3f\n", epoch / reference);
    return 0;
}

}  // namespace pfa::cli
