#pragma once

#include <string>

#include "core/config/train_config.h"
#include "core/data/dataset.h"

namespace pfa {

/// The privacy budgets a person may ask for: ε from kSmallestOfferedEpsilon to
/// kLargestOfferedEpsilon, or ∞ (no privacy). One range for every place where ε is typed: the
/// GUI's ε control and sweep dialog, `pfa-cli train --epsilon`. A run itself accepts any ε > 0,
/// because a split tuning budget gives each of K candidates ε/K, below the smallest offered.
inline constexpr double kSmallestOfferedEpsilon = 0.05;
inline constexpr double kLargestOfferedEpsilon = 100.0;

/// "" when `epsilon` is an offered budget (or ∞); otherwise why not, in one line that names the
/// value as `name` ("epsilon", "ε") and says what to use instead.
std::string offeredEpsilonProblem(double epsilon, const std::string& name = "epsilon");

/// δ from here on is refused: an (ε, δ) guarantee may fail outright with probability δ, so a
/// run at δ ≥ 0.1 would be certified while promising nothing.
inline constexpr double kRefusedDelta = 0.1;

/// "" unless the private run of `config` uses a δ of kRefusedDelta or more; then why it is
/// refused, naming the value as `name`. validateCommonConfig throws it.
std::string deltaProblem(const TrainConfig& config, const std::string& name = "delta");

/// "" unless the private run of `config` uses a δ of at least 1/n (n = `trainRows`): allowed,
/// but such a δ lets a mechanism publish a whole record of someone, so the user is warned.
/// The value is named `name` ("delta", "δ").
std::string deltaWarning(const TrainConfig& config, long trainRows,
                         const std::string& name = "delta");

/// Checks the rules of the common settings that need the data or the run's privacy (δ below
/// kRefusedDelta for a private run, batch size ≤ rows, ρ ≤ 1/k, advantaged class < classes,
/// at least 2 classes and groups, a non-empty test part); the
/// ranges of single values are checked from their declarations (validateParameters).
/// prepareRun calls it. For a regression algorithm (`classification` false) the rules about
/// classes and groups do not apply; a classification algorithm refuses regression data.
/// Throws InputError naming the value.
void validateCommonConfig(const TrainConfig& config, const DataSplit& data,
                          bool classification = true);

/// For algorithms without a fairness term: λ must be 0.
void requireNoFairness(const TrainConfig& config);

/// For non-private algorithms: ε must be ∞.
void requireNonPrivate(const TrainConfig& config);

/// Batch sharing by seed (TrainConfig::batchSharing) for a private run: its release must be a
/// Poisson-subsampled Gaussian (Poisson sampling) for the joint accounting of the runs that
/// share a sample, and its sample must be regenerable from the seed (not secure noise).
void requireShareableBatches(const TrainConfig& config);

/// The fairness penalty needs every group in every cell of its notion among the training rows
/// (dp-fermi.md §5.4 "Requirement"); throws InputError naming the empty cell.
void requirePenaltyCellsPresent(const TrainConfig& config, const Dataset& train);

/// Fills the "auto" fields: δ = 1/n², sampling (Poisson when private, shuffle otherwise),
/// W radius R = √(l/ρ), C_W = 2λ(1/√ρ + R); sets replace-one adjacency for the
/// sensitive-only scope and for private runs with fixed-size batches.
TrainConfig resolveDefaults(TrainConfig config, const DataSplit& data);

/// resolveDefaults for an algorithm whose unit of privacy is a user, with `users` users: an
/// automatic δ is 1/users² (the unit's count, public under replace-one), and the batch size is
/// left as requested (such an algorithm has none; its automatic value would read the number of
/// rows, which at user level is private).
TrainConfig resolveUserLevelDefaults(const TrainConfig& requested, const DataSplit& data,
                                     long users);

}  // namespace pfa
