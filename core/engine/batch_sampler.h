#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/privacy/sampling.h"
#include "core/util/random.h"

namespace pfa {

/// Calls `take(position)` for the positions 0 … population − 1 that one Poisson draw includes,
/// in ascending order, with the geometric skips `nextSkip()` returns between them.
template <typename NextSkip, typename Take>
void drawPoissonBySkips(NextSkip&& nextSkip, long population, Take&& take) {
    const auto end = static_cast<std::uint64_t>(population);
    std::uint64_t position = nextSkip();
    while (position < end) {
        take(static_cast<long>(position));
        const std::uint64_t skip = nextSkip();
        if (skip >= end) break;
        position += 1 + skip;
    }
}

/// Calls `take(position)` for the positions 0 … population − 1 that one Poisson draw includes,
/// in ascending order, each independently with probability q (`logOneMinusRate` = ln(1 − q),
/// −∞ for q = 1). Geometric skips between included positions make a draw O(q·population).
template <typename Take>
void drawPoisson(RandomStream& random, double logOneMinusRate, long population, Take&& take) {
    drawPoissonBySkips([&] { return random.geometricSkip(logOneMinusRate); }, population, take);
}

/// The geometric skips of Poisson sampling (`logOneMinusRate` = ln(1 − q)): the same skips as
/// random.geometricSkip would give one by one, drawn 64 at a time with their logarithms four at
/// a time (q = 1, ln(1 − q) = −∞: 0, drawing nothing, as geometricSkip). Only for a stream that
/// serves these skips alone: drawing ahead then changes no number.
class PoissonSkips {
public:
    explicit PoissonSkips(double logOneMinusRate) : m_logOneMinusRate(logOneMinusRate) {}
    /// The next skip, drawn from `random` (always the same stream).
    std::uint64_t next(RandomStream& random) {
        if (m_logOneMinusRate == -INFINITY) return 0;  // q = 1
        if (m_next == kBlock) refill(random);
        return m_skips[m_next++];
    }

private:
    void refill(RandomStream& random);

    static constexpr std::size_t kBlock = 64;
    double m_logOneMinusRate;
    std::array<double, kBlock> m_logs{};  // scratch: ln u of a block of draws
    std::array<std::uint64_t, kBlock> m_skips{};
    std::size_t m_next = kBlock;  // the next unused skip (kBlock: none left)
};

/// Poisson participation by one uniform draw per unit, unit after unit: unit i joins when
/// u_i < q; with q ≥ 1 everyone joins and nothing is drawn. Writes the members, ascending, to
/// `members` (capacity ≥ population), shows them to the release tap as `sampler` (which may
/// replace them), and returns how many there are. (drawPoisson draws less for a small q; this
/// form keeps each unit's draw at a fixed place in the stream. UnitSampler draws users and
/// silos with it — the form ppsgd and user-level-dp-sgd were written with, so their runs
/// reproduce — and the silo batcher draws a silo's rows with it.)
long drawParticipants(RandomStream& random, double q, long population, std::vector<long>& members,
                      const char* sampler);

/// Draws the row indices of each minibatch from the run's sampling stream. All buffers are
/// allocated once, so drawing a batch never touches the heap.
class BatchSampler {
public:
    /// The sampler `spec` describes (over rows: spec.unit must be SamplingUnit::Row), drawing
    /// from `random` (the run's sampling stream).
    BatchSampler(const SamplerSpec& spec, RandomStream random);

    /// Fills `indices` (capacity ≥ rows) for step `stepInEpoch` (0-based) and returns the
    /// batch size. Poisson batches are sorted ascending and may be empty.
    long next(long stepInEpoch, std::vector<long>& indices);

    /// What this sampler draws; the accountant reads q and T from the same spec.
    const SamplerSpec& spec() const { return m_spec; }
    /// Steps in one epoch: ⌈n/m⌉.
    long stepsPerEpoch() const { return m_stepsPerEpoch; }
    /// Inclusion probability q = m/n (exact for Poisson; the per-step share otherwise).
    double samplingRate() const { return m_rate; }

private:
    SamplerSpec m_spec;
    long m_stepsPerEpoch;
    double m_rate;
    RandomStream m_random;
    std::vector<long> m_pool;  // permutation (shuffle) or partially shuffled pool (subsample)
    /// Poisson sampling (the stream serves this sampler alone).
    PoissonSkips m_skips;
};

/// The row sampler of a run with resolved settings `config` (sampling mode, batch size m,
/// epochs) on the training rows of `train`.
SamplerSpec rowSampler(const TrainConfig& config, const Dataset& train);

}  // namespace pfa
