#pragma once

// How the sweep dialog writes and reads its lists of values: numbers (six significant digits,
// ∞ as "inf"), log:/lin: generators, and the names of a choice setting; and where a new sweep's
// results go by default.
#include <QString>
#include <vector>

#include "core/sweep/sweep_spec.h"

namespace pfa::ui::sweep_values {

/// A new results file for a sweep: `stem`-yyyyMMdd-HHmmss.jsonl in the user's data folder's
/// "sweeps" (the folder is not created).
QString newResultsFile(const QString& stem);

/// `values` comma-separated, as typed in the dialog's fields.
QString joinNumbers(const std::vector<double>& values);

/// `count` values log-spaced from `from` to `to`, each rounded to two significant digits.
std::vector<double> logSpaced(double from, double to, int count);

/// The numbers (and log:/lin: generators) in `text`; on a mistake, empty and `problem` set
/// (when still empty) to a one-line reason starting with `what`.
std::vector<double> parseList(const QString& text, const QString& what, bool allowInfinity,
                              QString* problem);

/// The extra axis `parameter` with the values typed for it (numbers, or a choice setting's
/// names, each checked); the first problem goes to `problem` (when still empty).
pfa::SweepAxis parseAxis(const QString& parameter, const QString& text, QString* problem);

/// An axis' values as typed: numbers, or its choices joined by ",".
QString axisText(const pfa::SweepAxis& axis);

/// The line under the λ field: the values that `text` (parsed to `values`) expands to when it
/// holds a generator (the first and last few of a long list), else a hint at the syntax.
QString expansionText(const QString& text, const std::vector<double>& values);

}  // namespace pfa::ui::sweep_values
