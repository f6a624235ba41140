#pragma once

#include <cstdint>

#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/util/random.h"

namespace pfa {

/// The privacy-relevant random streams of one run: batch sampling, gradient noise and the
/// noise of the privatised group shares.
///
/// Two releases that share their noise give it away: from two models trained with the same
/// noise the noise-free clipped gradients follow exactly. So a reproducible run derives each
/// stream from its seed *and* a SHA-256 digest of every setting and of the training data:
/// runs that differ in any setting (ε, λ, epochs, the data, …) never share noise, while the
/// same record reproduces the same run bit for bit. The guarantee of such a run assumes the
/// seed is kept secret. With `secureNoise` every stream is keyed from operating-system
/// entropy instead (RandomStream::secure) and can never be regenerated.
class RunStreams {
public:
    /// `config` must be resolved (resolveDefaults), as the trainers see it.
    RunStreams(const TrainConfig& config, const Dataset& train);

    /// The stream with `label` (streams::kSampling, kNoise, kShares).
    RandomStream stream(std::uint64_t label) const;
    bool secure() const { return m_secure; }
    /// SHA-256 of the settings key and the training data's fingerprint.
    const RandomStream::Digest& digest() const { return m_digest; }

private:
    std::uint64_t m_seed;
    bool m_secure;
    RandomStream::Digest m_digest{};
};

/// A 64-bit fingerprint of the training data (names, sizes, every value of X, y, s and the
/// user ids, regression targets): different data gives different noise streams. Not cryptographic:
/// secrecy comes from the seed, distinctness is all that is needed here. About one ns per value.
std::uint64_t dataFingerprint(const Dataset& data);

}  // namespace pfa
