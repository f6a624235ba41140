#pragma once

#include <QObject>
#include <QString>

#include "core/sweep/sweep_spec.h"

class QMenu;
class QWidget;

namespace pfa::ui {

class DatasetActions;
class DatasetCard;
class DatasetController;
class ExperimentPanel;
class RunHistoryModel;
class SweepController;
class SweepViewsPanel;

/// The Sweep menu: New sweep… (the sweep dialog over the loaded data set, with a time
/// estimate measured on earlier runs), the presets that reproduce published experiments
/// (choosing, downloading if need be and loading their data set first), Stop sweep and the
/// reference points of the sweep views. The dialogs are not waited for.
class SweepActions : public QObject {
    Q_OBJECT
public:
    /// `window` parents the dialogs; `card` names the data set in the sweep dialog.
    SweepActions(SweepController* sweep, DatasetController* datasets, ExperimentPanel* panel,
                 const RunHistoryModel* history, const DatasetCard* card, SweepViewsPanel* views,
                 DatasetActions* datasetActions, QWidget* window);

    /// Adds the menu's entries to `menu`.
    void fillMenu(QMenu* menu);

    /// Starts a sweep on the loaded data set (what the sweep dialog's Start does); false with
    /// the reason when it cannot start.
    bool startSweep(const pfa::SweepSpec& spec, int threads, const QString& resultsFile, QString* error = nullptr);
    /// The sweep dialog, filled from preset `presetName` when given.
    void openSweepDialog(const QString& presetName = QString());
    /// Chooses the preset's data set (downloading it after asking, if need be) and opens the
    /// sweep dialog with the preset once that data set is loaded.
    void runPreset(const QString& name);

signals:
    /// A sweep started: its views are worth showing.
    void sweepStarted();

private:
    void openPresetWhenLoaded(const QString& name);

    SweepController* m_sweep;
    DatasetController* m_datasets;
    ExperimentPanel* m_panel;
    const RunHistoryModel* m_history;
    const DatasetCard* m_card;
    SweepViewsPanel* m_views;
    DatasetActions* m_datasetActions;
    QWidget* m_window;
    QString m_pendingPreset;  ///< preset waiting for its data set to load
};

}  // namespace pfa::ui
