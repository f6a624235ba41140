#include "core/sweep/run_record.h"

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

void writeHistory(JsonWriter& json, const std::vector<EpochMetrics>& history) {
    std::vector<double> epoch, trainLoss, testError, violation, ermi, epsilon, clip;
    for (const EpochMetrics& m : history) {
        epoch.push_back(m.epoch);
        trainLoss.push_back(m.trainLoss);
        testError.push_back(m.testError);
        violation.push_back(m.violation);
        ermi.push_back(m.ermiHard);
        epsilon.push_back(m.epsilonSpent);
        clip.push_back(m.clipFraction);
    }
    json.beginObject();
    json.key("epoch").array(epoch, 10);
    json.key("train_loss").array(trainLoss, 7);
    json.key("test_error").array(testError, 7);
    json.key("violation").array(violation, 7);
    json.key("ermi").array(ermi, 7);
    json.key("epsilon_spent").array(epsilon, 7);
    json.key("clip_fraction").array(clip, 5);
    json.endObject();
}

}  // namespace

std::string runRecordJson(const RunResult& result, const RunContext& context) {
    const TrainConfig& c = result.config;
    const privacy::PrivacyReport& p = result.privacy;
    JsonWriter json;
    json.beginObject();
    json.key("algorithm").value(c.algorithm);
    json.key("dataset").value(result.dataset);
    json.key("fairness").value(fairnessCode(c.fairness));
    json.key("calibration").value(c.isPrivate() ? calibrationName(c.calibration) : "none");
    json.key("epsilon").value(c.epsilon);
    json.key("delta").value(c.delta);
    json.key("lambda").value(c.lambda);
    json.key("seed").value(static_cast<unsigned long>(c.seed));
    json.key("epochs").value(c.epochs);
    json.key("batch_size").value(c.batchSize);
    json.key("status").value(runStatusName(result.status));
    json.key("test_error").value(result.test.error);
    json.key("train_loss").value(result.trainLoss);
    json.key("violation").value(result.test.violation(c.fairness));
    json.key("dp_violation").value(result.test.dpGap);
    json.key("dp_violation_vs_marginal").value(result.test.dpGapVsMarginal);
    json.key("eo_violation").value(result.test.eoGap);
    json.key("eopp_violation").value(result.test.eoppGap);
    json.key("ermi").value(result.test.ermiHard(c.fairness));
    json.key("ermi_soft").value(result.test.ermiSoft(c.fairness));
    json.key("epsilon_spent").value(p.isPrivate ? p.epsilonSpent : INFINITY);
    json.key("epsilon_nominal").value(p.epsilonNominal);
    json.key("epsilon_shares").value(p.epsilonShares);
    json.key("accountant").value(p.accountant);
    json.key("adjacency").value(p.adjacency);
    json.key("optimal_order").value(p.optimalOrder);
    json.key("noise_multiplier").value(p.noiseMultiplier);
    json.key("noise_theta").value(p.sigmaTheta);
    json.key("noise_w").value(p.sigmaW);
    json.key("steps").value(result.steps);
    json.key("seconds").value(result.seconds, 6);
    json.key("groups");
    writeGroups(json, result.test);
    json.key("config").beginObject();
    json.key("scope").value(scopeName(c.scope));
    json.key("sampling").value(samplingName(c.sampling.value_or(Sampling::Shuffle)));
    json.key("lr_theta").value(c.lrTheta);
    json.key("lr_w").value(c.lrW);
    json.key("l2").value(c.l2);
    json.key("clip_theta").value(c.clipTheta);
    json.key("clip_w").value(c.clipW);
    json.key("min_group_share").value(c.minGroupShare);
    json.key("w_radius").value(c.wRadius);
    json.key("projection").value(c.projection == Projection::Box ? "box" : "ball");
    json.key("share_budget_fraction").value(c.shareBudgetFraction);
    json.key("feature_bound").value(c.featureBound);
    json.key("advantaged_class").value(c.advantagedClass);
    json.key("dataset_description").value(context.datasetDescription);
    json.key("split_seed").value(static_cast<unsigned long>(context.splitSeed));
    json.key("test_fraction").value(context.testFraction);
    json.key("train_rows").value(context.trainRows);
    json.key("test_rows").value(context.testRows);
    json.key("features").value(context.features);
    json.endObject();
    if (!result.message.empty()) json.key("message").value(result.message);
    json.key("privacy_statement").value(p.statement);
    json.key("history");
    writeHistory(json, result.history);
    json.endObject();
    return json.text();
}

}  // namespace pfa
