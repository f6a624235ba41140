#include "core/sweep/record_fields.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace pfa {

namespace {

using C = FieldClass;

/// First match wins: specific patterns come before the general ones.
const std::vector<RecordField> kFields = {
    // Identity and bookkeeping of the execution.
    {"run_key", C::Public, "the settings that identify the run"},
    {"run_uid", C::Bookkeeping, "random identity of the execution (ledger)"},
    {"ledger_key", C::Public, "the data set and split the ledger charges"},
    {"tuning_trials[].**", C::Disclosed,
     "auto-tune's trials: which ran, how each ended and its accounting (steps depend on exact "
     "training losses)"},
    {"seconds", C::Bookkeeping, "wall time of the run"},
    {"software", C::Bookkeeping, "version (and git commit) of the build that wrote the record"},
    {"status", C::Public, "completed, cancelled, diverged or failed"},
    {"message", C::Public, "why the run stopped"},
    {"steps", C::Public, "steps executed"},
    // The settings (public; an automatic value read from the data is named by the run).
    {"algorithm", C::Public, "algorithm"},
    {"dataset", C::Public, "data set name"},
    {"fairness", C::Public, "fairness notion"},
    {"calibration", C::Public, "calibration"},
    {"epsilon", C::Public, "privacy budget"},
    {"delta", C::Public, "δ"},
    {"lambda", C::Public, "fairness weight"},
    {"epochs", C::Public, "epochs"},
    {"seed", C::Secret, "the run seed"},
    {"settings.*", C::Public, "every other setting"},
    {"config.train_rows", C::UnitCount, "training rows n"},
    {"config.test_rows", C::TestRows, "test rows"},
    {"config.*", C::Public, "the data set's description, split and features"},
    {"preprocessing.columns[].mean", C::Preprocessing, "training mean of a column"},
    {"preprocessing.columns[].sd", C::Preprocessing, "training standard deviation of a column"},
    {"preprocessing.feature_names", C::Preprocessing,
     "encoded feature names (categorical levels seen in training rows)"},
    {"preprocessing.class_names", C::Public, "class names"},
    {"preprocessing.group_names", C::Public, "group names"},
    {"preprocessing.**", C::Public, "the schema and how columns are encoded"},
    // The released model and what follows from it.
    {"model.**", C::Released, "the released model"},
    {"epsilon_spent", C::Accounting, "certified ε (the accountant's)"},
    {"noise_theta", C::Accounting, "noise std of the θ-release"},
    {"noise_w", C::Accounting, "noise std of the W-release"},
    {"history.epoch", C::Public, "epoch"},
    {"history.step", C::Public, "step"},
    {"history.seconds", C::Bookkeeping, "wall time"},
    {"history.epsilon_spent", C::Accounting, "certified ε so far"},
    // Test metrics of the released model (test rows are not protected).
    {"test_error", C::TestRows, "test error (or MSE)"},
    {"violation", C::TestRows, "fairness violation on the test rows"},
    {"dp_violation", C::TestRows, "demographic-parity gap"},
    {"eo_violation", C::TestRows, "equalized-odds gap"},
    {"eopp_violation", C::TestRows, "equal-opportunity gap"},
    {"ermi", C::TestRows, "test ERMI"},
    {"groups", C::TestRows, "per-group test rates (empty)"},
    {"groups[].*", C::TestRows, "per-group test rates"},
    {"metrics.*", C::TestRows, "further test metrics"},
    {"curve[].*", C::TestRows, "further tradeoff points of the run"},
    {"constant_classifier.class", C::TestRows, "the test set's most frequent class"},
    {"constant_classifier.test_error", C::TestRows,
     "test error of always predicting that class (the baseline)"},
    {"regression.test_mse", C::TestRows, "test MSE"},
    {"regression.test_rmse", C::TestRows, "test RMSE"},
    {"regression.weight_error", C::TestRows, "distance to the generator's weights"},
    {"history.test_error", C::TestRows, "test error per epoch"},
    {"history.violation", C::TestRows, "violation per epoch"},
    {"history.dp_violation", C::TestRows, "demographic-parity gap per epoch"},
    {"history.eo_violation", C::TestRows, "equalized-odds gap per epoch"},
    {"history.eopp_violation", C::TestRows, "equal-opportunity gap per epoch"},
    {"history.ermi", C::TestRows, "test ERMI per epoch"},
    {"history.ermi_soft", C::TestRows, "soft test ERMI per epoch"},
    {"history.excess_risk", C::TestRows,
     "test MSE minus the optimum's (a run whose optimum comes from training rows names it)"},
    {"history.unit_error_spread", C::TestRows, "worst minus best test unit"},
    {"units.kind", C::Public, "silo or user"},
    {"units.items[].name", C::TestRows, "a test unit's name"},
    {"units.items[].test_rows", C::TestRows, "a unit's test rows"},
    {"units.items[].test_error", C::TestRows, "a unit's test error"},
    {"units.items[].test_loss", C::TestRows, "a unit's test loss"},
    // Computed from the private training rows.
    {"units.items[].train_rows", C::UnitCount,
     "a unit's training rows (a silo's: public under replace-one; a user's: private, named)"},
    {"train_loss", C::Diagnostic, "final training loss"},
    {"history.train_loss", C::Diagnostic, "training loss per epoch"},
    {"history.train_objective", C::Diagnostic, "training objective per epoch"},
    {"history.clip_fraction", C::Diagnostic, "share of clipped gradients per epoch"},
    {"history.gradient_norm_squared", C::Diagnostic, "‖∇f‖² on the training rows per epoch"},
    {"history.gate_margin", C::Diagnostic, "the concentration gate's exact margin"},
    {"history.removed_fraction", C::Diagnostic, "share of users the filter removed"},
    {"regression.optimum_mse", C::Diagnostic, "test MSE of the exact fit on the training rows"},
    {"regression.excess_risk", C::Diagnostic, "test MSE minus that of the exact fit"},
    // Constants of the theory overlays.
    {"theory_inputs.private_rows", C::UnitCount, "private training rows"},
    {"theory_inputs.public_rows", C::UnitCount, "public training rows"},
    {"theory_inputs.records_per_silo_min", C::UnitCount, "records of the smallest silo"},
    {"theory_inputs.users", C::UnitCount, "training users"},
    {"theory_inputs.batch_rows", C::UnitCount, "rows per disjoint batch (⌊n/T⌋)"},
    {"theory_inputs.*", C::Public, "settings and the generator's constants"},
    // The privacy block: the statement and the inputs of its ε.
    {"privacy.seed", C::Secret, "the run seed (seeded noise)"},
    {"privacy.statement", C::Statement, "the privacy statement"},
    {"privacy.not_protected[].*", C::Statement, "what the statement names as not protected"},
    {"privacy.diagnostics.fields", C::Statement, "the diagnostic fields of this record"},
    {"privacy.**", C::Accounting, "the guarantee and the exact inputs of its ε"},
};

std::vector<std::string> segments(const std::string& path) {
    std::vector<std::string> out;
    std::string part;
    std::istringstream in(path);
    while (std::getline(in, part, '.')) out.push_back(part);
    return out;
}

/// A segment of a pattern against a segment of a path: "*" is any key, "x[]" only "x[]".
bool segmentMatches(const std::string& pattern, const std::string& segment) {
    if (pattern == "*") return true;
    if (pattern == "*[]") return segment.size() > 2 && segment.ends_with("[]");
    return pattern == segment;
}

std::string numberText(double value) {
    if (std::isnan(value)) return "nan";
    std::ostringstream text;
    text.precision(17);
    text << value;
    return text.str();
}

void flatten(const JsonValue& value, const std::string& path, const std::string& normalised,
             std::vector<RecordLeaf>& out) {
    auto join = [](const std::string& a, const std::string& b) {
        return a.empty() ? b : a + "." + b;
    };
    if (value.isObject()) {
        for (const auto& [key, member] : value.members())
            flatten(member, join(path, key), join(normalised, key), out);
        return;
    }
    if (value.isArray() && !value.items().empty() &&
        (value.items().front().isObject() || value.items().front().isArray())) {
        for (std::size_t i = 0; i < value.items().size(); ++i) {
            flatten(value.items()[i], path + "[" + std::to_string(i) + "]", normalised + "[]", out);
        }
        return;
    }
    RecordLeaf leaf{path, normalised, "", true};
    if (value.isArray()) {
        std::string text = "[";
        for (const JsonValue& item : value.items()) {
            if (item.isNull()) {
                text += "null,";
            } else if (item.type() == JsonValue::Type::Number) {
                if (std::isfinite(item.asNumber())) leaf.empty = false;
                text += numberText(item.asNumber()) + ",";
            } else {
                leaf.empty = false;
                text +=
                    (item.type() == JsonValue::Type::String ? item.asString() : std::string("?")) +
                    ",";
            }
        }
        leaf.value = text + "]";
    } else if (value.isNull()) {
        leaf.value = "null";
    } else if (value.type() == JsonValue::Type::Number) {
        leaf.empty = !std::isfinite(value.asNumber());
        leaf.value = numberText(value.asNumber());
    } else if (value.type() == JsonValue::Type::String) {
        leaf.empty = false;
        leaf.value = value.asString();
    } else {
        leaf.empty = false;
        leaf.value = value.asBool() ? "true" : "false";
    }
    out.push_back(std::move(leaf));
}

}  // namespace

std::string fieldClassName(FieldClass fieldClass) {
    switch (fieldClass) {
        case C::Public:
            return "public";
        case C::Bookkeeping:
            return "bookkeeping";
        case C::Accounting:
            return "accounting";
        case C::Statement:
            return "statement";
        case C::Released:
            return "released";
        case C::TestRows:
            return "test rows";
        case C::Preprocessing:
            return "preprocessing statistics";
        case C::UnitCount:
            return "unit count";
        case C::Diagnostic:
            return "diagnostic";
        case C::Disclosed:
            return "disclosed";
        case C::Secret:
            return "secret";
    }
    return "public";
}

const std::vector<RecordField>& recordFields() { return kFields; }

bool recordPathMatches(const std::string& pattern, const std::string& path) {
    const std::vector<std::string> p = segments(pattern), s = segments(path);
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (p[i] == "**") return i < s.size();
        if (i >= s.size() || !segmentMatches(p[i], s[i])) return false;
    }
    return p.size() == s.size();
}

bool isDeclaredRecordField(const std::string& path) {
    for (const RecordField& field : kFields)
        if (recordPathMatches(field.pattern, path)) return true;
    return false;
}

FieldClass recordFieldClass(const std::string& path) {
    for (const RecordField& field : kFields)
        if (recordPathMatches(field.pattern, path)) return field.fieldClass;
    throw std::out_of_range("undeclared record field '" + path + "'");
}

std::vector<RecordLeaf> flattenRecord(const JsonValue& record) {
    std::vector<RecordLeaf> out;
    flatten(record, "", "", out);
    return out;
}

}  // namespace pfa
