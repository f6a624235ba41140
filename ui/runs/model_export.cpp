#include "ui/runs/model_export.h"

#include <QFileDialog>
#include <QMessageBox>
#include <QObject>
#include <QSaveFile>
#include <QTextDocument>

#include "core/sweep/saved_model.h"

namespace pfa::ui {

QString modelExportProblem(const std::vector<RunEntryPtr>& selected) {
    if (selected.empty())
        return QObject::tr("Select a run in the run history to export its model.");
    if (selected.size() > 1) {
        return QObject::tr("%1 runs are selected: select a single run to export its model.")
            .arg(selected.size());
    }
    const RunEntry& entry = *selected.front();
    if (pfa::hasSavedModel(entry.result, entry.context)) return {};
    if (entry.result.theta.size() > 0 && entry.context.preprocessing) {
        return QObject::tr(
                   "Run %1 has no usable model: its parameters are not finite (it diverged).")
            .arg(entry.id);
    }
    return QObject::
        tr("Run %1 has no model: it was opened from a file written by a version of PFA Explorer "
           "that did not store models. Train it again to export its model.")
            .arg(entry.id);
}

bool exportRunModel(const QString& path, const RunEntry& entry, QString* error) {
    const QString problem = modelExportProblem({std::make_shared<RunEntry>(entry)});
    if (!problem.isEmpty()) {
        if (error) *error = problem;
        return false;
    }
    // The core's record as is: 17-digit numbers, so θ reads back bit for bit.
    const QByteArray bytes =
        QByteArray::fromStdString(pfa::modelExportJson(entry.result, entry.context) + "\n");
    QSaveFile file(path);  // atomic: a failed write leaves no half file behind
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error) *error = QObject::tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

QString exportSelectedRunModel(QWidget* parent, const std::vector<RunEntryPtr>& selected) {
    const QString title = QObject::tr("Export model");
    const QString problem = modelExportProblem(selected);
    if (!problem.isEmpty()) {
        QMessageBox::information(parent, title, Qt::convertFromPlainText(problem, Qt::WhiteSpaceNormal));
        return {};
    }
    const RunEntry& entry = *selected.front();
    const QString path =
        QFileDialog::getSaveFileName(parent, title, QObject::tr("model-run-%1.json").arg(entry.id),
                                     QObject::tr("JSON files (*.json)"));
    if (path.isEmpty()) return {};
    QString error;
    if (!exportRunModel(path, entry, &error)) {
        QMessageBox::warning(parent, title, Qt::convertFromPlainText(error, Qt::WhiteSpaceNormal));
        return {};
    }
    return path;
}

}  // namespace pfa::ui
