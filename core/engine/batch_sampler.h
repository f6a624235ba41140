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

/// One nested Poisson sample per step, shared by runs at different rates on different subsets
/// of one population (shared-sample nested): every unit joins the step's envelope sample
/// independently with probability `envelopeRate` (geometric skips) and is given a level uniform
/// on (0, envelopeRate); a run at rate q ≤ envelopeRate takes the units it may take whose level
/// is below q. So each unit is in a run's batch independently with probability q, and a unit
/// in a lower-rate run's batch is in every higher-rate run's batch that may take it: the
/// differing unit of two neighbouring data sets joins at least one batch with probability the
/// highest rate (the ledger's joint bound). The levels come from a stream of their own (keyed
/// from the sampling stream, or OS entropy for a secure one), one per drawn unit in order, so a
/// sample replayed one unit short (a neighbour test) keeps every other unit's level.
class NestedPoissonSample {
public:
    /// Draws from `sampling` (which serves this sample alone) over units 0 … population − 1.
    NestedPoissonSample(long population, double envelopeRate, RandomStream& sampling);

    /// Draws the next step's envelope sample (ascending units with their levels), shown to the
    /// release tap as `sampler`.
    void draw(RandomStream& sampling, const char* sampler);
    /// Keeps only the drawn units whose level is below `rate`, in order (those no run at a rate
    /// up to `rate` takes are dropped).
    void keepBelow(double rate);

    long size() const { return m_size; }
    const long* units() const { return m_units.data(); }
    const double* levels() const { return m_levels.data(); }
    /// Whether a run at `rate` takes the drawn unit k (of those it may take).
    bool takes(long k, double rate) const { return m_levels[static_cast<std::size_t>(k)] < rate; }
    double envelopeRate() const { return m_envelopeRate; }

private:
    long m_population;
    double m_envelopeRate;
    PoissonSkips m_skips;
    RandomStream m_levelStream;
    std::vector<long> m_units;
    std::vector<double> m_levels;
    long m_size = 0;
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
