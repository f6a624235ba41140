#pragma once

#include <cstdint>
#include <vector>

#include "core/train/train_config.h"
#include "core/util/random.h"

namespace pfa {

/// Draws the row indices of each minibatch from the run's sampling stream. All buffers are
/// allocated once, so drawing a batch never touches the heap.
class BatchSampler {
public:
    /// `rows` training rows, nominal batch size `batchSize` (⌈rows/batchSize⌉ steps per
    /// epoch), drawing from `random` (the run's sampling stream).
    BatchSampler(Sampling mode, long rows, long batchSize, RandomStream random);

    /// Fills `indices` (capacity ≥ rows) for step `stepInEpoch` (0-based) and returns the
    /// batch size. Poisson batches are sorted ascending and may be empty.
    long next(long stepInEpoch, std::vector<long>& indices);

    /// Steps in one epoch: ⌈n/m⌉.
    long stepsPerEpoch() const { return m_stepsPerEpoch; }
    /// The steps per epoch of a sampler over `rows` rows with nominal batch `batchSize`: the
    /// one formula that both the loop and the accountant's T use.
    static long stepsPerEpoch(long rows, long batchSize) { return (rows + batchSize - 1) / batchSize; }
    /// Inclusion probability q = m/n (exact for Poisson; the per-step share otherwise).
    double samplingRate() const { return m_rate; }

private:
    Sampling m_mode;
    long m_rows;
    long m_batchSize;
    long m_stepsPerEpoch;
    double m_rate;
    double m_logOneMinusRate;
    RandomStream m_random;
    std::vector<long> m_pool;  // permutation (shuffle) or partially shuffled pool (subsample)
};

}  // namespace pfa
