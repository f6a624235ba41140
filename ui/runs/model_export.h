#pragma once

#include <QString>
#include <vector>

#include "ui/runs/run_entry.h"

class QWidget;

namespace pfa::ui {

/// Why `selected` cannot be exported as a model (empty when it can): not exactly one run, or a
/// run without a model (opened from a file written before models were stored, or diverged).
QString modelExportProblem(const std::vector<RunEntryPtr>& selected);

/// Writes the model of `entry` to `path`: the run's complete record as one JSON line (θ, W, the
/// feature bound, the preprocessing, settings, metrics, privacy statement), which
/// `pfa-cli predict --run` reads. False with the reason in `error` when it cannot.
bool exportRunModel(const QString& path, const RunEntry& entry, QString* error = nullptr);

/// File → Export model of selected run…: explains the problem, or asks for a file name and
/// writes the model there. Returns the path written (empty when nothing was written).
QString exportSelectedRunModel(QWidget* parent, const std::vector<RunEntryPtr>& selected);

}  // namespace pfa::ui
