#include "ui/actions/model_export_actions.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTextDocument>

#include "ui/charts/tradeoff_chart.h"
#include "ui/controllers/dataset_controller.h"
#include "ui/controllers/training_controller.h"
#include "ui/dialogs/model_export_dialog.h"
#include "ui/runs/model_export.h"
#include "ui/runs/run_history_view.h"

namespace pfa::ui {

ModelExportActions::ModelExportActions(TrainingController* training, DatasetController* datasets,
                                       RunHistoryView* view, QWidget* window)
    : QObject(window), m_training(training), m_datasets(datasets), m_view(view), m_window(window) {
    m_action = new QAction(tr("Export &model of selected run…"), this);
    m_action->setObjectName(QStringLiteral("exportModelAction"));
    m_action->setToolTip(
        tr("Writes the selected run's model to a file to hand on: the model, its "
           "encoding and its privacy statement"));
    connect(m_action, &QAction::triggered, this, [this] { exportRuns(m_view->selectedRuns()); });
    m_view->addAction(m_action);
    connect(m_training, &TrainingController::runFinished, this, &ModelExportActions::onRunFinished);
    connect(m_training, &TrainingController::runFailed, this, [this](int runId, const QString&) {
        if (m_pending.erase(runId) > 0) {
            emit message(tr("Run %1 failed: there is no model to export").arg(runId), 8000);
        }
    });
    m_lastFolder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (m_lastFolder.isEmpty()) m_lastFolder = QDir::homePath();
}

QString ModelExportActions::rerunProblem(const RunEntry& entry) const {
    const pfa::PreparedDatasetPtr data = m_datasets->dataset();
    const QString wanted = TradeoffChart::datasetKeyOf(entry);
    if (!data || QString::fromStdString(data->key) != wanted) {
        return tr("To train it again here, load its data set (%1) in the experiment panel first.")
            .arg(TradeoffChart::datasetLabel(wanted));
    }
    if (m_training->state() != TrainingController::State::Idle) {
        return tr(
            "A run is in progress: train it again once that run has finished (starting a "
            "new run would stop it).");
    }
    return {};
}

void ModelExportActions::exportRuns(const std::vector<RunEntryPtr>& selected) {
    const QString problem = modelExportProblem(selected);
    if (!problem.isEmpty()) {
        QMessageBox::information(m_window, tr("Export model"),
                                 Qt::convertFromPlainText(problem, Qt::WhiteSpaceNormal));
        return;
    }
    const RunEntryPtr& entry = selected.front();
    openDialog(entry, {},
               QDir(m_lastFolder).filePath(QStringLiteral("model-run-%1.json").arg(entry->id)));
}

void ModelExportActions::openDialog(const RunEntryPtr& entry,
                                    const pfa::ModelExportOptions& options, const QString& path) {
    if (m_dialog) m_dialog->close();
    auto* dialog = new ModelExportDialog(entry, path, rerunProblem(*entry), m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setOptions(options);
    connect(dialog, &ModelExportDialog::exportRequested, this,
            &ModelExportActions::exportFromDialog);
    connect(dialog, &ModelExportDialog::rerunRequested, this, &ModelExportActions::rerunFromDialog);
    m_dialog = dialog;
    dialog->open();
}

void ModelExportActions::exportFromDialog() {
    if (!m_dialog) return;
    const QString path = m_dialog->path();
    QString error;
    if (!exportRunModel(path, *m_dialog->entry(), m_dialog->options(), &error)) {
        m_dialog->showError(error);
        return;
    }
    m_lastFolder = QFileInfo(path).absolutePath();
    m_dialog->accept();
    emit message(tr("Model written to %1 (pfa-cli predict --run reads it)").arg(path), 8000);
    emit exported(path);
}

void ModelExportActions::rerunFromDialog() {
    if (!m_dialog) return;
    const RunEntryPtr entry = m_dialog->entry();
    const QString problem = rerunProblem(*entry);
    if (!problem.isEmpty()) {
        m_dialog->showError(problem);
        return;
    }
    pfa::TrainConfig config = entry->result.config;
    config.secureNoise = true;
    const int id = m_training->startRun(config, m_datasets->dataset());
    m_pending[id] = {entry->id, m_dialog->options(), m_dialog->path()};
    m_dialog->accept();
    emit message(tr("Training run %1 again with %2 as run %3; its model is offered for export "
                    "when it finishes")
                     .arg(entry->id)
                     .arg(QString::fromStdString(pfa::kSecureNoiseName))
                     .arg(id),
                 0);
}

void ModelExportActions::onRunFinished(const RunEntryPtr& entry) {
    const auto found = m_pending.find(entry->id);
    if (found == m_pending.end()) return;
    const Pending pending = found->second;
    m_pending.erase(found);
    if (!entry->isComplete() || !modelExportProblem({entry}).isEmpty()) {
        emit message(tr("Run %1 did not complete (%2): there is no model to export")
                         .arg(entry->id)
                         .arg(entry->statusText()),
                     8000);
        return;
    }
    QString path = pending.path;
    const QString old = QStringLiteral("model-run-%1.json").arg(pending.originalId);
    if (path.endsWith(old)) {
        path.chop(old.size());
        path += QStringLiteral("model-run-%1.json").arg(entry->id);
    }
    emit message(tr("Run %1 (secure noise) finished: export its model").arg(entry->id), 8000);
    openDialog(entry, pending.options, path);
}

}  // namespace pfa::ui
