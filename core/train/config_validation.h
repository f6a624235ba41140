#pragma once

#include "core/data/dataset.h"
#include "core/train/train_config.h"

namespace pfa {

/// Checks the rules of the common settings that need the data (batch size ≤ rows, ρ ≤ 1/k,
/// advantaged class < classes, at least 2 classes and groups, a non-empty test part); the
/// ranges of single values are checked from their declarations (validateParameters).
/// prepareRun calls it. For a regression algorithm (`classification` false) the rules about
/// classes and groups do not apply; a classification algorithm refuses regression data.
/// Throws InputError naming the value.
void validateCommonConfig(const TrainConfig& config, const DataSplit& data, bool classification = true);

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
