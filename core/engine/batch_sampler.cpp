#include "core/engine/batch_sampler.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "core/privacy/noisy_release.h"

namespace pfa {

long drawParticipants(RandomStream& random, double q, long population, std::vector<long>& members,
                      const char* sampler) {
    long size = 0;
    for (long i = 0; i < population; ++i) {
        if (q < 1.0 && !(random.uniformOpen() < q)) continue;
        members[static_cast<std::size_t>(size++)] = i;
    }
    privacy::observeBatch({sampler, population, q < 1.0 ? q : 1.0}, members, size);
    return size;
}

namespace {
constexpr std::uint64_t kLevelStream = 0x4c4556454c530000ULL;  // "LEVELS"
}  // namespace

NestedPoissonSample::NestedPoissonSample(long population, double envelopeRate,
                                         RandomStream& sampling)
    : m_population(population),
      m_envelopeRate(std::min(1.0, envelopeRate)),
      m_skips(m_envelopeRate >= 1.0 ? -INFINITY : std::log1p(-m_envelopeRate)),
      m_levelStream(sampling.isSecure() ? RandomStream::secure()
                                        : RandomStream(sampling.next64(), kLevelStream)),
      m_units(static_cast<std::size_t>(population)),
      m_levels(static_cast<std::size_t>(population)) {
    if (!(envelopeRate > 0.0)) throw std::logic_error("a nested sample needs a positive rate");
}

void NestedPoissonSample::draw(RandomStream& sampling, const char* sampler) {
    m_size = 0;
    drawPoissonBySkips([&] { return m_skips.next(sampling); }, m_population,
                       [&](long unit) { m_units[static_cast<std::size_t>(m_size++)] = unit; });
    privacy::observeBatch({sampler, m_population, m_envelopeRate}, m_units, m_size);
    for (long k = 0; k < m_size; ++k)
        m_levels[static_cast<std::size_t>(k)] = m_envelopeRate * m_levelStream.uniformOpen();
}

void NestedPoissonSample::keepBelow(double rate) {
    long kept = 0;
    for (long k = 0; k < m_size; ++k) {
        const auto from = static_cast<std::size_t>(k);
        if (!(m_levels[from] < rate)) continue;
        m_units[static_cast<std::size_t>(kept)] = m_units[from];
        m_levels[static_cast<std::size_t>(kept++)] = m_levels[from];
    }
    m_size = kept;
}

BatchSampler::BatchSampler(const SamplerSpec& spec, RandomStream random)
    : m_spec(spec),
      m_stepsPerEpoch(spec.stepsPerEpoch()),
      m_rate(spec.samplingRate()),
      m_random(std::move(random)),
      m_skips(m_rate >= 1.0 ? -INFINITY : std::log1p(-m_rate)) {
    if (spec.unit != SamplingUnit::Row) {
        throw std::logic_error("BatchSampler draws rows; use UnitSampler for users or silos");
    }
    if (spec.mode != Sampling::Poisson) {
        m_pool.resize(static_cast<std::size_t>(spec.population));
        std::iota(m_pool.begin(), m_pool.end(), 0L);
    }
}

long BatchSampler::next(long stepInEpoch, std::vector<long>& indices) {
    const long rows = m_spec.population;
    const long batchSize = m_spec.batchSize;
    long size = 0;
    switch (m_spec.mode) {
        case Sampling::Poisson: {
            const auto take = [&](long row) { indices[static_cast<std::size_t>(size++)] = row; };
            drawPoissonBySkips([this] { return m_skips.next(m_random); }, rows, take);
            break;
        }
        case Sampling::Shuffle: {
            if (stepInEpoch == 0) {
                for (long i = rows - 1; i > 0; --i) {
                    std::swap(m_pool[static_cast<std::size_t>(i)],
                              m_pool[m_random.uniformIndex(static_cast<std::uint64_t>(i + 1))]);
                }
            }
            const long begin = stepInEpoch * batchSize;
            const long end = std::min(rows, begin + batchSize);
            for (long i = begin; i < end; ++i) {
                indices[static_cast<std::size_t>(size++)] = m_pool[static_cast<std::size_t>(i)];
            }
            break;
        }
        case Sampling::Subsample: {
            // Partial Fisher–Yates: the first m pool entries become a uniform m-subset.
            const long m = std::min(batchSize, rows);
            for (long i = 0; i < m; ++i) {
                const auto j = static_cast<std::size_t>(i) +
                               m_random.uniformIndex(static_cast<std::uint64_t>(rows - i));
                std::swap(m_pool[static_cast<std::size_t>(i)], m_pool[j]);
                indices[static_cast<std::size_t>(size++)] = m_pool[static_cast<std::size_t>(i)];
            }
            break;
        }
    }
    privacy::observeBatch({"rows", rows, m_rate}, indices, size);
    return size;
}

void PoissonSkips::refill(RandomStream& random) {
    for (double& draw : m_logs) draw = random.uniformOpen();
    tableLogs(m_logs.data(), m_logs.data(), static_cast<long>(kBlock));
    for (std::size_t j = 0; j < kBlock; ++j)
        m_skips[j] = RandomStream::geometricSkipOf(m_logs[j], m_logOneMinusRate);
    m_next = 0;
}

SamplerSpec rowSampler(const TrainConfig& config, const Dataset& train) {
    if (!config.sampling || config.batchSize <= 0) {
        throw std::logic_error("rowSampler needs resolved settings (resolveDefaults)");
    }
    return SamplerSpec::overRows(*config.sampling, static_cast<long>(train.rows()),
                                 config.batchSize, config.epochs);
}

}  // namespace pfa
