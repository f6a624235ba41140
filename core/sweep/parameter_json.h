#pragma once

#include <string>
#include <vector>

#include "core/config/parameters.h"
#include "core/util/json_value.h"
#include "core/util/json_writer.h"

namespace pfa {

/// The canonical text of a parameter's JSON value (number, string or boolean), checked
/// against its declaration. Throws InputError naming the parameter.
std::string parameterTextFromJson(const ParamSpec& spec, const JsonValue& value);

/// The same for a value this program stored (records, sessions): the stored automatic value
/// (δ = 0 of an unresolved configuration) is accepted as such.
std::string storedParameterText(const ParamSpec& spec, const JsonValue& value);

/// Writes a parameter's value as JSON: numbers for Real and Integer (exact), strings for
/// Choice, booleans for Flag.
void writeParameterJson(JsonWriter& json, const ParamSpec& spec, const std::string& text);

/// What to do with a key that names no parameter.
enum class UnknownKeys {
    Refuse,  ///< InputError (presets: a misspelt key must not be ignored silently)
    Ignore,  ///< skip it (records and sessions written by other versions)
};

/// Sets every parameter named in `object` (current or former names) in `config`; keys in
/// `skip` are left alone (they belong to the caller).
void applyParametersJson(TrainConfig& config, const JsonValue& object, UnknownKeys unknown,
                         const std::vector<std::string>& skip = {});

/// Writes `config`'s value of every parameter in `specs` as members of the current object.
void writeParametersJson(JsonWriter& json, const TrainConfig& config,
                         const std::vector<ParamSpec>& specs);

}  // namespace pfa
