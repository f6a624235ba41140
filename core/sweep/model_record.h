#pragma once

#include "core/config/run_result.h"
#include "core/sweep/run_record.h"
#include "core/util/json_value.h"
#include "core/util/json_writer.h"

namespace pfa {

// The model part of a run record (see run_record.h): the trained parameters and what turns
// raw rows into their inputs, so a record can be applied to new data (saved_model.h).

/// True when `result` holds parameters worth storing: a non-empty θ, every value finite.
bool hasStorableModel(const RunResult& result);

/// Writes the key `model`: {"kind": "logistic" | "softmax", "classes": l, "theta": p rows of
/// d+1 numbers (bias last), "w": the adversary matrix as rows (only when λ > 0),
/// "feature_bound": B (rows [x, 1] with a larger norm were scaled to norm B; 0 = never)}, all
/// numbers exact. Writes nothing when the result has no storable model.
void writeModelJson(JsonWriter& json, const RunResult& result);

/// Writes the keys `model` (see writeModelJson) and `preprocessing` (writePreprocessingJson,
/// only when the context has one) into an open record object.
void writeModelRecord(JsonWriter& json, const RunResult& result, const RunContext& context);

/// Reads `model` and `preprocessing` of a record when present (theta, W, featureBound and
/// context->preprocessing); a record without them leaves them empty. Throws InputError for a
/// malformed model (ragged rows, wrong shape for the classes).
void readModelRecord(const JsonValue& record, RunResult& result, RunContext* context);

}  // namespace pfa
