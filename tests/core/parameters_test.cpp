// Parameters declared once (core/config/parameters.h): run keys unchanged, one spelling, rules
// generated from the declarations, and results files written before the declarations still
// read as what they ran.
#include <catch2/catch.hpp>
#include <fstream>
#include <random>
#include <set>

#include "core/algorithms/registry.h"
#include "core/sweep/parameter_json.h"
#include "core/sweep/run_record.h"
#include "core/sweep/sweep_spec.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "core/util/json_writer.h"

namespace core_parameters_test {

using namespace pfa;

namespace {

// The run key as it was written by hand before the declarations (commit a62c8e2). Run keys
// seed the noise streams, so the generated key must equal it for every configuration.
std::string legacySettingsKey(const TrainConfig& c) {
    std::string key;
    auto add = [&](const char* name, const std::string& value) {
        if (!key.empty()) key += ';';
        key += name;
        key += '=';
        key += value;
    };
    add("algorithm", c.algorithm);
    add("fairness", fairnessCode(c.fairness));
    add("epsilon", formatPortable(c.epsilon));
    add("delta", formatPortable(c.delta));
    add("lambda", formatPortable(c.lambda));
    add("seed", std::to_string(c.seed));
    add("epochs", std::to_string(c.epochs));
    add("batch", std::to_string(c.batchSize));
    add("lr_theta", formatPortable(c.lrTheta));
    add("lr_w", formatPortable(c.lrW));
    add("l2", formatPortable(c.l2));
    add("calibration", calibrationName(c.calibration));
    add("scope", scopeName(c.scope));
    add("adjacency", adjacencyName(c.adjacency));
    add("sampling", c.sampling ? samplingName(*c.sampling) : "auto");
    add("clip_theta", formatPortable(c.clipTheta));
    add("clip_w", formatPortable(c.clipW));
    add("loss_clip_share", formatPortable(c.lossClipShare));
    add("averaging", c.averaging ? averagingName(*c.averaging) : "auto");
    add("w_stream", wStreamName(c.wStream));
    add("rho", formatPortable(c.minGroupShare));
    add("radius", formatPortable(c.wRadius));
    add("projection", c.projection == Projection::Box ? "box" : "ball");
    add("share_budget", formatPortable(c.shareBudgetFraction));
    add("feature_bound", formatPortable(c.featureBound));
    add("advantaged", std::to_string(c.advantagedClass));
    add("evaluate_every", std::to_string(c.evaluateEvery));
    // Noise streams derive from the seed and these settings (v2); older results files, whose
    // runs shared noise across settings, do not match and are rerun on resume.
    add("noise", c.secureNoise ? "os-entropy" : "seeded-v2");
    add("diagnostics", c.recordDiagnostics ? "on" : "off");
    return key;
}

std::vector<std::string> linesOf(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        if (!line.empty()) lines.push_back(line);
    }
    return lines;
}

}  // namespace

TEST_CASE("Generated run keys equal the hand-written ones for every configuration",
          "[parameters]") {
    std::mt19937_64 random(7);
    auto pick = [&](int count) { return static_cast<int>(random() % count); };
    for (int trial = 0; trial < 500; ++trial) {
        TrainConfig c;
        c.algorithm = std::vector<std::string>{"erm", "fermi", "dp-fermi", "dp-sgd"}[pick(4)];
        c.fairness = static_cast<FairnessNotion>(pick(3));
        c.epsilon = pick(4) == 0 ? INFINITY
                                 : std::ldexp(static_cast<double>(random() % 1000 + 1), -pick(8));
        c.delta = pick(2) ? 0.0 : 1.0 / (1 + random() % 100000);
        c.lambda = pick(3) == 0 ? 0.0 : 0.01 * (random() % 100000);
        c.seed = random();
        c.epochs = 1 + pick(500);
        c.batchSize = pick(2) ? 0 : 1 + pick(5000);
        c.lrTheta = 1.0 / (1 + pick(1000));
        c.lrW = 0.001 * (1 + pick(100));
        c.l2 = pick(2) ? 0.0 : 1e-4 * pick(100);
        c.calibration = pick(2) ? Calibration::Conservative : Calibration::Published;
        c.scope = pick(2) ? ProtectionScope::AllFeatures : ProtectionScope::SensitiveOnly;
        c.adjacency = pick(2) ? privacy::Adjacency::AddRemove : privacy::Adjacency::Replace;
        if (pick(2)) c.sampling = static_cast<Sampling>(pick(3));
        c.clipTheta = 0.1 * (1 + pick(50));
        c.clipW = pick(2) ? 0.0 : 0.5 * pick(20);
        c.lossClipShare = pick(2) ? 0.0 : 0.05 * pick(19);
        if (pick(2))
            c.averaging = pick(2) ? IterateAveraging::None : IterateAveraging::PolynomialDecay;
        c.wStream = pick(2) ? WStream::GroupMasses : WStream::ClippedGradient;
        c.minGroupShare = pick(2) ? 0.0 : 0.01 * (1 + pick(40));
        c.wRadius = pick(2) ? 0.0 : 0.5 * pick(40);
        c.projection = pick(2) ? Projection::Ball : Projection::Box;
        c.shareBudgetFraction = 0.01 * (1 + pick(50));
        c.featureBound = pick(2) ? 0.0 : 0.25 * pick(40);
        c.advantagedClass = pick(3);
        c.evaluateEvery = 1 + pick(20);
        c.secureNoise = pick(2);
        c.recordDiagnostics = pick(2);
        REQUIRE(settingsKey(c) == legacySettingsKey(c));
    }
}

TEST_CASE("Every parameter has one spelling, a rule, a default within its rule and help",
          "[parameters]") {
    std::set<std::string> names;
    for (const ParamSpec& spec : allParameters()) {
        INFO(spec.name);
        CHECK(names.insert(spec.name).second);
        for (const std::string& former : spec.formerNames) CHECK(names.insert(former).second);
        // Lower-case words joined by '-': the same on the command line, in files and in axes.
        CHECK(spec.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") ==
              std::string::npos);
        CHECK_FALSE(spec.help.empty());
        CHECK_FALSE(spec.label.empty());
        if (!spec.isAuto(spec.defaultValue))
            CHECK(parseParameter(spec, spec.defaultValue) == spec.defaultValue);
        if (spec.kind == ParamKind::Choice) CHECK(spec.choices.size() >= 2);
        if (spec.sweepable)
            CHECK((spec.kind == ParamKind::Real || spec.kind == ParamKind::Integer ||
                   spec.kind == ParamKind::Choice));
    }
    // Every algorithm's parameters are registered ones. A name several algorithms read is one
    // setting: the CLI, the GUI form and sweeps show the first declaration only, so a second
    // algorithm declaring it with another default, range, kind or meaning would silently run
    // with the first one's. Such a setting must be declared identically (or named apart).
    for (const auto& algorithm : algorithmRegistry()) {
        for (const ParamSpec& spec : algorithm->parameters()) {
            INFO(algorithm->name() << ": " << spec.name);
            const ParamSpec* shared = findParameter(spec.name);
            REQUIRE(shared != nullptr);
            CHECK(shared->kind == spec.kind);
            CHECK(shared->defaultValue == spec.defaultValue);
            CHECK(shared->min == spec.min);
            CHECK(shared->max == spec.max);
            CHECK(shared->autoValue == spec.autoValue);
            CHECK(shared->help == spec.help);
            CHECK(shared->choices.size() == spec.choices.size());
        }
    }
}

TEST_CASE("Values are checked against their declarations with one message form", "[parameters]") {
    const ParamSpec& delta = *findParameter("delta");
    CHECK(parseParameter(delta, "auto") == "0");
    CHECK(parseParameter(delta, "1e-5") == "1e-05");
    CHECK_THROWS_WITH(
        parseParameter(delta, "0"),
        "delta = 0 is invalid: it must be in (0, 1), or auto (1/n², n = training rows)");
    const ParamSpec& batch = *findParameter("batch-size");
    CHECK(parseParameter(batch, "0") == "0");  // 0 = auto, as documented
    CHECK(parseParameter(batch, "auto") == "0");
    CHECK(parseParameter(batch, 256.0) == "256");
    CHECK_THROWS_WITH(parseParameter(batch, "12.5"),
                      Catch::Contains("batch-size = 12.5 is invalid: it must be a whole number"));
    const ParamSpec& sampling = *findParameter("sampling");
    CHECK(parseParameter(sampling, "poisson") == "poisson");
    CHECK(parseParameter(sampling, "auto") == "auto");
    CHECK_THROWS_WITH(parseParameter(sampling, "random"),
                      "sampling = random is invalid: it must be poisson | shuffle | subsample | "
                      "auto (Poisson when private, shuffled batches otherwise)");
    // Earlier spellings of values still read.
    CHECK(parseParameter(*findParameter("scope"), "sensitive_only") == "sensitive-only");
    CHECK(parseParameter(*findParameter("secure-noise"), "on") == "true");
    // Former names find their parameter.
    CHECK(findParameter("min_group_share")->name == "min-group-share");
    CHECK(findParameter("share_budget_fraction")->name == "share-budget");
    CHECK(findParameter("speed") == nullptr);
    // Seeds keep all 64 bits.
    TrainConfig c;
    setParameter(c, *findParameter("seed"), "18446744073709551615");
    CHECK(c.seed == 18446744073709551615ULL);
}

TEST_CASE("Results files written before the declarations still open, as what they ran",
          "[parameters][record]") {
    for (const char* file :
         {"results-before-parameter-specs.jsonl", "results-before-stabilisation.jsonl"}) {
        INFO(file);
        const std::vector<std::string> lines = linesOf(std::string(PFA_TEST_DATA_DIR) + "/" + file);
        REQUIRE(lines.size() >= 5);
        for (const std::string& line : lines) {
            const JsonValue old = parseJson(line);
            RunContext context;
            const RunResult result = runResultFromJson(old, &context);
            const TrainConfig& c = result.config;
            // Settings as the old records stored them.
            const JsonValue& config = old.at("config");
            CHECK(c.batchSize == old.at("batch_size").asNumber());
            CHECK(c.lrTheta == config.at("lr_theta").asNumber());
            CHECK(c.minGroupShare == config.at("min_group_share").asNumber());
            CHECK(c.shareBudgetFraction == config.at("share_budget_fraction").asNumber());
            CHECK(c.secureNoise == config.at("secure_noise").asBool());
            CHECK(c.recordDiagnostics == config.at("record_diagnostics").asBool());
            CHECK(scopeName(c.scope) == config.at("scope").asString());
            CHECK(calibrationName(c.calibration) == config.at("calibration").asString());
            if (config.has("w_stream")) {
                CHECK(wStreamName(c.wStream) == config.at("w_stream").asString());
                CHECK(c.lossClipShare == config.at("loss_clip_share").asNumber());
            } else {
                // Written before these settings existed: the clipped-gradient stream, joint
                // clipping and the last iterate are what those runs ran.
                CHECK(c.wStream == WStream::ClippedGradient);
                CHECK(c.lossClipShare == 0.0);
                CHECK(c.averaging == IterateAveraging::None);
            }
            CHECK(context.runKey == old.at("run_key").asString());
            // Written again, it is the current form and reads back to the same settings.
            const std::string again = runRecordJson(result, context);
            const JsonValue now = parseJson(again);
            CHECK(now.has("settings"));
            CHECK_FALSE(now.at("config").has("lr_theta"));
            CHECK(settingsKey(runResultFromJson(now).config) == settingsKey(c));
        }
    }
}

TEST_CASE("Records tolerate missing and unknown settings", "[parameters][record]") {
    const std::string line =
        linesOf(std::string(PFA_TEST_DATA_DIR) + "/results-before-parameter-specs.jsonl").front();
    std::string edited = line;
    const auto at = edited.find("\"config\":{");
    REQUIRE(at != std::string::npos);
    // An unknown setting (a later version's) and a missing one (lr_w) are both fine.
    edited.insert(at + 10, "\"future_knob\":3,");
    const auto lrW = edited.find("\"lr_w\":0.01,");
    REQUIRE(lrW != std::string::npos);
    edited.erase(lrW, std::string("\"lr_w\":0.01,").size());
    const RunResult result = runResultFromJson(parseJson(edited));
    CHECK(result.config.lrW == TrainConfig{}.lrW);
}

TEST_CASE("Presets name settings by their declared names only when known", "[parameters][preset]") {
    TrainConfig c;
    applyParametersJson(
        c, parseJson(R"({"batch-size": 512, "w-stream": "gradient", "secure-noise": true})"),
        UnknownKeys::Refuse);
    CHECK(c.batchSize == 512);
    CHECK(c.wStream == WStream::ClippedGradient);
    CHECK(c.secureNoise);
    CHECK_THROWS_WITH(
        applyParametersJson(c, parseJson(R"({"batch-size": 0.5})"), UnknownKeys::Refuse),
        Catch::Contains("batch-size = 0.5 is invalid"));
    CHECK_THROWS_WITH(applyParametersJson(c, parseJson(R"({"speed": 1})"), UnknownKeys::Refuse),
                      Catch::Contains("unknown setting 'speed'"));
    CHECK_NOTHROW(applyParametersJson(c, parseJson(R"({"speed": 1})"), UnknownKeys::Ignore));
}

TEST_CASE("A text setting is its trimmed text", "[parameters]") {
    ParamSpec text;
    text.name = "column";
    text.kind = ParamKind::Text;
    CHECK(parseParameter(text, "  race ") == "race");
    CHECK(parseParameter(text, "native country") == "native country");
    REQUIRE_THROWS_WITH(parseParameter(text, " "),
                        "column =   is invalid: it must be a non-empty text");
    CHECK(parameterRule(text) == "a non-empty text");
    text.allowEmpty = true;
    CHECK(parseParameter(text, " ").empty());
    CHECK(parameterRule(text) == "any text");
    CHECK(exampleValue(text) == "example");
    text.defaultValue = "example";
    CHECK(exampleValue(text) == "other");
}

}  // namespace core_parameters_test
