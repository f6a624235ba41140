#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/sweep/run_record.h"
#include "core/train/cancel_token.h"
#include "core/train/run_result.h"

namespace pfa {

/// A grid of runs: every combination of ε × λ × seed on top of a base configuration.
struct GridSpec {
    TrainConfig base;
    std::vector<double> epsilons{1.0};
    std::vector<double> lambdas{1.0};
    std::vector<std::uint64_t> seeds{0};

    /// The configurations in grid order (ε outermost, seed innermost).
    std::vector<TrainConfig> configurations() const;
};

/// Options of a grid execution.
struct GridOptions {
    int threads = 0;           ///< worker threads; 0 = all hardware threads
    std::string outputPath;    ///< JSON-lines file to append to ("" = none)
    RunContext context;        ///< data description stored with every line
    /// Called (from worker threads, serialised) after each run with its index in grid order.
    std::function<void(std::size_t index, const RunResult& result)> onRunFinished;
};

/// Validates every configuration of `grid` against `data`; throws InputError naming the first
/// offending value.
void validateGrid(const GridSpec& grid, const DataSplit& data);

/// Runs every configuration of `grid` on `data`, in parallel over `options.threads` workers.
/// Each finished run is appended to the output file as one JSON line and flushed to disk
/// at once, so an interrupted grid loses no finished run. Returns the results in grid order
/// (runs skipped because of cancellation are absent). Throws InputError before starting if any
/// configuration is invalid, or if the output file cannot be opened.
std::vector<RunResult> runGrid(const GridSpec& grid, const DataSplit& data,
                               const GridOptions& options, const CancelToken& cancel);

}  // namespace pfa
