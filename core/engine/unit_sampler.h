#pragma once

#include <span>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/units.h"
#include "core/privacy/sampling.h"
#include "core/util/random.h"

namespace pfa {

/// Poisson sampling over a unit of privacy coarser than a row (privacy-accounting.md §7, user
/// level): every user or silo joins a step's batch independently with probability q = m/N, and
/// the batch is every row of the sampled units, so one unit's whole contribution is either in
/// or out. Each unit has its own uniform draw in every step, in unit order (none when q = 1),
/// so a unit's inclusion sits at a fixed place in the stream. Buffers are sized at
/// construction; drawing never touches the heap.
class UnitSampler {
public:
    /// Draws over the units of `units` as `spec` says (Poisson, unit User or Silo, population =
    /// units.units()), from `random` (the run's sampling stream). `units` must outlive the
    /// sampler. Throws InputError for any other spec.
    UnitSampler(const SamplerSpec& spec, const UnitIndex& units, RandomStream random);
    /// A sampler of units alone (spec.population of them), for loops that visit the drawn
    /// units themselves (nextUnits); next(rows) is not available.
    UnitSampler(const SamplerSpec& spec, RandomStream random);

    /// Draws one step's units (drawnUnits()) and returns how many there are.
    long nextUnits();

    /// Draws one step's units and writes all their rows to `rows` (capacity ≥ units.rows()):
    /// unit after unit in ascending unit position, each unit's rows ascending. Returns the
    /// number of rows (0 for an empty batch, which still takes a noise-only step).
    long next(std::vector<long>& rows);

    /// Positions (in the index) of the units the last next() drew, ascending; their rows are
    /// consecutive in `rows` in this order.
    std::span<const long> drawnUnits() const {
        return std::span<const long>(m_drawn).first(static_cast<std::size_t>(m_drawnCount));
    }

    /// What this sampler draws; the accountant reads q and T from the same spec.
    const SamplerSpec& spec() const { return m_spec; }
    /// Steps in one epoch: ⌈N/m⌉.
    long stepsPerEpoch() const { return m_spec.stepsPerEpoch(); }
    /// Each unit's inclusion probability q = m/N.
    double samplingRate() const { return m_rate; }

private:
    SamplerSpec m_spec;
    const UnitIndex* m_units;  ///< null for a sampler of units alone
    double m_rate;
    RandomStream m_random;
    std::vector<long> m_drawn;  // capacity N, allocated once
    long m_drawnCount = 0;
};

/// The users or silos of `train` (Dataset::users, Dataset::silos); throws InputError when the
/// data has none. `unit` must be SamplingUnit::User or SamplingUnit::Silo.
const UnitIndex& unitIndexOf(const Dataset& train, SamplingUnit unit);

}  // namespace pfa
