#pragma once

#include <vector>

#include "core/sweep/prepared_dataset.h"
#include "ui/runs/run_entry.h"

namespace pfa::ui {

/// Seconds per training epoch measured on the completed runs in `runs` that trained on the
/// same data as `data` (total seconds over total epochs); −1 when there are none. The sweep
/// dialog's time estimate starts from it.
double measuredSecondsPerEpoch(const std::vector<RunEntryPtr>& runs,
                               const pfa::PreparedDataset& data);

}  // namespace pfa::ui
