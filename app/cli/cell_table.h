#pragma once

#include <string>
#include <vector>

#include "core/sweep/sweep_summary.h"
#include "core/util/json_value.h"

namespace pfa::cli {

/// "0.1234 ± 0.0056" (or "-" without values), as the summary tables print a cell's metric.
std::string meanSdText(const MeanSd& s, int decimals);

/// A cell's point on its algorithm's curve: λ, or "s=…", "c=…", "gamma=…" for the algorithms
/// whose curve runs over another setting.
std::string curvePointOf(const SweepCell& cell);

/// Prints the summary table of `cells` (summarizeRecords of `records`): one line per cell,
/// mean ± sd over its seeds, and the notes on runs' own curves and regression algorithms; adds
/// the cells' failed runs to `failed`. What train prints at the end and merge prints for the
/// merged file.
void printCellTable(const std::vector<SweepCell>& cells, const std::vector<JsonValue>& records,
                    std::size_t& failed);

}  // namespace pfa::cli
