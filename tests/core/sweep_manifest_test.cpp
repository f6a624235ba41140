// The plan of a sharded sweep: written, read back, and checked against the shards' files.
#include "core/sweep/sweep_manifest.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "core/util/error.h"

namespace core_sweep_manifest_test {

using namespace pfa;

namespace {

void writeFile(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::trunc);
    out << text;
}

}  // namespace

TEST_CASE("A sweep manifest reads back as written and counts what its shards recorded",
          "[manifest]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "pfa-manifest-test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    SweepManifest manifest;
    manifest.name = "small";
    manifest.shards = 3;
    manifest.shardFile = (dir / "small.shard-{I}.jsonl").string();
    manifest.mergedFile = (dir / "small.jsonl").string();
    manifest.trainArguments = {"--preset", "adult-dp", "--data-dir", "a dir with 'quotes'"};
    manifest.trainRows = 100;
    manifest.testRows = 20;
    manifest.features = 5;
    manifest.seeds = 3;
    manifest.runEpochs = 60;
    for (int i = 0; i < 6; ++i) manifest.runs.emplace_back("key " + std::to_string(i), i % 3);
    const std::string path = (dir / "small.manifest.json").string();
    writeFile(path, manifestJson(manifest));

    const SweepManifest back = readManifest(path);
    CHECK(back.name == manifest.name);
    CHECK(back.shards == 3);
    CHECK(back.trainArguments == manifest.trainArguments);
    CHECK(back.runs == manifest.runs);
    CHECK(back.trainRows == 100);
    CHECK(back.seeds == 3);
    CHECK(shardFileOf(back, 2) == (dir / "small.shard-2.jsonl").string());

    // Shard 0 complete (with one failed run and a copy), shard 1 half, shard 2 absent, plus a
    // record of another sweep and a line cut by a crash.
    writeFile(shardFileOf(back, 0),
              "{\"run_key\":\"key 0\",\"status\":\"completed\",\"seconds\":2}\n"
              "{\"run_key\":\"key 3\",\"status\":\"failed\",\"seconds\":1}\n"
              "{\"run_key\":\"key 0\",\"status\":\"completed\",\"seconds\":2}\n");
    writeFile(shardFileOf(back, 1),
              "{\"run_key\":\"key 1\",\"status\":\"completed\",\"seconds\":3}\n"
              "{\"run_key\":\"other sweep\",\"status\":\"completed\"}\n{\"run_key\":\"key 4\"");
    const SweepStatus status = sweepStatus(back);
    CHECK(status.expected == 6);
    CHECK(status.done == 3);
    CHECK(status.failed == 1);
    CHECK(status.unexpected == 1);
    CHECK(status.damagedLines == 1);
    CHECK_FALSE(status.complete());
    CHECK(status.incompleteShards() == std::vector<int>{1, 2});
    CHECK(status.shards[0].seconds == 3.0);
    CHECK_FALSE(status.shards[2].fileExists);
    CHECK(status.shards[1].missing == std::vector<std::string>{"key 4"});

    // Not a manifest, a damaged one: refused with the file's name.
    writeFile((dir / "bad.json").string(), "{\"runs\": []}");
    CHECK_THROWS_AS(readManifest((dir / "bad.json").string()), InputError);
    CHECK_THROWS_AS(readManifest((dir / "absent.json").string()), InputError);
    fs::remove_all(dir);
}

}  // namespace core_sweep_manifest_test
