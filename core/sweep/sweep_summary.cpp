#include "core/sweep/sweep_summary.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/algorithms/registry.h"
#include "core/config/parameters.h"
#include "core/sweep/run_record.h"
#include "core/sweep/sweep_spec.h"
#include "core/util/format.h"

namespace pfa {

double MeanSd::standardError() const {
    return n > 0 ? sd / std::sqrt(static_cast<double>(n)) : 0.0;
}

MeanSd meanSd(const std::vector<double>& values) {
    MeanSd s;
    double sum = 0.0;
    for (double v : values) {
        if (!std::isfinite(v)) continue;
        if (s.n == 0) s.min = s.max = v;
        s.min = std::min(s.min, v);
        s.max = std::max(s.max, v);
        sum += v;
        ++s.n;
    }
    if (s.n == 0) {
        s.mean = std::nan("");
        return s;
    }
    s.mean = sum / static_cast<double>(s.n);
    if (s.n > 1) {
        double squares = 0.0;
        for (double v : values) {
            if (std::isfinite(v)) squares += (v - s.mean) * (v - s.mean);
        }
        s.sd = std::sqrt(squares / static_cast<double>(s.n - 1));
    }
    return s;
}

namespace {
/// `key` without its `name=` setting.
std::string withoutSetting(const std::string& key, const std::string& name) {
    std::size_t start = key.rfind(name + "=", 0) == 0 ? 0 : key.find(";" + name + "=");
    if (start == std::string::npos) return key;
    const std::size_t end = key.find(';', start + 1);
    if (start == 0) return end == std::string::npos ? std::string() : key.substr(end + 1);
    return key.substr(0, start) + (end == std::string::npos ? "" : key.substr(end));
}
}  // namespace

std::string cellKeyOf(const std::string& key) { return withoutSetting(key, "seed"); }

std::vector<std::pair<std::string, std::string>> runKeySettings(const std::string& key) {
    std::vector<std::pair<std::string, std::string>> settings;
    if (key.find('=') == std::string::npos) {
        settings.emplace_back(std::string(), key);
        return settings;
    }
    // The data-set identity may itself hold '=' (its options) but never ';'.
    std::size_t start = 0;
    while (start <= key.size()) {
        std::size_t end = key.find(';', start);
        if (end == std::string::npos) end = key.size();
        const std::string part = key.substr(start, end - start);
        const std::size_t equals = part.find('=');
        if (!part.empty()) {
            settings.emplace_back(part.substr(0, equals), equals == std::string::npos
                                                              ? std::string()
                                                              : part.substr(equals + 1));
        }
        start = end + 1;
    }
    return settings;
}

std::string datasetOfRunKey(const std::string& key) {
    if (key.rfind("dataset=", 0) != 0) return {};
    const std::size_t end = key.find(';');
    return key.substr(8, end == std::string::npos ? std::string::npos : end - 8);
}

std::string SweepPoint::datasetKey() const {
    const std::string identity = datasetOfRunKey(runKey);
    return identity.empty() ? dataset : identity;
}

std::vector<SweepGroup> groupCells(const std::vector<SweepCell>& cells,
                                   const std::vector<std::string>& varying,
                                   const std::vector<std::string>& named) {
    auto contains = [](const std::vector<std::string>& names, const std::string& name) {
        return std::find(names.begin(), names.end(), name) != names.end();
    };
    // A cell whose key names no settings (made by hand, or a run recorded without a key) is
    // known only by its fields; a keyless run keeps its own key too, so that it stays alone.
    auto settingsOf = [](const SweepCell& cell) {
        if (cell.cellKey.find('=') != std::string::npos) return runKeySettings(cell.cellKey);
        std::vector<std::pair<std::string, std::string>> settings = {
            {"dataset", cell.datasetKey.empty() ? cell.dataset : cell.datasetKey},
            {"algorithm", cell.algorithm},
            {"fairness", cell.fairness},
            {"calibration", cell.knownGaps ? "published" : cell.calibration},
            {"epsilon", formatNumber(cell.epsilon, 17)},
            {"lambda", formatNumber(cell.lambda, 17)}};
        if (!cell.cellKey.empty()) settings.emplace_back(std::string(), cell.cellKey);
        return settings;
    };
    std::vector<SweepGroup> groups;
    std::vector<std::vector<std::pair<std::string, std::string>>> groupSettings;
    std::map<std::string, std::size_t> groupOf;
    for (std::size_t c = 0; c < cells.size(); ++c) {
        std::vector<std::pair<std::string, std::string>> kept;
        std::string key;
        for (const auto& setting : settingsOf(cells[c])) {
            if (contains(varying, setting.first) || setting.first == "seed") continue;
            key += (key.empty() ? "" : ";") +
                   (setting.first.empty() ? setting.second : setting.first + "=" + setting.second);
            kept.push_back(setting);
        }
        auto [it, inserted] = groupOf.emplace(key, groups.size());
        if (inserted) {
            groups.push_back({key, {}, {}});
            groupSettings.push_back(std::move(kept));
        }
        groups[it->second].cells.push_back(c);
    }
    auto valueOf = [](const std::vector<std::pair<std::string, std::string>>& settings,
                      const std::string& name) -> const std::string* {
        for (const auto& setting : settings) {
            if (setting.first == name) return &setting.second;
        }
        return nullptr;
    };
    auto sameNamed = [&](std::size_t a, std::size_t b) {
        for (const std::string& name : named) {
            const std::string* x = valueOf(groupSettings[a], name);
            const std::string* y = valueOf(groupSettings[b], name);
            if ((x == nullptr) != (y == nullptr) || (x && *x != *y)) return false;
        }
        return true;
    };
    for (std::size_t g = 0; g < groups.size(); ++g) {
        std::string distinction;
        for (const auto& [name, value] : groupSettings[g]) {
            if (name.empty() || contains(named, name)) continue;
            bool differs = false;
            for (std::size_t h = 0; h < groups.size() && !differs; ++h) {
                if (h == g || !sameNamed(g, h)) continue;
                const std::string* other = valueOf(groupSettings[h], name);
                differs = other == nullptr || *other != value;
            }
            if (!differs) continue;
            // Numbers as typed (0.05), not in the key's exact form (0.050000000000000003); the
            // budget and the penalty by the symbols every view uses (a legend entry is short).
            const std::string shown = name == "epsilon" ? "ε" : name == "lambda" ? "λ" : name;
            distinction +=
                (distinction.empty() ? "" : ", ") + shown + " = " + shortValueText(value);
        }
        groups[g].distinction = distinction;
    }
    // Groups whose ε bound different things say what each protects.
    std::vector<RunProtection> protections;
    for (const SweepCell& cell : cells) protections.push_back(cell.protection);
    if (!mixedProtectionWarning(protections).empty()) {
        for (SweepGroup& group : groups) {
            const RunProtection& protection = cells[group.cells.front()].protection;
            if (!protection.isPrivate) continue;
            group.distinction +=
                (group.distinction.empty() ? "" : ", ") + ("protects: " + protection.label());
        }
    }
    return groups;
}

SweepPoint sweepPointFromRun(const RunResult& r, const std::string& runKey, double epsilonSpent) {
    SweepPoint p;
    p.runKey = runKey;
    p.dataset = r.dataset;
    p.algorithm = r.config.algorithm;
    p.fairness = fairnessCode(r.config.fairness);
    p.calibration = calibrationName(r.config.calibration);
    // A split-budget grid is one experiment at the grid's ε (each run spent ε/K of it).
    p.epsilon = r.privacy.tuning == tuningName(Tuning::SplitBudget) ? r.privacy.tuningGridEpsilon
                                                                    : r.config.epsilon;
    p.lambda = r.config.lambda;
    p.status = runStatusName(r.status);
    p.testError = r.test.error;
    p.violation = r.test.violation(r.config.fairness);
    for (const EpochMetrics& m : r.history) {
        if (std::isfinite(m.excessRisk)) p.excessRisk = m.excessRisk;
        if (std::isfinite(m.gradientNormSquared)) p.gradientNormSquared = m.gradientNormSquared;
    }
    p.epsilonSpent = epsilonSpent;
    p.knownGaps = r.privacy.knownGaps;
    p.protection = runProtection(r);
    p.seconds = r.seconds;
    p.finalMetrics = finalHistoryValues(r.history);
    return p;
}

SweepPoint sweepPointFromRecord(const JsonValue& r) {
    SweepPoint p;
    p.runKey = r.stringOr("run_key", "");
    p.dataset = r.stringOr("dataset", "");
    p.algorithm = r.stringOr("algorithm", "");
    p.fairness = r.stringOr("fairness", "dp");
    p.calibration = r.stringOr("calibration", "");
    p.epsilon = r.numberOr("epsilon", std::nan(""));
    p.lambda = r.numberOr("lambda", std::nan(""));
    p.status = r.stringOr("status", "completed");
    p.testError = r.numberOr("test_error", std::nan(""));
    p.violation = r.numberOr("violation", std::nan(""));
    p.epsilonSpent = r.numberOr("epsilon_spent", std::nan(""));
    p.protection = runProtectionOfRecord(r);
    if (r.has("history") && r.at("history").has("excess_risk")) {
        for (double value : r.at("history").at("excess_risk").numbers()) {
            if (std::isfinite(value)) p.excessRisk = value;
        }
    }
    if (r.has("history") && r.at("history").has("gradient_norm_squared")) {
        for (double value : r.at("history").at("gradient_norm_squared").numbers()) {
            if (std::isfinite(value)) p.gradientNormSquared = value;
        }
    }
    p.seconds = r.numberOr("seconds", std::nan(""));
    if (r.has("history")) p.finalMetrics = finalHistoryValues(r.at("history"));
    if (r.has("privacy") && r.at("privacy").has("known_gaps")) {
        p.knownGaps = r.at("privacy").at("known_gaps").asBool();
    }
    // A split-budget grid is one experiment at the grid's ε (each run spent ε/K of it).
    if (r.has("privacy") && r.at("privacy").has("tuning")) {
        const JsonValue& tuning = r.at("privacy").at("tuning");
        if (tuning.stringOr("mode", "") == tuningName(Tuning::SplitBudget))
            p.epsilon = tuning.numberOr("grid_epsilon", p.epsilon);
    }
    return p;
}

std::string withKeySetting(const std::string& runKey, const std::string& setting,
                           const std::string& valueText) {
    if (runKey.empty()) return runKey;  // a run without a key stands for itself
    std::string key;
    bool found = false;
    for (const auto& [name, value] : runKeySettings(runKey)) {
        if (!key.empty()) key += ';';
        if (name == setting) {
            key += name + "=" + valueText;
            found = true;
        } else {
            key += name.empty() ? value : name + "=" + value;
        }
    }
    if (!found) key += ";" + setting + "=" + valueText;
    return key;
}

std::vector<SweepPoint> expandCurvePoints(const SweepPoint& run,
                                          const std::vector<CurvePoint>& curve,
                                          FairnessNotion notion) {
    if (curve.empty()) return {run};
    std::vector<SweepPoint> points;
    points.reserve(curve.size());
    for (const CurvePoint& at : curve) {
        SweepPoint p = run;
        p.runKey = withKeySetting(run.runKey, at.setting, realText(at.value));
        p.testError = at.test.error;
        p.violation = at.test.violation(notion);
        points.push_back(std::move(p));
    }
    return points;
}

std::vector<SweepPoint> sweepPointsFromRecord(const JsonValue& record) {
    const SweepPoint run = sweepPointFromRecord(record);
    if (!record.has("curve")) return {run};
    std::vector<CurvePoint> curve;
    for (const JsonValue& item : record.at("curve").items()) {
        CurvePoint point;
        point.setting = item.at("setting").asString();
        point.value = item.at("value").asNumber();
        point.test.error = item.at("test_error").asNumber();
        point.test.dpGap = item.at("dp_violation").asNumber();
        point.test.eoGap = item.at("eo_violation").asNumber();
        point.test.eoppGap = item.at("eopp_violation").asNumber();
        curve.push_back(std::move(point));
    }
    return expandCurvePoints(run, curve, parseFairnessNotion(run.fairness));
}

std::vector<SweepCell> summarizeRecords(const std::vector<JsonValue>& records, bool curves) {
    std::vector<SweepPoint> points;
    points.reserve(records.size());
    for (const JsonValue& record : records) {
        if (!curves) {
            points.push_back(sweepPointFromRecord(record));
            continue;
        }
        for (SweepPoint& point : sweepPointsFromRecord(record)) points.push_back(std::move(point));
    }
    return summarizePoints(points);
}

std::vector<SweepCell> summarizePoints(const std::vector<SweepPoint>& points) {
    std::vector<SweepCell> cells;
    std::map<std::string, std::size_t> cellOf;
    std::vector<std::vector<double>> errors, violations, excess, gradients, epsilons, seconds;
    std::vector<std::map<std::string, std::vector<double>>> finals;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const SweepPoint& p = points[i];
        const std::string key =
            p.runKey.empty() ? "point " + std::to_string(i) : cellKeyOf(p.runKey);
        auto [it, inserted] = cellOf.emplace(key, cells.size());
        if (inserted) {
            SweepCell cell;
            cell.cellKey = key;
            cell.dataset = p.dataset;
            cell.datasetKey = p.datasetKey();
            cell.algorithm = p.algorithm;
            cell.fairness = p.fairness;
            cell.calibration = p.calibration;
            cell.epsilon = p.epsilon;
            cell.lambda = p.lambda;
            cell.knownGaps = p.knownGaps;
            cell.protection = p.protection;
            cells.push_back(cell);
            errors.emplace_back();
            violations.emplace_back();
            excess.emplace_back();
            gradients.emplace_back();
            epsilons.emplace_back();
            seconds.emplace_back();
            finals.emplace_back();
        }
        const std::size_t c = it->second;
        SweepCell& cell = cells[c];
        ++cell.runs;
        cell.recordIndices.push_back(i);
        if (p.status == "failed" || p.status == "diverged") {
            ++cell.failed;
            continue;
        }
        errors[c].push_back(p.testError);
        violations[c].push_back(p.violation);
        excess[c].push_back(p.excessRisk);
        gradients[c].push_back(p.gradientNormSquared);
        epsilons[c].push_back(p.epsilonSpent);
        seconds[c].push_back(p.seconds);
        for (const auto& [name, value] : p.finalMetrics) finals[c][name].push_back(value);
    }
    for (std::size_t c = 0; c < cells.size(); ++c) {
        cells[c].testError = meanSd(errors[c]);
        cells[c].violation = meanSd(violations[c]);
        cells[c].excessRisk = meanSd(excess[c]);
        cells[c].gradientNormSquared = meanSd(gradients[c]);
        // Non-private runs report ε = ∞: keep that visible instead of dropping it as non-finite.
        const bool allInfinite =
            !epsilons[c].empty() && std::all_of(epsilons[c].begin(), epsilons[c].end(),
                                                [](double e) { return std::isinf(e); });
        cells[c].epsilonSpent = meanSd(epsilons[c]);
        if (allInfinite) cells[c].epsilonSpent.mean = cells[c].epsilonSpent.max = INFINITY;
        cells[c].seconds = meanSd(seconds[c]);
        for (const auto& [name, values] : finals[c]) cells[c].finalMetrics[name] = meanSd(values);
    }
    return cells;
}

std::vector<SweepCell> bestPointPerCurve(const std::vector<SweepCell>& cells,
                                         std::vector<CurveBest>* chosen, const std::string& keep,
                                         std::vector<std::size_t>* sources) {
    std::vector<std::string> traced;
    for (const SweepCell& cell : cells) {
        const std::string setting = curveSettingOf(cell.algorithm);
        if (setting != "lambda" && setting != keep &&
            std::find(traced.begin(), traced.end(), setting) == traced.end())
            traced.push_back(setting);
    }
    std::vector<SweepCell> kept;
    if (sources) sources->clear();
    if (traced.empty()) {
        for (std::size_t c = 0; c < cells.size() && sources; ++c) sources->push_back(c);
        return cells;
    }
    for (const SweepGroup& group : groupCells(cells, traced, {})) {
        const SweepCell& first = cells[group.cells.front()];
        const std::string setting = curveSettingOf(first.algorithm);
        if (std::find(traced.begin(), traced.end(), setting) == traced.end()) {
            for (std::size_t c : group.cells) {
                kept.push_back(cells[c]);
                if (sources) sources->push_back(c);
            }
            continue;
        }
        const bool excess = std::all_of(group.cells.begin(), group.cells.end(),
                                        [&](std::size_t c) { return cells[c].excessRisk.n > 0; });
        const SweepCell* best = nullptr;
        std::size_t candidates = 0;
        for (std::size_t c : group.cells) {
            const MeanSd& value = excess ? cells[c].excessRisk : cells[c].testError;
            if (value.n == 0 || !std::isfinite(value.mean)) continue;
            ++candidates;
            const MeanSd* bestValue =
                best ? &(excess ? best->excessRisk : best->testError) : nullptr;
            if (!bestValue || value.mean < bestValue->mean) best = &cells[c];
        }
        if (!best) continue;
        if (sources) sources->push_back(static_cast<std::size_t>(best - cells.data()));
        SweepCell cell = *best;
        std::string value;
        for (const auto& [name, text] : runKeySettings(cell.cellKey)) {
            if (name == setting) value = shortValueText(text);
        }
        cell.cellKey = withoutSetting(cell.cellKey, setting);
        kept.push_back(std::move(cell));
        if (chosen && candidates > 1)
            chosen->push_back({kept.size() - 1, setting, value, candidates});
    }
    return kept;
}

}  // namespace pfa
