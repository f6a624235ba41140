#include "core/sweep/sweep_preset.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "core/util/embedded_json.h"
#include "core/util/error.h"
#include "core/util/json_value.h"

namespace pfa {

namespace {

std::vector<double> numbers(const JsonValue& json) { return json.numbers(); }

/// Applies the "config" object of a preset to a base configuration.
void applyConfig(TrainConfig& c, const JsonValue& json) {
    for (const auto& [key, value] : json.members()) {
        if (key == "epochs") c.epochs = static_cast<int>(value.asNumber());
        else if (key == "batch_size") c.batchSize = static_cast<int>(value.asNumber());
        else if (key == "lr_theta") c.lrTheta = value.asNumber();
        else if (key == "lr_w") c.lrW = value.asNumber();
        else if (key == "l2") c.l2 = value.asNumber();
        else if (key == "clip_theta") c.clipTheta = value.asNumber();
        else if (key == "clip_w") c.clipW = value.asNumber();
        else if (key == "loss_clip_share") c.lossClipShare = value.asNumber();
        else if (key == "share_budget_fraction") c.shareBudgetFraction = value.asNumber();
        else if (key == "advantaged_class") c.advantagedClass = static_cast<int>(value.asNumber());
        else if (key == "averaging") c.averaging = parseAveraging(value.asString());
        else if (key == "w_stream") c.wStream = parseWStream(value.asString());
        else if (key == "min_group_share") c.minGroupShare = value.asNumber();
        else if (key == "w_radius") c.wRadius = value.asNumber();
        else if (key == "delta") {
            c.delta = value.asNumber();
            if (!(c.delta > 0.0)) throw InputError("delta must be > 0 (omit it for 1/n^2)");
        }
        else if (key == "secure_noise") c.secureNoise = value.asBool();
        else if (key == "record_diagnostics") c.recordDiagnostics = value.asBool();
        else if (key == "evaluate_every") c.evaluateEvery = static_cast<int>(value.asNumber());
        else if (key == "calibration") c.calibration = parseCalibration(value.asString());
        else if (key == "scope") c.scope = parseScope(value.asString());
        else if (key == "adjacency") c.adjacency = parseAdjacency(value.asString());
        else if (key == "sampling") c.sampling = parseSampling(value.asString());
        else if (key == "projection") c.projection = value.asString() == "box" ? Projection::Box : Projection::Ball;
        else throw InputError("unknown config key '" + key + "'");
    }
}

/// Throws InputError when `json` has a member not in `known` (a misspelt or misplaced key
/// would otherwise be ignored silently).
void requireKnownKeys(const JsonValue& json, const std::string& where,
                      std::initializer_list<const char*> known) {
    for (const auto& [key, value] : json.members()) {
        if (std::find(known.begin(), known.end(), key) != known.end()) continue;
        std::string names;
        for (const char* name : known) names += (names.empty() ? "" : ", ") + std::string(name);
        throw InputError("unknown " + where + " key '" + key + "' (known: " + names + ")");
    }
}

/// The "split" object of a preset's "dataset": method, seed and test_fraction, each optional
/// (defaults: seeded, 0, 0.25).
SplitOptions parseSplit(const JsonValue& json) {
    requireKnownKeys(json, "split", {"method", "seed", "test_fraction"});
    SplitOptions split;
    if (json.has("method")) split.method = parseSplitMethod(json.at("method").asString());
    if (json.has("seed")) {
        const double seed = json.at("seed").asNumber();
        if (!(seed >= 0.0 && seed == std::floor(seed) && seed < 0x1p53)) {
            throw InputError("split seed must be a non-negative integer");
        }
        split.seed = static_cast<std::uint64_t>(seed);
    }
    split.testFraction = json.numberOr("test_fraction", split.testFraction);
    if (!(split.testFraction > 0.0 && split.testFraction < 1.0)) {
        throw InputError("split test_fraction must lie strictly between 0 and 1");
    }
    return split;
}

}  // namespace

SweepPreset parseSweepPreset(const std::string& fileName, const std::string& text) {
    try {
        const JsonValue json = parseJson(text);
        requireKnownKeys(json, "preset",
                         {"name", "title", "source", "dataset", "algorithms", "fairness", "epsilons",
                          "lambdas", "seeds", "axes", "config"});
        SweepPreset preset;
        preset.name = json.at("name").asString();
        preset.title = json.at("title").asString();
        preset.source = json.at("source").asString();
        const JsonValue& dataset = json.at("dataset");
        preset.dataset.name = dataset.at("name").asString();
        preset.dataset.sensitive = dataset.stringOr("sensitive", "");
        requireKnownKeys(dataset, "dataset", {"name", "sensitive", "split"});
        if (dataset.has("split")) preset.dataset.split = parseSplit(dataset.at("split"));
        SweepSpec& spec = preset.spec;
        spec.datasets.clear();
        spec.algorithms.clear();
        for (const JsonValue& a : json.at("algorithms").items()) spec.algorithms.push_back(a.asString());
        spec.notions.clear();
        for (const JsonValue& f : json.at("fairness").items()) spec.notions.push_back(parseFairnessNotion(f.asString()));
        spec.epsilons = numbers(json.at("epsilons"));
        spec.lambdas = numbers(json.at("lambdas"));
        if (json.has("tuning")) spec.tuning = parseTuning(json.at("tuning").asString());
        const JsonValue& seeds = json.at("seeds");
        spec.seeds.clear();
        if (seeds.isArray()) {
            for (double s : seeds.numbers()) spec.seeds.push_back(static_cast<std::uint64_t>(s));
        } else {
            const auto from = static_cast<std::uint64_t>(seeds.at("from").asNumber());
            const auto to = static_cast<std::uint64_t>(seeds.at("to").asNumber());
            if (to < from) throw InputError("seeds: 'to' is below 'from'");
            for (std::uint64_t s = from; s <= to; ++s) spec.seeds.push_back(s);
        }
        if (json.has("axes")) {
            for (const auto& [parameter, values] : json.at("axes").members()) {
                spec.axes.push_back({parameter, values.numbers()});
            }
        }
        if (json.has("config")) applyConfig(spec.base, json.at("config"));
        if (spec.algorithms.empty() || spec.notions.empty() || spec.epsilons.empty() ||
            spec.lambdas.empty() || spec.seeds.empty()) {
            throw InputError("every axis needs at least one value");
        }
        return preset;
    } catch (const InputError& error) {
        throw InputError("sweep preset " + fileName + ": " + error.what());
    }
}

const std::vector<SweepPreset>& sweepPresets() {
    static const std::vector<SweepPreset> presets = [] {
        std::vector<SweepPreset> list;
        for (const EmbeddedJson& source : presetSources()) {
            list.push_back(parseSweepPreset(std::string(source.fileName), std::string(source.json)));
        }
        std::sort(list.begin(), list.end(),
                  [](const SweepPreset& a, const SweepPreset& b) { return a.name < b.name; });
        return list;
    }();
    return presets;
}

const SweepPreset& findSweepPreset(const std::string& name) {
    std::string known;
    for (const SweepPreset& preset : sweepPresets()) {
        if (preset.name == name) return preset;
        known += (known.empty() ? "" : ", ") + preset.name;
    }
    throw InputError("unknown preset '" + name + "': choose one of " + known);
}

}  // namespace pfa
