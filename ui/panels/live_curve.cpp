#include "ui/panels/live_curve.h"

#include <QObject>
#include <algorithm>
#include <cmath>
#include <map>

#include "core/algorithms/registry.h"
#include "core/config/algorithm.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/compare_palette.h"
#include "ui/charts/series_reduction.h"

namespace pfa::ui {

using live_chart::kError;
using live_chart::kFairness;
using live_chart::kLoss;
using live_chart::kPrivacy;

namespace {

double valueFor(int chart, const pfa::EpochMetrics& m, bool excessRisk) {
    switch (chart) {
        case kLoss:
            return m.trainLoss;
        case kError:
            return excessRisk ? m.excessRisk : m.testError;
        case kFairness:
            return m.violation;
        default:
            return m.epsilonSpent;
    }
}

// "DP-FERMI", "ERM": algorithm names as written in the papers.
QString algorithmLabel(const std::string& name) { return QString::fromStdString(name).toUpper(); }

}  // namespace

LiveCurve LiveCurve::forRun(int runId, const pfa::TrainConfig& config) {
    LiveCurve curve;
    curve.runId = runId;
    curve.config = config;
    curve.isPrivate = config.isPrivate();
    curve.epochs = std::max(1, config.epochs);
    // Round- and step-based algorithms count their own unit, up to their own setting (an
    // algorithm this version does not know, from an older session: epochs).
    if (const pfa::Algorithm* algorithm = pfa::findAlgorithmOrNull(config.algorithm)) {
        curve.algorithm = algorithm;
        curve.unit = QString::fromStdString(algorithm->capabilities().progressUnit);
        curve.regression = algorithm->capabilities().task == pfa::Task::Regression;
        curve.epochs = static_cast<int>(std::max(1L, pfa::plannedProgress(*algorithm, config)));
    }
    return curve;
}

double LiveCurve::progressOf(const pfa::EpochMetrics& m) const {
    return algorithm ? static_cast<double>(pfa::progressAt(*algorithm, m))
                     : static_cast<double>(m.epoch);
}

bool LiveCurve::reportsExcessRisk() const {
    return std::any_of(metrics.begin(), metrics.end(),
                       [](const pfa::EpochMetrics& m) { return std::isfinite(m.excessRisk); });
}

QColor LiveCurve::color(std::size_t shownCount) const {
    if (shownCount <= 1) return chart_style::colorForEpsilon(config.epsilon);
    return compare_palette::color(compareSlot);
}

const LiveCurve::Drawn& LiveCurve::pointsFor(int chart, int window, double plotWidth,
                                             double xSpan) {
    Drawn& drawn = this->drawn[chart];
    const int buckets = static_cast<int>(std::lround(plotWidth));
    if (drawn.epochs == metrics.size() && drawn.window == window && drawn.buckets == buckets &&
        drawn.xSpan == xSpan)
        return drawn;
    auto reduce = [&](const QList<QPointF>& points) {
        if (points.size() < 2) return points;
        const double dataSpan = points.back().x() - points.front().x();
        return series_reduction::decimateMinMax(
            points, std::max(1, static_cast<int>(std::ceil(plotWidth * dataSpan / xSpan))));
    };
    QList<QPointF> points, extraPoints;
    points.reserve(static_cast<qsizetype>(metrics.size()));
    const bool excess = chart == kError && reportsExcessRisk();
    for (const pfa::EpochMetrics& m : metrics) {
        const double v = valueFor(chart, m, excess);
        const double x = progressOf(m);
        if (std::isfinite(v)) points.append(QPointF(x, v));  // never draw NaN/Inf
        if (chart == kFairness && std::isfinite(m.ermiHard))
            extraPoints.append(QPointF(x, m.ermiHard));
        if (chart == kError && std::isfinite(m.removedFraction)) {
            extraPoints.append(QPointF(x, m.removedFraction));
        }
    }
    // The axis covers the raw values (drawn faintly when smoothing is on).
    drawn.yMax = 0.0;
    for (const QPointF& p : points) drawn.yMax = std::max(drawn.yMax, p.y());
    for (const QPointF& p : extraPoints) drawn.yMax = std::max(drawn.yMax, p.y());
    if (chart == kPrivacy && isPrivate && std::isfinite(config.epsilon)) {
        const double last = std::max(static_cast<double>(epochs),
                                     metrics.empty() ? 0.0 : progressOf(metrics.back()));
        extraPoints = {QPointF(1, config.epsilon), QPointF(last, config.epsilon)};
        drawn.yMax = std::max(drawn.yMax, config.epsilon);
    }
    drawn.finitePoints = static_cast<int>(points.size());
    drawn.anyDashed = !extraPoints.isEmpty();
    if (window > 1) {
        drawn.raw = reduce(points);
        drawn.line = reduce(series_reduction::movingAverage(points, window));
        drawn.extra = reduce(series_reduction::movingAverage(extraPoints, window));
    } else {
        drawn.raw.clear();
        drawn.line = reduce(points);
        drawn.extra = reduce(extraPoints);
    }
    drawn.epochs = metrics.size();
    drawn.window = window;
    drawn.buckets = buckets;
    drawn.xSpan = xSpan;
    // Unique over every curve and chart: a series never takes another's points for its own.
    static quint64 lastId = 0;
    drawn.id = ++lastId;
    return drawn;
}

void nameLiveCurves(const std::vector<LiveCurve*>& shown) {
    std::map<QString, std::vector<LiveCurve*>> byName;
    for (LiveCurve* curve : shown) {
        curve->name = QStringLiteral("%1 %2, %3")
                          .arg(algorithmLabel(curve->config.algorithm),
                               chart_style::epsilonLabel(curve->config.epsilon),
                               chart_style::curvePointText(curve->config));
        byName[curve->name].push_back(curve);
    }
    for (auto& [name, group] : byName) {
        if (group.size() < 2) continue;
        std::map<std::uint64_t, int> seeds;
        for (const LiveCurve* curve : group) ++seeds[curve->config.seed];
        const bool bySeed = seeds.size() == group.size();
        for (LiveCurve* curve : group) {
            curve->name += bySeed ? QObject::tr(", seed %1").arg(curve->config.seed)
                                  : QObject::tr(" (run %1)").arg(curve->runId);
        }
    }
}

}  // namespace pfa::ui
