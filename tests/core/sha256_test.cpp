// Tests of the streaming SHA-256 (core/util/sha256.h) against the FIPS 180-2 / NIST example
// vectors, padding boundaries, chunked input and files.

#include "core/util/sha256.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/util/error.h"
#include "temp_file.h"

namespace core_sha256_test {

using Catch::Contains;
using pfa::Sha256;
using pfa::sha256File;
using pfa::sha256Hex;
using pfa::test::TempFile;

namespace {

const std::string kEmpty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const std::string kAbc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
const std::string k448Bits = "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
const std::string kMillionA = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
const std::string k448BitsMessage = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

/// Deterministic pseudo-random bytes.
std::string randomBytes(std::size_t size, unsigned seed) {
    std::mt19937 engine(seed);
    std::string bytes(size, '\0');
    for (char& byte : bytes) byte = static_cast<char>(engine() & 0xff);
    return bytes;
}

}  // namespace

TEST_CASE("SHA-256 of the FIPS 180 example messages", "[sha256]") {
    CHECK(sha256Hex("") == kEmpty);
    CHECK(sha256Hex("abc") == kAbc);
    CHECK(sha256Hex(k448BitsMessage) == k448Bits);
    CHECK(sha256Hex(std::string(1000000, 'a')) == kMillionA);
    // The 896-bit message of the NIST examples (two blocks of padding logic).
    CHECK(sha256Hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmno"
                    "pqklmnopqrlmnopqrsmnopqrstnopqrstu") ==
          "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST_CASE("SHA-256 at the padding boundaries", "[sha256]") {
    // 55 bytes is the longest message padded within one block; 56..63 need a second block.
    // Expected values from an independent implementation (Python's hashlib).
    CHECK(sha256Hex(std::string(55, 'a')) ==
          "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    CHECK(sha256Hex(std::string(56, 'a')) ==
          "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    CHECK(sha256Hex(std::string(63, 'a')) ==
          "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34");
    CHECK(sha256Hex(std::string(64, 'a')) ==
          "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
    CHECK(sha256Hex(std::string(65, 'a')) ==
          "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0");
    CHECK(sha256Hex(std::string(119, 'a')) ==
          "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb");
    CHECK(sha256Hex(std::string(120, 'a')) ==
          "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c");
}

TEST_CASE("SHA-256 chunked updates equal one-shot hashing", "[sha256]") {
    SECTION("one million 'a' in uneven pieces") {
        const std::string a(1000000, 'a');
        Sha256 hash;
        std::size_t offset = 0;
        for (std::size_t piece = 1; offset < a.size(); piece = piece * 3 % 1021 + 1) {
            const std::size_t take = std::min(piece, a.size() - offset);
            hash.update(a.data() + offset, take);
            offset += take;
        }
        CHECK(hash.hexDigest() == kMillionA);
    }
    SECTION("random bytes, every piece size from 1 to 130") {
        const std::string bytes = randomBytes(5000, 7);
        const std::string expected = sha256Hex(bytes);
        for (std::size_t piece = 1; piece <= 130; ++piece) {
            Sha256 hash;
            for (std::size_t offset = 0; offset < bytes.size(); offset += piece)
                hash.update(bytes.data() + offset, std::min(piece, bytes.size() - offset));
            INFO("piece size " << piece);
            REQUIRE(hash.hexDigest() == expected);
        }
    }
    SECTION("empty updates change nothing") {
        Sha256 hash;
        hash.update(nullptr, 0);
        hash.update("abc", 3);
        hash.update("", 0);
        CHECK(hash.hexDigest() == kAbc);
    }
}

TEST_CASE("SHA-256 digest does not end the stream, reset starts over", "[sha256]") {
    Sha256 hash;
    hash.update("ab", 2);
    CHECK(hash.hexDigest() == sha256Hex("ab"));
    CHECK(hash.hexDigest() == sha256Hex("ab"));  // asking twice gives the same answer
    hash.update("c", 1);
    CHECK(hash.hexDigest() == kAbc);
    hash.reset();
    CHECK(hash.hexDigest() == kEmpty);
    hash.update(k448BitsMessage.data(), k448BitsMessage.size());
    CHECK(hash.hexDigest() == k448Bits);
}

TEST_CASE("SHA-256 of a file", "[sha256]") {
    SECTION("multi-chunk file with progress") {
        // 2.5 MiB: more than two of sha256File's read chunks.
        const std::string bytes = randomBytes((std::size_t{5} << 20) / 2, 11);
        const TempFile file(bytes);
        std::vector<std::uint64_t> seen;
        std::uint64_t reportedTotal = 0;
        const std::string digest =
            sha256File(file.path(), [&](std::uint64_t done, std::uint64_t total) {
                seen.push_back(done);
                reportedTotal = total;
                return false;
            });
        CHECK(digest == sha256Hex(bytes));
        REQUIRE(seen.size() >= 3);
        CHECK(std::is_sorted(seen.begin(), seen.end()));
        CHECK(seen.back() == bytes.size());
        CHECK(reportedTotal == bytes.size());
    }
    SECTION("empty file and no progress callback") {
        const TempFile file("");
        CHECK(sha256File(file.path()) == kEmpty);
    }
    SECTION("cancelled by the progress callback") {
        const TempFile file(randomBytes(3u << 20, 3));
        int calls = 0;
        CHECK_THROWS_MATCHES(
            sha256File(file.path(), [&](std::uint64_t, std::uint64_t) { return ++calls == 2; }),
            pfa::InputError, Catch::Message("cancelled"));
        CHECK(calls == 2);
    }
    SECTION("missing file names the path and the reason") {
        const std::string missing =
            (std::filesystem::temp_directory_path() / "pfa_sha256_test_no_such_file.bin").string();
        CHECK_THROWS_MATCHES(sha256File(missing), pfa::InputError,
                             Catch::Matchers::Predicate<pfa::InputError>(
                                 [&](const pfa::InputError& error) {
                                     const std::string message = error.what();
                                     return message.find(missing) != std::string::npos &&
                                            message.find("No such file") != std::string::npos;
                                 },
                                 "names the path and 'No such file'"));
    }
    SECTION("a directory is not readable as a file") {
        const std::string directory = std::filesystem::temp_directory_path().string();
        CHECK_THROWS_WITH(sha256File(directory), Contains(directory) && Contains("directory"));
    }
}

}  // namespace core_sha256_test
