#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <map>
#include <vector>

#include "core/sweep/saved_model.h"
#include "ui/dialogs/model_export_dialog.h"
#include "ui/runs/run_entry.h"

class QAction;
class QWidget;

namespace pfa::ui {

class DatasetController;
class RunHistoryView;
class TrainingController;

/// File → Export model of selected run… (also in the run history's context menu): the model
/// export dialog (ModelExportDialog) for the selected run, the file written, and — for a
/// private run whose noise came from its seed — training the run again with secure noise,
/// after which the new run's model is offered for export with the same choices.
class ModelExportActions : public QObject {
    Q_OBJECT
public:
    ModelExportActions(TrainingController* training, DatasetController* datasets,
                       RunHistoryView* view, QWidget* window);

    QAction* action() const { return m_action; }
    /// Opens the export dialog for `selected` (or explains in a message box why not).
    void exportRuns(const std::vector<RunEntryPtr>& selected);
    /// The dialog open now (tests; null when none).
    ModelExportDialog* dialog() const { return m_dialog; }
    /// Why `entry` cannot be trained again with secure noise now ("" when it can).
    QString rerunProblem(const RunEntry& entry) const;

signals:
    /// For the status bar.
    void message(const QString& text, int timeoutMs);
    /// A model file was written.
    void exported(const QString& path);

private:
    void openDialog(const RunEntryPtr& entry, const pfa::ModelExportOptions& options,
                    const QString& path);
    void exportFromDialog();
    void rerunFromDialog();
    void onRunFinished(const RunEntryPtr& entry);

    struct Pending {
        int originalId = 0;
        pfa::ModelExportOptions options;
        QString path;
    };

    TrainingController* m_training;
    DatasetController* m_datasets;
    RunHistoryView* m_view;
    QWidget* m_window;
    QAction* m_action;
    QPointer<ModelExportDialog> m_dialog;
    QString m_lastFolder;
    std::map<int, Pending> m_pending;  ///< secure reruns by run id
};

}  // namespace pfa::ui
