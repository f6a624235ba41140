#include "core/privacy/accounting_json.h"

#include <cmath>

namespace pfa::privacy {

void writeAccountingJson(JsonWriter& json, const AccountingInputs& in) {
    json.beginObject();
    json.key("unit").value(in.unit);
    json.key("adjacency").value(adjacencyCode(in.adjacency));
    json.key("curve").value(releaseKindName(in.kind));
    json.key("sampling_rate").value(in.samplingRate);
    json.key("noise_multiplier").value(in.noiseMultiplier);
    json.key("sensitivity").value(in.sensitivity);
    json.key("steps_per_release").value(in.stepsPerRelease);
    json.key("steps").value(in.steps);
    json.key("releases").value(in.releases());
    json.key("delta").value(in.delta);
    json.key("order_grid").value(in.grid);
    if (in.interimNoiseMultiplier > 0.0) {
        // A second Gaussian release kind (written only when present: records of runs with one
        // kind stay as they were).
        json.key("interim_noise_multiplier").value(in.interimNoiseMultiplier);
        json.key("interim_sensitivity").value(in.interimSensitivity);
        json.key("interim_releases").value(in.interimReleases());
    }
    if (!in.gaussianReleases.empty()) {
        // Written only when present, like the interim kind.
        json.key("gaussian_releases").beginArray();
        for (const GaussianRelease& release : in.gaussianReleases) {
            json.beginObject();
            json.key("what").value(release.what);
            json.key("noise_multiplier").value(release.noiseMultiplier);
            json.key("every_steps").value(release.everySteps);
            json.key("sensitivity").value(release.sensitivity);
            json.key("releases").value(release.releasesAfter(in.steps));
            json.key("curve").value("gaussian: alpha/(2 z^2) per release");
            json.endObject();
        }
        json.endArray();
    }
    // Written only for shared batches: records of runs with their own sample stay as they were.
    if (!in.sharedBatches.empty()) json.key("shared_batches").value(in.sharedBatches);
    if (in.nestedSample) json.key("shared_sample_nested").value(true);
    json.key("extra_releases").beginArray();
    for (const PureRelease& release : in.pureReleases) {
        json.beginObject();
        json.key("what").value(release.what);
        json.key("mechanism").value(release.mechanism);
        json.key("epsilon").value(release.epsilon);
        json.key("composition").value("basic (ε₀ added after conversion)");
        json.endObject();
    }
    json.endArray();
    json.endObject();
}

AccountingInputs accountingFromJson(const JsonValue& json) {
    AccountingInputs in;
    in.unit = json.at("unit").asString();
    in.adjacency = parseAdjacencyCode(json.at("adjacency").asString());
    in.kind = parseReleaseKind(json.at("curve").asString());
    in.samplingRate = json.at("sampling_rate").asNumber();
    in.noiseMultiplier = json.at("noise_multiplier").asNumber();
    in.sensitivity = json.stringOr("sensitivity", "");
    in.stepsPerRelease = std::lround(json.at("steps_per_release").asNumber());
    in.steps = std::lround(json.at("steps").asNumber());
    in.delta = json.at("delta").asNumber();
    in.grid = json.stringOr("order_grid", "standard");
    if (json.has("interim_noise_multiplier")) {
        in.interimNoiseMultiplier = json.at("interim_noise_multiplier").asNumber();
        in.interimSensitivity = json.stringOr("interim_sensitivity", "");
    }
    if (json.has("gaussian_releases")) {
        for (const JsonValue& item : json.at("gaussian_releases").items()) {
            GaussianRelease release;
            release.what = item.stringOr("what", "");
            release.noiseMultiplier = item.at("noise_multiplier").asNumber();
            release.everySteps = std::lround(item.at("every_steps").asNumber());
            release.sensitivity = item.stringOr("sensitivity", "");
            in.gaussianReleases.push_back(release);
        }
    }
    in.sharedBatches = json.stringOr("shared_batches", "");
    in.nestedSample = json.has("shared_sample_nested") && json.at("shared_sample_nested").asBool();
    for (const JsonValue& item : json.at("extra_releases").items()) {
        PureRelease release;
        release.what = item.stringOr("what", "");
        release.mechanism = item.stringOr("mechanism", "");
        release.epsilon = item.at("epsilon").asNumber();
        in.pureReleases.push_back(release);
    }
    return in;
}

}  // namespace pfa::privacy
