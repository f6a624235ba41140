#include "ui/actions/sweep_actions.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QMenu>
#include <QMessageBox>
#include <QTextDocument>

#include "core/data/catalog.h"
#include "core/fairness/fairness_notion.h"
#include "core/sweep/setting_axes.h"
#include "core/sweep/sweep_preset.h"
#include "core/util/build_info.h"
#include "core/util/cpu_count.h"
#include "ui/actions/dataset_actions.h"
#include "ui/controllers/dataset_controller.h"
#include "ui/controllers/results_file_controller.h"
#include "ui/controllers/sweep_controller.h"
#include "ui/dialogs/cluster_job_dialog.h"
#include "ui/dialogs/sweep_dialog.h"
#include "ui/dialogs/sweep_values.h"
#include "ui/panels/dataset_card.h"
#include "ui/panels/experiment_panel.h"
#include "ui/panels/sweep_views_panel.h"
#include "ui/runs/epoch_time_estimate.h"
#include "ui/runs/run_history_model.h"

namespace pfa::ui {

SweepActions::SweepActions(SweepController* sweep, ResultsFileController* results,
                           DatasetController* datasets, ExperimentPanel* panel,
                           const RunHistoryModel* history, const DatasetCard* card,
                           SweepViewsPanel* views, DatasetActions* datasetActions, QWidget* window)
    : QObject(window),
      m_sweep(sweep),
      m_results(results),
      m_datasets(datasets),
      m_panel(panel),
      m_history(history),
      m_card(card),
      m_views(views),
      m_datasetActions(datasetActions),
      m_window(window) {
    m_openResults = new QAction(tr("Open sweep &results…"), this);
    m_openResults->setToolTip(
        tr("Add the runs of a results file written by pfa-cli train, a cluster job or "
           "an earlier sweep to the history and the sweep views; a sweep's manifest "
           "(pfa-cli cluster slurm) adds its shards' runs so far, while it runs or after"));
    connect(m_openResults, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            m_window, tr("Open sweep results"), QString(),
            tr("Results (*.jsonl);;Cluster sweep manifests (*.manifest.json);;All files (*)"));
        if (!path.isEmpty()) m_results->open(path);
    });
    // A manifest's progress goes with the message of the runs it added.
    connect(results, &ResultsFileController::sweepProgress, this,
            [this](const QString& text) { m_sweepProgress = text; });
    connect(results, &ResultsFileController::reading, this, [this](const QString& path) {
        emit message(tr("Reading %1…").arg(QFileInfo(path).fileName()), 0);
    });
    connect(results, &ResultsFileController::opened, this,
            [this](const QString& path, int added, int skipped, int damaged, const QString& error) {
                if (!error.isEmpty()) {
                    emit message(error, 10000);
                    return;
                }
                QString text =
                    tr("%1: %2 run(s) added, %3 already in the history, %4 damaged line(s) skipped")
                        .arg(QFileInfo(path).fileName())
                        .arg(added)
                        .arg(skipped)
                        .arg(damaged);
                if (!m_sweepProgress.isEmpty()) text += QStringLiteral(" — ") + m_sweepProgress;
                m_sweepProgress.clear();
                emit message(text, 15000);
                m_views->followLatest();
                emit sweepViewsChanged();
            });
    // A window-modal box that does not block: the history keeps updating behind it.
    connect(results, &ResultsFileController::problem, this,
            [this](const QString& title, const QString& text, const QString& details) {
                auto* box =
                    new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, m_window);
                box->setObjectName(QStringLiteral("resultsFileProblem"));
                // A few lines are shown at once; a long list goes behind "Show Details…".
                if (details.count(QLatin1Char('\n')) < 8) {
                    box->setInformativeText(details);
                } else {
                    box->setInformativeText(
                        tr("The lines and why they were skipped are under Show Details."));
                    box->setDetailedText(details);
                }
                box->setAttribute(Qt::WA_DeleteOnClose);
                box->open();
            });
    connect(sweep, &SweepController::finished, this, [this](bool cancelled, const QString& error) {
        if (!error.isEmpty()) {
            QMessageBox::warning(m_window, tr("Sweep"),
                                 Qt::convertFromPlainText(error, Qt::WhiteSpaceNormal));
            return;
        }
        emit message(cancelled
                         ? tr("Sweep stopped; finished runs are saved and a new start resumes it")
                         : tr("Sweep finished"),
                     10000);
    });
    // Queued: a preset's dialog opens after every view has shown the data set it waited for.
    connect(
        datasets, &DatasetController::datasetReady, this,
        [this] {
            if (m_pendingPreset.isEmpty() || !m_datasets->datasetFor(m_panel->datasetRequest()))
                return;
            const QString preset = m_pendingPreset;
            m_pendingPreset.clear();
            openSweepDialog(preset);
        },
        Qt::QueuedConnection);
}

void SweepActions::fillMenu(QMenu* menu) {
    QAction* newSweep = menu->addAction(tr("&New sweep…"), this, [this] { openSweepDialog(); });
    newSweep->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+R")));
    QMenu* presets = menu->addMenu(tr("&Presets (published experiments)"));
    for (const pfa::SweepPreset& preset : pfa::sweepPresets()) {
        const QString name = QString::fromStdString(preset.name);
        QAction* action = presets->addAction(QString::fromStdString(preset.title), this,
                                             [this, name] { runPreset(name); });
        action->setToolTip(QString::fromStdString(preset.source));
    }
    presets->setToolTipsVisible(true);
    m_stopSweep = menu->addAction(tr("&Stop sweep"), m_sweep, &SweepController::stop);
    // Only while a sweep runs.
    m_stopSweep->setEnabled(m_sweep->isRunning());
    connect(m_sweep, &SweepController::started, m_stopSweep,
            [this] { m_stopSweep->setEnabled(true); });
    connect(m_sweep, &SweepController::finished, m_stopSweep,
            [this] { m_stopSweep->setEnabled(false); });
    menu->addSeparator();
    menu->addAction(tr("Load &reference points…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            m_window, tr("Reference points"), QString(), tr("CSV files (*.csv);;All files (*)"));
        if (path.isEmpty()) return;
        QString error;
        if (!m_views->loadReferencePoints(path, &error))
            QMessageBox::warning(m_window, tr("Reference points"),
                                 Qt::convertFromPlainText(error, Qt::WhiteSpaceNormal));
    });
}

bool SweepActions::startSweep(const pfa::SweepSpec& spec, int threads, const QString& resultsFile,
                              QString* error, bool autoTune,
                              const std::vector<pfa::DatasetRequest>& dataVariants) {
    const pfa::PreparedDatasetPtr data = m_datasets->dataset();
    if (!data) {
        if (error) *error = tr("No data set is loaded.");
        return false;
    }
    try {
        // A preset's data axes: the variants are made with the loaded data set's folder.
        std::vector<pfa::DatasetRequest> variants = dataVariants;
        for (pfa::DatasetRequest& variant : variants)
            variant.dataDirectory = m_panel->datasetRequest().dataDirectory;
        m_sweep->start(spec, data, threads, resultsFile, autoTune, variants);
    } catch (const std::exception& problem) {
        if (error) *error = QString::fromStdString(problem.what());
        return false;
    }
    // The views show this sweep's data set and (first) notion, whatever they showed before.
    m_views->followSweep(
        QString::fromStdString(dataVariants.empty() ? data->key : pfa::datasetFamilyKey(data->key)),
        spec.notions.empty() ? QString()
                             : QString::fromStdString(pfa::fairnessCode(spec.notions.front())));
    emit sweepViewsChanged();
    return true;
}

bool SweepActions::runMoreSeeds(const RunEntryPtr& run, int extra, QString* error) {
    const auto refuse = [&](const QString& reason) {
        if (error) *error = reason;
        QMessageBox::information(m_window, tr("More seeds"), reason);
        return false;
    };
    if (!run) return refuse(tr("No data set is loaded."));
    // The sweep runs on the loaded data set: the run's own, with its split, or nothing.
    QString whyNot;
    if (!m_datasets->datasetOfRun(run->id, run->context.runKey, &whyNot)) return refuse(whyNot);
    if (m_sweep->isRunning()) return refuse(tr("A sweep is already running; stop it first."));
    // The settings as asked, so that the new runs share the run's key but for the seed (one
    // cell of the sweep views); a run read from a file has only its resolved settings.
    const pfa::TrainConfig& config = run->requested ? *run->requested : run->result.config;
    pfa::SweepSpec spec;
    spec.base = config;
    spec.algorithms = {config.algorithm};
    spec.notions = {config.fairness};
    spec.epsilons = {config.epsilon};
    spec.lambdas = {config.lambda};
    spec.seeds.clear();
    for (int k = 1; k <= extra; ++k)
        spec.seeds.push_back(config.seed + static_cast<std::uint64_t>(k));
    const QString file = sweep_values::newResultsFile(QStringLiteral("run-%1-seeds").arg(run->id));
    QString problem;
    if (!startSweep(spec, pfa::availableCpus(), file, &problem)) return refuse(problem);
    emit message(tr("Running run %1's settings with %2 more seeds: its point's spread appears on "
                    "the tradeoff chart")
                     .arg(run->id)
                     .arg(extra),
                 10000);
    return true;
}

void SweepActions::openSweepDialog(const QString& presetName) {
    const pfa::PreparedDatasetPtr data = m_datasets->datasetFor(m_panel->datasetRequest());
    if (!data) {
        QMessageBox::information(
            m_window, tr("Sweep"),
            m_panel->problem().isEmpty()
                ? tr("The data set is still loading; try again in a moment.")
                : Qt::convertFromPlainText(m_panel->problem(), Qt::WhiteSpaceNormal));
        return;
    }
    if (m_sweep->isRunning()) {
        QMessageBox::information(m_window, tr("Sweep"),
                                 tr("A sweep is already running; stop it first."));
        return;
    }
    auto* dialog = new SweepDialog(m_panel->config(), m_card->title(), data->context.trainRows,
                                   data->context.features,
                                   measuredSecondsPerEpoch(m_history->entries(), *data), m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (!presetName.isEmpty()) dialog->applyPreset(pfa::findSweepPreset(presetName.toStdString()));
    connect(dialog, &SweepDialog::clusterRequested, this,
            [this, dialog] { openClusterDialog(dialog); });
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        QString error;
        if (!startSweep(dialog->spec(), dialog->threads(), dialog->resultsFile(), &error,
                        dialog->autoTune(), dialog->dataVariants())) {
            QMessageBox::warning(m_window, tr("Sweep"),
                                 Qt::convertFromPlainText(error, Qt::WhiteSpaceNormal));
        }
    });
    dialog->open();
}

void SweepActions::openClusterDialog(SweepDialog* sweepDialog) {
    const pfa::PreparedDatasetPtr data = m_datasets->datasetFor(m_panel->datasetRequest());
    if (!data) return;
    // The sweep as the dialog describes it, on the loaded data set (or the preset's data sets).
    pfa::SweepPreset sweep;
    sweep.spec = sweepDialog->spec();
    sweep.dataset = m_panel->datasetRequest();
    sweep.dataVariants = sweepDialog->dataVariants();
    const QString stem = QFileInfo(sweepDialog->resultsFile()).completeBaseName();
    sweep.name = stem.isEmpty() ? "sweep" : stem.toStdString();
    sweep.title =
        (sweepDialog->windowTitle() + QStringLiteral(" — ") + m_card->title()).toStdString();
    sweep.source = "Written by PFA Explorer " + pfa::versionString() +
                   " from its sweep dialog (Run on a cluster…).";
    const pfa::SweepDataSize size{data->context.trainRows, data->context.testRows,
                                  data->context.features};
    auto* dialog = new ClusterJobDialog(
        sweep, size, QString::fromStdString(m_panel->datasetRequest().dataDirectory),
        sweepDialog->resultsFile(), sweepDialog);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ClusterJobDialog::followRequested, this,
            [this](const QString& manifest) { m_results->open(manifest); });
    dialog->open();
}

void SweepActions::runPreset(const QString& name) {
    const pfa::SweepPreset& preset = pfa::findSweepPreset(name.toStdString());
    if (!m_panel->selectDataset(preset.dataset)) return;
    if (!m_panel->catalogFilesPresent()) {
        const QString title =
            QString::fromStdString(pfa::findCatalogEntry(preset.dataset.name).title);
        const auto answer = QMessageBox::question(
            m_window, tr("Preset"),
            tr("The preset needs %1, which is not downloaded yet. Download it now?").arg(title));
        if (answer != QMessageBox::Yes) return;
        // The preset goes on once the files are here.
        m_datasetActions->download(QString::fromStdString(preset.dataset.name), [this, name] {
            if (m_panel->catalogFilesPresent()) openPresetWhenLoaded(name);
        });
        return;
    }
    openPresetWhenLoaded(name);
}

void SweepActions::openPresetWhenLoaded(const QString& name) {
    if (m_datasets->datasetFor(m_panel->datasetRequest())) {
        openSweepDialog(name);
    } else {
        m_pendingPreset = name;  // opens when the data set has loaded
    }
}

}  // namespace pfa::ui
