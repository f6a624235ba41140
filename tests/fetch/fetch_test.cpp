// Tests of checksummed, resumable downloads (app/fetch) against a local HTTP server
// (tests/fetch/test_http_server.h) on 127.0.0.1. The served bytes are generated here, except
// for one real data set file read from PFA_SHARED_DATASETS (skipped when it is absent).

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "../core/test_skip.h"
#include "core/fetch/fetch_file.h"
#include "core/fetch/verify_file.h"
#include "core/util/error.h"
#include "core/util/sha256.h"
#include "test_http_server.h"

namespace fetch_fetch_test {

namespace fs = std::filesystem;
using Catch::Contains;
using pfa::DatasetFile;
using pfa::InputError;
using pfa::fetch::FetchCancelled;
using pfa::fetch::fetchFile;
using pfa::fetch::FetchOptions;
using pfa::fetch::FetchOutcome;
using pfa::fetch::FetchReport;
using pfa::fetch::verifyFile;
using pfa::fetch::verifyFiles;
using pfa::test::TestHttpServer;

namespace {

// Loopback requests must never go through a proxy configured in the environment.
const bool kNoProxy = [] {
    for (const char* name :
         {"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"})
        ::unsetenv(name);
    ::setenv("no_proxy", "*", 1);
    return true;
}();

/// Deterministic pseudo-random bytes.
std::string randomBytes(std::size_t size, unsigned seed) {
    std::mt19937 engine(seed);
    std::string bytes(size, '\0');
    for (char& byte : bytes) byte = static_cast<char>(engine() & 0xff);
    return bytes;
}

/// A fresh temporary directory, removed with its contents at scope exit.
class TempDir {
public:
    TempDir() {
        static std::atomic<int> counter{0};
        static const unsigned run = std::random_device{}();  // distinct across processes
        m_path = fs::temp_directory_path() /
                 ("pfa_fetch_test_" + std::to_string(run) + "_" + std::to_string(counter++));
        fs::create_directories(m_path);
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(m_path, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string str() const { return m_path.string(); }
    fs::path operator/(const std::string& name) const { return m_path / name; }

private:
    fs::path m_path;
};

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeFile(const fs::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// The catalog entry for `bytes`.
DatasetFile entryFor(const std::string& name, const std::string& bytes,
                     std::vector<std::string> urls) {
    return DatasetFile{name, std::move(urls), bytes.size(), pfa::sha256Hex(bytes)};
}

/// Options for tests: no pause between retries, short timeouts (loopback answers at once).
FetchOptions fastOptions() {
    FetchOptions options;
    options.retryPauseMilliseconds = 0;
    options.connectTimeoutSeconds = 5;
    options.lowSpeedTimeoutSeconds = 10;
    return options;
}

/// A loopback port with nothing listening (bound once by us, then released).
std::uint16_t closedPort() {
    const int probe = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    ::bind(probe, reinterpret_cast<sockaddr*>(&address), sizeof address);
    ::getsockname(probe, reinterpret_cast<sockaddr*>(&address), &length);
    ::close(probe);
    return ntohs(address.sin_port);
}

std::string messageOf(const std::function<void()>& action) {
    try {
        action();
    } catch (const InputError& error) {
        return error.what();
    }
    FAIL("no InputError thrown");
    return {};
}

constexpr std::size_t kBlobSize = 300 * 1000;

}  // namespace

TEST_CASE("a good file is downloaded, verified and then found present", "[fetch]") {
    REQUIRE(kNoProxy);
    TestHttpServer server;
    const std::string blob = randomBytes(kBlobSize, 1);
    server.addBlob("/files/good.bin", blob);
    const TempDir temp;
    const std::string directory = (temp / "data/german-credit").string();  // created on demand
    const DatasetFile file = entryFor("good.bin", blob, {server.url("/files/good.bin")});

    FetchOptions options = fastOptions();
    std::uint64_t lastDone = 0, lastTotal = 0;
    bool monotonic = true;
    options.progress = [&](std::uint64_t done, std::uint64_t total) {
        monotonic = monotonic && done >= lastDone && done <= total;
        lastDone = done;
        lastTotal = total;
        return false;
    };
    const FetchReport first = fetchFile(file, directory, options);
    CHECK(first.outcome == FetchOutcome::Downloaded);
    CHECK(first.path == (fs::path(directory) / "good.bin").string());
    CHECK(first.bytesTransferred == blob.size());
    CHECK(first.attemptsUsed == 1);
    CHECK(first.url == server.url("/files/good.bin"));
    CHECK(first.resumedFrom == 0);
    CHECK(monotonic);
    CHECK(lastTotal == blob.size());
    CHECK(readFile(first.path) == blob);
    CHECK_FALSE(fs::exists(first.path + ".part"));
    CHECK(server.requestCount() == 1);

    const FetchReport second = fetchFile(file, directory, fastOptions());
    CHECK(second.outcome == FetchOutcome::AlreadyPresent);
    CHECK(second.path == first.path);
    CHECK(second.bytesTransferred == 0);
    CHECK(second.attemptsUsed == 0);
    CHECK(second.url.empty());
    CHECK(server.requestCount() == 1);  // no network at all
    CHECK(std::string(pfa::fetch::toString(second.outcome)) == "already present");
}

TEST_CASE("a corrupted download is rejected and deleted", "[fetch]") {
    TestHttpServer server;
    const std::string blob = randomBytes(kBlobSize, 2);
    server.addBlob("/bad.bin", blob);
    server.setCorruption(true);
    std::string corrupted = blob;
    corrupted[corrupted.size() / 2] ^= 0x01;
    const TempDir temp;
    const DatasetFile file = entryFor("bad.bin", blob, {server.url("/bad.bin")});

    const std::string message = messageOf([&] { fetchFile(file, temp.str(), fastOptions()); });
    CHECK_THAT(message, Contains("bad.bin") && Contains(server.url("/bad.bin")) &&
                            Contains("expected " + file.sha256) &&
                            Contains(pfa::sha256Hex(corrupted)) && Contains("deleted"));
    CHECK_FALSE(fs::exists(temp / "bad.bin"));
    CHECK_FALSE(fs::exists(temp / "bad.bin.part"));
    CHECK(server.requestCount() == 1);  // a checksum mismatch is not retried at the same URL
}

TEST_CASE("a server announcing another size is rejected before the body", "[fetch]") {
    TestHttpServer server;
    const std::string blob = randomBytes(kBlobSize, 3);
    server.addBlob("/other.bin", blob + "trailing");
    const TempDir temp;
    const DatasetFile file = entryFor("other.bin", blob, {server.url("/other.bin")});

    const std::string message = messageOf([&] { fetchFile(file, temp.str(), fastOptions()); });
    CHECK_THAT(message, Contains("announces " + std::to_string(kBlobSize + 8) + " bytes") &&
                            Contains("expected " + std::to_string(kBlobSize)) &&
                            Contains(server.url("/other.bin")));
    CHECK_FALSE(fs::exists(temp / "other.bin"));
    CHECK_FALSE(fs::exists(temp / "other.bin.part"));
}

TEST_CASE("an interrupted transfer is resumed with a range request", "[fetch]") {
    TestHttpServer server;
    const std::string blob = randomBytes(kBlobSize, 4);
    server.addBlob("/big.bin", blob);
    const TempDir temp;
    const DatasetFile file = entryFor("big.bin", blob, {server.url("/big.bin")});
    constexpr std::uint64_t kCut = 100 * 1000;

    SECTION("within one call: the retry continues where the connection dropped") {
        server.dropConnections(kCut, 1);
        const FetchReport report = fetchFile(file, temp.str(), fastOptions());
        CHECK(report.outcome == FetchOutcome::Resumed);
        CHECK(report.attemptsUsed == 2);
        CHECK(report.resumedFrom == kCut);
        CHECK(report.bytesTransferred == blob.size());  // nothing downloaded twice
        const auto requests = server.requests();
        REQUIRE(requests.size() == 2);
        CHECK_FALSE(requests[0].rangeFrom);
        CHECK(requests[1].rangeFrom == kCut);
        CHECK(requests[1].status == 206);
        CHECK(readFile(report.path) == blob);
        CHECK_FALSE(fs::exists(report.path + ".part"));
    }
    SECTION("across calls: a later call resumes the kept .part") {
        server.dropConnections(kCut, 1);
        FetchOptions once = fastOptions();
        once.attempts = 1;
        const std::string message = messageOf([&] { fetchFile(file, temp.str(), once); });
        CHECK_THAT(message, Contains("big.bin") && Contains(server.url("/big.bin")) &&
                                Contains(std::to_string(kCut) + " of " + std::to_string(kBlobSize) +
                                         " bytes are kept"));
        CHECK_FALSE(fs::exists(temp / "big.bin"));
        REQUIRE(fs::file_size(temp / "big.bin.part") == kCut);

        const FetchReport report = fetchFile(file, temp.str(), fastOptions());
        CHECK(report.outcome == FetchOutcome::Resumed);
        CHECK(report.attemptsUsed == 1);
        CHECK(report.bytesTransferred == blob.size() - kCut);
        CHECK(report.bytesTransferred < blob.size());
        CHECK(server.requests().back().rangeFrom == kCut);
        CHECK(readFile(report.path) == blob);
    }
    SECTION("a server that ignores ranges gets a clean download from the start") {
        server.setRangeSupport(false);
        server.dropConnections(kCut, 1);
        const FetchReport report = fetchFile(file, temp.str(), fastOptions());
        CHECK(report.outcome == FetchOutcome::Downloaded);
        CHECK(report.attemptsUsed == 2);
        CHECK(report.bytesTransferred == kCut + blob.size());
        const auto requests = server.requests();
        REQUIRE(requests.size() == 2);
        CHECK(requests[1].rangeFrom == kCut);  // asked to resume...
        CHECK(requests[1].status == 200);      // ...got the whole file, which replaced the .part
        CHECK(readFile(report.path) == blob);
    }
    SECTION("retries stop after the configured number of attempts") {
        server.dropConnections(kCut / 4, 10);
        const std::string message = messageOf([&] { fetchFile(file, temp.str(), fastOptions()); });
        CHECK_THAT(message, Contains("gave up after 3 attempts") && Contains("bytes are kept"));
        CHECK(server.requestCount() == 3);
        CHECK(fs::file_size(temp / "big.bin.part") == 3 * (kCut / 4));
        CHECK_FALSE(fs::exists(temp / "big.bin"));
    }
    SECTION("a .part longer than the server's file starts over") {
        writeFile(temp / "big.bin.part", blob.substr(0, 1000));
        server.addBlob("/big.bin", blob.substr(0, 500));  // shorter than our .part: 416
        const std::string message = messageOf([&] { fetchFile(file, temp.str(), fastOptions()); });
        CHECK_THAT(message, Contains("announces 500 bytes"));
        const auto requests = server.requests();
        REQUIRE(requests.size() == 2);
        CHECK(requests[0].status == 416);
        CHECK_FALSE(requests[1].rangeFrom);
    }
}

TEST_CASE("HTTP errors give precise messages, server errors are retried", "[fetch]") {
    TestHttpServer server;
    const std::string blob = randomBytes(kBlobSize, 5);
    server.addBlob("/ok.bin", blob);
    const TempDir temp;

    SECTION("404 is final and not retried") {
        const DatasetFile file = entryFor("gone.bin", blob, {server.url("/gone.bin")});
        const std::string message = messageOf([&] { fetchFile(file, temp.str(), fastOptions()); });
        CHECK(message == "download of gone.bin from " + server.url("/gone.bin") +
                             " failed: HTTP 404 Not Found");
        CHECK(server.requestCount() == 1);
        CHECK(fs::is_empty(temp.str()));
    }
    SECTION("503 is retried") {
        server.failRequests(503, 1);
        const DatasetFile file = entryFor("ok.bin", blob, {server.url("/ok.bin")});
        const FetchReport report = fetchFile(file, temp.str(), fastOptions());
        CHECK(report.outcome == FetchOutcome::Downloaded);
        CHECK(report.attemptsUsed == 2);
        CHECK(readFile(report.path) == blob);
    }
    SECTION("an unreachable host names the URL and the reason") {
        const std::string url = "http://127.0.0.1:" + std::to_string(closedPort()) + "/x.bin";
        const DatasetFile file = entryFor("x.bin", blob, {url});
        const std::string message = messageOf([&] { fetchFile(file, temp.str(), fastOptions()); });
        CHECK_THAT(message,
                   Contains("download of x.bin from " + url + " failed: ") && Contains("onnect"));
        CHECK(fs::is_empty(temp.str()));
    }
}

TEST_CASE("the next location is used when one fails", "[fetch]") {
    TestHttpServer server;
    const std::string blob = randomBytes(kBlobSize, 6);
    server.addBlob("/mirror/m.bin", blob);
    const TempDir temp;
    const std::string refused = "http://127.0.0.1:" + std::to_string(closedPort()) + "/m.bin";

    SECTION("404, then a refused connection, then a good mirror") {
        const DatasetFile file =
            entryFor("m.bin", blob, {server.url("/m.bin"), refused, server.url("/mirror/m.bin")});
        const FetchReport report = fetchFile(file, temp.str(), fastOptions());
        CHECK(report.outcome == FetchOutcome::Downloaded);
        CHECK(report.url == server.url("/mirror/m.bin"));
        CHECK(report.attemptsUsed == 3);
        CHECK(readFile(report.path) == blob);
    }
    SECTION("a corrupt first location, then a good one") {
        server.addBlob("/bad/m.bin", blob.substr(0, 10) + "X" + blob.substr(11));
        const DatasetFile file =
            entryFor("m.bin", blob, {server.url("/bad/m.bin"), server.url("/mirror/m.bin")});
        const FetchReport report = fetchFile(file, temp.str(), fastOptions());
        CHECK(report.url == server.url("/mirror/m.bin"));
        CHECK(readFile(report.path) == blob);
    }
    SECTION("every location fails: all reasons in one message") {
        const DatasetFile file = entryFor("m.bin", blob, {server.url("/m.bin"), refused});
        const std::string message = messageOf([&] { fetchFile(file, temp.str(), fastOptions()); });
        CHECK_THAT(message, Contains("download of m.bin failed from every location") &&
                                Contains(server.url("/m.bin") + ": HTTP 404 Not Found; ") &&
                                Contains(refused + ": "));
    }
    SECTION("redirects are followed") {
        server.addRedirect("/latest/m.bin", "/mirror/m.bin");
        const DatasetFile file = entryFor("m.bin", blob, {server.url("/latest/m.bin")});
        const FetchReport report = fetchFile(file, temp.str(), fastOptions());
        CHECK(report.outcome == FetchOutcome::Downloaded);
        CHECK(report.url == server.url("/latest/m.bin"));
        CHECK(server.requestCount() == 2);
        CHECK(readFile(report.path) == blob);
    }
}

TEST_CASE("cancellation keeps the .part and a later fetch resumes it", "[fetch]") {
    TestHttpServer server;
    const std::string blob = randomBytes(kBlobSize, 7);
    server.addBlob("/slow.bin", blob);
    const TempDir temp;
    const DatasetFile file = entryFor("slow.bin", blob, {server.url("/slow.bin")});
    constexpr std::uint64_t kSent = 64 * 1024;

    SECTION("during the transfer") {
        server.stallConnections(kSent, 1);  // 64 KiB, then nothing until the client leaves
        FetchOptions options = fastOptions();
        options.progress = [&](std::uint64_t done, std::uint64_t) { return done >= kSent; };
        CHECK_THROWS_MATCHES(fetchFile(file, temp.str(), options), FetchCancelled,
                             Catch::Message("download of slow.bin cancelled"));
        CHECK_FALSE(fs::exists(temp / "slow.bin"));
        REQUIRE(fs::file_size(temp / "slow.bin.part") == kSent);

        const FetchReport report = fetchFile(file, temp.str(), fastOptions());
        CHECK(report.outcome == FetchOutcome::Resumed);
        CHECK(report.resumedFrom == kSent);
        CHECK(report.bytesTransferred == blob.size() - kSent);
        CHECK(server.requests().back().rangeFrom == kSent);
        CHECK(readFile(report.path) == blob);
    }
    SECTION("before the first request (a cancellation is an InputError too)") {
        FetchOptions options = fastOptions();
        options.progress = [](std::uint64_t, std::uint64_t) { return true; };
        CHECK_THROWS_MATCHES(fetchFile(file, temp.str(), options), InputError,
                             Catch::Message("download of slow.bin cancelled"));
        CHECK(server.requestCount() == 0);
    }
    SECTION("an exception from the progress callback reaches the caller") {
        server.stallConnections(kSent, 1);
        FetchOptions options = fastOptions();
        options.progress = [](std::uint64_t done, std::uint64_t) {
            if (done > 0) throw std::runtime_error("callback failed");
            return false;
        };
        CHECK_THROWS_WITH(fetchFile(file, temp.str(), options), "callback failed");
        CHECK_FALSE(fs::exists(temp / "slow.bin"));
    }
}

TEST_CASE("what is on disk is checked before any download", "[fetch]") {
    TestHttpServer server;
    const std::string blob = randomBytes(kBlobSize, 8);
    server.addBlob("/f.bin", blob);
    const TempDir temp;
    const DatasetFile file = entryFor("f.bin", blob, {server.url("/f.bin")});

    SECTION("a wrong file under the final name is replaced") {
        writeFile(temp / "f.bin", randomBytes(kBlobSize, 99));  // right size, wrong bytes
        const FetchReport report = fetchFile(file, temp.str(), fastOptions());
        CHECK(report.outcome == FetchOutcome::Downloaded);
        CHECK(readFile(report.path) == blob);
    }
    SECTION("a complete, correct .part is adopted without network") {
        writeFile(temp / "f.bin.part", blob);
        const FetchReport report = fetchFile(file, temp.str(), fastOptions());
        CHECK(report.outcome == FetchOutcome::Resumed);
        CHECK(report.bytesTransferred == 0);
        CHECK(server.requestCount() == 0);
        CHECK(readFile(report.path) == blob);
    }
    SECTION("a complete but wrong .part is discarded") {
        writeFile(temp / "f.bin.part", randomBytes(kBlobSize, 98));
        const FetchReport report = fetchFile(file, temp.str(), fastOptions());
        CHECK(report.outcome == FetchOutcome::Downloaded);
        CHECK(server.requests().front().rangeFrom == std::nullopt);
        CHECK(readFile(report.path) == blob);
    }
    SECTION("concurrent fetches of one file download it once") {
        std::vector<FetchReport> reports(4);
        std::vector<std::thread> threads;
        for (FetchReport& report : reports)
            threads.emplace_back([&] { report = fetchFile(file, temp.str(), fastOptions()); });
        for (std::thread& thread : threads) thread.join();
        CHECK(server.requestCount() == 1);
        CHECK(std::count_if(reports.begin(), reports.end(), [](const FetchReport& report) {
                  return report.outcome == FetchOutcome::AlreadyPresent;
              }) == 3);
        CHECK(readFile(temp / "f.bin") == blob);
    }
}

TEST_CASE("catalog entries that cannot be fetched safely are refused", "[fetch]") {
    const TempDir temp;
    DatasetFile file{"a.bin", {"http://127.0.0.1:1/a.bin"}, 3, pfa::sha256Hex("abc")};
    SECTION("no checksum") {
        file.sha256.clear();
        CHECK_THROWS_WITH(fetchFile(file, temp.str()), Contains("no valid SHA-256 for a.bin"));
    }
    SECTION("no location") {
        file.urls.clear();
        CHECK_THROWS_WITH(fetchFile(file, temp.str()), "no download location for a.bin");
    }
    SECTION("a name that is a path") {
        file.name = "../a.bin";
        CHECK_THROWS_WITH(fetchFile(file, temp.str()), Contains("invalid data file name"));
    }
}

TEST_CASE("verifyFile reports missing, wrong-size, wrong-hash and good files", "[fetch]") {
    const TempDir temp;
    const std::string blob = randomBytes(5000, 9);
    const DatasetFile file = entryFor("v.bin", blob, {"http://127.0.0.1:1/v.bin"});

    auto report = verifyFile(file, temp.str());
    CHECK_FALSE(report.exists);
    CHECK_FALSE(report.ok());
    CHECK(report.message == "v.bin: missing");
    CHECK(report.path == (temp / "v.bin").string());

    writeFile(temp / "v.bin.part", blob.substr(0, 1200));
    report = verifyFile(file, temp.str());
    CHECK(report.partialBytes == 1200);
    CHECK_THAT(report.message, Contains("partial download of 1200 of 5000 bytes"));

    writeFile(temp / "v.bin", blob.substr(0, 4999));
    report = verifyFile(file, temp.str());
    CHECK(report.exists);
    CHECK_FALSE(report.sizeOk);
    CHECK(report.actualBytes == 4999);
    CHECK(report.actualSha256.empty());  // not computed: the size settles it
    CHECK(report.message == "v.bin: wrong size: 4999 bytes, expected 5000");

    writeFile(temp / "v.bin", randomBytes(5000, 10));
    report = verifyFile(file, temp.str());
    CHECK(report.sizeOk);
    CHECK_FALSE(report.sha256Ok);
    CHECK_THAT(report.message, Contains("wrong SHA-256 " + report.actualSha256) &&
                                   Contains("expected " + file.sha256));

    writeFile(temp / "v.bin", blob);
    report = verifyFile(file, temp.str());
    CHECK(report.ok());
    CHECK(report.actualSha256 == file.sha256);
    CHECK(report.message == "v.bin: OK");

    DatasetFile other = file;
    other.name = "w.bin";
    const auto reports = verifyFiles({file, other}, temp.str());
    REQUIRE(reports.size() == 2);
    CHECK(reports[0].ok());
    CHECK(reports[1].message == "w.bin: missing");
}

TEST_CASE("a real data set file is fetched through the local server",
          "[fetch][dataset][needs-data]") {
    const fs::path source = pfa::test::sharedDatasetsRoot() / "german-credit";
    if (!fs::exists(source / "german.data"))
        PFA_SKIP_TEST((source / "german.data").string() << " is not present (PFA_SHARED_DATASETS)");
    TestHttpServer server;
    server.serveDirectory(source.string());  // served in place, never copied into the tree
    const DatasetFile file{"german.data",
                           {server.url("/german.data")},
                           79793,
                           "b21f3d81db8071257d5ff1deaeba1fd4303b62712e6fcc9715c7a86202cb5871"};
    const TempDir temp;
    server.dropConnections(30000, 1);
    const FetchReport report = fetchFile(file, temp.str(), fastOptions());
    CHECK(report.outcome == FetchOutcome::Resumed);
    CHECK(report.attemptsUsed == 2);
    CHECK(verifyFile(file, temp.str()).ok());
    CHECK(fetchFile(file, temp.str(), fastOptions()).outcome == FetchOutcome::AlreadyPresent);
}

}  // namespace fetch_fetch_test
