#pragma once

namespace pfa {

/// How minibatches are drawn (privacy-accounting.md §6). It lives with the accounting because
/// the accountant's analysis depends on it; the trainers' samplers implement it.
enum class Sampling {
    Poisson,    ///< each row independently with probability q = m/n (default when private)
    Shuffle,    ///< epoch-wise permutation split into batches of m (default when not private)
    Subsample,  ///< m distinct rows drawn uniformly at every step
};

/// What a sampler draws: single rows, or every row of a user or of a silo at once (the unit of
/// privacy, privacy-accounting.md §1, §7).
enum class SamplingUnit { Row, User, Silo };

/// The sampler a run uses, as plain data: the one source of the sampling rate q, the steps per
/// epoch and the run's step count T. The trainer builds the sampler that draws its batches from
/// it (BatchSampler, UnitSampler), and the accountant reads q and T from the same object, so
/// the steps that are charged are the steps that run.
struct SamplerSpec {
    Sampling mode = Sampling::Shuffle;
    SamplingUnit unit = SamplingUnit::Row;
    long population = 0;  ///< units that can be drawn: n rows, or N users or silos
    long batchSize = 1;   ///< m: nominal (for Poisson: expected) units per step
    int epochs = 1;

    /// `rows` rows drawn in `mode` with nominal batch `batchSize`, for `epochs` epochs.
    static SamplerSpec overRows(Sampling mode, long rows, long batchSize, int epochs) {
        return {mode, SamplingUnit::Row, rows, batchSize, epochs};
    }
    /// Poisson sampling over `units` users or silos, `expectedUnits` of them per step.
    static SamplerSpec overUnits(SamplingUnit unit, long units, long expectedUnits, int epochs) {
        return {Sampling::Poisson, unit, units, expectedUnits, epochs};
    }

    /// Steps in one epoch: ⌈population / m⌉ (one pass over the units in expectation).
    long stepsPerEpoch() const { return (population + batchSize - 1) / batchSize; }
    /// T: the steps of a run that is not stopped early.
    long steps() const { return stepsPerEpoch() * epochs; }
    /// q = m / population: each unit's inclusion probability (Poisson), or the share of the
    /// units one step uses (shuffle, subsample).
    double samplingRate() const {
        return static_cast<double>(batchSize) / static_cast<double>(population);
    }

    bool operator==(const SamplerSpec& other) const = default;
};

}  // namespace pfa
