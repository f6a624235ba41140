#pragma once

#include <string>
#include <vector>

#include "core/util/json_value.h"

namespace pfa {

/// What a field of a run record is, for privacy: every field a record can hold is declared
/// once with one of these (recordFieldClass), so a new field cannot slip into records without
/// a decision, and the record-field tests can check each run's statement against its record.
enum class FieldClass {
    Public,         ///< settings and the schema
    Bookkeeping,    ///< identities and wall time of the execution
    Accounting,     ///< the mechanism's parameters and certified ε: from the settings (and n)
    Statement,      ///< the statement and its parts (they restate the other fields)
    Released,       ///< the released model: post-processing of the noisy releases (covered)
    TestRows,       ///< computed from the released model on test rows (test rows not protected)
    Preprocessing,  ///< encoding statistics of the training rows (stated in every statement)
    UnitCount,      ///< how many training units there are: public under replace-one only
    Diagnostic,     ///< exact function of the private training rows; left out when switched off
    Disclosed,      ///< computed from private training data, not protected, always named
    Secret,         ///< the run seed: whoever knows it can regenerate a seeded run's noise
};

/// "public", "bookkeeping", "released", …
std::string fieldClassName(FieldClass fieldClass);

/// One declared field pattern: dot-separated keys, "[]" for the elements of an array of
/// objects, "*" for any one key (a column name, a setting name).
struct RecordField {
    const char* pattern;
    FieldClass fieldClass;
    const char* meaning;  ///< for the documentation and test messages
};

/// Every field pattern a run record may hold, each declared once.
const std::vector<RecordField>& recordFields();

/// The class of `path` (a normalised path, see flattenRecord); nullopt-like: throws
/// std::out_of_range when no pattern declares it.
FieldClass recordFieldClass(const std::string& path);
/// Whether some pattern declares `path`.
bool isDeclaredRecordField(const std::string& path);
/// Whether `path` (normalised) matches `pattern`.
bool recordPathMatches(const std::string& pattern, const std::string& path);

/// One leaf of a record: its path with array positions ("units.items[3].train_rows"), the
/// normalised path ("units.items[].train_rows") and its value as compact text.
struct RecordLeaf {
    std::string path;
    std::string normalised;
    std::string value;
    bool empty = false;  ///< null, or an array with no finite number and no text
};
/// Every leaf of `record`: objects are entered, arrays of objects or arrays are entered with
/// "[i]", any other array (numbers, texts) is one leaf.
std::vector<RecordLeaf> flattenRecord(const JsonValue& record);

}  // namespace pfa
