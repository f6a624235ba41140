#pragma once

#include "core/data/dataset.h"
#include "core/train/train_config.h"

namespace pfa {

/// Checks the fields every algorithm uses (epochs, batch size, learning rates, ε, δ, λ,
/// clip norms, ρ, classes and groups of the data). Throws InputError naming the value.
void validateCommonConfig(const TrainConfig& config, const DataSplit& data);

/// For algorithms without a fairness term: λ must be 0.
void requireNoFairness(const TrainConfig& config);

/// For non-private algorithms: ε must be ∞.
void requireNonPrivate(const TrainConfig& config);

/// The fairness penalty needs every group in every cell of its notion among the training rows
/// (dp-fermi.md §5.4 "Requirement"); throws InputError naming the empty cell.
void requirePenaltyCellsPresent(const TrainConfig& config, const Dataset& train);

/// Fills the "auto" fields: δ = 1/n², sampling (Poisson when private, shuffle otherwise),
/// W radius R = √(l/ρ), C_W = 2λ(1/√ρ + R); sets replace-one adjacency for the
/// sensitive-only scope and for private runs with fixed-size batches.
TrainConfig resolveDefaults(TrainConfig config, const DataSplit& data);

}  // namespace pfa
