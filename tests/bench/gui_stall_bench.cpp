// pfa-gui-bench: how long the GUI thread goes without handling events while work runs in the
// background — a measurement, not a test (how fast a machine is decides the figures).
//
// Two scenarios, on the offscreen platform, in the real main window with the built-in synthetic
// data: a 200-epoch DP-FERMI run, and a 3 ε × 3 λ × 3 seeds × 60-epoch sweep on every core.
// A 2 ms precise timer ticks on the GUI thread meanwhile; every gap between two ticks beyond
// the interval is time the GUI thread could not react. Printed per scenario: the longest gap,
// the 99th percentile of the gaps, and how many were over 50 ms (a stall a user notices).
//
//   pfa-gui-bench [--scenario run|sweep|all] [--repeats R] [--load N] [--epochs E] [--quick]
//                 [--batch-sharing own|by-seed]
//
// Each scenario runs R times (default 3) in the same window, and the gaps of all of them are
// pooled. --load N starts N busy threads at normal priority (other programs competing for the
// cores); --quick shortens both scenarios to one short repeat (for the build's smoke test,
// which checks the figures are printed, never their values).
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "../ui/private_home.h"
#include "core/sweep/sweep_preset.h"
#include "core/sweep/sweep_spec.h"
#include "ui/actions/sweep_actions.h"
#include "ui/controllers/sweep_controller.h"
#include "ui/controllers/training_controller.h"
#include "ui/panels/experiment_panel.h"
#include "ui/shell/application.h"
#include "ui/shell/main_window.h"

namespace {

using pfa::ui::MainWindow;

struct Options {
    std::string scenario = "all";
    int load = 0;
    int repeats = 3;
    int epochs = 200;
    bool quick = false;
    bool sharedBatches = false;  // the sweep with batch-sharing by-seed
    std::string preset;          // the sweep of this preset instead (its data set and grid)
};

constexpr const char* kUsage =
    "usage: pfa-gui-bench [--scenario run|sweep|all] [--repeats R] [--load N] [--epochs E] "
    "[--quick] [--batch-sharing own|by-seed] [--preset NAME]\n";

[[noreturn]] void usage(const std::string& problem) {
    std::fprintf(stderr, "pfa-gui-bench: %s\n%s", problem.c_str(), kUsage);
    std::exit(2);
}

int wholeNumber(const char* text, const char* option) {
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (!end || *end != '\0' || value < 0 || value > 100000)
        usage(std::string(option) + " needs a whole number, not '" + text + "'");
    return static_cast<int>(value);
}

Options parse(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto value = [&]() -> const char* {
            if (i + 1 >= argc) usage(arg + " needs a value");
            return argv[++i];
        };
        if (arg == "--scenario") {
            options.scenario = value();
            if (options.scenario != "run" && options.scenario != "sweep" &&
                options.scenario != "all")
                usage("unknown scenario '" + options.scenario + "'");
        } else if (arg == "--repeats") {
            options.repeats = std::max(1, wholeNumber(value(), "--repeats"));
        } else if (arg == "--load") {
            options.load = wholeNumber(value(), "--load");
        } else if (arg == "--epochs") {
            options.epochs = std::max(1, wholeNumber(value(), "--epochs"));
        } else if (arg == "--batch-sharing") {
            options.sharedBatches = std::string(value()) == "by-seed";
        } else if (arg == "--preset") {
            options.preset = value();
        } else if (arg == "--quick") {
            options.quick = true;
        } else if (arg == "--help" || arg == "-h") {
            std::printf("%s", kUsage);
            std::exit(0);
        } else {
            usage("unknown option " + arg);
        }
    }
    if (options.quick) {
        if (options.epochs == 200) options.epochs = 20;
        options.repeats = 1;
    }
    return options;
}

/// Ticks on the GUI thread and keeps every gap between two ticks.
class GapProbe {
public:
    GapProbe() {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(2);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            if (m_last >= 0) m_gapsMs.push_back(static_cast<double>(now - m_last) / 1e6);
            m_last = now;
        });
    }
    void start() {
        m_clock.start();
        m_timer.start();
    }
    void stop() { m_timer.stop(); }

    /// "longest 7.9 ms, 99th percentile 2.3 ms, 0 over 50 ms (1603 gaps)"
    std::string summary() const {
        if (m_gapsMs.empty()) return "no gaps measured";
        std::vector<double> sorted = m_gapsMs;
        std::sort(sorted.begin(), sorted.end());
        const auto at = static_cast<std::size_t>(0.99 * static_cast<double>(sorted.size() - 1));
        const long over =
            std::count_if(sorted.begin(), sorted.end(), [](double g) { return g > 50.0; });
        char text[160];
        std::snprintf(text, sizeof text,
                      "longest %.1f ms, 99th percentile %.1f ms, %ld over 50 ms (%zu gaps)",
                      sorted.back(), sorted[at], over, sorted.size());
        return text;
    }
    std::size_t gaps() const { return m_gapsMs.size(); }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = -1;
    std::vector<double> m_gapsMs;
};

/// Threads that keep `count` cores busy until destroyed.
class BusyThreads {
public:
    explicit BusyThreads(int count) {
        for (int i = 0; i < count; ++i) {
            m_threads.emplace_back([this] {
                volatile unsigned long spin = 0;
                while (!m_stop.load(std::memory_order_relaxed)) spin = spin + 1;
            });
        }
    }
    ~BusyThreads() {
        m_stop = true;
        for (std::thread& thread : m_threads) thread.join();
    }

private:
    std::atomic<bool> m_stop{false};
    std::vector<std::thread> m_threads;
};

/// Runs the event loop until `done` is set (then 100 ms more, for the updates after the end)
/// or `timeoutMs` pass; false on the timeout.
bool runUntil(const bool& done, int timeoutMs) {
    QEventLoop loop;
    QTimer poll;
    poll.setInterval(5);
    bool quitting = false;
    QObject::connect(&poll, &QTimer::timeout, [&] {
        if (done && !quitting) {
            quitting = true;
            QTimer::singleShot(100, &loop, &QEventLoop::quit);
        }
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    poll.start();
    loop.exec();
    return done;
}

bool waitForData(MainWindow& window) {
    bool ready = false;
    QTimer check;
    check.setInterval(10);
    QObject::connect(&check, &QTimer::timeout,
                     [&] { ready = window.experimentPanel()->problem().isEmpty(); });
    check.start();
    return runUntil(ready, 60000);
}

bool runScenario(MainWindow& window, int epochs, int repeats) {
    window.experimentPanel()->epochsBox()->setValue(epochs);
    int finished = 0;
    double seconds = 0;
    QObject::connect(window.controller(), &pfa::ui::TrainingController::runFinished, &window,
                     [&](const pfa::ui::RunEntryPtr& entry) {
                         seconds += entry->result.seconds;
                         ++finished;
                     });
    QObject::connect(window.controller(), &pfa::ui::TrainingController::runFailed, &window,
                     [&](int, const QString& error) {
                         std::fprintf(stderr, "run failed: %s\n", qPrintable(error));
                     });
    GapProbe probe;
    probe.start();
    for (int repeat = 0; repeat < repeats; ++repeat) {
        bool done = false;
        const int before = finished;
        QTimer check;
        check.setInterval(5);
        QObject::connect(&check, &QTimer::timeout, [&] { done = finished > before; });
        check.start();
        QTimer::singleShot(20, window.runAction(), &QAction::trigger);
        if (!runUntil(done, 600000)) return false;
    }
    probe.stop();
    if (probe.gaps() == 0) return false;
    std::printf("run: %d x %d epochs of dp-fermi, %.2f s of training; GUI-thread gaps: %s\n",
                repeats, epochs, seconds, probe.summary().c_str());
    return true;
}

bool runSweeps(MainWindow& window, const pfa::SweepSpec& spec,
               const std::vector<pfa::DatasetRequest>& data, int repeats, const std::string& what);

bool sweepScenario(MainWindow& window, bool quick, int repeats, bool sharedBatches,
                   const std::string& presetName) {
    pfa::SweepSpec spec;
    std::vector<pfa::DatasetRequest> data;
    if (!presetName.empty()) {
        // A preset's whole sweep on its own data set (runs of other families train together
        // in groups whose results arrive at once).
        const pfa::SweepPreset* preset = nullptr;
        try {
            preset = &pfa::findSweepPreset(presetName);
        } catch (const std::exception& error) {
            std::fprintf(stderr, "%s\n", error.what());
            return false;
        }
        spec = preset->spec;
        data = {preset->dataset};
        return runSweeps(window, spec, data, repeats, "preset " + presetName);
    }
    spec.base = window.experimentPanel()->config();
    // By seed, the runs of a seed train together (one pass over each batch for all of them).
    if (sharedBatches) spec.base.batchSharing = pfa::BatchSharing::BySeed;
    spec.base.epochs = quick ? 10 : 60;
    spec.algorithms = {"dp-fermi"};
    spec.notions = {pfa::FairnessNotion::DemographicParity};
    spec.epsilons = quick ? std::vector<double>{0.5, 4.0} : std::vector<double>{0.5, 1.0, 4.0};
    spec.lambdas = quick ? std::vector<double>{0.0, 1.0} : std::vector<double>{0.0, 1.0, 4.0};
    spec.seeds = quick ? std::vector<std::uint64_t>{0} : std::vector<std::uint64_t>{0, 1, 2};
    return runSweeps(window, spec, data, repeats, "dp-fermi");
}

bool runSweeps(MainWindow& window, const pfa::SweepSpec& spec,
               const std::vector<pfa::DatasetRequest>& data, int repeats, const std::string& what) {
    QTemporaryDir folder;
    bool finished = false;
    QString failure;
    std::size_t finishedRuns = 0;
    const QMetaObject::Connection done =
        QObject::connect(window.sweepController(), &pfa::ui::SweepController::finished, &window,
                         [&](bool, const QString& error) {
                             failure = error;
                             finished = true;
                         });
    const QMetaObject::Connection counted = QObject::connect(
        window.sweepController(), &pfa::ui::SweepController::runsFinished, &window,
        [&](const std::vector<pfa::ui::RunEntryPtr>& entries) { finishedRuns += entries.size(); });
    GapProbe probe;
    QElapsedTimer clock;
    clock.start();
    probe.start();
    for (int repeat = 0; repeat < repeats; ++repeat) {
        finished = false;
        QString error;
        // A results file of its own each time: the same file would resume as done.
        const QString results = folder.filePath(QStringLiteral("sweep-%1.jsonl").arg(repeat));
        if (!window.sweepActions()->startSweep(spec, 0, results, &error, false, data)) {
            std::fprintf(stderr, "the sweep did not start: %s\n", qPrintable(error));
            return false;
        }
        if (!runUntil(finished, 600000) || !failure.isEmpty()) {
            if (!failure.isEmpty())
                std::fprintf(stderr, "the sweep failed: %s\n", qPrintable(failure));
            return false;
        }
    }
    probe.stop();
    QObject::disconnect(done);
    QObject::disconnect(counted);
    if (probe.gaps() == 0) return false;
    std::printf("sweep (%s): %d x %zu runs on %u threads in %.2f s; GUI-thread gaps: %s\n",
                what.c_str(), repeats, finishedRuns / static_cast<std::size_t>(repeats),
                std::max(1u, std::thread::hardware_concurrency()),
                static_cast<double>(clock.elapsed()) / 1000.0, probe.summary().c_str());
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    const Options options = parse(argc, argv);
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    // Settings, data and privacy ledgers of its own: the user's are never read nor charged.
    QTemporaryDir home;
    pfa::test::usePrivateHome(home);
    qputenv("PFA_LEDGER_DIR", home.filePath(QStringLiteral("ledgers")).toUtf8());
    qputenv("PFA_NO_TOUR", "1");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    pfa::ui::configureApplication(app);
    QApplication::setOrganizationName(QStringLiteral("PFA Explorer Bench"));

    std::printf("pfa-gui-bench: platform %s, %u cores, %d busy threads of load, %d repeats%s\n",
                qPrintable(QApplication::platformName()), std::thread::hardware_concurrency(),
                options.load, options.repeats, options.quick ? ", quick" : "");
    std::fflush(stdout);
    const BusyThreads load(options.load);
    bool ok = true;
    if (options.scenario == "run" || options.scenario == "all") {
        MainWindow window;
        window.setConfirmOnClose(false);
        window.resize(1440, 900);
        window.show();
        ok = waitForData(window) && runScenario(window, options.epochs, options.repeats) && ok;
    }
    if (options.scenario == "sweep" || options.scenario == "all") {
        MainWindow window;
        window.setConfirmOnClose(false);
        window.resize(1440, 900);
        window.show();
        ok = waitForData(window) &&
             sweepScenario(window, options.quick, options.repeats, options.sharedBatches,
                           options.preset) &&
             ok;
    }
    std::fflush(stdout);
    if (!ok) std::fprintf(stderr, "pfa-gui-bench: a scenario did not finish\n");
    return ok ? 0 : 1;
}
