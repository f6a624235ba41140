#include "core/sweep/sweep_summary.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/sweep/sweep_spec.h"

namespace pfa {

double MeanSd::standardError() const { return n > 0 ? sd / std::sqrt(static_cast<double>(n)) : 0.0; }

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

std::string cellKeyOf(const std::string& key) {
    const std::size_t start = key.find(";seed=");
    if (start == std::string::npos) return key;
    const std::size_t end = key.find(';', start + 1);
    return key.substr(0, start) + (end == std::string::npos ? "" : key.substr(end));
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
    p.seconds = r.numberOr("seconds", std::nan(""));
    if (r.has("privacy") && r.at("privacy").has("known_gaps")) {
        p.knownGaps = r.at("privacy").at("known_gaps").asBool();
    }
    // A split-budget grid is one experiment at the grid's ε (each run spent ε/K of it).
    if (r.has("privacy") && r.at("privacy").has("tuning")) {
        const JsonValue& tuning = r.at("privacy").at("tuning");
        if (tuning.stringOr("mode", "") == tuningName(Tuning::SplitBudget)) p.epsilon = tuning.numberOr("grid_epsilon", p.epsilon);
    }
    return p;
}

std::vector<SweepCell> summarizeRecords(const std::vector<JsonValue>& records) {
    std::vector<SweepPoint> points;
    points.reserve(records.size());
    for (const JsonValue& record : records) points.push_back(sweepPointFromRecord(record));
    return summarizePoints(points);
}

std::vector<SweepCell> summarizePoints(const std::vector<SweepPoint>& points) {
    std::vector<SweepCell> cells;
    std::map<std::string, std::size_t> cellOf;
    std::vector<std::vector<double>> errors, violations, epsilons, seconds;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const SweepPoint& p = points[i];
        const std::string key = p.runKey.empty() ? "point " + std::to_string(i) : cellKeyOf(p.runKey);
        auto [it, inserted] = cellOf.emplace(key, cells.size());
        if (inserted) {
            SweepCell cell;
            cell.cellKey = key;
            cell.dataset = p.dataset;
            cell.algorithm = p.algorithm;
            cell.fairness = p.fairness;
            cell.calibration = p.calibration;
            cell.epsilon = p.epsilon;
            cell.lambda = p.lambda;
            cell.knownGaps = p.knownGaps;
            cells.push_back(cell);
            errors.emplace_back();
            violations.emplace_back();
            epsilons.emplace_back();
            seconds.emplace_back();
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
        epsilons[c].push_back(p.epsilonSpent);
        seconds[c].push_back(p.seconds);
    }
    for (std::size_t c = 0; c < cells.size(); ++c) {
        cells[c].testError = meanSd(errors[c]);
        cells[c].violation = meanSd(violations[c]);
        // Non-private runs report ε = ∞: keep that visible instead of dropping it as non-finite.
        const bool allInfinite = !epsilons[c].empty() &&
                                 std::all_of(epsilons[c].begin(), epsilons[c].end(),
                                             [](double e) { return std::isinf(e); });
        cells[c].epsilonSpent = meanSd(epsilons[c]);
        if (allInfinite) cells[c].epsilonSpent.mean = cells[c].epsilonSpent.max = INFINITY;
        cells[c].seconds = meanSd(seconds[c]);
    }
    return cells;
}

}  // namespace pfa
