#include "ui/controllers/sweep_controller.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <map>
#include <memory>
#include <mutex>

#include "core/sweep/auto_tune.h"
#include "core/sweep/run_ledger.h"
#include "core/util/error.h"
#include "ui/support/worker_priority.h"

namespace pfa::ui {

SweepController::SweepController(std::function<int()> allocateId, QObject* parent)
    : QObject(parent), m_allocateId(std::move(allocateId)) {
    qRegisterMetaType<pfa::SweepProgress>();
    m_drainTimer.setInterval(200);
    connect(&m_drainTimer, &QTimer::timeout, this, &SweepController::drain);
}

SweepController::~SweepController() { shutdown(); }

void SweepController::start(const pfa::SweepSpec& requested, const pfa::PreparedDatasetPtr& data,
                            int threads, const QString& resultsFile, bool autoTune,
                            const std::vector<pfa::DatasetRequest>& variants) {
    if (m_running) throw pfa::InputError("a sweep is already running");
    pfa::SweepSpec spec = requested;
    pfa::DatasetProvider provider = [data](const std::string&) { return data; };
    spec.datasets = {data->key};
    if (!variants.empty()) {
        // Each variant is made once, when a run first needs it, on the sweep's threads.
        struct Cache {
            std::mutex mutex;
            std::map<std::string, pfa::DatasetRequest> requests;
            std::map<std::string, pfa::PreparedDatasetPtr> prepared;
        };
        auto cache = std::make_shared<Cache>();
        spec.datasets.clear();
        for (const pfa::DatasetRequest& variant : variants) {
            const std::string key = pfa::datasetKey(variant);
            spec.datasets.push_back(key);
            cache->requests[key] = variant;
        }
        cache->prepared[data->key] = data;
        provider = [cache](const std::string& key) {
            std::lock_guard<std::mutex> lock(cache->mutex);
            if (const auto it = cache->prepared.find(key); it != cache->prepared.end())
                return it->second;
            const auto request = cache->requests.find(key);
            if (request == cache->requests.end())
                throw pfa::InputError("no data set with the key " + key);
            return cache->prepared[key] = pfa::prepareDataset(request->second);
        };
    }
    const std::vector<pfa::SweepRun> runs = spec.expand();
    if (variants.empty())
        pfa::validateSweep(runs, provider);  // bad settings end here, before any run
    QDir().mkpath(QFileInfo(resultsFile).absolutePath());

    m_running = true;
    m_progress = {};
    m_drainTimer.start();
    pfa::SweepOptions options;
    options.threads = threads;
    options.outputPath = resultsFile.toStdString();
    options.resume = true;
    // Runs already in the results file (an interrupted earlier attempt) are shown, not rerun;
    // the runner reads them on the sweep's thread, with the rest of the resume.
    options.onAlreadyDone = [this, provider](const pfa::SweepRun& run,
                                             const pfa::JsonValue& record) {
        Pending done;
        done.result = pfa::runResultFromJson(record, &done.context);
        // An auto-tuned record's trials ran on these rows too (charged once each).
        std::vector<pfa::privacy::LedgerEntry> trials = pfa::tuningTrialEntries(record);
        std::lock_guard<std::mutex> lock(m_mutex);
        m_pending.push_back(std::move(done));
        if (!trials.empty())
            m_charges.push_back({provider(run.dataset)->context, std::move(trials), false});
    };
    // Every execution is charged as it ends, on the sweep's thread, whatever happens next.
    options.onCharge = [this, charge = m_chargeOnWorker](
                           const pfa::RunContext& context,
                           const std::vector<pfa::privacy::LedgerEntry>& entries) {
        bool stored = false;
        try {
            if (charge) charge(context, entries);
            stored = static_cast<bool>(charge);
        } catch (const std::exception&) {
            // Charged again on the GUI thread, which says what went wrong.
        }
        std::lock_guard<std::mutex> lock(m_mutex);
        m_charges.push_back({context, entries, stored});
    };
    options.onRunFinished = [this, provider, autoTune](const pfa::SweepRun& run,
                                                       const pfa::RunResult& result,
                                                       const pfa::SweepProgress& progress) {
        pfa::RunContext context = provider(run.dataset)->context;
        context.runKey = autoTune ? "auto-tune|" + run.key : run.key;
        std::lock_guard<std::mutex> lock(m_mutex);
        m_pending.push_back({result, context, run.config});
        m_progress = progress;
        m_progressChanged = true;
    };
    options.onRunCutShort = [this, provider](const pfa::SweepRun& run,
                                             const pfa::RunResult& result) {
        pfa::RunContext context = provider(run.dataset)->context;
        context.runKey = run.key;
        std::lock_guard<std::mutex> lock(m_mutex);
        m_cutShort.push_back({result, context, std::nullopt});
    };
    emit started(static_cast<int>(autoTune ? pfa::tuningGroups(spec, runs).size() : runs.size()));
    struct Outcome {
        bool cancelled = false;
        QString error;
    };
    // The callbacks above only fill the mutex-guarded buffers, which outlive the task:
    // shutdown() waits for it.
    const bool validateFirst = !variants.empty();
    auto sweep = [this, spec, provider, options, runs, validateFirst, autoTune](TaskContext& task) {
        Outcome out;
        // The runner's threads inherit this: the sweep uses every core, the GUI still comes first.
        const BelowGuiPriority belowGui;
        try {
            if (validateFirst) pfa::validateSweep(runs, provider);
            const pfa::SweepOutcome outcome =
                autoTune ? pfa::runAutoTuneSweep(spec, provider, options, pfa::AutoTuneOptions{},
                                                 task.cancelToken())
                         : pfa::runSweep(spec, provider, options, task.cancelToken());
            out.cancelled = outcome.cancelled;
            std::lock_guard<std::mutex> lock(m_mutex);
            m_progress.alreadyDone = outcome.progress.alreadyDone;
            m_progress.total = outcome.progress.total;
            m_progressChanged = true;
        } catch (const std::exception& problem) {
            out.error = QString::fromStdString(problem.what());
        }
        return out;
    };
    m_task = runInBackground(this, std::move(sweep), [this](const Outcome& outcome) {
        drain();
        m_drainTimer.stop();
        m_running = false;
        emit finished(outcome.cancelled, outcome.error);
    });
}

void SweepController::stop() { m_task.cancel(); }

void SweepController::shutdown() {
    m_task.cancel();
    m_task.waitForFinished();
    m_drainTimer.stop();
    m_running = false;
}

void SweepController::drain() {
    std::vector<Pending> pending, cutShort;
    std::vector<Charge> charges;
    pfa::SweepProgress progress;
    bool changed = false;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        pending.swap(m_pending);
        cutShort.swap(m_cutShort);
        charges.swap(m_charges);
        progress = m_progress;
        changed = m_progressChanged;
        m_progressChanged = false;
    }
    const QDateTime now = QDateTime::currentDateTime();
    auto entriesOf = [&](std::vector<Pending>& runs) {
        std::vector<RunEntryPtr> entries;
        for (Pending& p : runs) {
            entries.push_back(makeRunEntry(m_allocateId(), std::move(p.result),
                                           std::move(p.context), now, std::move(p.requested)));
        }
        return entries;
    };
    if (!pending.empty()) emit runsFinished(entriesOf(pending));
    if (!cutShort.empty()) emit runsCutShort(entriesOf(cutShort));
    // After the runs (charged with their history labels): what only the ledger sees of them,
    // such as auto-tune's trials.
    if (m_chargeOnGui) {
        for (const Charge& charge : charges)
            m_chargeOnGui(charge.context, charge.entries, charge.stored);
    }
    if (changed) emit progressChanged(progress);
}

}  // namespace pfa::ui
