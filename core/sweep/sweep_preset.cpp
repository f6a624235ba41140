#include "core/sweep/sweep_preset.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <initializer_list>
#include <map>
#include <sstream>

#include "core/algorithms/registry.h"
#include "core/data/catalog.h"
#include "core/generators/generator.h"
#include "core/generators/silo_settings.h"
#include "core/generators/split_settings.h"
#include "core/sweep/parameter_json.h"
#include "core/util/embedded_json.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "core/util/json_value.h"
#include "core/util/json_writer.h"

namespace pfa {

namespace {

std::vector<double> numbers(const JsonValue& json) { return json.numbers(); }

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

/// A declared setting's value in a preset: a word for a choice, a number (or "inf") otherwise;
/// checked against its declaration.
std::string presetSettingText(const ParamSpec& spec, const JsonValue& value) {
    return spec.kind == ParamKind::Choice ? parseParameter(spec, value.asString())
                                          : parseParameter(spec, value.asNumber());
}

/// The "split" object of earlier presets' "dataset": method, seed and test_fraction, each
/// optional; read through the split's declarations (split_settings.h).
void applyPresetSplit(DatasetRequest& request, const JsonValue& json) {
    for (const auto& [key, value] : json.members()) {
        const GeneratorKnob* setting = findSplitSetting(key);
        if (!setting) {
            throw InputError("unknown split key '" + key +
                             "' (known: method, seed, test_fraction)");
        }
        setting->set(request, presetSettingText(setting->spec, value));
    }
}

/// A silo setting's value in a preset as text: a word, or a number (or "inf").
std::string presetSiloText(const JsonValue& value) {
    return value.type() == JsonValue::Type::String ? value.asString() : realText(value.asNumber());
}

/// The "silos" object of earlier presets' "dataset": the silo settings under their former names
/// ("method", "count", "alpha", "column", "min_rows", "seed"), "method" required, the others
/// SiloOptions' defaults when absent; read through the declarations (silo_settings.h).
void applyPresetSilos(DatasetRequest& request, const JsonValue& json) {
    std::map<std::string, std::string> given;
    for (const auto& [key, value] : json.members()) {
        const SiloSetting* setting = findSiloSetting(key);
        if (!setting) {
            std::string known;
            for (const SiloSetting& each : siloSettings())
                known += (known.empty() ? "" : ", ") + each.knob.spec.formerNames.front();
            throw InputError("unknown silos key '" + key + "' (known: " + known + ")");
        }
        given[setting->name()] = presetSiloText(value);
    }
    if (!given.count("silo-split")) {
        throw InputError(
            "silos: \"method\" is required (equal, dirichlet or attribute); or give the "
            "settings in the dataset object (\"silo-split\", \"silos\", …)");
    }
    request.silos = SiloOptions{};  // what the object leaves out: SiloOptions' defaults
    applySiloSettings(request, given, "");
}

/// A generator's knobs in a preset's "dataset": each by its name ("heavy-rows": 2000), or, as
/// earlier presets wrote them, in the generator's former object under former names
/// ("heavy_tailed": {"rows": 2000}). Numbers or "inf"; each checked against its declaration.
void applyPresetKnob(DatasetRequest& request, const std::string& key, const JsonValue& value) {
    const DataGenerator* generator = findGenerator(request.name);
    if (generator && !generator->formerPresetObject.empty() &&
        key == generator->formerPresetObject) {
        for (const auto& [name, knobValue] : value.members()) {
            const GeneratorKnob* knob = generator->findKnob(name);
            if (!knob) {
                throw InputError("dataset \"" + key + "\" has no knob '" + name + "' (" +
                                 generator->name + " knobs: see pfa-cli train --help)");
            }
            setKnob(request, knob->spec.name, knobValue.asNumber());
        }
        return;
    }
    if (generator) {
        const GeneratorKnob* knob = generator->findKnob(key);
        if (knob && knob->spec.name == key) {
            setKnob(request, key, value.asNumber());
            return;
        }
    }
    for (const DataGenerator& other : dataGenerators()) {
        const bool formerObject =
            !other.formerPresetObject.empty() && key == other.formerPresetObject;
        const GeneratorKnob* knob = other.findKnob(key);
        if (formerObject || (knob && knob->spec.name == key)) {
            throw InputError("dataset \"" + key + "\" only goes with the " + other.name +
                             " data set");
        }
    }
    std::string known = "name, sensitive, split-method, split-seed, test-fraction";
    for (const SiloSetting& setting : siloSettings()) known += ", " + setting.name();
    if (generator) {
        for (const GeneratorKnob& knob : generator->knobs) known += ", " + knob.spec.name;
    }
    throw InputError("unknown dataset key '" + key + "' (known: " + known + ")");
}

/// The request a preset's "dataset" object describes.
DatasetRequest parsePresetDataset(const JsonValue& dataset) {
    DatasetRequest request;
    request.name = dataset.at("name").asString();
    request.sensitive = dataset.stringOr("sensitive", "");
    // Your own file (a sweep written by the application): its path and how it is read.
    const bool ownFile = request.name == "file";
    if (ownFile) {
        request.filePath = dataset.at("file").asString();
        request.schema = schemaFromJson(dataset.at("schema"));
        request.schema.validate();
    } else if (dataset.has("file") || dataset.has("schema")) {
        throw InputError("dataset \"file\" and \"schema\" only go with \"name\": \"file\"");
    }
    // The silo settings by name, applied together: their rules concern each other.
    std::map<std::string, std::string> silos;
    for (const auto& [key, value] : dataset.members()) {
        if (key == "name" || key == "sensitive") continue;
        if (ownFile && (key == "file" || key == "schema")) continue;
        const GeneratorKnob* split = findSplitSetting(key);
        const SiloSetting* silo = findSiloSetting(key);
        if (key == "split") {
            applyPresetSplit(request, value);
        } else if (split && split->spec.name == key) {
            split->set(request, presetSettingText(split->spec, value));
        } else if (key == "silos" && value.type() == JsonValue::Type::Object) {
            applyPresetSilos(request, value);
        } else if (silo && silo->name() == key) {
            silos[key] = presetSiloText(value);
        } else {
            applyPresetKnob(request, key, value);
        }
    }
    applySiloSettings(request, silos, "");
    return request;
}

/// The data sets of a preset's "data_axes": {"KNOB": [values…], …} sets a generator knob of the
/// "dataset" (e.g. "heavy-rows"; earlier presets wrote "OBJECT.KNOB", e.g. "heavy_tailed.rows")
/// to each value in turn; several axes make every combination (axes in name order, the first
/// outermost). Each variant is parsed like the dataset object itself, so a knob is checked
/// exactly as there. `names` receives the axes.
std::vector<DatasetRequest> expandDataAxes(const JsonValue& dataset, const JsonValue& axes,
                                           std::vector<std::string>& names) {
    std::vector<JsonValue> variants{dataset};
    for (const auto& [path, values] : axes.members()) {
        const std::size_t dot = path.find('.');
        if (dot == 0 || (dot != std::string::npos && dot + 1 == path.size()) ||
            (dot == std::string::npos && !generatorOfKnob(path))) {
            throw InputError("data axis '" + path +
                             "' must name a generator knob (e.g. heavy-rows; see pfa-cli train "
                             "--help)");
        }
        const bool former = dot != std::string::npos;
        const std::string object = former ? path.substr(0, dot) : std::string(),
                          knob = former ? path.substr(dot + 1) : path;
        if (!values.isArray() || values.items().empty())
            throw InputError("data axis " + path + " has no values");
        names.push_back(path);
        std::vector<JsonValue> next;
        for (const JsonValue& variant : variants) {
            for (const JsonValue& value : values.items()) {
                std::map<std::string, JsonValue> members = variant.members();
                if (!former) {
                    members[knob] = value;
                    next.push_back(JsonValue::object(std::move(members)));
                    continue;
                }
                std::map<std::string, JsonValue> knobs = variant.has(object)
                                                             ? variant.at(object).members()
                                                             : std::map<std::string, JsonValue>{};
                knobs[knob] = value;
                members[object] = JsonValue::object(std::move(knobs));
                next.push_back(JsonValue::object(std::move(members)));
            }
        }
        variants = std::move(next);
    }
    std::vector<DatasetRequest> requests;
    for (const JsonValue& variant : variants) requests.push_back(parsePresetDataset(variant));
    return requests;
}

}  // namespace

SweepPreset parseSweepPreset(const std::string& fileName, const std::string& text) {
    try {
        const JsonValue json = parseJson(text);
        requireKnownKeys(json, "preset",
                         {"name", "title", "source", "dataset", "data_axes", "datasets",
                          "algorithms", "fairness", "epsilons", "lambdas", "seeds", "axes",
                          "tuning", "config", "algorithm_config"});
        SweepPreset preset;
        preset.name = json.at("name").asString();
        preset.title = json.at("title").asString();
        preset.source = json.at("source").asString();
        const JsonValue& dataset = json.at("dataset");
        preset.dataset = parsePresetDataset(dataset);
        if (json.has("data_axes") && json.has("datasets"))
            throw InputError("give \"data_axes\" or \"datasets\", not both");
        if (json.has("data_axes"))
            preset.dataVariants = expandDataAxes(dataset, json.at("data_axes"), preset.dataAxes);
        // Every data set listed (a sweep written by the application over a preset's data axes).
        if (json.has("datasets")) {
            for (const JsonValue& each : json.at("datasets").items())
                preset.dataVariants.push_back(parsePresetDataset(each));
            if (preset.dataVariants.empty()) throw InputError("\"datasets\" lists no data set");
        }
        SweepSpec& spec = preset.spec;
        spec.datasets.clear();
        spec.algorithms.clear();
        for (const JsonValue& a : json.at("algorithms").items())
            spec.algorithms.push_back(a.asString());
        spec.notions.clear();
        for (const JsonValue& f : json.at("fairness").items())
            spec.notions.push_back(parseFairnessNotion(f.asString()));
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
                SweepAxis axis;
                axis.parameter = parameter;
                if (isChoiceSweepParameter(parameter)) {
                    for (const JsonValue& item : values.items())
                        axis.choices.push_back(item.asString());
                } else {
                    axis.values = values.numbers();
                }
                if (axis.size() == 0) throw InputError("axis " + parameter + " has no values");
                TrainConfig probe;  // refuses unknown names and values now, not when the sweep runs
                for (double value : axis.values) applySweepParameter(probe, parameter, value);
                for (const std::string& choice : axis.choices)
                    applySweepParameter(probe, parameter, choice);
                spec.axes.push_back(std::move(axis));
            }
        }
        // Settings by their declared names; a misspelt one is refused, not ignored.
        if (json.has("config"))
            applyParametersJson(spec.base, json.at("config"), UnknownKeys::Refuse);
        if (json.has("algorithm_config")) {
            for (const auto& [algorithm, settings] : json.at("algorithm_config").members()) {
                if (std::find(spec.algorithms.begin(), spec.algorithms.end(), algorithm) ==
                    spec.algorithms.end()) {
                    throw InputError("algorithm_config names " + algorithm +
                                     ", which the preset does not run");
                }
                TrainConfig probe = spec.base;  // refuses unknown names and values now
                applyParametersJson(probe, settings, UnknownKeys::Refuse);
                spec.algorithmConfig[algorithm] = settings;
            }
        }
        if (spec.algorithms.empty() || spec.notions.empty() || spec.epsilons.empty() ||
            spec.lambdas.empty() || spec.seeds.empty()) {
            throw InputError("every axis needs at least one value");
        }
        return preset;
    } catch (const InputError& error) {
        throw InputError("sweep preset " + fileName + ": " + error.what());
    }
}

namespace {

/// A data set in full, as parsePresetDataset reads it: the file and its schema, or the
/// sensitive choice and every knob; the split and the silos. (The folder is not written: it is
/// the reader's, --data-dir.)
void writeDataset(JsonWriter& json, const DatasetRequest& request) {
    json.beginObject();
    json.key("name").value(request.name);
    if (!request.sensitive.empty()) json.key("sensitive").value(request.sensitive);
    if (request.name == "file") {
        json.key("file").value(request.filePath);
        json.key("schema").rawValue(schemaToJson(request.schema));
    }
    // Knobs and split settings that differ from the defaults (a knob that needs another is
    // only given with it).
    DatasetRequest defaults;
    defaults.name = request.name;
    if (const DataGenerator* generator = findGenerator(request.name)) {
        for (const GeneratorKnob& knob : generator->knobs) {
            const std::string text = knob.get(request);
            if (text == knob.get(defaults)) continue;
            json.key(knob.spec.name);
            writeParameterJson(json, knob.spec, text);
        }
    }
    for (const GeneratorKnob& setting : splitSettings()) {
        const std::string text = setting.get(request);
        if (text == setting.get(defaults)) continue;
        json.key(setting.spec.name);
        writeParameterJson(json, setting.spec, text);
    }
    if (request.silos) {
        for (const SiloSetting& setting : siloSettings()) {
            if (!setting.goesWith(request.silos->method)) continue;
            json.key(setting.name());
            writeParameterJson(json, setting.knob.spec, setting.knob.get(request));
        }
    }
    json.endObject();
}

}  // namespace

std::string sweepPresetJson(const SweepPreset& preset) {
    const SweepSpec& spec = preset.spec;
    JsonWriter json;
    json.beginObject();
    json.key("name").value(preset.name);
    json.key("title").value(preset.title);
    json.key("source").value(preset.source);
    json.key("dataset");
    writeDataset(json, preset.dataset);
    if (!preset.dataVariants.empty()) {
        json.key("datasets").beginArray();
        for (const DatasetRequest& variant : preset.dataVariants) writeDataset(json, variant);
        json.endArray();
    }
    json.key("algorithms").beginArray();
    for (const std::string& algorithm : spec.algorithms) json.value(algorithm);
    json.endArray();
    json.key("fairness").beginArray();
    for (const FairnessNotion notion : spec.notions) json.value(fairnessCode(notion));
    json.endArray();
    json.key("epsilons").array(spec.epsilons);
    json.key("lambdas").array(spec.lambdas);
    json.key("seeds").beginArray();
    for (const std::uint64_t seed : spec.seeds) json.value(static_cast<unsigned long>(seed));
    json.endArray();
    if (!spec.axes.empty()) {
        json.key("axes").beginObject();
        for (const SweepAxis& axis : spec.axes) {
            json.key(axis.parameter);
            if (!axis.choices.empty()) {
                json.beginArray();
                for (const std::string& choice : axis.choices) json.value(choice);
                json.endArray();
            } else {
                json.array(axis.values);
            }
        }
        json.endObject();
    }
    json.key("tuning").value(tuningName(spec.tuning));
    // The settings that differ from the defaults, by their declared names.
    const TrainConfig defaults;
    json.key("config").beginObject();
    for (const ParamSpec& parameter : allParameters()) {
        if (parameter.role != ParamRole::Setting) continue;
        const std::string text = parameter.get(spec.base);
        if (text == parameter.get(defaults)) continue;
        json.key(parameter.name);
        writeParameterJson(json, parameter, text);
    }
    json.endObject();
    if (!spec.algorithmConfig.empty()) {
        json.key("algorithm_config").beginObject();
        for (const auto& [algorithm, settings] : spec.algorithmConfig) {
            json.key(algorithm);
            writeJsonValue(json, settings);
        }
        json.endObject();
    }
    json.endObject();
    return json.text() + "\n";
}

SweepPreset readSweepPresetFile(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InputError("cannot read the sweep file '" + path + "'");
    std::stringstream text;
    text << in.rdbuf();
    return parseSweepPreset(path, text.str());
}

const std::vector<SweepPreset>& sweepPresets() {
    static const std::vector<SweepPreset> presets = [] {
        std::vector<SweepPreset> list;
        for (const EmbeddedJson& source : presetSources()) {
            list.push_back(
                parseSweepPreset(std::string(source.fileName), std::string(source.json)));
        }
        // In name order, the as-published calibrations last: the first a user sees certifies
        // every ε it shows.
        const auto asPublished = [](const SweepPreset& p) {
            return p.name.size() > 13 &&
                   p.name.compare(p.name.size() - 13, 13, "-as-published") == 0;
        };
        std::sort(list.begin(), list.end(), [&](const SweepPreset& a, const SweepPreset& b) {
            if (asPublished(a) != asPublished(b)) return asPublished(b);
            return a.name < b.name;
        });
        return list;
    }();
    return presets;
}

std::string currentPresetName(const std::string& name) {
    // Renamed so that a name never hides what it certifies: these reproduce the papers'
    // calibration, whose nominal ε is far below the ε they certify.
    static const std::map<std::string, std::string> renamed = {
        {"adult-dp", "adult-dp-as-published"},
        {"credit-card-eo", "credit-card-eo-as-published"},
        {"parkinsons-dp", "parkinsons-dp-as-published"}};
    const auto it = renamed.find(name);
    return it == renamed.end() ? name : it->second;
}

const SweepPreset& findSweepPreset(const std::string& requested) {
    const std::string name = currentPresetName(requested);
    std::string known;
    for (const SweepPreset& preset : sweepPresets()) {
        if (preset.name == name) return preset;
        known += (known.empty() ? "" : ", ") + preset.name;
    }
    throw InputError("unknown preset '" + name + "': choose one of " + known);
}

}  // namespace pfa
