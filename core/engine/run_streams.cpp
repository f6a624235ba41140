#include "core/engine/run_streams.h"

#include <cstring>
#include <string>

#include "core/config/parameters.h"
#include "core/privacy/noisy_release.h"
#include "core/util/sha256.h"

namespace pfa {

namespace {

/// One multiply–xorshift round per 64-bit word (a MurmurHash3/splitmix-style mixer).
struct Mixer {
    std::uint64_t h = 0x243f6a8885a308d3ULL;
    void add(std::uint64_t word) {
        h ^= word + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h *= 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 31;
    }
    void add(double value) {
        std::uint64_t bits;
        std::memcpy(&bits, &value, sizeof bits);
        add(bits);
    }
    void add(const std::string& text) {
        add(static_cast<std::uint64_t>(text.size()));
        for (unsigned char c : text) add(static_cast<std::uint64_t>(c));
    }
};

}  // namespace

std::uint64_t dataFingerprint(const Dataset& data) {
    Mixer mix;
    mix.add(data.name);
    mix.add(data.sensitiveDescription);
    mix.add(static_cast<std::uint64_t>(data.X.rows()));
    mix.add(static_cast<std::uint64_t>(data.X.cols()));
    // Row by row: the rows are stored a bias column apart.
    for (Eigen::Index i = 0; i < data.X.rows(); ++i)
        for (Eigen::Index j = 0; j < data.X.cols(); ++j) mix.add(data.X(i, j));
    for (Eigen::Index i = 0; i < data.y.size(); ++i) mix.add(static_cast<std::uint64_t>(data.y(i)));
    for (Eigen::Index i = 0; i < data.s.size(); ++i) mix.add(static_cast<std::uint64_t>(data.s(i)));
    for (Eigen::Index i = 0; i < data.userId.size(); ++i) {
        mix.add(static_cast<std::uint64_t>(data.userId(i)));
    }
    // Regression targets (classification data has none, so its fingerprint is unchanged).
    for (Eigen::Index i = 0; i < data.target.size(); ++i) mix.add(data.target(i));
    return mix.h;
}

namespace {

RandomStream::Digest digestOf(const std::string& text) {
    const std::string hex = sha256Hex(text);
    RandomStream::Digest digest{};
    for (std::size_t i = 0; i < digest.size(); ++i) {
        digest[i] = static_cast<std::uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
    }
    return digest;
}

}  // namespace

namespace {
/// The innermost KnownDataFingerprint alive on this thread (each links to the one it encloses).
thread_local const KnownDataFingerprint* innermostKnown = nullptr;
}  // namespace

const std::uint64_t* KnownDataFingerprint::find(const Dataset& data) {
    for (const KnownDataFingerprint* known = innermostKnown; known; known = known->m_enclosing) {
        if (known->m_data == &data) return &known->m_fingerprint;
    }
    return nullptr;
}

KnownDataFingerprint::KnownDataFingerprint(const Dataset& data)
    : m_data(&data), m_enclosing(innermostKnown) {
    const std::uint64_t* enclosing = find(data);
    m_fingerprint = enclosing ? *enclosing : dataFingerprint(data);
    innermostKnown = this;
}

KnownDataFingerprint::KnownDataFingerprint(const Dataset& data, std::uint64_t fingerprint)
    : m_data(&data), m_fingerprint(fingerprint), m_enclosing(innermostKnown) {
    innermostKnown = this;
}

std::uint64_t knownOrNewFingerprint(const Dataset& data) {
    const std::uint64_t* known = KnownDataFingerprint::find(data);
    return known ? *known : dataFingerprint(data);
}

KnownDataFingerprint::~KnownDataFingerprint() { innermostKnown = m_enclosing; }

RunStreams::RunStreams(const TrainConfig& config, const Dataset& train,
                       const std::string& population,
                       const std::optional<std::string>& streamsPopulation)
    : m_seed(config.seed), m_secure(config.secureNoise) {
    if (m_secure) return;
    // A neighbour test keys both data sets' streams alike (privacy::ReleaseTap).
    const privacy::ReleaseTap* tap = privacy::activeReleaseTap();
    const std::optional<std::uint64_t> keyed = tap ? tap->dataFingerprint() : std::nullopt;
    const std::uint64_t fingerprint = keyed ? *keyed : knownOrNewFingerprint(train);
    const std::string data = "|data=" + std::to_string(fingerprint);
    m_digest = digestOf(settingsKey(config) + data);
    m_samplingDigest = m_sharedDigest = m_digest;
    if (drawsSharedBatches(config)) {
        const std::string sampler = sharedSamplerKey(config, static_cast<long>(train.rows())) +
                                    (population.empty() ? "" : ";" + population);
        m_samplingDigest = digestOf("shared-batches|" + sampler + data);
        // Named from public settings only: the key's data fingerprint is an exact function of
        // the private rows and never goes into a record.
        m_sharedBatches = "seed " + std::to_string(m_seed) + ";" + sampler;
        // Not keyed by the sampler: n (in it) is private under add/remove, and streams of rows
        // that need no protection may be shared more widely than the batches.
        m_sharedDigest =
            digestOf("shared-streams|" + streamsPopulation.value_or(population) + data);
    }
}

RandomStream RunStreams::sharedStream(std::uint64_t label) const {
    if (m_secure) return RandomStream::secure();
    return RandomStream(m_seed, label, m_sharedDigest);
}

RandomStream RunStreams::stream(std::uint64_t label) const {
    if (m_secure) return RandomStream::secure();
    return RandomStream(m_seed, label, label == streams::kSampling ? m_samplingDigest : m_digest);
}

}  // namespace pfa
