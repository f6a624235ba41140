#pragma once

// What the accuracy–fairness tradeoff view draws, computed without Qt: which runs are points,
// which of them are on the Pareto front and its step line, the live-mode trail, the curves of
// runs that trace one themselves, and the range the axes must cover. The view (ui/charts/
// tradeoff_chart) turns it into series, colours and markers.
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/config/run_result.h"
#include "core/fairness/fairness_notion.h"

namespace pfa {

/// A finished run the view knows of.
struct TradeoffRun {
    int id = 0;
    const RunResult* result = nullptr;  ///< must outlive buildTradeoff's call
    bool shown = true;                  ///< belongs to the data set and notion on show
};

/// What the view shows.
struct TradeoffInput {
    std::vector<TradeoffRun> runs;  ///< in history order
    std::vector<int> trail;         ///< live-mode runs, in the order they finished
    std::set<int> cleared;          ///< runs of cleared trails: no longer drawn
    FairnessNotion notion = FairnessNotion::DemographicParity;  ///< the violation on the x axis
    /// The live run's latest (violation, error), when its run belongs to what is shown.
    std::optional<std::pair<double, double>> live;
};

/// One drawn run: x = its test violation of the notion on show, y = its test error.
struct TradeoffDot {
    int id = 0;
    double x = 0.0;
    double y = 0.0;
    const RunResult* result = nullptr;
    bool onFront = false;  ///< a point not dominated by another point (never a trail run)
};

/// A polyline in (violation, error).
using TradeoffLine = std::vector<std::pair<double, double>>;

struct TradeoffModel {
    /// The shown runs that are neither on the trail nor cleared, with finite coordinates, in
    /// history order.
    std::vector<TradeoffDot> points;
    /// The trail's shown runs with finite coordinates, in the order they finished (the last is
    /// the newest).
    std::vector<TradeoffDot> trail;
    /// Ids of the points on the Pareto front, by increasing violation.
    std::vector<int> front;
    /// The front as a step line: right along the current error, then down to the next point.
    TradeoffLine frontSteps;
    /// One line per point whose run traced a curve itself (RunResult::curve), its finite
    /// points in order, with that run's id.
    std::vector<std::pair<int, TradeoffLine>> curves;
    int hidden = 0;  ///< finished runs of other data sets or notions
    /// The range the axes must show: violations from 0 to xMax, errors from yMin to yMax,
    /// with room around what is drawn (8 % beyond the largest violation, at least 0.05; 12 % of
    /// the error range but at least 0.005 on each side, within [0, 1]); errors 0 … 0.5 with
    /// that room when nothing is drawn.
    double xMax = 0.05;
    double yMin = 0.0;
    double yMax = 0.5;
    /// Whether anything is drawn (a point, a trail run or the live point).
    bool empty() const { return points.empty() && trail.empty() && !hasLive; }
    bool hasLive = false;
};

/// The tradeoff of `input` (see TradeoffModel).
TradeoffModel buildTradeoff(const TradeoffInput& input);

/// Whether a run of `algorithm` is trained for its fairness notion: by the λ-weighted penalty,
/// or by a method of its own (a curve setting other than λ). Runs of the other algorithms are
/// baselines shown under every notion; an unknown algorithm (an older record) only under the
/// notion it was run for.
bool trainsForNotion(const std::string& algorithm);

}  // namespace pfa
