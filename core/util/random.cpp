#include "core/util/random.h"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace pfa {

namespace {
// SplitMix64 finaliser: turns (seed, label) into well-mixed engine seeds.
std::uint64_t splitMix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}
}  // namespace

RandomStream::RandomStream(std::uint64_t seed, std::uint64_t streamLabel) {
    const std::uint64_t a = splitMix64(seed ^ splitMix64(streamLabel));
    const std::uint64_t b = splitMix64(a);
    std::seed_seq sequence{static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(a >> 32),
                           static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(b >> 32)};
    m_engine.seed(sequence);
}

RandomStream::RandomStream(std::uint64_t seed, std::uint64_t streamLabel, const Digest& digest) {
    const std::uint64_t a = splitMix64(seed ^ splitMix64(streamLabel));
    const std::uint64_t b = splitMix64(a);
    // All 256 digest bits reach the engine's state through seed_seq.
    std::vector<std::uint32_t> words{
        static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(a >> 32),
        static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(b >> 32)};
    for (std::size_t i = 0; i < digest.size(); i += 4) {
        words.push_back(static_cast<std::uint32_t>(digest[i]) |
                        static_cast<std::uint32_t>(digest[i + 1]) << 8 |
                        static_cast<std::uint32_t>(digest[i + 2]) << 16 |
                        static_cast<std::uint32_t>(digest[i + 3]) << 24);
    }
    std::seed_seq sequence(words.begin(), words.end());
    m_engine.seed(sequence);
}

RandomStream RandomStream::secure() {
    if (sodium_init() < 0) throw std::runtime_error("libsodium could not be initialised");
    RandomStream stream;
    stream.m_secure = true;
    randombytes_buf(stream.m_key.data(), stream.m_key.size());  // OS entropy (getrandom)
    stream.m_used = stream.m_block.size();                      // refill on first use
    return stream;
}

void RandomStream::refillSecureBlock() {
    // Keystream of ChaCha20 under the secret key; a fresh 64-bit nonce per block.
    unsigned char nonce[crypto_stream_chacha20_NONCEBYTES] = {};
    for (std::size_t i = 0; i < sizeof nonce; ++i) {
        nonce[i] = static_cast<unsigned char>(m_nonce >> (8 * i));
    }
    ++m_nonce;
    crypto_stream_chacha20(reinterpret_cast<unsigned char*>(m_block.data()),
                           m_block.size() * sizeof(std::uint64_t), nonce, m_key.data());
    m_used = 0;
}

std::string newRunUid() {
    if (sodium_init() < 0) throw std::runtime_error("libsodium could not be initialised");
    unsigned char bytes[16];
    randombytes_buf(bytes, sizeof bytes);
    char hex[2 * sizeof bytes + 1];
    sodium_bin2hex(hex, sizeof hex, bytes, sizeof bytes);
    return hex;
}

double RandomStream::gamma(double shape) {
    if (shape < 1.0) {
        // Gamma(a) = Gamma(a + 1)·U^(1/a) (Marsaglia and Tsang, section 6).
        const double boost = std::pow(uniformOpen(), 1.0 / shape);
        return gamma(shape + 1.0) * boost;
    }
    const double d = shape - 1.0 / 3.0;
    const double c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
        const double x = normal();
        double v = 1.0 + c * x;
        if (v <= 0.0) continue;
        v = v * v * v;
        const double u = uniformOpen();
        const double x2 = x * x;
        if (u < 1.0 - 0.0331 * x2 * x2) return d * v;  // the squeeze: no logarithm
        if (std::log(u) < 0.5 * x2 + d * (1.0 - v + std::log(v))) return d * v;
    }
}

double RandomStream::unitBallCoordinate(long dimension) {
    // A uniform point of the sphere in R^(dim+2), projected onto dim coordinates, is uniform in
    // the dim-ball (Archimedes' theorem, generalised). So the coordinate is Z₁/‖Z‖ for Z
    // standard normal in R^(dim+2), and ‖Z‖² − Z₁² is a χ² with dim + 1 degrees, i.e.
    // 2·Gamma((dim + 1)/2): two draws, no power.
    const double z1 = normal();
    const double rest = 2.0 * gamma(0.5 * static_cast<double>(dimension + 1));
    return z1 / std::sqrt(z1 * z1 + rest);
}

void RandomStream::fillNormals(double* out, long n) {
    long k = 0;
    if (n > 0 && m_hasSpare) {
        out[k++] = m_spare;
        m_hasSpare = false;
    }
    // Pairs in blocks: their uniforms in the order normal() draws them (u1, u2 of a pair, then
    // the next pair's), the block's ln u1 and its angles' sines and cosines together, then each
    // pair as normal() makes it.
    constexpr long kBlock = 32;
    std::array<double, kBlock> logU1, angle, sine, cosine;
    while (k < n) {
        const long pairs = std::min(kBlock, (n - k + 1) / 2);
        for (long p = 0; p < pairs; ++p) {
            logU1[static_cast<std::size_t>(p)] = uniformOpen();
            angle[static_cast<std::size_t>(p)] = boxMullerAngle(uniformOpen());
        }
        tableLogs(logU1.data(), logU1.data(), pairs);
        tableSinCoss(angle.data(), sine.data(), cosine.data(), pairs);
        for (long p = 0; p < pairs; ++p) {
            const auto at = static_cast<std::size_t>(p);
            out[k++] = boxMuller(logU1[at], sine[at], cosine[at]);
            if (k < n) {
                out[k++] = m_spare;
                m_hasSpare = false;
            }
        }
    }
}

RandomStream::Uint128 RandomStream::rejectBelowThreshold(Uint128 product, std::uint64_t bound) {
    const std::uint64_t threshold = (0 - bound) % bound;
    while (static_cast<std::uint64_t>(product) < threshold)
        product = static_cast<Uint128>(next64()) * bound;
    return product;
}

}  // namespace pfa
