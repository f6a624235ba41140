#pragma once

#include <QObject>
#include <QString>

#include "core/data/builtin_datasets.h"
#include "core/sweep/sweep_spec.h"
#include "ui/runs/run_entry.h"

class QAction;
class QMenu;
class QWidget;

namespace pfa::ui {

class DatasetActions;
class DatasetCard;
class DatasetController;
class ExperimentPanel;
class ResultsFileController;
class RunHistoryModel;
class SweepController;
class SweepDialog;
class SweepViewsPanel;

/// The Sweep menu: New sweep… (the sweep dialog over the loaded data set, with a time
/// estimate measured on earlier runs), the presets that reproduce published experiments
/// (choosing, downloading if need be and loading their data set first), Stop sweep and the
/// reference points of the sweep views; also File → Open sweep results…. The dialogs are not
/// waited for; how sweeps and results files end is told in the status bar.
class SweepActions : public QObject {
    Q_OBJECT
public:
    /// `window` parents the dialogs; `card` names the data set in the sweep dialog.
    SweepActions(SweepController* sweep, ResultsFileController* results,
                 DatasetController* datasets, ExperimentPanel* panel,
                 const RunHistoryModel* history, const DatasetCard* card, SweepViewsPanel* views,
                 DatasetActions* datasetActions, QWidget* window);

    /// Adds the menu's entries to `menu`.
    void fillMenu(QMenu* menu);
    /// File → Open sweep results….
    QAction* openResultsAction() const { return m_openResults; }
    /// Sweep → Stop sweep (enabled while a sweep runs; nullptr before fillMenu).
    QAction* stopSweepAction() const { return m_stopSweep; }

    /// Starts a sweep on the loaded data set (what the sweep dialog's Start does); false with
    /// the reason when it cannot start.
    /// `autoTune`: tune the extra axes' candidates instead (SweepController::start).
    bool startSweep(const pfa::SweepSpec& spec, int threads, const QString& resultsFile,
                    QString* error = nullptr, bool autoTune = false,
                    const std::vector<pfa::DatasetRequest>& dataVariants = {});
    /// Runs the settings of `run` again with `extra` more seeds (seed + 1 … seed + extra) as a
    /// small sweep on the loaded data set, so that the spread of its point shows; false with
    /// the reason (shown to the user) when it cannot start: another data set or split is
    /// loaded, or a sweep is running.
    bool runMoreSeeds(const RunEntryPtr& run, int extra = 4, QString* error = nullptr);
    /// The sweep dialog, filled from preset `presetName` when given.
    void openSweepDialog(const QString& presetName = QString());
    /// Chooses the preset's data set (downloading it after asking, if need be) and opens the
    /// sweep dialog with the preset once that data set is loaded.
    void runPreset(const QString& name);
    /// The sweep dialog's "Run on a cluster…": its sweep on the loaded data set as a Slurm job
    /// (ClusterJobDialog).
    void openClusterDialog(SweepDialog* sweepDialog);

signals:
    /// A sweep started or a results file was added: the sweep views are worth showing.
    void sweepViewsChanged();
    /// For the status bar.
    void message(const QString& text, int timeoutMs);

private:
    void openPresetWhenLoaded(const QString& name);

    SweepController* m_sweep;
    ResultsFileController* m_results;
    DatasetController* m_datasets;
    ExperimentPanel* m_panel;
    const RunHistoryModel* m_history;
    const DatasetCard* m_card;
    SweepViewsPanel* m_views;
    DatasetActions* m_datasetActions;
    QWidget* m_window;
    QString m_sweepProgress;  ///< of the manifest being opened (see ResultsFileController)
    QAction* m_openResults;
    QAction* m_stopSweep = nullptr;
    QString m_pendingPreset;  ///< preset waiting for its data set to load
};

}  // namespace pfa::ui
