// Conformance of every registered algorithm, driven by the registry: adding an algorithm to
// the registry puts it under these checks with no other change.
//  * a tiny run on the synthetic data is reproducible bit for bit;
//  * it stops within one step of a cancellation request;
//  * its settings round-trip through the JSON record and keep the run key;
//  * a private run's ε is recomputed exactly from the accounting inputs in its record;
//  * a private run that claims amplification by sampling charges the q a sampler drew at, in
//    every step that ran (tiny runs and variants with other samplers);
//  * every noisy release of a private run declares a bound and a noise scale whose ratio is a
//    noise multiplier its record's accounting charges (or a pure release it lists);
//  * each of its declared settings round-trips through the record, preset/session JSON and
//    the run key (the command line: tests/cli/parameters_tests.sh; the GUI form: tests/ui).
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <set>

#include "core/algorithms/registry.h"
#include "core/algorithms/saddle/dp_sgd.h"
#include "core/data/silo_splitters.h"
#include "core/privacy/accounting_inputs.h"
#include "core/privacy/accounting_json.h"
#include "core/privacy/noisy_release.h"
#include "core/sweep/parameter_json.h"
#include "core/sweep/run_record.h"
#include "core/sweep/sweep_spec.h"
#include "core/util/error.h"
#include "core/util/json_value.h"
#include "test_data.h"

namespace core_algorithm_conformance_test {

using namespace pfa;

namespace {

/// Requests cancellation after the first step and counts the steps taken.
struct CancelAfterFirstStep : TrainingObserver {
    explicit CancelAfterFirstStep(CancelToken& token) : token(token) {}
    bool onStep(const StepInfo& info) override {
        steps = info.step;
        token.cancel();
        return false;
    }
    CancelToken& token;
    long steps = 0;
};

/// Counts every noisy release of the runs on this thread, and lets the noise be drawn as usual.
struct ReleaseCensus : privacy::ReleaseTap {
    struct Channel {
        long releases = 0;
        privacy::SensitivityNorm norm = privacy::SensitivityNorm::L2;
        std::set<double> ratios;  ///< noise scale / Δ of its releases
    };
    std::map<std::string, Channel> channels;
    /// The steps in which a sampler drew, by sampler and rate.
    std::map<std::pair<std::string, double>, std::set<long>> draws;
    long step = 1;  ///< the step being run (1-based), kept by StepCounter
    bool onRelease(const privacy::ReleaseSpec& spec, Eigen::Ref<Eigen::VectorXd>) override {
        Channel& channel = channels[spec.channel];
        ++channel.releases;
        channel.norm = spec.norm;
        // Δ = 0 claims the value does not depend on the data (e.g. noise on a public
        // threshold): nothing to charge, and the neighbour tests hold it to that claim.
        if (spec.sensitivity > 0.0) channel.ratios.insert(spec.noiseScale / spec.sensitivity);
        return true;
    }
    void onBatch(const privacy::BatchDraw& draw, std::vector<long>&, long&) override {
        draws[{draw.sampler, draw.rate}].insert(step);
    }
};

/// Tells the census which step runs: the one after the last finished.
struct StepCounter : TrainingObserver {
    explicit StepCounter(ReleaseCensus& census) : census(census) {}
    bool onStep(const StepInfo& info) override {
        census.step = info.step + 1;
        return false;
    }
    ReleaseCensus& census;
};

/// Whether `ratio` (noise / Δ of a Gaussian release) is one of the multipliers `inputs`
/// charges: the main curve's z, the interim z, or a scheduled release's z.
bool chargedMultiplier(const privacy::AccountingInputs& inputs, double ratio) {
    const auto same = [ratio](double z) { return z > 0.0 && std::abs(ratio - z) <= 1e-9 * z; };
    if (same(inputs.noiseMultiplier) || same(inputs.interimNoiseMultiplier)) return true;
    for (const privacy::GaussianRelease& release : inputs.gaussianReleases)
        if (same(release.noiseMultiplier)) return true;
    return false;
}

/// The tiny run of every private algorithm, labelled by its name; with `variants`, also runs
/// whose samplers draw otherwise: shuffled and uniform batches, Poisson rows within silos, a
/// share of the users per round.
std::vector<std::pair<std::string, TrainConfig>> privateRuns(bool variants) {
    std::vector<std::pair<std::string, TrainConfig>> runs;
    for (const auto& entry : algorithmRegistry())
        if (entry->supportsPrivacy()) runs.emplace_back(entry->name(), test::tinyRunConfig(*entry));
    if (!variants) return runs;
    auto variant = [&](const std::string& name, const char* setting, const std::string& value) {
        TrainConfig config = test::tinyRunConfig(findAlgorithm(name));
        setParameter(config, *findParameter(setting), value);
        runs.emplace_back(name + " " + setting + "=" + value, config);
    };
    variant("dp-sgd", "sampling", "shuffle");
    variant("dp-sgd", "sampling", "subsample");
    variant("dp-fermi", "sampling", "shuffle");
    variant("isrl-dp-sgd", "noise-calibration", "rdp-poisson");
    variant("user-level-dp-sgd", "users-per-round", "5");
    variant("ppsgd", "sampled-users", "5");
    return runs;
}

/// Runs `config` on its tiny data with `census` watching every release and every draw.
RunResult runWithCensus(const TrainConfig& config, ReleaseCensus& census) {
    const DataSplit& data = test::tinyRunData(findAlgorithm(config.algorithm));
    privacy::ScopedReleaseTap tap(census);
    StepCounter counter(census);
    CancelToken cancel;
    return runAlgorithm(config, data, counter, cancel);
}

}  // namespace

TEST_CASE("Every private algorithm's noisy releases are the ones its accounting charges",
          "[conformance][privacy]") {
    int checked = 0;
    for (const auto& [label, config] : privateRuns(false)) {
        INFO(label);
        ReleaseCensus census;
        const RunResult result = runWithCensus(config, census);
        REQUIRE(result.status == RunStatus::Completed);
        const privacy::AccountingInputs& inputs = result.privacy.accounting;
        CHECK(std::isfinite(result.privacy.epsilonSpent));
        // Something private was released, and every release through a mechanism with a bound
        // and noise: no release escapes the accountant.
        REQUIRE_FALSE(census.channels.empty());
        // Gaussian channels released together at every step (e.g. DP-FERMI's θ-gradient and
        // W-masses) are charged as one release: their multipliers z_c combine to
        // (Σ_c 1/z_c²)^(−1/2), which must then be the charged one.
        double jointPrecision = 0.0;
        int dataReleases = 0;
        for (const auto& [name, channel] : census.channels) {
            INFO("channel " << name);
            for (const double ratio : channel.ratios) {
                INFO("noise / bound = " << ratio);
                ++dataReleases;
                // Noise on every release that depends on the data.
                CHECK(ratio > 0.0);
                if (channel.norm == privacy::SensitivityNorm::L2) {
                    if (!chargedMultiplier(inputs, ratio)) jointPrecision += 1.0 / (ratio * ratio);
                } else {
                    // A Laplace release is a pure release the record lists (ε₀ = Δ₁ / scale).
                    bool listed = false;
                    for (const privacy::PureRelease& pure : inputs.pureReleases)
                        listed = listed || std::abs(pure.epsilon * ratio - 1.0) <= 1e-9;
                    CHECK(listed);
                }
            }
        }
        CHECK(dataReleases > 0);
        if (jointPrecision > 0.0) {
            INFO("joint multiplier of the channels not charged one by one: "
                 << 1.0 / std::sqrt(jointPrecision) << ", charged: " << inputs.noiseMultiplier);
            CHECK(chargedMultiplier(inputs, 1.0 / std::sqrt(jointPrecision)));
        }
        // The accountant charged the steps that ran.
        CHECK(inputs.steps == result.steps);
        ++checked;
    }
    CHECK(checked >= 10);
}

TEST_CASE("Every private algorithm's ε takes q and T from the sampler that ran",
          "[conformance][privacy]") {
    int amplified = 0;
    for (const auto& [label, config] : privateRuns(true)) {
        INFO(label);
        ReleaseCensus census;
        const RunResult result = runWithCensus(config, census);
        REQUIRE(result.status == RunStatus::Completed);
        const privacy::AccountingInputs& inputs = result.privacy.accounting;
        INFO("charged: q = " << inputs.samplingRate << ", T = " << inputs.steps);
        // T: the steps that ran.
        CHECK(inputs.steps == result.steps);
        if (!(inputs.samplingRate < 1.0)) continue;  // no amplification by sampling claimed
        // q: a sampler drew at exactly that rate, and it drew in every one of the T steps (an
        // accountant told of fewer steps, or of a rate nobody drew at, would state a false ε).
        std::set<long> stepsAtRate;
        for (const auto& [draw, steps] : census.draws) {
            INFO("sampler '" << draw.first << "' drew at rate " << draw.second << " in "
                             << steps.size() << " steps");
            if (draw.second == inputs.samplingRate) stepsAtRate.insert(steps.begin(), steps.end());
        }
        CHECK(static_cast<long>(stepsAtRate.size()) == inputs.steps);
        CHECK((!stepsAtRate.empty() && *stepsAtRate.begin() == 1 &&
               *stepsAtRate.rbegin() == result.steps));
        ++amplified;
    }
    // Row, user and silo-row samplers all claim amplification somewhere in the list.
    CHECK(amplified >= 8);
}

TEST_CASE("Every registered algorithm conforms: reproducible, cancellable, recorded, accounted",
          "[conformance]") {
    REQUIRE(algorithmRegistry().size() >= 4);
    for (const auto& entry : algorithmRegistry()) {
        const Algorithm& algorithm = *entry;
        INFO(algorithm.name());
        const DataSplit& data = test::tinyRunData(algorithm);
        CHECK_FALSE(algorithm.description().empty());
        const TrainConfig config = test::tinyRunConfig(algorithm);

        // Reproducible: the same settings and data give identical results.
        const RunResult first = test::runQuietly(config, data);
        const RunResult second = test::runQuietly(config, data);
        REQUIRE(first.status == RunStatus::Completed);
        CHECK(first.theta == second.theta);
        CHECK(first.W == second.W);
        CHECK(first.test.error == second.test.error);
        CHECK(first.privacy.epsilonSpent == second.privacy.epsilonSpent);

        // Cancellable within one step.
        CancelToken cancel;
        CancelAfterFirstStep observer(cancel);
        const RunResult cancelled = runAlgorithm(config, data, observer, cancel);
        CHECK(cancelled.status == RunStatus::Cancelled);
        CHECK(cancelled.steps == 1);

        // Settings round-trip through the record; the run key is kept.
        const std::string line = runRecordJson(first, RunContext{});
        const RunResult back = runResultFromJson(parseJson(line));
        CHECK(settingsKey(back.config) == settingsKey(first.config));
        CHECK(runKey("synthetic", back.config) == runKey("synthetic", first.config));
        CHECK(back.test.error == first.test.error);

        // A private run's ε is recomputed from its record alone.
        const JsonValue privacyJson = parseJson(line).at("privacy");
        CHECK(privacyJson.at("is_private").asBool() == algorithm.supportsPrivacy());
        if (algorithm.supportsPrivacy()) {
            REQUIRE(privacyJson.has("accounting"));
            const double recomputed =
                privacy::certifiedEpsilon(privacy::accountingFromJson(privacyJson.at("accounting")))
                    .epsilon;
            CHECK(recomputed == Approx(first.privacy.epsilonSpent).epsilon(1e-12));
            CHECK(first.privacy.epsilonSpent <= config.epsilon * (1 + 1e-9));
        } else {
            CHECK(std::isinf(first.privacy.epsilonSpent));
        }
    }
}

TEST_CASE("Every registered algorithm's settings round-trip through record, JSON and run key",
          "[conformance][parameters]") {
    for (const auto& entry : algorithmRegistry()) {
        const Algorithm& algorithm = *entry;
        const TrainConfig base = withOwnParameters(algorithm, test::tinyConfig(algorithm));
        for (const ParamSpec& spec : algorithm.parameters()) {
            INFO(algorithm.name() << ": " << spec.name);
            const std::string example = exampleValue(spec);
            REQUIRE(example != spec.get(base));
            TrainConfig changed = base;
            setParameter(changed, spec, example);
            // The run key sees it.
            CHECK(runKey("synthetic", changed) != runKey("synthetic", base));
            // The record keeps it under its name.
            RunResult result;
            result.config = changed;
            const std::string line = runRecordJson(result, RunContext{});
            const TrainConfig back = runResultFromJson(parseJson(line)).config;
            CHECK(spec.get(back) == example);
            CHECK(settingsKey(back) == settingsKey(changed));
            // Presets and sessions name it the same way.
            JsonWriter json;
            json.beginObject();
            writeParametersJson(json, changed, {spec});
            json.endObject();
            TrainConfig fromJson = base;
            applyParametersJson(fromJson, parseJson(json.text()), UnknownKeys::Refuse);
            CHECK(spec.get(fromJson) == example);
        }
    }
}

TEST_CASE("Every own-setting handle names a declared setting of its kind", "[registry]") {
    const auto& algorithms = algorithmRegistry();  // built: every handle passed the check
    REQUIRE(ownSettingHandles().size() >= 60);
    for (const OwnSetting* handle : ownSettingHandles()) {
        INFO(handle->name());
        CHECK(ownSettingProblem(algorithms, handle->name(), handle->kind()).empty());
    }
    // What the check refuses: a name no algorithm declares, and a number read as a choice.
    CHECK_THAT(ownSettingProblem(algorithms, "no-such-setting", OwnSettingKind::Number),
               Catch::Contains("declared by no algorithm"));
    CHECK_THAT(ownSettingProblem(algorithms, "ridge", OwnSettingKind::Choice),
               Catch::Contains("declares it as a number"));
    CHECK_THAT(ownSettingProblem(algorithms, "clip-rule", OwnSettingKind::Number),
               Catch::Contains("declares it as a choice"));
}

TEST_CASE("The algorithms other layers name by constant are registered under those names",
          "[registry]") {
    // A configuration starts from the default algorithm; the audit breaks DP-SGD on purpose.
    CHECK(TrainConfig{}.algorithm == kDefaultAlgorithm);
    CHECK(findAlgorithm(kDefaultAlgorithm).name() == kDefaultAlgorithm);
    CHECK(findAlgorithm(kDpSgdName).name() == kDpSgdName);
    CHECK(findAlgorithm(kDpSgdName).supportsPrivacy());
}

TEST_CASE("Every algorithm counts its progress by a setting it declares, in its own unit",
          "[conformance][registry]") {
    for (const auto& entry : algorithmRegistry()) {
        const Algorithm& algorithm = *entry;
        INFO(algorithm.name());
        const AlgorithmCapabilities capabilities = algorithm.capabilities();
        CHECK(readsParameter(algorithm, capabilities.progressSetting));
        // Epochs only where the algorithm reads the epochs setting (rounds are not epochs).
        CHECK((capabilities.progressUnit == "epoch") == readsParameter(algorithm, "epochs"));
        // The history counts in that unit: a tiny run's last count is within the setting.
        const TrainConfig config = test::tinyRunConfig(algorithm);
        const RunResult run = test::runQuietly(config, test::tinyRunData(algorithm));
        REQUIRE(run.status == RunStatus::Completed);
        REQUIRE_FALSE(run.history.empty());
        const long done = progressAt(algorithm, run.history.back());
        const std::string text = progressText(algorithm, run.config, done);
        CHECK(text.find(capabilities.progressUnit) != std::string::npos);
        // A completed run ends where its setting says, counted in its unit (a round algorithm's
        // `epoch` numbers its evaluations, which the charts once drew as rounds).
        const long planned = plannedProgress(algorithm, run.config);
        if (planned > 0) CHECK(done == planned);
        for (std::size_t h = 1; h < run.history.size(); ++h)
            CHECK(progressAt(algorithm, run.history[h]) >
                  progressAt(algorithm, run.history[h - 1]));
        CHECK(lengthText(algorithm, run.config).find(capabilities.progressUnit) !=
              std::string::npos);
    }
    const Algorithm& ppsgd = findAlgorithm("ppsgd");
    TrainConfig config;
    config.algorithm = "ppsgd";
    config.extra["global-rounds"] = "300";
    CHECK(progressText(ppsgd, config, 35) == "35 of 300 rounds");
    CHECK(lengthText(ppsgd, config) == "300 rounds");
    TrainConfig fermi;
    fermi.epochs = 400;
    CHECK(progressText(findAlgorithm("dp-fermi"), fermi, 400) == "400 of 400 epochs");
}

TEST_CASE("Every algorithm that reads evaluate-every spaces its evaluations by it, in its unit",
          "[conformance][registry]") {
    int checked = 0;
    for (const auto& entry : algorithmRegistry()) {
        const Algorithm& algorithm = *entry;
        if (!readsParameter(algorithm, "evaluate-every")) continue;
        INFO(algorithm.name());
        const DataSplit& data = test::tinyRunData(algorithm);
        TrainConfig config = test::tinyRunConfig(algorithm);
        const RunResult everyUnit = test::runQuietly(config, data);
        REQUIRE(everyUnit.status == RunStatus::Completed);
        REQUIRE_FALSE(everyUnit.history.empty());
        const long last = progressAt(algorithm, everyUnit.history.back());
        // More than the run: one evaluation, after the last step.
        config.evaluateEvery = 1000000000;
        const RunResult once = test::runQuietly(config, data);
        REQUIRE(once.status == RunStatus::Completed);
        CHECK(once.history.size() == 1);
        CHECK(progressAt(algorithm, once.history.back()) == last);
        // Every 2 units (or the loop's own wider spacing): never two evaluations 1 unit apart
        // but the last, which is always evaluated.
        config.evaluateEvery = 2;
        const RunResult second = test::runQuietly(config, data);
        REQUIRE(second.status == RunStatus::Completed);
        REQUIRE_FALSE(second.history.empty());
        CHECK(progressAt(algorithm, second.history.back()) == last);
        CHECK(progressAt(algorithm, second.history.front()) >= std::min(2L, last));
        for (std::size_t h = 1; h + 1 < second.history.size(); ++h)
            CHECK(progressAt(algorithm, second.history[h]) -
                      progressAt(algorithm, second.history[h - 1]) >=
                  2);
        CHECK(second.history.size() <= everyUnit.history.size());
        // Every half run: after half of it, the whole of it (and the last, when odd).
        config.evaluateEvery = static_cast<int>(std::max(2L, last / 2));
        const RunResult halves = test::runQuietly(config, data);
        REQUIRE(halves.status == RunStatus::Completed);
        CHECK(halves.history.size() <= 3);
        CHECK(progressAt(algorithm, halves.history.back()) == last);
        ++checked;
    }
    // Every algorithm that evaluates during training.
    CHECK(checked >= 19);
}

TEST_CASE("Every registered algorithm's kept declarations are its declarations", "[registry]") {
    for (const auto& entry : algorithmRegistry()) {
        INFO(entry->name());
        const std::vector<ParamSpec> fresh = entry->parameters();
        const std::vector<ParamSpec>& kept = entry->declaredParameters();
        REQUIRE(kept.size() == fresh.size());
        for (std::size_t i = 0; i < fresh.size(); ++i) {
            CHECK(kept[i].name == fresh[i].name);
            CHECK(kept[i].defaultValue == fresh[i].defaultValue);
            CHECK(kept[i].kind == fresh[i].kind);
        }
        // Built once: the same declarations on every later call.
        CHECK(&entry->declaredParameters() == &kept);
    }
}

}  // namespace core_algorithm_conformance_test
