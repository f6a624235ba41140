// Whole-data-set downloads through a mirror (PFA_DATASET_MIRROR) and offline imports.
#include "core/fetch/dataset_fetcher.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/util/sha256.h"
#include "test_http_server.h"

namespace fetch_dataset_fetcher_test {

using namespace pfa;

namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// A made-up catalog entry with two small files.
CatalogEntry twoFileEntry(const std::string& a, const std::string& b) {
    CatalogEntry entry;
    entry.name = "toy";
    entry.title = "Toy data";
    entry.files = {{"a.csv", {"http://127.0.0.1:1/unreachable/a.csv"}, a.size(), sha256Hex(a)},
                   {"b.csv", {"http://127.0.0.1:1/unreachable/b.csv"}, b.size(), sha256Hex(b)}};
    return entry;
}

struct TempDir {
    std::filesystem::path path;
    TempDir() {
        // The process id: test programs of other builds may run beside this one.
        static int made = 0;
        path = std::filesystem::temp_directory_path() /
               ("pfa-fetcher-" + std::to_string(::getpid()) + "-" + std::to_string(++made));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
};

}  // namespace

TEST_CASE("A data set downloads through the mirror, with progress over all files",
          "[fetch][mirror]") {
    const std::string a(40000, 'a'), b = "x,y\n1,2\n";
    test::TestHttpServer server;
    server.addBlob("/toy/a.csv", a);
    server.addBlob("/toy/b.csv", b);
    ::setenv("PFA_DATASET_MIRROR", server.url("").c_str(), 1);
    TempDir dir;
    std::uint64_t lastDone = 0, total = 0;
    const auto reports = fetch::fetchDataset(twoFileEntry(a, b), dir.path.string(),
                                             [&](const fetch::DatasetProgress& p) {
                                                 CHECK(p.done >= lastDone);
                                                 lastDone = p.done;
                                                 total = p.total;
                                                 return false;
                                             });
    ::unsetenv("PFA_DATASET_MIRROR");
    REQUIRE(reports.size() == 2);
    CHECK(reports[0].outcome == fetch::FetchOutcome::Downloaded);
    CHECK(reports[0].url.find("/toy/a.csv") != std::string::npos);
    CHECK(readFile((dir.path / "a.csv").string()) == a);
    CHECK(readFile((dir.path / "b.csv").string()) == b);
    CHECK(total == a.size() + b.size());
    CHECK(lastDone == total);
}

TEST_CASE("Offline import verifies every file before copying any", "[fetch][import]") {
    const std::string a = "a,b\n1,2\n", b = "c\n3\n";
    const CatalogEntry entry = twoFileEntry(a, b);
    TempDir source, target;
    std::ofstream(source.path / "a.csv", std::ios::binary) << a;
    // b.csv missing: nothing may be copied.
    REQUIRE_THROWS_WITH(
        fetch::importDataset(entry, source.path.string(), target.path.string()),
        Catch::Contains("not the catalog's Toy data files") && Catch::Contains("b.csv"));
    CHECK_FALSE(std::filesystem::exists(target.path / "a.csv"));
    // A wrong b.csv: still refused, with the mismatch named.
    std::ofstream(source.path / "b.csv", std::ios::binary) << "c\n4\n";
    REQUIRE_THROWS_WITH(fetch::importDataset(entry, source.path.string(), target.path.string()),
                        Catch::Contains("b.csv"));
    CHECK_FALSE(std::filesystem::exists(target.path / "b.csv"));
    // The right files are copied.
    std::ofstream(source.path / "b.csv", std::ios::binary | std::ios::trunc) << b;
    fetch::importDataset(entry, source.path.string(), target.path.string());
    CHECK(readFile((target.path / "a.csv").string()) == a);
    CHECK(readFile((target.path / "b.csv").string()) == b);
    CHECK_FALSE(std::filesystem::exists(target.path / "b.csv.part"));
}

}  // namespace fetch_dataset_fetcher_test
