#include "core/sweep/parameter_json.h"

#include <algorithm>
#include <cmath>

#include "core/algorithms/registry.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

std::string parameterTextFromJson(const ParamSpec& spec, const JsonValue& value) {
    switch (value.type()) {
        case JsonValue::Type::Bool:
            return parseParameter(spec, value.asBool() ? "true" : "false");
        case JsonValue::Type::Number:
            return parseParameter(spec, value.asNumber());
        case JsonValue::Type::String:
            return parseParameter(spec, value.asString());
        default:
            break;
    }
    throw InputError(spec.name + ": expected a number, a word or true/false");
}

std::string storedParameterText(const ParamSpec& spec, const JsonValue& value) {
    if (spec.hasAuto()) {
        if (value.type() == JsonValue::Type::String && value.asString() == spec.autoValue)
            return spec.autoValue;
        if (value.type() == JsonValue::Type::Number &&
            realText(value.asNumber()) == spec.autoValue) {
            return spec.autoValue;
        }
    }
    return parameterTextFromJson(spec, value);
}

void writeParameterJson(JsonWriter& json, const ParamSpec& spec, const std::string& text) {
    switch (spec.kind) {
        case ParamKind::Flag:
            json.value(text == "true");
            return;
        case ParamKind::Choice:
        case ParamKind::Text:
            json.value(text);
            return;
        case ParamKind::Integer:
            if (text.size() < 16)
                json.value(std::stol(text));
            else
                json.value(std::stoul(text));
            return;
        case ParamKind::Real: {
            double number = 0.0;
            parsePortable(text, number);
            json.value(number);
            return;
        }
    }
}

void applyParametersJson(TrainConfig& config, const JsonValue& object, UnknownKeys unknown,
                         const std::vector<std::string>& skip) {
    for (const auto& [key, value] : object.members()) {
        if (std::find(skip.begin(), skip.end(), key) != skip.end()) continue;
        const ParamSpec* spec = findParameter(key);
        if (!spec) {
            if (unknown == UnknownKeys::Ignore) continue;
            std::string names;
            for (const ParamSpec& known : allParameters())
                names += (names.empty() ? "" : ", ") + known.name;
            throw InputError("unknown setting '" + key + "' (known: " + names + ")");
        }
        spec->set(config, parameterTextFromJson(*spec, value));
    }
}

void writeParametersJson(JsonWriter& json, const TrainConfig& config,
                         const std::vector<ParamSpec>& specs) {
    for (const ParamSpec& spec : specs) {
        json.key(spec.name);
        writeParameterJson(json, spec, spec.get(config));
    }
}

}  // namespace pfa
