#include "core/sweep/sweep_manifest.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/sweep/results_file.h"
#include "core/util/error.h"
#include "core/util/json_writer.h"

namespace pfa {

long automaticShardCount(long seeds, long runs) {
    // Seeds are the innermost loop, so with N = the seed count (or a divisor) each shard
    // trains whole seeds and runs that share batches by seed stay together.
    return seeds > 1 ? seeds : std::clamp((runs + 7) / 8, 1L, 100L);
}

SweepManifest planShards(const std::vector<SweepRun>& runs, long seeds, long shards) {
    const long count = static_cast<long>(runs.size());
    if (shards <= 0) shards = automaticShardCount(seeds, count);
    shards = std::min(shards, std::max(1L, count));
    SweepManifest manifest;
    manifest.seeds = seeds;
    manifest.shards = static_cast<int>(shards);
    for (const SweepRun& run : runs) {
        manifest.runs.emplace_back(run.key,
                                   static_cast<int>(run.index % static_cast<std::size_t>(shards)));
        manifest.runEpochs += run.config.epochs;
    }
    return manifest;
}

std::vector<long> runsPerShard(const SweepManifest& manifest) {
    std::vector<long> runs(static_cast<std::size_t>(manifest.shards), 0);
    for (const auto& run : manifest.runs) ++runs[static_cast<std::size_t>(run.second)];
    return runs;
}

std::string manifestJson(const SweepManifest& manifest) {
    std::string text = "{\n";
    text += "\"format\": \"pfa-sweep-manifest-1\",\n";
    text += "\"name\": " + JsonWriter::quote(manifest.name) + ",\n";
    text += "\"shards\": " + std::to_string(manifest.shards) + ",\n";
    text += "\"shard_file\": " + JsonWriter::quote(manifest.shardFile) + ",\n";
    text += "\"merged_file\": " + JsonWriter::quote(manifest.mergedFile) + ",\n";
    text += "\"train_rows\": " + std::to_string(manifest.trainRows) + ",\n";
    text += "\"test_rows\": " + std::to_string(manifest.testRows) + ",\n";
    text += "\"features\": " + std::to_string(manifest.features) + ",\n";
    text += "\"seeds\": " + std::to_string(manifest.seeds) + ",\n";
    text += "\"run_epochs\": " + std::to_string(static_cast<long>(manifest.runEpochs)) + ",\n";
    text += "\"train_arguments\": [";
    for (std::size_t i = 0; i < manifest.trainArguments.size(); ++i)
        text += (i ? ", " : "") + JsonWriter::quote(manifest.trainArguments[i]);
    text += "],\n\"runs\": [\n";
    for (std::size_t i = 0; i < manifest.runs.size(); ++i) {
        text += "  {\"shard\": " + std::to_string(manifest.runs[i].second) +
                ", \"run_key\": " + JsonWriter::quote(manifest.runs[i].first) + "}";
        text += i + 1 < manifest.runs.size() ? ",\n" : "\n";
    }
    text += "]\n}\n";
    return text;
}

SweepManifest readManifest(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InputError("cannot read the sweep manifest '" + path + "'");
    std::stringstream buffer;
    buffer << in.rdbuf();
    JsonValue json;
    try {
        json = parseJson(buffer.str());
    } catch (const std::exception& e) {
        throw InputError("'" + path + "' is not a sweep manifest: " + e.what());
    }
    if (!json.isObject() || !json.has("format") ||
        json.at("format").asString() != "pfa-sweep-manifest-1") {
        throw InputError("'" + path + "' is not a sweep manifest (written by pfa-cli cluster)");
    }
    SweepManifest manifest;
    try {
        manifest.name = json.at("name").asString();
        manifest.shards = static_cast<int>(json.at("shards").asNumber());
        manifest.shardFile = json.at("shard_file").asString();
        manifest.mergedFile = json.at("merged_file").asString();
        manifest.trainRows = static_cast<long>(json.at("train_rows").asNumber());
        manifest.testRows = static_cast<long>(json.at("test_rows").asNumber());
        manifest.features = static_cast<long>(json.at("features").asNumber());
        manifest.seeds = static_cast<long>(json.at("seeds").asNumber());
        manifest.runEpochs = json.at("run_epochs").asNumber();
        for (const JsonValue& argument : json.at("train_arguments").items())
            manifest.trainArguments.push_back(argument.asString());
        for (const JsonValue& run : json.at("runs").items()) {
            manifest.runs.emplace_back(run.at("run_key").asString(),
                                       static_cast<int>(run.at("shard").asNumber()));
        }
    } catch (const std::exception& e) {
        throw InputError("the sweep manifest '" + path + "' is damaged: " + e.what());
    }
    if (manifest.shards < 1 || manifest.shardFile.find("{I}") == std::string::npos)
        throw InputError("the sweep manifest '" + path + "' is damaged: bad shards or shard file");
    for (const auto& run : manifest.runs) {
        if (run.second < 0 || run.second >= manifest.shards)
            throw InputError("the sweep manifest '" + path + "' is damaged: a run's shard is " +
                             std::to_string(run.second) + " of " + std::to_string(manifest.shards));
    }
    return manifest;
}

std::string shardFileOf(const SweepManifest& manifest, int shard) {
    std::string file = manifest.shardFile;
    const std::size_t at = file.find("{I}");
    if (at != std::string::npos) file.replace(at, 3, std::to_string(shard));
    return file;
}

std::vector<int> SweepStatus::incompleteShards() const {
    std::vector<int> out;
    for (const ShardStatus& s : shards)
        if (s.done < s.expected) out.push_back(s.shard);
    return out;
}

SweepStatus sweepStatus(const SweepManifest& manifest) {
    SweepStatus status;
    std::map<std::string, int> shardOf;
    for (const auto& [key, shard] : manifest.runs) shardOf.emplace(key, shard);
    status.shards.resize(static_cast<std::size_t>(manifest.shards));
    for (int shard = 0; shard < manifest.shards; ++shard) status.shards[shard].shard = shard;
    for (const auto& [key, shard] : manifest.runs) ++status.shards[shard].expected;
    std::map<std::string, bool> recorded;
    for (int shard = 0; shard < manifest.shards; ++shard) {
        ShardStatus& s = status.shards[shard];
        const std::string file = shardFileOf(manifest, shard);
        s.fileExists = std::filesystem::exists(file);
        if (!s.fileExists) continue;
        const ResultsFileContent content = readResultsFile(file);
        status.damagedLines += static_cast<long>(content.damagedLines);
        for (const JsonValue& record : content.records) {
            if (!record.has("run_key")) continue;
            const std::string key = record.at("run_key").asString();
            const auto expected = shardOf.find(key);
            if (expected == shardOf.end()) {
                ++status.unexpected;
                continue;
            }
            if (recorded.count(key)) continue;  // a copy (a rerun shard that resumed)
            recorded[key] = true;
            ShardStatus& owner = status.shards[static_cast<std::size_t>(expected->second)];
            ++owner.done;
            const std::string state = record.has("status") ? record.at("status").asString() : "";
            if (state == "failed" || state == "diverged") ++owner.failed;
            if (record.has("seconds") && record.at("seconds").type() == JsonValue::Type::Number)
                owner.seconds += record.at("seconds").asNumber();
        }
    }
    for (const auto& [key, shard] : manifest.runs) {
        if (!recorded.count(key))
            status.shards[static_cast<std::size_t>(shard)].missing.push_back(key);
    }
    for (const ShardStatus& s : status.shards) {
        status.expected += s.expected;
        status.done += s.done;
        status.failed += s.failed;
    }
    return status;
}

}  // namespace pfa
