#include "core/engine/unit_sampler.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/engine/batch_sampler.h"
#include "core/privacy/noisy_release.h"
#include "core/util/error.h"

namespace pfa {

namespace {

const char* unitWord(SamplingUnit unit) {
    switch (unit) {
        case SamplingUnit::Row:
            return "row";
        case SamplingUnit::User:
            return "user";
        case SamplingUnit::Silo:
            return "silo";
    }
    return "unit";
}

}  // namespace

UnitSampler::UnitSampler(const SamplerSpec& spec, const UnitIndex& units, RandomStream random)
    : UnitSampler(spec, std::move(random)) {
    if (spec.population != units.units()) {
        throw InputError("the sampler expects " + std::to_string(spec.population) + " " +
                         unitWord(spec.unit) + "s, the data has " + std::to_string(units.units()));
    }
    m_units = &units;
}

UnitSampler::UnitSampler(const SamplerSpec& spec, RandomStream random)
    : m_spec(spec), m_units(nullptr), m_rate(0.0), m_random(std::move(random)) {
    if (spec.unit == SamplingUnit::Row) {
        throw InputError("a unit sampler draws users or silos; rows are drawn by BatchSampler");
    }
    // Fixed-size batches of units would need their own (replace-one) analysis; only Poisson
    // sampling of units is accounted (privacy-accounting.md §7).
    if (spec.mode != Sampling::Poisson) {
        throw InputError(std::string("only Poisson sampling is supported per ") +
                         unitWord(spec.unit));
    }
    if (spec.population < 1) {
        throw InputError(std::string("the data has no ") + unitWord(spec.unit) + "s to sample");
    }
    if (spec.batchSize < 1 || spec.batchSize > spec.population) {
        throw InputError("expected " + std::string(unitWord(spec.unit)) +
                         "s per step = " + std::to_string(spec.batchSize) + " must be in [1, " +
                         std::to_string(spec.population) + "]");
    }
    m_rate = spec.samplingRate();
    m_drawn.resize(static_cast<std::size_t>(spec.population));
}

long UnitSampler::nextUnits() {
    m_drawnCount = drawParticipants(m_random, m_rate, m_spec.population, m_drawn,
                                    m_spec.unit == SamplingUnit::User ? "users" : "silos");
    return m_drawnCount;
}

long UnitSampler::next(std::vector<long>& rows) {
    if (!m_units) throw std::logic_error("a sampler of units alone has no rows to draw");
    nextUnits();
    long size = 0;
    for (long k = 0; k < m_drawnCount; ++k) {
        for (const long row : m_units->rowsOf(m_drawn[static_cast<std::size_t>(k)])) {
            rows[static_cast<std::size_t>(size++)] = row;
        }
    }
    return size;
}

const UnitIndex& unitIndexOf(const Dataset& train, SamplingUnit unit) {
    if (unit == SamplingUnit::User) {
        if (!train.users) throw InputError("the data has no user ids to sample users by");
        return *train.users;
    }
    if (unit == SamplingUnit::Silo) {
        if (!train.silos) throw InputError("the data has no silos to sample by");
        return *train.silos;
    }
    throw InputError("rows are not a unit index; sample rows with BatchSampler");
}

}  // namespace pfa
