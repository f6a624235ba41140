#pragma once

#include "core/privacy/accounting_inputs.h"
#include "core/util/json_value.h"
#include "core/util/json_writer.h"

namespace pfa::privacy {

/// Writes `inputs` as a JSON object (keys: unit, adjacency, curve, sampling_rate,
/// noise_multiplier, sensitivity, steps_per_release, steps, releases, delta, order_grid,
/// extra_releases [{what, mechanism, epsilon, composition}]). Numbers are exact.
void writeAccountingJson(JsonWriter& json, const AccountingInputs& inputs);

/// Reads the object written by writeAccountingJson; throws InputError naming a missing or
/// malformed key.
AccountingInputs accountingFromJson(const JsonValue& json);

}  // namespace pfa::privacy
