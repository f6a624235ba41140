#include "core/sweep/run_record.h"

#include <cmath>

#include "core/algorithms/registry.h"
#include "core/config/parameters.h"
#include "core/privacy/accounting_json.h"
#include "core/sweep/model_record.h"
#include "core/sweep/parameter_json.h"
#include "core/util/build_info.h"
#include "core/util/error.h"
#include "core/util/json_writer.h"

namespace pfa {

namespace {

void writeGroups(JsonWriter& json, const FairnessMetrics& metrics) {
    json.beginArray();
    for (const GroupRow& row : metrics.groups) {
        json.beginObject();
        json.key("group").value(row.group);
        json.key("n").value(row.n);
        json.key("base_rate").value(row.baseRate);
        json.key("selection_rate").value(row.selectionRate);
        json.key("tpr").value(row.truePositiveRate);
        json.key("fpr").value(row.falsePositiveRate);
        json.key("accuracy").value(row.accuracy);
        json.endObject();
    }
    json.endArray();
}

// The per-epoch history as parallel arrays, one per EpochMetrics field.
struct HistoryColumn {
    const char* key;
    double EpochMetrics::*field;
};
const HistoryColumn kHistoryColumns[] = {
    {"train_loss", &EpochMetrics::trainLoss},
    {"train_objective", &EpochMetrics::trainObjective},
    {"test_error", &EpochMetrics::testError},
    {"violation", &EpochMetrics::violation},
    {"dp_violation", &EpochMetrics::dpGap},
    {"eo_violation", &EpochMetrics::eoGap},
    {"eopp_violation", &EpochMetrics::eoppGap},
    {"ermi", &EpochMetrics::ermiHard},
    {"ermi_soft", &EpochMetrics::ermiSoft},
    {"epsilon_spent", &EpochMetrics::epsilonSpent},
    {"clip_fraction", &EpochMetrics::clipFraction},
    {"seconds", &EpochMetrics::seconds},
};
// Algorithm-specific columns: written only when some epoch has a value, read when present.
const HistoryColumn kOptionalHistoryColumns[] = {
    {"excess_risk", &EpochMetrics::excessRisk},
    {"removed_fraction", &EpochMetrics::removedFraction},
    {"gate_margin", &EpochMetrics::gateMargin},
    {"unit_error_spread", &EpochMetrics::unitErrorSpread},
    {"gradient_norm_squared", &EpochMetrics::gradientNormSquared},
};

void writeHistory(JsonWriter& json, const std::vector<EpochMetrics>& history, int digits) {
    json.beginObject();
    std::vector<double> epoch, step;
    for (const EpochMetrics& m : history) {
        epoch.push_back(m.epoch);
        step.push_back(static_cast<double>(m.step));
    }
    json.key("epoch").array(epoch, 12);
    json.key("step").array(step, 15);
    for (const HistoryColumn& column : kHistoryColumns) {
        std::vector<double> values;
        for (const EpochMetrics& m : history) values.push_back(m.*column.field);
        json.key(column.key).array(values, digits);
    }
    for (const HistoryColumn& column : kOptionalHistoryColumns) {
        std::vector<double> values;
        bool any = false;
        for (const EpochMetrics& m : history) {
            values.push_back(m.*column.field);
            any = any || std::isfinite(m.*column.field);
        }
        if (any) json.key(column.key).array(values, digits);
    }
    json.endObject();
}

bool isBookkeepingColumn(const char* key) {
    const std::string k = key;
    return k == "seconds" || k == "epsilon_spent";
}

/// The record's "settings": every other common parameter, then the algorithm's own.
std::vector<ParamSpec> settingsBlockParameters(const TrainConfig& c) {
    std::vector<ParamSpec> specs;
    for (const ParamSpec& spec : commonParameters()) {
        if (!isTopLevelRecordParameter(spec.name)) specs.push_back(spec);
    }
    for (const auto& [name, text] : c.extra) {
        if (const ParamSpec* own = findParameter(name)) specs.push_back(*own);
    }
    return specs;
}

/// A parameter's value in a record: at the top level or in "settings" by its name; in records
/// written before the declarations, in "config" or at the top level by a former name.
const JsonValue* findRecordedValue(const JsonValue& json, const ParamSpec& spec) {
    if (isTopLevelRecordParameter(spec.name))
        return json.has(spec.name) ? &json.at(spec.name) : nullptr;
    if (json.has("settings") && json.at("settings").has(spec.name))
        return &json.at("settings").at(spec.name);
    std::vector<std::string> names = spec.formerNames;
    names.insert(names.begin(), spec.name);
    for (const std::string& name : names) {
        if (json.has("config") && json.at("config").has(name)) return &json.at("config").at(name);
        if (json.has(name) && name != "calibration") return &json.at(name);
    }
    return nullptr;
}

}  // namespace

std::string runRecordJson(const RunResult& result, const RunContext& context,
                          const RunRecordOptions& options) {
    const TrainConfig& c = result.config;
    const privacy::PrivacyReport& p = result.privacy;
    const FairnessMetrics& t = result.test;
    JsonWriter json;
    json.beginObject();
    if (!context.runKey.empty()) json.key("run_key").value(context.runKey);
    if (!result.runUid.empty()) json.key("run_uid").value(result.runUid);
    if (!context.ledgerKey.empty()) json.key("ledger_key").value(context.ledgerKey);
    json.key("algorithm").value(c.algorithm);
    json.key("dataset").value(result.dataset);
    json.key("fairness").value(fairnessCode(c.fairness));
    json.key("calibration").value(c.isPrivate() ? calibrationName(c.calibration) : "none");
    json.key("epsilon").value(c.epsilon);
    json.key("delta").value(c.delta);
    json.key("lambda").value(c.lambda);
    json.key("seed").value(static_cast<unsigned long>(c.seed));
    json.key("epochs").value(c.epochs);
    json.key("status").value(runStatusName(result.status));
    json.key("test_error").value(t.error);
    json.key("train_loss").value(result.trainLoss);
    json.key("violation").value(t.violation(c.fairness));
    json.key("dp_violation").value(t.dpGap);
    json.key("eo_violation").value(t.eoGap);
    json.key("eopp_violation").value(t.eoppGap);
    json.key("ermi").value(t.ermiHard(c.fairness));
    json.key("epsilon_spent").value(p.isPrivate ? p.epsilonSpent : INFINITY);
    json.key("noise_theta").value(p.sigmaTheta);
    json.key("noise_w").value(p.sigmaW);
    json.key("steps").value(result.steps);
    json.key("seconds").value(result.seconds, 6);
    // Which build wrote the record ("0.1.0 (abc1234)"): bookkeeping, never read back.
    json.key("software").value(versionString());
    if (result.constant.known) {
        // The baseline a small violation is judged against (always one class: violation 0).
        json.key("constant_classifier").beginObject();
        json.key("class").value(result.constant.className);
        json.key("test_error").value(result.constant.error);
        json.endObject();
    }
    json.key("groups");
    writeGroups(json, t);
    if (!result.message.empty()) json.key("message").value(result.message);
    if (!result.curve.empty()) {
        // One run, several tradeoff points (written only when present).
        json.key("curve").beginArray();
        for (const CurvePoint& point : result.curve) {
            json.beginObject();
            json.key("setting").value(point.setting);
            json.key("value").value(point.value);
            json.key("test_error").value(point.test.error);
            json.key("violation").value(point.test.violation(c.fairness));
            json.key("dp_violation").value(point.test.dpGap);
            json.key("eo_violation").value(point.test.eoGap);
            json.key("eopp_violation").value(point.test.eoppGap);
            json.endObject();
        }
        json.endArray();
    }

    json.key("settings").beginObject();
    writeParametersJson(json, c, settingsBlockParameters(c));
    json.endObject();

    json.key("config").beginObject();
    json.key("dataset_description").value(context.datasetDescription);
    json.key("split_seed").value(static_cast<unsigned long>(context.splitSeed));
    json.key("test_fraction").value(context.testFraction);
    json.key("split_method").value(splitMethodName(context.splitMethod));
    json.key("train_rows").value(context.trainRows);
    json.key("test_rows").value(context.testRows);
    json.key("features").value(context.features);
    json.endObject();

    if (result.regression.known) {
        // Regression runs: "test_error" above is the test MSE; the fairness fields are null.
        json.key("regression").beginObject();
        json.key("test_mse").value(result.regression.testMse);
        json.key("test_rmse").value(result.regression.testRmse);
        json.key("weight_error").value(result.regression.weightError);
        // Runs that computed the exact non-private optimum of their training objective.
        if (!std::isnan(result.regression.optimumMse)) {
            json.key("optimum_mse").value(result.regression.optimumMse);
            json.key("excess_risk").value(result.regression.excessRisk);
        }
        json.endObject();
    }

    json.key("metrics").beginObject();
    json.key("rows").value(t.rows);
    json.key("dp_violation_vs_marginal").value(t.dpGapVsMarginal);
    json.key("ermi_dp_hard").value(t.ermiDpHard);
    json.key("ermi_dp_soft").value(t.ermiDpSoft);
    json.key("ermi_eo_hard").value(t.ermiEoHard);
    json.key("ermi_eo_soft").value(t.ermiEoSoft);
    json.key("ermi_eopp_hard").value(t.ermiEoppHard);
    json.key("ermi_eopp_soft").value(t.ermiEoppSoft);
    json.endObject();

    json.key("privacy").beginObject();
    json.key("is_private").value(p.isPrivate);
    json.key("algorithm").value(p.algorithm);
    json.key("calibration").value(p.calibration);
    json.key("unit").value(p.unit);
    json.key("epsilon_target").value(p.epsilonTarget);
    json.key("epsilon_spent").value(p.epsilonSpent);
    json.key("epsilon_nominal").value(p.epsilonNominal);
    json.key("epsilon_shares").value(p.epsilonShares);
    json.key("epsilon_poisson_assumed").value(p.epsilonPoissonAssumed);
    json.key("delta").value(p.delta);
    json.key("optimal_order").value(p.optimalOrder);
    json.key("order_at_grid_edge").value(p.orderAtGridEdge);
    json.key("noise_multiplier").value(p.noiseMultiplier);
    json.key("noise_multiplier_theta").value(p.noiseMultiplierTheta);
    json.key("noise_multiplier_w").value(p.noiseMultiplierW);
    json.key("sigma_theta").value(p.sigmaTheta);
    json.key("sigma_w").value(p.sigmaW);
    json.key("clip_theta").value(p.clipTheta);
    json.key("clip_w").value(p.clipW);
    json.key("sampling_rate").value(p.samplingRate);
    json.key("expected_batch").value(p.expectedBatch);
    json.key("steps").value(p.steps);
    json.key("sampling").value(p.sampling);
    json.key("accountant").value(p.accountant);
    json.key("mechanism").value(p.mechanism);
    json.key("adjacency").value(p.adjacency);
    json.key("order_grid").value(p.orderGrid);
    json.key("protected").value(p.protectedData);
    json.key("clip").value(p.clipDescription);
    json.key("extra_releases").value(p.extraReleases);
    json.key("post_processing").value(p.postProcessing);
    if (!p.tuning.empty()) {
        json.key("tuning").beginObject();
        json.key("mode").value(p.tuning);
        json.key("candidates").value(static_cast<long>(p.tuningCandidates));
        json.key("grid_epsilon").value(p.tuningGridEpsilon);
        json.endObject();
    }
    json.key("sensitive_column").value(p.sensitiveColumn);
    json.key("known_gaps").value(p.knownGaps);
    json.key("warnings").beginArray();
    for (const std::string& warning : p.warnings) json.value(warning);
    json.endArray();
    // The exact inputs of epsilon_spent: privacy::certifiedEpsilon recomputes it.
    json.key("accounting");
    privacy::writeAccountingJson(json, p.accounting);
    json.key("noise_source").value(privacy::noiseSourceName(p.noiseSource));
    json.key("seed").value(static_cast<unsigned long>(p.seed));
    json.key("diagnostics").beginObject();
    json.key("protected").value(false);
    json.key("label").value(
        "not protected — diagnostics: computed exactly on the private training rows");
    json.key("recorded").value(p.diagnosticsRecorded);
    json.key("fields").beginArray();
    for (const privacy::Disclosure& d : p.disclosures) {
        if (!d.diagnostic) continue;
        for (const std::string& field : d.fields) json.value(field);
    }
    json.endArray();
    json.endObject();
    // Everything the record holds from the private rows without protection, with its fields.
    json.key("not_protected").beginArray();
    for (const privacy::Disclosure& d : p.disclosures) {
        json.beginObject();
        json.key("what").value(d.what);
        json.key("fields").beginArray();
        for (const std::string& field : d.fields) json.value(field);
        json.endArray();
        json.key("diagnostic").value(d.diagnostic);
        json.endObject();
    }
    json.endArray();
    json.key("certified").value(p.certified);
    if (!p.certified) {
        // What the heuristic value rests on, so that it too can be recomputed.
        json.key("epsilon_heuristic").value(p.epsilonHeuristic);
        json.key("heuristic_accounting");
        privacy::writeAccountingJson(json, p.heuristicAccounting);
    }
    json.key("uncovered_releases").beginArray();
    for (const std::string& release : p.uncoveredReleases) json.value(release);
    json.endArray();
    if (p.maxRowsPerPerson > 1) {
        json.key("persons").beginObject();
        json.key("column").value(p.personColumn);
        json.key("count").value(p.persons);
        json.key("max_rows_per_person").value(p.maxRowsPerPerson);
        json.key("epsilon_per_person").value(p.epsilonPerPerson);
        json.key("bound").value("group privacy through the RDP curve (loose)");
        json.endObject();
    }
    if (!p.neighbouring.empty()) json.key("neighbouring").value(p.neighbouring);
    if (!p.trustModel.empty()) json.key("trust_model").value(p.trustModel);
    json.key("statement").value(p.statement);
    json.endObject();

    if (!result.units.empty()) {
        // Per-unit test metrics (silos or users): not protected, computed from test rows.
        json.key("units").beginObject();
        json.key("kind").value(result.unitKind);
        json.key("items").beginArray();
        for (const UnitMetrics& unit : result.units) {
            json.beginObject();
            json.key("name").value(unit.name);
            // A unit's training rows are private (a training-set diagnostic): only when kept.
            if (unit.trainRows >= 0) json.key("train_rows").value(unit.trainRows);
            json.key("test_rows").value(unit.testRows);
            json.key("test_error").value(unit.testError);
            json.key("test_loss").value(unit.testLoss);
            json.endObject();
        }
        json.endArray();
        json.endObject();
    }

    if (!result.theoryInputs.empty()) {
        json.key("theory_inputs").beginObject();
        for (const auto& [name, value] : result.theoryInputs) json.key(name).value(value);
        json.endObject();
    }

    json.key("history");
    writeHistory(json, result.history, options.historyDigits);
    writeModelRecord(json, result, context);
    json.endObject();
    return json.text();
}

namespace {

RunStatus parseStatus(const std::string& text) {
    for (RunStatus status :
         {RunStatus::Completed, RunStatus::Cancelled, RunStatus::Diverged, RunStatus::Failed}) {
        if (runStatusName(status) == text) return status;
    }
    throw InputError("unknown run status '" + text + "'");
}

long asLong(const JsonValue& value) { return static_cast<long>(std::llround(value.asNumber())); }

}  // namespace

RunResult runResultFromJson(const JsonValue& json, RunContext* context) {
    RunResult r;
    TrainConfig& c = r.config;
    c.algorithm = json.at("algorithm").asString();
    r.dataset = json.at("dataset").asString();
    r.runUid = json.stringOr("run_uid", "");
    // Every parameter from its declaration. Missing ones (records written before they existed)
    // read as what those runs ran; unknown ones are skipped, so files written by other versions
    // still open.
    for (const ParamSpec& spec : commonParameters()) {
        const JsonValue* value = findRecordedValue(json, spec);
        if (value)
            spec.set(c, storedParameterText(spec, *value));
        else
            spec.set(c, spec.formerDefault.empty() ? spec.defaultValue : spec.formerDefault);
    }
    if (json.has("settings")) {
        for (const auto& [name, value] : json.at("settings").members()) {
            const ParamSpec* spec = findParameter(name);
            if (spec && !findCommonParameter(spec->name))
                spec->set(c, storedParameterText(*spec, value));
        }
    }
    // The algorithm's own settings the record lacks (written before they existed): what those
    // runs ran, as for the common ones.
    // (An algorithm this version does not know keeps its settings as recorded.)
    const Algorithm* algorithm = findAlgorithmOrNull(c.algorithm);
    static const std::vector<ParamSpec> none;
    for (const ParamSpec& spec : algorithm ? algorithm->declaredParameters() : none) {
        if (findCommonParameter(spec.name) || c.extra.count(spec.name)) continue;
        spec.set(c, spec.formerDefault.empty() ? spec.defaultValue : spec.formerDefault);
    }
    r.status = parseStatus(json.at("status").asString());
    r.message = json.stringOr("message", "");
    r.trainLoss = json.at("train_loss").asNumber();
    r.steps = asLong(json.at("steps"));
    r.seconds = json.at("seconds").asNumber();

    const JsonValue& config = json.at("config");
    if (context) {
        context->runKey = json.stringOr("run_key", "");
        context->ledgerKey = json.stringOr("ledger_key", "");
        context->datasetDescription = config.at("dataset_description").asString();
        context->splitSeed = static_cast<std::uint64_t>(config.at("split_seed").asNumber());
        context->testFraction = config.at("test_fraction").asNumber();
        // Absent in records written before split methods existed: those used our own.
        context->splitMethod = parseSplitMethod(config.stringOr("split_method", "seeded"));
        context->trainRows = asLong(config.at("train_rows"));
        context->testRows = asLong(config.at("test_rows"));
        context->features = asLong(config.at("features"));
    }

    FairnessMetrics& t = r.test;
    t.error = json.at("test_error").asNumber();
    t.dpGap = json.at("dp_violation").asNumber();
    t.eoGap = json.at("eo_violation").asNumber();
    t.eoppGap = json.at("eopp_violation").asNumber();
    if (json.has("constant_classifier")) {  // absent in records written before it was added
        const JsonValue& constant = json.at("constant_classifier");
        r.constant.known = true;
        r.constant.className = constant.stringOr("class", "");
        r.constant.error = constant.numberOr("test_error", std::nan(""));
    }
    if (json.has("regression")) {
        const JsonValue& regression = json.at("regression");
        r.regression.known = true;
        r.regression.testMse = regression.numberOr("test_mse", t.error);
        r.regression.testRmse = regression.numberOr("test_rmse", std::sqrt(t.error));
        r.regression.weightError = regression.numberOr("weight_error", std::nan(""));
        r.regression.optimumMse = regression.numberOr("optimum_mse", std::nan(""));
        r.regression.excessRisk = regression.numberOr("excess_risk", std::nan(""));
    }
    if (json.has("curve")) {
        for (const JsonValue& item : json.at("curve").items()) {
            CurvePoint point;
            point.setting = item.at("setting").asString();
            point.value = item.at("value").asNumber();
            point.test.error = item.at("test_error").asNumber();
            point.test.dpGap = item.at("dp_violation").asNumber();
            point.test.eoGap = item.at("eo_violation").asNumber();
            point.test.eoppGap = item.at("eopp_violation").asNumber();
            r.curve.push_back(std::move(point));
        }
    }
    const JsonValue& metrics = json.at("metrics");
    t.rows = asLong(metrics.at("rows"));
    t.dpGapVsMarginal = metrics.at("dp_violation_vs_marginal").asNumber();
    t.ermiDpHard = metrics.at("ermi_dp_hard").asNumber();
    t.ermiDpSoft = metrics.at("ermi_dp_soft").asNumber();
    t.ermiEoHard = metrics.at("ermi_eo_hard").asNumber();
    t.ermiEoSoft = metrics.at("ermi_eo_soft").asNumber();
    t.ermiEoppHard = metrics.at("ermi_eopp_hard").asNumber();
    t.ermiEoppSoft = metrics.at("ermi_eopp_soft").asNumber();
    for (const JsonValue& item : json.at("groups").items()) {
        GroupRow row;
        row.group = item.at("group").asString();
        row.n = asLong(item.at("n"));
        row.baseRate = item.at("base_rate").asNumber();
        row.selectionRate = item.at("selection_rate").asNumber();
        row.truePositiveRate = item.at("tpr").asNumber();
        row.falsePositiveRate = item.at("fpr").asNumber();
        row.accuracy = item.at("accuracy").asNumber();
        t.groups.push_back(row);
    }

    privacy::PrivacyReport& p = r.privacy;
    const JsonValue& privacyJson = json.at("privacy");
    p.isPrivate = privacyJson.at("is_private").asBool();
    p.algorithm = privacyJson.at("algorithm").asString();
    p.calibration = privacyJson.at("calibration").asString();
    p.unit = privacyJson.at("unit").asString();
    p.epsilonTarget = privacyJson.at("epsilon_target").asNumber();
    p.epsilonSpent = privacyJson.at("epsilon_spent").asNumber();
    p.epsilonNominal = privacyJson.at("epsilon_nominal").asNumber();
    p.epsilonShares = privacyJson.at("epsilon_shares").asNumber();
    p.epsilonPoissonAssumed = privacyJson.at("epsilon_poisson_assumed").asNumber();
    p.delta = privacyJson.at("delta").asNumber();
    p.optimalOrder = privacyJson.at("optimal_order").asNumber();
    p.orderAtGridEdge = privacyJson.at("order_at_grid_edge").asBool();
    p.noiseMultiplier = privacyJson.at("noise_multiplier").asNumber();
    p.noiseMultiplierTheta = privacyJson.at("noise_multiplier_theta").asNumber();
    p.noiseMultiplierW = privacyJson.at("noise_multiplier_w").asNumber();
    p.sigmaTheta = privacyJson.at("sigma_theta").asNumber();
    p.sigmaW = privacyJson.at("sigma_w").asNumber();
    p.clipTheta = privacyJson.at("clip_theta").asNumber();
    p.clipW = privacyJson.at("clip_w").asNumber();
    p.samplingRate = privacyJson.at("sampling_rate").asNumber();
    p.expectedBatch = asLong(privacyJson.at("expected_batch"));
    p.steps = asLong(privacyJson.at("steps"));
    p.sampling = privacyJson.at("sampling").asString();
    p.accountant = privacyJson.at("accountant").asString();
    p.mechanism = privacyJson.at("mechanism").asString();
    p.adjacency = privacyJson.at("adjacency").asString();
    p.orderGrid = privacyJson.at("order_grid").asString();
    p.protectedData = privacyJson.at("protected").asString();
    p.clipDescription = privacyJson.at("clip").asString();
    p.extraReleases = privacyJson.at("extra_releases").asString();
    if (privacyJson.has("post_processing"))
        p.postProcessing = privacyJson.at("post_processing").asString();
    if (privacyJson.has("tuning")) {
        const JsonValue& tuning = privacyJson.at("tuning");
        p.tuning = tuning.at("mode").asString();
        p.tuningCandidates = static_cast<int>(asLong(tuning.at("candidates")));
        p.tuningGridEpsilon = tuning.at("grid_epsilon").asNumber();
    }
    p.sensitiveColumn = privacyJson.at("sensitive_column").asString();
    p.knownGaps = privacyJson.at("known_gaps").asBool();
    for (const JsonValue& warning : privacyJson.at("warnings").items()) {
        p.warnings.push_back(warning.asString());
    }
    p.statement = privacyJson.at("statement").asString();
    // Records written before the accounting inputs were stored have none: kind stays
    // Uncertifiable and `accountingKnown` tells the ledger to charge their (ε, δ) as they are.
    if (privacyJson.has("accounting")) {
        p.accounting = privacy::accountingFromJson(privacyJson.at("accounting"));
        p.accountingKnown = true;
    } else {
        p.accountingKnown = false;
    }
    if (privacyJson.has("noise_source")) {
        p.noiseSource = privacy::parseNoiseSource(privacyJson.at("noise_source").asString());
    }
    p.seed = static_cast<std::uint64_t>(privacyJson.numberOr("seed", static_cast<double>(c.seed)));
    if (privacyJson.has("diagnostics")) {
        p.diagnosticsRecorded = privacyJson.at("diagnostics").at("recorded").asBool();
    }
    if (privacyJson.has("not_protected")) {
        for (const JsonValue& item : privacyJson.at("not_protected").items()) {
            privacy::Disclosure d;
            d.what = item.at("what").asString();
            for (const JsonValue& field : item.at("fields").items())
                d.fields.push_back(field.asString());
            d.diagnostic = item.at("diagnostic").asBool();
            p.disclosures.push_back(std::move(d));
        }
    }
    if (privacyJson.has("certified")) p.certified = privacyJson.at("certified").asBool();
    if (privacyJson.has("epsilon_heuristic")) {
        p.epsilonHeuristic = privacyJson.at("epsilon_heuristic").asNumber();
        p.heuristicAccounting = privacy::accountingFromJson(privacyJson.at("heuristic_accounting"));
    }
    if (privacyJson.has("uncovered_releases")) {
        for (const JsonValue& item : privacyJson.at("uncovered_releases").items()) {
            p.uncoveredReleases.push_back(item.asString());
        }
    }
    p.neighbouring = privacyJson.stringOr("neighbouring", "");
    p.trustModel = privacyJson.stringOr("trust_model", "");
    if (privacyJson.has("persons")) {
        const JsonValue& persons = privacyJson.at("persons");
        p.personColumn = persons.at("column").asString();
        p.persons = asLong(persons.at("count"));
        p.maxRowsPerPerson = asLong(persons.at("max_rows_per_person"));
        p.epsilonPerPerson = persons.at("epsilon_per_person").asNumber();
    }

    const JsonValue& history = json.at("history");
    const std::vector<double> epochs = history.at("epoch").numbers();
    const std::vector<double> steps = history.at("step").numbers();
    r.history.resize(epochs.size());
    for (std::size_t e = 0; e < epochs.size(); ++e) {
        r.history[e].epoch = static_cast<int>(epochs[e]);
        r.history[e].step = static_cast<long>(steps.at(e));
    }
    for (const HistoryColumn& column : kHistoryColumns) {
        const std::vector<double> values = history.at(column.key).numbers();
        if (values.size() != epochs.size()) {
            throw InputError(std::string("history column '") + column.key +
                             "' has the wrong length");
        }
        for (std::size_t e = 0; e < values.size(); ++e) r.history[e].*column.field = values[e];
    }
    for (const HistoryColumn& column : kOptionalHistoryColumns) {
        if (!history.has(column.key)) continue;
        const std::vector<double> values = history.at(column.key).numbers();
        if (values.size() != epochs.size()) {
            throw InputError(std::string("history column '") + column.key +
                             "' has the wrong length");
        }
        for (std::size_t e = 0; e < values.size(); ++e) r.history[e].*column.field = values[e];
    }
    if (json.has("theory_inputs")) {
        for (const auto& [name, value] : json.at("theory_inputs").members())
            r.theoryInputs[name] = value.asNumber();
    }
    if (json.has("units")) {
        const JsonValue& units = json.at("units");
        r.unitKind = units.stringOr("kind", "");
        for (const JsonValue& item : units.at("items").items()) {
            UnitMetrics unit;
            unit.name = item.at("name").asString();
            unit.trainRows = item.has("train_rows") ? asLong(item.at("train_rows")) : -1;
            unit.testRows = asLong(item.at("test_rows"));
            unit.testError = item.numberOr("test_error", std::nan(""));
            unit.testLoss = item.numberOr("test_loss", std::nan(""));
            r.units.push_back(std::move(unit));
        }
    }
    readModelRecord(json, r, context);
    return r;
}

std::map<std::string, double> finalHistoryValues(const std::vector<EpochMetrics>& history) {
    std::map<std::string, double> values;
    auto take = [&](const HistoryColumn& column) {
        if (isBookkeepingColumn(column.key)) return;
        for (auto m = history.rbegin(); m != history.rend(); ++m) {
            if (std::isfinite((*m).*column.field)) {
                values[column.key] = (*m).*column.field;
                return;
            }
        }
    };
    for (const HistoryColumn& column : kHistoryColumns) take(column);
    for (const HistoryColumn& column : kOptionalHistoryColumns) take(column);
    return values;
}

std::map<std::string, double> finalHistoryValues(const JsonValue& history) {
    std::map<std::string, double> values;
    auto take = [&](const HistoryColumn& column) {
        if (isBookkeepingColumn(column.key) || !history.has(column.key)) return;
        const std::vector<double> numbers = history.at(column.key).numbers();
        for (auto v = numbers.rbegin(); v != numbers.rend(); ++v) {
            if (std::isfinite(*v)) {
                values[column.key] = *v;
                return;
            }
        }
    };
    for (const HistoryColumn& column : kHistoryColumns) take(column);
    for (const HistoryColumn& column : kOptionalHistoryColumns) take(column);
    return values;
}

}  // namespace pfa
