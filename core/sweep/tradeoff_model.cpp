#include "core/sweep/tradeoff_model.h"

#include <algorithm>
#include <cmath>

#include "core/algorithms/registry.h"
#include "core/fairness/pareto.h"

namespace pfa {

namespace {

/// (violation, error) of `result` under `notion`, when both are finite.
std::optional<std::pair<double, double>> coordinates(const FairnessMetrics& test,
                                                     FairnessNotion notion) {
    const double x = test.violation(notion), y = test.error;
    if (!std::isfinite(x) || !std::isfinite(y)) return std::nullopt;  // never draw NaN/Inf
    return std::make_pair(x, y);
}

}  // namespace

TradeoffModel buildTradeoff(const TradeoffInput& input) {
    TradeoffModel model;
    const std::set<int> onTrail(input.trail.begin(), input.trail.end());
    std::vector<TradeoffPoint> xy;
    for (const TradeoffRun& run : input.runs) {
        if (!run.shown) {
            ++model.hidden;
            continue;
        }
        if (onTrail.count(run.id) || input.cleared.count(run.id)) continue;
        const auto at = coordinates(run.result->test, input.notion);
        if (!at) continue;
        model.points.push_back({run.id, at->first, at->second, run.result, false});
        xy.push_back({at->first, at->second});
    }
    for (const std::size_t i : paretoFront(xy)) {
        TradeoffDot& dot = model.points[i];
        dot.onFront = true;
        if (!model.front.empty())
            model.frontSteps.emplace_back(dot.x, model.frontSteps.back().second);
        model.frontSteps.emplace_back(dot.x, dot.y);
        model.front.push_back(dot.id);
    }
    for (const TradeoffDot& dot : model.points) {
        if (dot.result->curve.empty()) continue;
        TradeoffLine line;
        for (const CurvePoint& point : dot.result->curve)
            if (const auto at = coordinates(point.test, input.notion)) line.push_back(*at);
        model.curves.emplace_back(dot.id, std::move(line));
    }
    for (const int id : input.trail) {
        const auto run = std::find_if(input.runs.begin(), input.runs.end(),
                                      [id](const TradeoffRun& r) { return r.id == id; });
        if (run == input.runs.end() || !run->shown) continue;
        const auto at = coordinates(run->result->test, input.notion);
        if (!at) continue;
        model.trail.push_back({id, at->first, at->second, run->result, false});
    }
    model.hasLive = input.live.has_value();

    // The axes: room around everything drawn.
    double xMax = 0.05, yMin = 1.0, yMax = 0.0;
    const auto cover = [&](double x, double y) {
        xMax = std::max(xMax, x);
        yMin = std::min(yMin, y);
        yMax = std::max(yMax, y);
    };
    for (const TradeoffDot& dot : model.points) cover(dot.x, dot.y);
    for (const TradeoffDot& dot : model.trail) cover(dot.x, dot.y);
    for (const auto& [id, line] : model.curves)
        for (const auto& [x, y] : line) cover(x, y);
    if (input.live) cover(input.live->first, input.live->second);
    if (model.points.empty() && model.trail.empty() && !input.live) {
        yMin = 0.0;
        yMax = 0.5;
    }
    const double yPad = std::max(0.005, (yMax - yMin) * 0.12);
    model.xMax = xMax * 1.08;
    model.yMin = std::max(0.0, yMin - yPad);
    model.yMax = std::min(1.0, yMax + yPad);
    return model;
}

bool trainsForNotion(const std::string& algorithm) {
    for (const auto& registered : algorithmRegistry()) {
        if (registered->name() == algorithm)
            return registered->usesFairness() ||
                   registered->capabilities().curveSetting != "lambda";
    }
    return true;
}

}  // namespace pfa
