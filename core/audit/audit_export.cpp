#include "core/audit/audit_export.h"

#include <cmath>

#include "core/algorithms/registry.h"
#include "core/config/parameters.h"
#include "core/sweep/parameter_json.h"
#include "core/util/build_info.h"
#include "core/util/format.h"
#include "core/util/json_writer.h"

namespace pfa::audit {

std::string auditJson(const AuditResult& result, const std::string& dataset) {
    JsonWriter json;
    json.beginObject();
    json.key("dataset").value(dataset);
    json.key("method").value(auditMethodKey(result.method));
    json.key("method_description").value(auditMethodName(result.method));
    json.key("algorithm").value(result.algorithm);
    json.key("mechanism").value(result.mechanism);
    json.key("broken").value(result.broken);
    json.key("confidence").value(result.confidence);
    if (!isOneRun(result.method))
        json.key("models_per_world").value(result.modelsPerWorld);
    else
        json.key("canaries").value(result.canaries);
    json.key("training_rows").value(result.trainingRows);
    json.key("canary").value(result.canary.description);
    json.key("score").value(result.score);
    json.key("cancelled").value(result.cancelled);
    // What reproduces it: the audited settings (ε and each model's seed come from the audit),
    // the audit's seed, the software and when it ran.
    json.key("audit_seed").value(static_cast<unsigned long>(result.seed));
    json.key("software").value(versionString());
    json.key("date").value(result.finishedAt);
    json.key("settings").beginObject();
    std::vector<ParamSpec> specs = commonParameters();
    for (const auto& [name, value] : result.config.extra) {
        if (const ParamSpec* own = findParameter(name)) specs.push_back(*own);
    }
    writeParametersJson(json, result.config, specs);
    json.endObject();
    json.key("points").beginArray();
    for (const AuditPoint& p : result.points) {
        json.beginObject();
        json.key("target_epsilon").value(p.targetEpsilon);
        json.key("claimed_epsilon").value(p.claimedEpsilon);
        if (result.broken) json.key("actual_epsilon").value(p.actualEpsilon);
        json.key("epsilon_lower_bound").value(p.epsilonLower);
        json.key("contradicts_claim").value(p.contradictsClaim());
        json.key("delta").value(p.delta);
        json.key("models_trained").value(p.modelsTrained);
        json.key("seconds").value(p.seconds);
        if (isOneRun(result.method)) {
            json.key("runs").value(p.runs);
            json.key("canaries").value(p.canaries);
            json.key("canaries_included").value(p.canariesIncluded);
            json.key("guess_counts_tried").value(p.guessOptions);
            json.key("guesses").value(p.guesses);
            json.key("guesses_out").value(p.guessedOut);
            json.key("correct_guesses").value(p.correctGuesses);
            json.key("canary_scores").array(p.canaryScores);
            json.key("canary_included").beginArray();
            for (bool in : p.canaryIncluded) json.value(in);
            json.endArray();
            json.endObject();
            continue;
        }
        json.key("selection_trials").value(p.selectionTrials);
        json.key("evaluation_trials").value(p.evaluationTrials);
        json.key("threshold").value(p.threshold);
        json.key("higher_means_member").value(p.higherMeansMember);
        json.key("true_positives").value(p.truePositives);
        json.key("false_positives").value(p.falsePositives);
        json.key("tpr").value(p.tpr);
        json.key("fpr").value(p.fpr);
        json.key("tpr_lower").value(p.tprLower);
        json.key("fpr_upper").value(p.fprUpper);
        json.key("scores_with_canary").array(p.scoresWith);
        json.key("scores_without_canary").array(p.scoresWithout);
        json.endObject();
    }
    json.endArray();
    json.endObject();
    return json.text();
}

std::string auditCsv(const AuditResult& result) {
    auto number = [](double value) {
        return std::isnan(value) ? std::string() : formatNumber(value, 17);
    };
    if (isOneRun(result.method)) {
        std::string csv =
            "method,target_epsilon,claimed_epsilon,actual_epsilon,epsilon_lower_bound,"
            "contradicts_claim,delta,confidence,canaries,canaries_included,runs,guesses,"
            "correct_guesses,guess_counts_tried,seconds\n";
        for (const AuditPoint& p : result.points) {
            csv += std::string(auditMethodKey(result.method)) + "," + number(p.targetEpsilon) +
                   "," + number(p.claimedEpsilon) + "," +
                   number(result.broken ? p.actualEpsilon : std::nan("")) + "," +
                   number(p.epsilonLower) + "," + (p.contradictsClaim() ? "true" : "false") + "," +
                   number(p.delta) + "," + number(result.confidence) + "," +
                   std::to_string(p.canaries) + "," + std::to_string(p.canariesIncluded) + "," +
                   std::to_string(p.runs) + "," + std::to_string(p.guesses) + "," +
                   std::to_string(p.correctGuesses) + "," + std::to_string(p.guessOptions) + "," +
                   number(p.seconds) + "\n";
        }
        return csv;
    }
    std::string csv =
        "target_epsilon,claimed_epsilon,actual_epsilon,epsilon_lower_bound,contradicts_claim,delta,"
        "confidence,models_trained,evaluation_trials,true_positives,false_positives,tpr,tpr_lower,"
        "fpr,fpr_upper,seconds\n";
    for (const AuditPoint& p : result.points) {
        csv += number(p.targetEpsilon) + "," + number(p.claimedEpsilon) + "," +
               number(result.broken ? p.actualEpsilon : std::nan("")) + "," +
               number(p.epsilonLower) + "," + (p.contradictsClaim() ? "true" : "false") + "," +
               number(p.delta) + "," + number(result.confidence) + "," +
               std::to_string(p.modelsTrained) + "," + std::to_string(p.evaluationTrials) + "," +
               std::to_string(p.truePositives) + "," + std::to_string(p.falsePositives) + "," +
               number(p.tpr) + "," + number(p.tprLower) + "," + number(p.fpr) + "," +
               number(p.fprUpper) + "," + number(p.seconds) + "\n";
    }
    return csv;
}

}  // namespace pfa::audit
