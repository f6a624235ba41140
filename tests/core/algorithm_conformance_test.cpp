// Conformance of every registered algorithm, driven by the registry: adding an algorithm to
// the registry puts it under these checks with no other change.
//  * a tiny run on the synthetic data is reproducible bit for bit;
//  * it stops within one step of a cancellation request;
//  * its settings round-trip through the JSON record and keep the run key;
//  * a private run's ε is recomputed exactly from the accounting inputs in its record;
//  * every noisy release of a private run declares a bound and a noise scale whose ratio is a
//    noise multiplier its record's accounting charges (or a pure release it lists);
//  * each of its declared settings round-trips through the record, preset/session JSON and
//    the run key (the command line: tests/cli/parameters_tests.sh; the GUI form: tests/ui).
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <set>

#include "core/algorithms/registry.h"
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
    bool onRelease(const privacy::ReleaseSpec& spec, Eigen::Ref<Eigen::VectorXd>) override {
        Channel& channel = channels[spec.channel];
        ++channel.releases;
        channel.norm = spec.norm;
        // Δ = 0 claims the value does not depend on the data (e.g. noise on a public
        // threshold): nothing to charge, and the neighbour tests hold it to that claim.
        if (spec.sensitivity > 0.0) channel.ratios.insert(spec.noiseScale / spec.sensitivity);
        return true;
    }
    void onBatch(const char*, long, std::vector<long>&, long&) override {}
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

}  // namespace

TEST_CASE("Every private algorithm's noisy releases are the ones its accounting charges",
          "[conformance][privacy]") {
    int checked = 0;
    for (const auto& entry : algorithmRegistry()) {
        const Algorithm& algorithm = *entry;
        if (!algorithm.supportsPrivacy()) continue;
        INFO(algorithm.name());
        const DataSplit& data = test::tinyRunData(algorithm);
        ReleaseCensus census;
        RunResult result;
        {
            privacy::ScopedReleaseTap tap(census);
            result = test::runQuietly(test::tinyRunConfig(algorithm), data);
        }
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
