#include "ui/runs/model_export.h"

#include <QObject>
#include <QSaveFile>

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

bool exportRunModel(const QString& path, const RunEntry& entry,
                    const pfa::ModelExportOptions& options, QString* error) {
    const QString problem = modelExportProblem({std::make_shared<RunEntry>(entry)});
    if (!problem.isEmpty()) {
        if (error) *error = problem;
        return false;
    }
    // The core's record as is: 17-digit numbers, so θ reads back bit for bit.
    const QByteArray bytes = QByteArray::fromStdString(
        pfa::modelExportJson(entry.result, entry.context, options) + "\n");
    QSaveFile file(path);  // atomic: a failed write leaves no half file behind
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error) *error = QObject::tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

}  // namespace pfa::ui
