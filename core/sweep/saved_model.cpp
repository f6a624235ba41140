#include "core/sweep/saved_model.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <unordered_map>

#include "core/data/arff_parser.h"
#include "core/data/arff_reader.h"
#include "core/data/csv_reader.h"
#include "core/data/delimited_parser.h"
#include "core/data/line_reader.h"
#include "core/data/preprocessing.h"
#include "core/data/text_cells.h"
#include "core/model/model.h"
#include "core/sweep/model_record.h"
#include "core/sweep/record_fields.h"
#include "core/sweep/results_file.h"
#include "core/sweep/run_protection.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "core/util/json_writer.h"

namespace pfa {

namespace {

bool hasModel(const JsonValue& record) {
    return record.isObject() && record.has("model") && record.has("preprocessing");
}

std::string recordName(const JsonValue& record, std::size_t index) {
    std::string name = "record #" + std::to_string(index);
    if (record.isObject() && record.has("run_key"))
        name += " (run key '" + record.at("run_key").asString() + "')";
    return name;
}

/// The run records of a results file, a model export or a GUI history export.
std::vector<JsonValue> readRecords(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) throw DataFileError(path, 0, "", "file not found");
    if (fs::is_directory(status))
        throw DataFileError(path, 0, "", "is a directory, not a results file");
    ResultsFileContent content = readResultsFile(path);
    if (!content.records.empty()) return std::move(content.records);
    // Not JSON lines: one JSON document (a pretty-printed record, or the GUI's run history
    // export, an array of {id, finished, record}).
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    try {
        const JsonValue document = parseJson(text.str());
        if (document.isObject()) return {document};
        if (document.isArray()) {
            std::vector<JsonValue> records;
            for (const JsonValue& item : document.items()) {
                records.push_back(item.isObject() && item.has("record") ? item.at("record") : item);
            }
            if (!records.empty()) return records;
        }
    } catch (const InputError&) {
        // Reported below: the file is neither JSON lines nor one JSON document.
    }
    throw DataFileError(path, 0, "",
                        "no run record in this file (expected the JSON-lines results of a sweep or "
                        "a model exported by PFA Explorer)");
}

[[noreturn]] void throwNoModel(const std::string& path, const std::string& what) {
    throw DataFileError(path, 0, "",
                        what +
                            " has no model: it was recorded by a version that did not store "
                            "models (or the run failed); train it again to predict with it");
}

/// Where the columns of a data file are, as far as the file says before it is read.
struct FileLayout {
    bool arff = false;
    bool namesKnown = false;   ///< a header (or ARFF attributes) names the columns
    bool headerFound = false;  ///< a header the schema did not expect (hasHeader false)
    long headerLine = 0;
    std::vector<std::string> names;
};

FileLayout inspectFile(const std::string& path, const Schema& schema) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) throw DataFileError(path, 0, "", "file not found");
    if (fs::is_directory(status))
        throw DataFileError(path, 0, "", "is a directory, not a data file");
    detail::FileSource source(path);
    detail::LineReader lines(source, path);
    if (lines.headIsAll() && lines.head().empty())
        throw DataFileError(path, 0, "", "the file is empty");
    FileLayout layout;
    if (detail::looksLikeArff(lines.head())) {
        layout.arff = true;
        layout.namesKnown = true;
        for (const detail::ArffAttribute& a : detail::readArffHeader(lines).attributes) {
            layout.names.push_back(a.name);
        }
        return layout;
    }
    const char delimiter =
        schema.delimiter != 0
            ? schema.delimiter
            : detail::detectDelimiter(lines.head(), lines.headIsAll(), schema, path);
    detail::RecordParser parser(lines, delimiter, schema);
    detail::Record record;
    if (!parser.next(record)) throw DataFileError(path, 0, "", "the file has no rows");
    const std::vector<std::string> fields(
        record.fields.begin(), record.fields.begin() + static_cast<std::ptrdiff_t>(record.count));
    layout.headerLine = record.line;
    if (schema.hasHeader) {
        layout.namesKnown = true;
        layout.names = detail::uniqueNames(fields);
    } else if (std::all_of(fields.begin(), fields.end(), [&](const std::string& field) {
                   return std::find(schema.columnNames.begin(), schema.columnNames.end(), field) !=
                          schema.columnNames.end();
               })) {
        // The training files had no header, but this one names its columns.
        layout.namesKnown = true;
        layout.headerFound = true;
        layout.names = fields;
    }
    return layout;
}

/// The training schema adapted to reading rows for a model: the encoded columns with their
/// kinds fixed (auto-detection on other rows could differ), every other column ignored.
Schema predictionSchema(const ModelPreprocessing& preprocessing, const FileLayout& layout,
                        bool exact) {
    Schema schema = preprocessing.schema;
    schema.columns.clear();
    for (const EncodedColumn& column : preprocessing.columns) {
        // No declared levels: a new value must read (and encode as zeros), not fail.
        schema.columns[column.name].role =
            column.kind == FeatureKind::Numeric ? ColumnRole::Numeric : ColumnRole::Categorical;
    }
    schema.defaultRole = ColumnRole::Ignore;
    if (!layout.arff && (schema.hasHeader || layout.headerFound)) {
        schema.hasHeader = true;
        schema.columnNames.clear();  // any column order, label and sensitive columns optional
    }
    if (!exact) schema.userId.reset();
    return schema;
}

void requireColumns(const std::string& path, const FileLayout& layout,
                    const std::vector<std::string>& needed, const std::string& why) {
    if (!layout.namesKnown) return;  // positional: the reader checks the field count
    std::vector<std::string> missing;
    for (const std::string& name : needed) {
        if (std::find(layout.names.begin(), layout.names.end(), name) == layout.names.end()) {
            missing.push_back(name);
        }
    }
    if (missing.empty()) return;
    throw DataFileError(path, layout.headerLine, "",
                        std::string(missing.size() == 1 ? "no column " : "no columns ") +
                            detail::joinQuoted(missing, 8) + ": " + why);
}

bool hasColumn(const FileLayout& layout, const std::string& name) {
    return !layout.namesKnown ||
           std::find(layout.names.begin(), layout.names.end(), name) != layout.names.end();
}

RowMatrix encodeSelectedRows(const ModelPreprocessing& preprocessing, const TabularData& data,
                             const std::vector<std::size_t>& rows,
                             std::vector<UnseenLevel>* unseen) {
    std::unordered_map<std::string, std::size_t> byName;
    for (std::size_t j = 0; j < data.features.size(); ++j) byName.emplace(data.features[j].name, j);
    const auto n = static_cast<Eigen::Index>(rows.size());
    RowMatrix X = RowMatrix::Zero(n, preprocessing.encodedWidth());
    Eigen::Index offset = 0;
    for (const EncodedColumn& column : preprocessing.columns) {
        const auto found = byName.find(column.name);
        if (found == byName.end())
            throw InputError("the rows have no column '" + column.name + "'");
        const FeatureColumn& raw = data.features[found->second];
        if (column.kind == FeatureKind::Numeric) {
            if (raw.kind != FeatureKind::Numeric) {
                throw InputError("column '" + column.name + "' is not numeric, as the model needs");
            }
            // Exactly as splitAndEncode encodes test rows.
            const double scale =
                column.standardDeviation > 0.0 ? 1.0 / column.standardDeviation : 1.0;
            for (Eigen::Index i = 0; i < n; ++i) {
                X(i, offset) =
                    (raw.numeric[rows[static_cast<std::size_t>(i)]] - column.mean) * scale;
            }
            ++offset;
            continue;
        }
        if (raw.kind != FeatureKind::Categorical) {
            throw InputError("column '" + column.name + "' is not categorical, as the model needs");
        }
        std::unordered_map<std::string, int> kept;
        for (std::size_t level = 0; level < column.levels.size(); ++level) {
            kept.emplace(column.levels[level], static_cast<int>(level));
        }
        std::vector<int> target(raw.levels.size(), -1);  // code → one-hot offset, −1: unseen
        for (std::size_t code = 0; code < raw.levels.size(); ++code) {
            const auto level = kept.find(raw.levels[code]);
            if (level != kept.end()) target[code] = level->second;
        }
        std::vector<long> unseenCount(raw.levels.size(), 0);
        for (Eigen::Index i = 0; i < n; ++i) {
            const auto code =
                static_cast<std::size_t>(raw.codes[rows[static_cast<std::size_t>(i)]]);
            if (target[code] >= 0) {
                X(i, offset + target[code]) = 1.0;
            } else {
                ++unseenCount[code];
            }
        }
        if (unseen) {
            for (std::size_t code = 0; code < raw.levels.size(); ++code) {
                if (unseenCount[code] > 0)
                    unseen->push_back({column.name, raw.levels[code], unseenCount[code]});
            }
        }
        offset += static_cast<Eigen::Index>(column.levels.size());
    }
    return X;
}

/// Index of `name` in `names`, −1 when absent.
int indexOf(const std::vector<std::string>& names, const std::string& name) {
    const auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

constexpr const char* kExportFormat = "pfa-explorer model";
constexpr int kExportVersion = 2;

bool isModelExport(const JsonValue& record) {
    return record.isObject() && record.has("export") && record.at("export").isObject() &&
           record.at("export").stringOr("format", "") == kExportFormat;
}

/// What a model file may carry of a run's record (see modelExportJson).
struct ExportPolicy {
    ModelExportOptions options;
    bool withholdSeed = false;  ///< a private run: its seed (and the run key) stay out
    bool withHistory = false;   ///< an option asks for per-epoch values
    bool countsPublic = false;  ///< n is public (replace-one adjacency, or no guarantee)
    std::uint64_t seed = 0;
};

bool keepsClass(FieldClass fieldClass, const ExportPolicy& policy) {
    switch (fieldClass) {
        case FieldClass::Public:
        case FieldClass::Accounting:
        case FieldClass::Statement:
        case FieldClass::Released:
        case FieldClass::Preprocessing:
            return true;
        case FieldClass::TestRows:
            return policy.options.testMetrics;
        case FieldClass::UnitCount:
            return policy.countsPublic || policy.options.diagnostics;
        case FieldClass::Diagnostic:
        case FieldClass::Disclosed:
            return policy.options.diagnostics;
        case FieldClass::Secret:
            return !policy.withholdSeed;
        case FieldClass::Bookkeeping:
            return false;
    }
    return false;
}

/// Whether the leaf at `normalised` goes into the file. Fields no declaration names never do.
bool keepsLeaf(const std::string& normalised, const ExportPolicy& policy) {
    if (normalised == "run_key" && policy.withholdSeed) return false;  // it holds "seed=…"
    if (normalised.rfind("history.", 0) == 0 && !policy.withHistory) return false;
    if (!isDeclaredRecordField(normalised)) return false;
    return keepsClass(recordFieldClass(normalised), policy);
}

/// The statement without the seed's value (a private run's file leaves the seed out).
std::string withoutSeed(std::string statement, std::uint64_t seed) {
    const std::string mention = "the seed (" + std::to_string(seed) + ")";
    for (std::size_t at = statement.find(mention); at != std::string::npos;
         at = statement.find(mention, at)) {
        const std::string blank = "the seed (not in this file)";
        statement.replace(at, mention.size(), blank);
        at += blank.size();
    }
    return statement;
}

/// `value` (at `path`, normalised `normalised`) with only the fields the policy keeps; an
/// object or array that keeps nothing is dropped (nullopt).
std::optional<JsonValue> filtered(const JsonValue& value, const std::string& normalised,
                                  const ExportPolicy& policy) {
    auto join = [](const std::string& a, const std::string& b) {
        return a.empty() ? b : a + "." + b;
    };
    if (value.isObject()) {
        std::map<std::string, JsonValue> kept;
        for (const auto& [key, member] : value.members()) {
            if (std::optional<JsonValue> part = filtered(member, join(normalised, key), policy))
                kept.emplace(key, std::move(*part));
        }
        if (kept.empty() && !normalised.empty()) return std::nullopt;
        return JsonValue::object(std::move(kept));
    }
    if (value.isArray() && !value.items().empty() &&
        (value.items().front().isObject() || value.items().front().isArray())) {
        // As flattenRecord normalises it: the elements' fields under "name[]".
        std::vector<JsonValue> items;
        for (const JsonValue& item : value.items()) {
            std::optional<JsonValue> part = filtered(item, normalised + "[]", policy);
            if (!part) return std::nullopt;  // an element cannot be half there
            items.push_back(std::move(*part));
        }
        return JsonValue::array(std::move(items));
    }
    if (!keepsLeaf(normalised, policy)) return std::nullopt;
    if (normalised == "privacy.statement" && policy.withholdSeed &&
        value.type() == JsonValue::Type::String)
        return JsonValue::string(withoutSeed(value.asString(), policy.seed));
    return value;
}

void writeStrings(JsonWriter& json, const std::string& key, const std::vector<std::string>& items) {
    json.key(key).beginArray();
    for (const std::string& item : items) json.value(item);
    json.endArray();
}

ExportPolicy exportPolicy(const RunResult& result, const ModelExportOptions& options) {
    ExportPolicy policy;
    policy.options = options;
    policy.withholdSeed = result.privacy.isPrivate;
    policy.withHistory = options.testMetrics || options.diagnostics;
    policy.countsPublic =
        !result.privacy.isPrivate || runProtection(result).adjacency == "replace-one";
    policy.seed = result.privacy.seed;
    return policy;
}

/// The training-set diagnostics the run recorded, in words ("" when none).
std::string recordedDiagnostics(const RunResult& result) {
    std::string list;
    for (const privacy::Disclosure& d : result.privacy.disclosures) {
        if (d.diagnostic) list += (list.empty() ? "" : "; ") + d.what;
    }
    return list;
}

/// The keys every run record has that a model file may leave out, completed with neutral
/// values (unknown numbers are null, sizes −1), so the record reader takes the file.
JsonValue completedExportRecord(const JsonValue& record) {
    std::map<std::string, JsonValue> m = record.members();
    const JsonValue null;
    auto fill = [](std::map<std::string, JsonValue>& object, const std::string& key,
                   const JsonValue& value) { object.emplace(key, value); };
    fill(m, "status", JsonValue::string("completed"));
    fill(m, "steps", JsonValue::number(0));
    fill(m, "seconds", null);
    fill(m, "train_loss", null);
    for (const char* key : {"test_error", "dp_violation", "eo_violation", "eopp_violation"})
        fill(m, key, null);
    fill(m, "groups", JsonValue::array({}));
    {
        std::map<std::string, JsonValue> config =
            m.count("config") ? m.at("config").members() : std::map<std::string, JsonValue>{};
        fill(config, "train_rows", JsonValue::number(-1));
        fill(config, "test_rows", JsonValue::number(-1));
        m["config"] = JsonValue::object(std::move(config));
    }
    if (!m.count("metrics")) {
        std::map<std::string, JsonValue> metrics{{"rows", JsonValue::number(0)}};
        for (const char* key : {"dp_violation_vs_marginal", "ermi_dp_hard", "ermi_dp_soft",
                                "ermi_eo_hard", "ermi_eo_soft", "ermi_eopp_hard", "ermi_eopp_soft"})
            metrics.emplace(key, null);
        m["metrics"] = JsonValue::object(std::move(metrics));
    }
    {
        std::map<std::string, JsonValue> history =
            m.count("history") ? m.at("history").members() : std::map<std::string, JsonValue>{};
        fill(history, "epoch", JsonValue::array({}));
        fill(history, "step", JsonValue::array({}));
        const std::size_t epochs = history.at("epoch").items().size();
        const JsonValue nulls = JsonValue::array(std::vector<JsonValue>(epochs));
        for (const char* key : {"train_loss", "train_objective", "test_error", "violation",
                                "dp_violation", "eo_violation", "eopp_violation", "ermi",
                                "ermi_soft", "epsilon_spent", "clip_fraction", "seconds"})
            fill(history, key, nulls);
        m["history"] = JsonValue::object(std::move(history));
    }
    return JsonValue::object(std::move(m));
}

}  // namespace

bool hasSavedModel(const RunResult& result, const RunContext& context) {
    return hasStorableModel(result) && context.preprocessing != nullptr;
}

const char* const kSecureNoiseName = "Secure noise (OS entropy)";

std::string seededNoiseWarning(const RunResult& run) {
    const privacy::PrivacyReport& p = run.privacy;
    if (!p.isPrivate || p.noiseSource != privacy::NoiseSource::Seeded) return {};
    return std::string(
               "The noise of this run was derived from its seed and its settings, so its "
               "guarantee holds only while nobody can regenerate that noise: the seed "
               "must stay secret. A model file cannot promise that: the file leaves the "
               "seed out, but it holds every setting, and seeds are easy to guess (0, 1, "
               "2, … are tried first). For a model that leaves this machine, train it "
               "again with ") +
           kSecureNoiseName +
           ": nobody can regenerate noise drawn from the operating system's entropy. A new run "
           "spends another ε on these data (the privacy ledger adds it).";
}

ModelExportContents modelExportContents(const RunResult& result, const RunContext& context,
                                        const ModelExportOptions& options) {
    const privacy::PrivacyReport& p = result.privacy;
    ModelExportContents c;
    c.protection = runProtection(result).label();
    c.seededNoise = !seededNoiseWarning(result).empty();
    const std::string diagnostics = recordedDiagnostics(result);
    c.diagnosticsRecorded = !diagnostics.empty();

    c.holds.push_back(p.isPrivate ? "the model parameters, released under the run's guarantee "
                                    "(protected: " +
                                        c.protection + ")"
                                  : "the model parameters (the run is not private: nothing "
                                    "about its training rows is protected)");
    c.holds.push_back(
        "the settings of the run, the data set's description and its train/test "
        "split (public)");
    c.holds.push_back(p.isPrivate ? "the privacy statement and the exact inputs of its ε, with "
                                    "the protected unit and adjacency"
                                  : "the privacy statement");
    c.holds.push_back(
        "how raw rows become the model's inputs: the columns, their kinds, the "
        "class and group names");

    c.notProtected.push_back(
        "preprocessing statistics, needed to apply the model to raw rows: the categories kept "
        "for each categorical column and the mean and standard deviation of each numeric "
        "column, computed from the training rows without noise");
    if (p.isPrivate && runProtection(result).adjacency == "add/remove-one") {
        std::string how;
        if (p.samplingRate > 0.0 && p.samplingRate < 1.0) how = "the sampling rate q = m/n";
        const double n = static_cast<double>(context.trainRows);
        if (n > 0 && std::fabs(p.delta * n * n - 1.0) < 1e-9)
            how += std::string(how.empty() ? "" : " and ") + "δ = 1/n²";
        if (!how.empty()) {
            c.notProtected.push_back(
                "the number of training rows n, which the accounting "
                "inputs reveal (" +
                how + ")");
        }
    }
    if (options.testMetrics) {
        c.notProtected.push_back(
            "test metrics: the test error, fairness violations and "
            "per-group rates, computed on the test rows (not protected)");
    }
    if (options.diagnostics) {
        c.notProtected.push_back(
            c.diagnosticsRecorded
                ? "training-set diagnostics, exact on the private training rows: " + diagnostics +
                      "; and the number of training rows"
                : std::string("the number of training rows"));
    }
    if (p.isPrivate) {
        c.leftOut.push_back(
            "the run seed and the run key (which contains it); the statement's "
            "mention of the seed is blanked");
    }
    if (!options.testMetrics)
        c.leftOut.push_back("the test metrics (computed on the test rows, not protected)");
    if (!options.diagnostics && c.diagnosticsRecorded) {
        c.leftOut.push_back("the training-set diagnostics (" + diagnostics +
                            "): exact on the private training rows, not protected");
    }
    if (!options.testMetrics && !options.diagnostics) c.leftOut.push_back("the per-epoch history");
    c.leftOut.push_back("the wall time and the run's identity in the privacy ledger");
    return c;
}

std::string modelExportJson(const RunResult& result, const RunContext& context,
                            const ModelExportOptions& options) {
    if (!hasSavedModel(result, context)) {
        throw InputError(
            result.theta.size() == 0 || !context.preprocessing
                ? "this run has no model: it was opened from a file written before models "
                  "were stored (train it again to get one)"
                : "this run has no usable model: its parameters are not finite (it diverged)");
    }
    RunRecordOptions exact;
    exact.historyDigits = 17;
    const JsonValue record = parseJson(runRecordJson(result, context, exact));
    const ExportPolicy policy = exportPolicy(result, options);
    const JsonValue kept = *filtered(record, "", policy);
    const ModelExportContents contents = modelExportContents(result, context, options);

    JsonWriter json;
    json.beginObject();
    json.key("export").beginObject();
    json.key("format").value(kExportFormat);
    json.key("version").value(kExportVersion);
    json.key("protection").value(contents.protection);
    json.key("noise").value(!result.privacy.isPrivate
                                ? std::string("not private")
                                : privacy::noiseSourceName(result.privacy.noiseSource));
    writeStrings(json, "holds", contents.holds);
    json.key("not_protected").beginArray();
    json.beginObject();
    json.key("what").value(contents.notProtected.front());
    writeStrings(json, "fields",
                 {"preprocessing.columns[].levels", "preprocessing.columns[].mean",
                  "preprocessing.columns[].sd", "preprocessing.feature_names"});
    json.endObject();
    for (std::size_t k = 1; k < contents.notProtected.size(); ++k) {
        json.beginObject();
        json.key("what").value(contents.notProtected[k]);
        json.endObject();
    }
    json.endArray();
    writeStrings(json, "left_out", contents.leftOut);
    const std::string warning = seededNoiseWarning(result);
    if (!warning.empty()) json.key("warning").value(warning);
    json.endObject();
    // The record's own keys: the run's identity first, then the rest in key order.
    const std::vector<std::string> first = {"algorithm", "dataset", "fairness", "calibration",
                                            "epsilon",   "delta",   "lambda",   "seed",
                                            "epochs",    "status",  "message",  "steps"};
    auto writeMember = [&](const std::string& key, const JsonValue& value) {
        json.key(key);
        if (key != "preprocessing") {
            writeJsonValue(json, value);
            return;
        }
        json.beginObject();
        json.key("not_protected")
            .value(
                "computed from the training rows without noise: the categories kept for "
                "each categorical column and the mean and standard deviation of each numeric "
                "column (needed to apply the model to raw rows)");
        for (const auto& [name, member] : value.members()) {
            json.key(name);
            writeJsonValue(json, member);
        }
        json.endObject();
    };
    for (const std::string& key : first) {
        if (kept.has(key)) writeMember(key, kept.at(key));
    }
    for (const auto& [key, value] : kept.members()) {
        if (std::find(first.begin(), first.end(), key) == first.end()) writeMember(key, value);
    }
    json.endObject();
    return json.text();
}

std::pair<std::string, std::string> splitModelSpec(const std::string& spec) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_regular_file(spec, ec)) return {spec, ""};
    for (std::size_t colon = spec.find(':'); colon != std::string::npos;
         colon = spec.find(':', colon + 1)) {
        const std::string file = spec.substr(0, colon);
        if (!file.empty() && fs::is_regular_file(file, ec)) return {file, spec.substr(colon + 1)};
    }
    return {spec, ""};
}

SavedModel loadSavedModel(const std::string& path, const std::string& selector) {
    const std::vector<JsonValue> records = readRecords(path);
    std::size_t index = 0;
    if (selector.empty()) {
        std::vector<std::size_t> withModel;
        for (std::size_t i = 0; i < records.size(); ++i) {
            if (hasModel(records[i])) withModel.push_back(i);
        }
        if (withModel.empty()) {
            throwNoModel(path, records.size() == 1
                                   ? std::string("its run")
                                   : "none of its " + std::to_string(records.size()) +
                                         " runs has a model; the file");
        }
        if (withModel.size() > 1) {
            std::string indices;
            for (std::size_t k = 0; k < withModel.size() && k < 8; ++k) {
                indices += (k ? ", #" : "#") + std::to_string(withModel[k]);
            }
            if (withModel.size() > 8) indices += ", ...";
            throw InputError(path + " holds " + std::to_string(withModel.size()) +
                             " runs with a model (" + indices +
                             "): choose one as FILE:#N (N = 0-based record index) or FILE:RUN_KEY");
        }
        index = withModel.front();
    } else if (selector[0] == '#') {
        const std::string digits = selector.substr(1);
        if (digits.empty() || digits.size() > 9 ||
            !std::all_of(digits.begin(), digits.end(),
                         [](char c) { return c >= '0' && c <= '9'; })) {
            throw InputError("'" + selector +
                             "' is not a record index: write #N with N = 0, 1, ...");
        }
        index = static_cast<std::size_t>(std::stoul(digits));
        if (index >= records.size()) {
            throw InputError(path + " has " + std::to_string(records.size()) +
                             " record(s), #0 to #" + std::to_string(records.size() - 1) +
                             ": there is no #" + digits);
        }
    } else {
        index = records.size();
        for (std::size_t i = 0; i < records.size() && index == records.size(); ++i) {
            if (records[i].isObject() && records[i].stringOr("run_key", "") == selector) index = i;
        }
        if (index == records.size()) {
            throw InputError("no run with key '" + selector + "' in " + path + " (" +
                             std::to_string(records.size()) +
                             " record(s); FILE:#N picks one by index)");
        }
    }
    if (!hasModel(records[index])) throwNoModel(path, recordName(records[index], index));

    SavedModel model;
    model.file = path;
    model.recordIndex = index;
    const JsonValue& chosen = records[index];
    if (isModelExport(chosen)) {
        model.fromExport = true;
        model.seedKnown = chosen.has("seed");
        model.testMetricsKnown = chosen.has("test_error");
    }
    try {
        model.run = runResultFromJson(model.fromExport ? completedExportRecord(chosen) : chosen,
                                      &model.context);
    } catch (const DataFileError&) {
        throw;
    } catch (const InputError& error) {
        throw DataFileError(path, 0, "",
                            recordName(records[index], index) + " is damaged: " + error.what());
    }
    const ModelPreprocessing& p = *model.context.preprocessing;
    const long classes =
        model.run.theta.rows() == 1 ? 2 : static_cast<long>(model.run.theta.rows());
    if (model.run.theta.cols() != p.encodedWidth() + 1 ||
        static_cast<long>(p.classNames.size()) != classes) {
        throw DataFileError(
            path, 0, "",
            recordName(records[index], index) + " is damaged: its model does not fit its " +
                "preprocessing (" + std::to_string(model.run.theta.cols()) +
                " parameters per class for " + std::to_string(p.encodedWidth()) + " features)");
    }
    return model;
}

std::vector<SavedRunSummary> listSavedRuns(const std::string& path) {
    std::vector<SavedRunSummary> out;
    const std::vector<JsonValue> records = readRecords(path);
    for (std::size_t i = 0; i < records.size(); ++i) {
        const JsonValue& r = records[i];
        SavedRunSummary s;
        s.index = i;
        if (r.isObject()) {
            s.runKey = r.stringOr("run_key", "");
            s.algorithm = r.stringOr("algorithm", "");
            s.fairness = r.stringOr("fairness", "");
            s.epsilon = r.numberOr("epsilon", NAN);
            s.lambda = r.numberOr("lambda", NAN);
            s.seed = r.has("seed") ? r.numberOr("seed", NAN) : NAN;
            s.testError = r.numberOr("test_error", NAN);
        }
        s.hasModel = hasModel(r);
        out.push_back(std::move(s));
    }
    return out;
}

long Predictions::labelledRows() const {
    return static_cast<long>(std::count_if(labels.begin(), labels.end(),
                                           [](const std::string& l) { return !l.empty(); }));
}

double Predictions::error() const {
    long labelled = 0, wrong = 0;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (labels[i].empty()) continue;
        ++labelled;
        if (labels[i] !=
            classNames[static_cast<std::size_t>(predicted(static_cast<Eigen::Index>(i)))])
            ++wrong;
    }
    return labelled > 0 ? static_cast<double>(wrong) / static_cast<double>(labelled) : NAN;
}

RowMatrix encodeForModel(const ModelPreprocessing& preprocessing, const TabularData& data,
                         std::vector<UnseenLevel>* unseen) {
    std::vector<std::size_t> all(data.rows());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    return encodeSelectedRows(preprocessing, data, all, unseen);
}

void scoreRows(const RunResult& run, const FeatureRows& X, RowMatrix& probabilities,
               Eigen::VectorXi& predicted) {
    const Eigen::Index n = X.rows();
    const Eigen::Index d = X.cols();
    if (run.theta.cols() != d + 1) {
        throw InputError("the model takes " + std::to_string(run.theta.cols() - 1) +
                         " features, the rows have " + std::to_string(d));
    }
    const int classes = run.theta.rows() == 1 ? 2 : static_cast<int>(run.theta.rows());
    // As the trainer builds its design matrix (augment in saddle_point_trainer.cpp): the bias
    // column, then rows with ‖[x, 1]‖ > B scaled to norm B. Same operations, same bits.
    RowMatrix design(n, d + 1);
    design.leftCols(d) = X;
    design.col(d).setOnes();
    if (run.featureBound > 0.0) {
        const Eigen::VectorXd norms = design.rowwise().norm();
        for (Eigen::Index i = 0; i < n; ++i) {
            if (norms(i) > run.featureBound) design.row(i) *= run.featureBound / norms(i);
        }
    }
    const std::unique_ptr<Model> model = makeModelForClasses(classes);
    RowMatrix Z(n, model->scoreDimension());
    Z.noalias() = design * run.theta.transpose();
    probabilities.resize(n, model->classes());
    model->probabilities(Z, probabilities);
    predicted.resize(n);
    Model::predict(probabilities, predicted);
}

Predictions predictFile(const SavedModel& model, const std::string& path,
                        const PredictionOptions& options) {
    if (!model.context.preprocessing || model.run.theta.size() == 0)
        throwNoModel(model.file, "the run");
    const ModelPreprocessing& pre = *model.context.preprocessing;
    const bool exact = options.testRowsOnly;
    const FileLayout layout = inspectFile(path, pre.schema);
    std::vector<std::string> features;
    for (const EncodedColumn& column : pre.columns) features.push_back(column.name);
    requireColumns(path, layout, features,
                   "the model needs its feature columns " + detail::joinQuoted(features, 12) +
                       " (the label and sensitive columns are optional)");
    if (exact) {
        std::vector<std::string> labelled{pre.schema.target};
        labelled.insert(labelled.end(), pre.schema.sensitive.begin(), pre.schema.sensitive.end());
        requireColumns(path, layout, labelled,
                       "the held-out test rows are those of the training data, with its label and "
                       "sensitive columns");
    }
    const Schema schema = predictionSchema(pre, layout, exact);

    ReadOptions read;
    read.labelsOptional = !exact;
    std::vector<long> lines;
    read.rowLines = &lines;
    ReadStats stats;
    read.stats = &stats;
    const TabularData data =
        layout.arff ? readArffFile(path, schema, read) : readDelimitedFile(path, schema, read);

    std::vector<std::size_t> rows(data.rows());
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = i;
    if (exact) {
        // Model files leave the training-set size out (it is not protected); the split alone
        // then finds the test rows.
        const long expected = model.context.trainRows + model.context.testRows;
        if (model.context.trainRows >= 0 && model.context.testRows >= 0 &&
            static_cast<long>(data.rows()) != expected) {
            throw DataFileError(
                path, 0, "",
                "has " + std::to_string(data.rows()) +
                    " rows once read with the run's schema, "
                    "but the run was trained on " +
                    std::to_string(expected) + " (" + std::to_string(model.context.trainRows) +
                    " training + " + std::to_string(model.context.testRows) +
                    " test rows): the held-out test rows can only be found in the data "
                    "the model was trained on");
        }
        SplitOptions split;
        split.seed = model.context.splitSeed;
        split.testFraction = model.context.testFraction;
        split.method = model.context.splitMethod;
        rows = splitRows(data.rows(), split, data.name).test;
    }

    Predictions out;
    out.classNames = pre.classNames;
    out.hasLabels = hasColumn(layout, pre.schema.target);
    out.hasGroups =
        std::all_of(pre.schema.sensitive.begin(), pre.schema.sensitive.end(),
                    [&](const std::string& column) { return hasColumn(layout, column); });
    for (const FileReadStats& file : stats.files) {
        out.droppedMissing += file.droppedMissing;
        out.droppedFiltered += file.droppedFiltered;
    }
    const RowMatrix X = encodeSelectedRows(pre, data, rows, &out.unseenLevels);
    scoreRows(model.run, X, out.probabilities, out.predicted);

    const auto n = static_cast<Eigen::Index>(rows.size());
    Eigen::VectorXi y(n), s(n);
    bool known = out.hasLabels && out.hasGroups && n > 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        const std::size_t row = rows[static_cast<std::size_t>(i)];
        out.lines.push_back(lines.at(row));
        const int label = data.label[row];
        const int group = data.group[row];
        out.labels.push_back(label >= 0 ? data.classNames[static_cast<std::size_t>(label)] : "");
        out.groups.push_back(group >= 0 ? data.groupNames[static_cast<std::size_t>(group)] : "");
        y(i) = indexOf(pre.classNames, out.labels.back());
        s(i) = indexOf(pre.groupNames, out.groups.back());
        known = known && y(i) >= 0 && s(i) >= 0;
    }
    if (known) {
        out.metrics = evaluateFairness(out.predicted, out.probabilities, y, s, pre.groupNames,
                                       static_cast<int>(pre.classNames.size()),
                                       model.run.config.advantagedClass);
    }
    return out;
}

}  // namespace pfa
