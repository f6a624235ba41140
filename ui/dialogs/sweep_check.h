#pragma once

// What the sweep dialog tells before a sweep starts: the first problem of its grid (as one
// line), the warning about δ, the number of runs and the estimated time.
#include <QString>
#include <cstddef>
#include <vector>

#include "core/config/train_config.h"
#include "core/sweep/sweep_spec.h"

namespace pfa::ui::sweep_check {

/// Sets `problem`, when still empty, to the first ε in `epsilons` the experiment panel and the
/// command line would refuse.
void checkEpsilons(const std::vector<double>& epsilons, QString* problem);

/// Sets `problem`, when still empty, to the first negative λ in `lambdas`.
void checkLambdas(const std::vector<double>& lambdas, QString* problem);

/// δ as the private runs of `spec` use it (`base`'s, from the experiment panel; only when the
/// grid has a private algorithm and a finite ε): sets `problem`, when still empty, when δ is
/// refused, and returns the warning about it for `trainRows` training rows ("" if none).
QString checkDelta(const pfa::SweepSpec& spec, const pfa::TrainConfig& base, long trainRows,
                   QString* problem);

/// The runs of a grid and their epochs in all.
struct GridSize {
    std::size_t runs = 0;
    double epochs = 0;
};
/// The size of `spec`; a grid that does not expand sets `problem`.
GridSize sizeOf(const pfa::SweepSpec& spec, QString* problem);

/// Estimated wall time in seconds of `epochs` on `threads` threads: at `secondsPerEpoch` as
/// measured on earlier runs of the data set (≤ 0: unknown, then guessed from its size).
double estimateSeconds(double epochs, double secondsPerEpoch, long trainRows, long features,
                       int threads);

/// The summary under the dialog's fields (rich text): `problem` in red when there is one.
QString problemHtml(const QString& problem);
/// The summary of a runnable grid (rich text): its runs, the time estimate and how it was
/// made, what auto-tune adds, and the δ warning.
QString summaryHtml(std::size_t runs, double seconds, int threads, bool measured, bool autoTune,
                    const QString& deltaWarning);

}  // namespace pfa::ui::sweep_check
