#pragma once

#include <QString>
#include <vector>

#include "core/sweep/saved_model.h"
#include "ui/runs/run_entry.h"

namespace pfa::ui {

/// Why `selected` cannot be exported as a model (empty when it can): not exactly one run, or a
/// run without a model (opened from a file written before models were stored, or diverged).
QString modelExportProblem(const std::vector<RunEntryPtr>& selected);

/// Writes the model file of `entry` to `path` (pfa::modelExportJson with `options`: the model,
/// its encoding with the statistics labelled as not protected, the settings and the privacy
/// statement; never the seed of a private run), which `pfa-cli predict --run` reads. False with
/// the reason in `error` when it cannot.
bool exportRunModel(const QString& path, const RunEntry& entry,
                    const pfa::ModelExportOptions& options = {}, QString* error = nullptr);

}  // namespace pfa::ui
