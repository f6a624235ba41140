#pragma once

#include <QObject>
#include <QString>
#include <QTimer>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "core/privacy/dataset_ledger.h"
#include "core/sweep/prepared_dataset.h"
#include "core/sweep/sweep_runner.h"
#include "ui/runs/run_entry.h"
#include "ui/support/background.h"

namespace pfa::ui {

/// Runs a sweep in the background (one task of background.h that drives the core's parallel
/// sweep engine): every finished run is appended (fsync'd) to the results file at once and
/// handed to the GUI in batches at most five times a second; Stop cancels all workers within
/// one minibatch. A sweep started on a results file that already holds some of its runs
/// resumes: those runs are loaded (off the GUI thread), not rerun.
class SweepController : public QObject {
    Q_OBJECT
public:
    /// `allocateId` gives session-unique run ids (called on the GUI thread).
    explicit SweepController(std::function<int()> allocateId, QObject* parent = nullptr);
    ~SweepController() override;

    bool isRunning() const { return m_running; }
    /// Starts `spec` on `data` (its datasets are set to {data->key}) with `threads` workers
    /// (0 = all cores), appending to `resultsFile` (its folder is made when missing). Throws
    /// InputError for an invalid sweep (before anything runs).
    /// With `autoTune`, the sweep's extra axes are candidates tuned per (ε, λ, seed, …) by
    /// pfa::runAutoTuneSweep (one record each; `started` then counts those tuning problems).
    ///
    /// With `variants` (the data sets of a preset's data axes) the sweep runs on each of them
    /// instead: they are generated and checked on the sweep's thread, `data` standing in for the
    /// variant it equals; a bad setting then ends the sweep through finished(…, error).
    void start(const pfa::SweepSpec& spec, const pfa::PreparedDatasetPtr& data, int threads,
               const QString& resultsFile, bool autoTune = false,
               const std::vector<pfa::DatasetRequest>& variants = {});
    /// How executions are charged to the privacy ledger: `onWorker` on the sweep's threads as
    /// each execution ends (the persistent ledger), `onGui` on the GUI thread with the same
    /// entries after the batch's runs were delivered (`stored`: already charged by onWorker).
    void setLedger(
        std::function<void(const pfa::RunContext&, const std::vector<pfa::privacy::LedgerEntry>&)>
            onWorker,
        std::function<void(const pfa::RunContext&, const std::vector<pfa::privacy::LedgerEntry>&,
                           bool stored)>
            onGui) {
        m_chargeOnWorker = std::move(onWorker);
        m_chargeOnGui = std::move(onGui);
    }
    /// Cancels the sweep (runs cut short are not recorded).
    void stop();
    /// Stops and waits for the workers (closing the window).
    void shutdown();

signals:
    /// A sweep of `runs` runs started.
    void started(int runs);
    /// Finished runs, in batches: first those found in the results file from an earlier,
    /// interrupted attempt, then those finished now.
    void runsFinished(const std::vector<pfa::ui::RunEntryPtr>& entries);
    /// Runs cut short by Stop: not recorded or shown, but charged to the privacy ledger.
    void runsCutShort(const std::vector<pfa::ui::RunEntryPtr>& entries);
    void progressChanged(const pfa::SweepProgress& progress);
    void finished(bool cancelled, const QString& error);

private:
    void drain();

    std::function<int()> m_allocateId;
    BackgroundTask m_task;
    bool m_running = false;
    QTimer m_drainTimer;
    std::mutex m_mutex;  // guards the pending results and progress
    struct Pending {
        pfa::RunResult result;
        pfa::RunContext context;
        std::optional<pfa::TrainConfig> requested;  ///< runs of this sweep (not resumed ones)
    };
    std::vector<Pending> m_pending;
    std::vector<Pending> m_cutShort;
    struct Charge {
        pfa::RunContext context;
        std::vector<pfa::privacy::LedgerEntry> entries;
        bool stored = true;
    };
    std::vector<Charge> m_charges;
    std::function<void(const pfa::RunContext&, const std::vector<pfa::privacy::LedgerEntry>&)>
        m_chargeOnWorker;
    std::function<void(const pfa::RunContext&, const std::vector<pfa::privacy::LedgerEntry>&, bool)>
        m_chargeOnGui;
    pfa::SweepProgress m_progress;
    bool m_progressChanged = false;
};

}  // namespace pfa::ui

Q_DECLARE_METATYPE(pfa::SweepProgress)
