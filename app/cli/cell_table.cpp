#include "app/cli/cell_table.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "core/algorithms/registry.h"
#include "core/config/run_result.h"
#include "core/sweep/setting_axes.h"
#include "core/util/format.h"

namespace pfa::cli {

std::string meanSdText(const MeanSd& s, int decimals) {
    if (s.n == 0) return "-";
    return formatFixed(s.mean, decimals) + " ± " + formatFixed(s.sd, decimals);
}

std::string curvePointOf(const SweepCell& cell) {
    // λ, or the setting the algorithm's curve runs over (s = dual step, c = tolerance, gamma =
    // post-processing's allowed gap).
    const std::string setting = curveSettingOf(cell.algorithm);
    if (setting == "lambda") return formatNumber(cell.lambda);
    const std::string symbol = setting == "dual-step"   ? "s"
                               : setting == "tolerance" ? "c"
                                                        : setting;
    for (const auto& [name, value] : runKeySettings(cell.cellKey)) {
        if (name == setting) return symbol + "=" + value;
    }
    return symbol + "=?";
}

void printCellTable(const std::vector<SweepCell>& cells, const std::vector<JsonValue>& records,
                    std::size_t& failed) {
    std::printf("%-9s %-5s %-8s %-10s %-18s %-18s %-10s %-6s %-7s\n", "algorithm", "notion",
                "epsilon", "lambda", "test error", "violation", "eps spent", "seeds", "sec/run");
    // Several data sets (a preset's data axes): each line names the knobs that tell its data apart.
    std::map<std::string, std::set<std::string>> knobValues;
    for (const SweepCell& cell : cells) {
        for (const auto& [knob, value] : datasetKnobs(cell.datasetKey))
            knobValues[knob].insert(value);
    }
    auto dataOf = [&](const SweepCell& cell) {
        std::string text;
        for (const auto& [knob, value] : datasetKnobs(cell.datasetKey)) {
            if (knobValues[knob].size() > 1) text += (text.empty() ? "" : ",") + knob + "=" + value;
        }
        return text;
    };
    for (const SweepCell& cell : cells) {
        failed += cell.failed;
        if (const std::string data = dataOf(cell); !data.empty())
            std::printf("[data %s] ", data.c_str());
        std::printf("%-9s %-5s %-8s %-10s %-18s %-18s %-10s %-6zu %-7.1f\n", cell.algorithm.c_str(),
                    cell.fairness.c_str(), formatNumber(cell.epsilon).c_str(),
                    curvePointOf(cell).c_str(), meanSdText(cell.testError, 4).c_str(),
                    meanSdText(cell.violation, 4).c_str(),
                    cell.epsilonSpent.n || std::isinf(cell.epsilonSpent.max)
                        ? formatNumber(cell.epsilonSpent.max, 4).c_str()
                        : "-",
                    cell.runs - cell.failed, cell.seconds.n ? cell.seconds.mean : 0.0);
    }
    std::map<std::string, std::size_t> curveLengths;
    for (const JsonValue& record : records) {
        if (record.has("curve"))
            curveLengths[record.stringOr("algorithm", "")] = record.at("curve").items().size();
    }
    for (const auto& [algorithm, points] : curveLengths) {
        std::printf(
            "%s: each line is the run's headline point; every run also recorded its curve of %zu "
            "points "
            "over %s (same epsilon), which the GUI's tradeoff views draw\n",
            algorithm.c_str(), points, curveSettingOf(algorithm).c_str());
    }
    // The baseline a small violation is judged by: always one class (violation 0 under every
    // notion). Runs that do no better are counted.
    std::map<std::string, std::tuple<std::string, double, std::size_t>> constants;
    for (const JsonValue& record : records) {
        if (!record.has("constant_classifier")) continue;
        const JsonValue& constant = record.at("constant_classifier");
        auto& [name, error, near] = constants[record.stringOr("dataset", "")];
        name = constant.stringOr("class", "");
        error = constant.numberOr("test_error", NAN);
        const double runError = record.numberOr("test_error", NAN);
        if (record.stringOr("status", "") == "completed" && runError >= error - kConstantMargin)
            ++near;
    }
    for (const auto& [dataset, constant] : constants) {
        const auto& [name, error, near] = constant;
        std::printf("constant classifier on %s: always '%s', test error %.4f, violation 0",
                    dataset.c_str(), name.c_str(), error);
        if (near > 0)
            std::printf(" -- %zu run(s) did no better (within %.3f): they learned little", near,
                        kConstantMargin);
        std::printf("\n");
    }
    if (std::any_of(records.begin(), records.end(),
                    [](const JsonValue& r) { return r.has("regression"); })) {
        std::printf(
            "test error of a regression algorithm: the test MSE; violation '-': not applicable "
            "(regression has no fairness metric)\n");
    }
}

}  // namespace pfa::cli
