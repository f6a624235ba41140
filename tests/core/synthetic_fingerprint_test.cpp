// The synthetic data without users or silos must stay byte for byte what it has always been:
// every result, preset and golden fingerprint of the project is computed on it. The digests
// below were taken from the generator before users and silos were added to it.
//
// Print the current digests with
//   PFA_PRINT_SYNTHETIC=1 build/bin/pfa_core_tests "[synthetic-fingerprint]"
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/data/preprocessing.h"
#include "core/data/synthetic.h"
#include "core/util/sha256.h"

namespace core_synthetic_fingerprint_test {

using namespace pfa;

namespace {

void addBytesOf(Sha256& hash, std::uint64_t value) {
    // Little-endian bytes written out, so the digest does not depend on the host's byte order.
    unsigned char bytes[8];
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<unsigned char>(value >> (8 * i));
    hash.update(bytes, sizeof bytes);
}

void addDouble(Sha256& hash, double value) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    addBytesOf(hash, bits);
}

void addText(Sha256& hash, const std::string& text) {
    addBytesOf(hash, text.size());
    hash.update(text.data(), text.size());
}

/// SHA-256 of everything generateSynthetic returns.
std::string fingerprint(const TabularData& data) {
    Sha256 hash;
    addText(hash, data.name);
    addText(hash, data.sensitiveDescription);
    addText(hash, data.unitName);
    addText(hash, data.personColumn);
    for (const std::string& name : data.classNames) addText(hash, name);
    for (const std::string& name : data.groupNames) addText(hash, name);
    for (const FeatureColumn& column : data.features) {
        addText(hash, column.name);
        addBytesOf(hash, static_cast<std::uint64_t>(column.kind));
        for (double value : column.numeric) addDouble(hash, value);
        addBytesOf(hash, column.codes.size());
        addBytesOf(hash, column.levels.size());
    }
    for (int label : data.label) addBytesOf(hash, static_cast<std::uint64_t>(label));
    for (int group : data.group) addBytesOf(hash, static_cast<std::uint64_t>(group));
    addBytesOf(hash, data.userId.size());
    return hash.hexDigest();
}

/// SHA-256 of the encoded 75/25 split every default run trains on.
std::string fingerprint(const DataSplit& split) {
    Sha256 hash;
    for (const Dataset* part : {&split.train, &split.test}) {
        addBytesOf(hash, static_cast<std::uint64_t>(part->X.rows()));
        addBytesOf(hash, static_cast<std::uint64_t>(part->X.cols()));
        for (Eigen::Index i = 0; i < part->X.rows(); ++i)
            for (Eigen::Index j = 0; j < part->X.cols(); ++j) addDouble(hash, part->X(i, j));
        for (Eigen::Index i = 0; i < part->y.size(); ++i)
            addBytesOf(hash, static_cast<std::uint64_t>(part->y(i)));
        for (Eigen::Index i = 0; i < part->s.size(); ++i)
            addBytesOf(hash, static_cast<std::uint64_t>(part->s(i)));
        addBytesOf(hash, static_cast<std::uint64_t>(part->userId.size()));
        for (const std::string& name : part->featureNames) addText(hash, name);
    }
    return hash.hexDigest();
}

bool printing() { return std::getenv("PFA_PRINT_SYNTHETIC") != nullptr; }

}  // namespace

TEST_CASE("Synthetic data with default knobs is unchanged",
          "[data][synthetic][synthetic-fingerprint]") {
    const TabularData data = generateSynthetic();
    const std::string dataDigest = fingerprint(data);
    const std::string splitDigest = fingerprint(splitAndEncode(data));
    if (printing())
        std::printf("default data %s\ndefault split %s\n", dataDigest.c_str(), splitDigest.c_str());
    CHECK(dataDigest == "b4bcd33a53397abcfb11f0b556805d2998b8cf3b5704fb0f884b3f14ce0cdd24");
    CHECK(splitDigest == "f467b8c2e9454a3baff86185f8cc598e9db020711b2cd0380475565fbdd29d5c");
}

TEST_CASE("Synthetic data with other knobs is unchanged",
          "[data][synthetic][synthetic-fingerprint]") {
    SyntheticOptions options;
    options.rows = 1234;
    options.features = 13;
    options.minorityShare = 0.5;
    options.groupLabelDependence = 2.5;
    options.labelNoise = 0.2;
    options.seed = 99;
    const std::string digest = fingerprint(generateSynthetic(options));
    if (printing()) std::printf("knobs data %s\n", digest.c_str());
    CHECK(digest == "e9ad55a12987fc48fac5d4abfc3c18316176664a6b8ad395b62aeb6c22afefce");
}

}  // namespace core_synthetic_fingerprint_test
