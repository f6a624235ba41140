#pragma once

#include <cstdint>
#include <optional>
#include <string>

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
    /// `config` must be resolved (resolveDefaults), as the trainers see it. `population`, when
    /// not empty, names (by public settings) which of the training rows the batches are drawn
    /// from, e.g. "private rows: public-share=0.03,public-seed=0": shared batches over other
    /// rows are another sample, with another name.
    /// `streamsPopulation`, when given, keys sharedStream instead of `population` (e.g. a nested
    /// sample of every row, whose name holds a rate read from n, while the public rows' order
    /// needs only the public settings).
    RunStreams(const TrainConfig& config, const Dataset& train, const std::string& population = "",
               const std::optional<std::string>& streamsPopulation = std::nullopt);

    /// The stream with `label` (streams::kSampling, kNoise, kShares). With batch sharing
    /// (TrainConfig::batchSharing, private runs) the sampling stream is keyed by the seed, the
    /// sampler and the training data only, so every run that shares them draws the same
    /// batches; the other streams stay the run's own.
    RandomStream stream(std::uint64_t label) const;
    /// A further stream that every run sharing the batches draws alike (e.g. the order of rows
    /// that need no protection), keyed by the seed, the population and the data but not by the
    /// sampler (whose row count is private under add/remove); the run's own when it does not
    /// share batches.
    RandomStream sharedStream(std::uint64_t label) const;
    /// Which shared batches the run draws, named by public settings only:
    /// "seed 0;sampling=poisson;batch=4096;epochs=200;rows=33916" (the same for every run
    /// drawing the same batches; runs on other rows of the same size have the same name, and a
    /// ledger charges them at least as much as either case needs), or empty for a run with its
    /// own sample.
    const std::string& sharedBatches() const { return m_sharedBatches; }
    bool secure() const { return m_secure; }
    /// SHA-256 of the settings key and the training data's fingerprint.
    const RandomStream::Digest& digest() const { return m_digest; }

private:
    std::uint64_t m_seed;
    bool m_secure;
    RandomStream::Digest m_digest{};
    RandomStream::Digest m_samplingDigest{};
    RandomStream::Digest m_sharedDigest{};
    std::string m_sharedBatches;
};

/// While alive, RunStreams made on this thread for `data` (the same object) take its
/// fingerprint from here instead of reading every value again: runs planned together on one
/// data set, and the runs of a sweep, compute it once. The data must not change meanwhile.
/// Scopes nest: a sweep makes one for its training rows and one for its test rows.
class KnownDataFingerprint {
public:
    /// Computes the fingerprint, unless an enclosing scope already knows that of `data`.
    explicit KnownDataFingerprint(const Dataset& data);
    /// With `fingerprint` = dataFingerprint(data), computed before (e.g. once for a sweep).
    KnownDataFingerprint(const Dataset& data, std::uint64_t fingerprint);
    ~KnownDataFingerprint();
    KnownDataFingerprint(const KnownDataFingerprint&) = delete;
    KnownDataFingerprint& operator=(const KnownDataFingerprint&) = delete;

    /// The fingerprint of `data` known on this thread (by this scope or an enclosing one), or
    /// null.
    static const std::uint64_t* find(const Dataset& data);

private:
    const Dataset* m_data;
    std::uint64_t m_fingerprint = 0;
    const KnownDataFingerprint* m_enclosing;
};

/// A 64-bit fingerprint of the training data (names, sizes, every value of X, y, s and the
/// user ids, regression targets): different data gives different noise streams. Not cryptographic:
/// secrecy comes from the seed, distinctness is all that is needed here. About one ns per value.
std::uint64_t dataFingerprint(const Dataset& data);

/// dataFingerprint(data), taken from an enclosing KnownDataFingerprint of `data` on this thread
/// when there is one (free), computed otherwise.
std::uint64_t knownOrNewFingerprint(const Dataset& data);

}  // namespace pfa
