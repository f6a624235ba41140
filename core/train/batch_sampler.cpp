#include "core/train/batch_sampler.h"

#include <cmath>
#include <numeric>
#include <utility>

namespace pfa {

BatchSampler::BatchSampler(Sampling mode, long rows, long batchSize, RandomStream random)
    : m_mode(mode),
      m_rows(rows),
      m_batchSize(batchSize),
      m_stepsPerEpoch(stepsPerEpoch(rows, batchSize)),
      m_rate(static_cast<double>(batchSize) / static_cast<double>(rows)),
      m_logOneMinusRate(m_rate >= 1.0 ? -INFINITY : std::log1p(-m_rate)),
      m_random(std::move(random)) {
    if (mode != Sampling::Poisson) {
        m_pool.resize(static_cast<std::size_t>(rows));
        std::iota(m_pool.begin(), m_pool.end(), 0L);
    }
}

long BatchSampler::next(long stepInEpoch, std::vector<long>& indices) {
    long size = 0;
    switch (m_mode) {
        case Sampling::Poisson: {
            // Geometric skips between included rows: O(q·n) draws per step.
            std::uint64_t position = m_random.geometricSkip(m_logOneMinusRate);
            while (position < static_cast<std::uint64_t>(m_rows)) {
                indices[static_cast<std::size_t>(size++)] = static_cast<long>(position);
                const std::uint64_t skip = m_random.geometricSkip(m_logOneMinusRate);
                if (skip >= static_cast<std::uint64_t>(m_rows)) break;
                position += 1 + skip;
            }
            break;
        }
        case Sampling::Shuffle: {
            if (stepInEpoch == 0) {
                for (long i = m_rows - 1; i > 0; --i) {
                    std::swap(m_pool[static_cast<std::size_t>(i)],
                              m_pool[m_random.uniformIndex(static_cast<std::uint64_t>(i + 1))]);
                }
            }
            const long begin = stepInEpoch * m_batchSize;
            const long end = std::min(m_rows, begin + m_batchSize);
            for (long i = begin; i < end; ++i) {
                indices[static_cast<std::size_t>(size++)] = m_pool[static_cast<std::size_t>(i)];
            }
            break;
        }
        case Sampling::Subsample: {
            // Partial Fisher–Yates: the first m pool entries become a uniform m-subset.
            const long m = std::min(m_batchSize, m_rows);
            for (long i = 0; i < m; ++i) {
                const auto j = static_cast<std::size_t>(i) +
                               m_random.uniformIndex(static_cast<std::uint64_t>(m_rows - i));
                std::swap(m_pool[static_cast<std::size_t>(i)], m_pool[j]);
                indices[static_cast<std::size_t>(size++)] = m_pool[static_cast<std::size_t>(i)];
            }
            break;
        }
    }
    return size;
}

}  // namespace pfa
