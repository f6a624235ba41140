#include "ui/charts/tradeoff_points.h"

#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>
#include <iterator>
#include <set>
#include <tuple>

#include "core/algorithms/registry.h"
#include "core/config/parameters.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/tradeoff_protection.h"
#include "ui/runs/run_variants.h"

namespace pfa::ui {

TradeoffPoints::TradeoffPoints(QChart* chart, QValueAxis* x, QValueAxis* y, QObject* parent)
    : QObject(parent), m_chart(chart), m_x(x), m_y(y) {
    // Added before any run's series: the points are drawn over these lines.
    auto attach = [this](QXYSeries* series) {
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(m_y);
    };
    m_frontLine = new QLineSeries();
    m_frontLine->setName(tr("Pareto front"));
    m_frontLine->setPen(chart_style::paretoFrontPen());
    attach(m_frontLine);

    m_selection = new QScatterSeries();
    m_selection->setName(tr("selected"));
    m_selection->setMarkerSize(22);
    m_selection->setColor(Qt::transparent);
    m_selection->setBorderColor(QColor(220, 30, 30));
    m_selection->setPen(QPen(QColor(220, 30, 30), 2.5));
    attach(m_selection);
}

void TradeoffPoints::clear() {
    for (QScatterSeries* series : m_pointSeries) {
        m_seriesRuns.erase(series);
        m_chart->removeSeries(series);
        delete series;
    }
    m_pointSeries.clear();
    for (QLineSeries* line : m_curveLines) {
        m_chart->removeSeries(line);
        delete line;
    }
    m_curveLines.clear();
    for (QLineSeries* line : m_trailLines) {
        m_chart->removeSeries(line);
        delete line;
    }
    m_trailLines.clear();
    m_points.clear();
}

QScatterSeries::MarkerShape TradeoffPoints::shapeOfLabel(const std::string& label) const {
    const auto found = m_labelShapes.find(label);
    return found != m_labelShapes.end()
               ? found->second
               : chart_style::markerForAlgorithm(QString::fromStdString(label));
}

std::string TradeoffPoints::labelOf(const pfa::TrainConfig& config) const {
    return m_variants ? m_variants->label(config) : config.algorithm;
}

void TradeoffPoints::addPointSeries(QScatterSeries* series) {
    m_chart->addSeries(series);
    series->attachAxis(m_x);
    series->attachAxis(m_y);
    m_pointSeries.push_back(series);
    m_seriesRuns[series] = {};
    connect(series, &QScatterSeries::hovered, this, [this, series](const QPointF& p, bool state) {
        emit pointHovered(state ? runAt(series, p) : 0, state);
    });
    connect(series, &QScatterSeries::clicked, this, [this, series](const QPointF& p) {
        if (const int id = runAt(series, p)) emit pointClicked(id);
    });
}

void TradeoffPoints::draw(const pfa::TradeoffModel& model,
                          const std::map<int, const RunEntry*>& runOf,
                          const TradeoffProtections& protections,
                          const std::vector<const pfa::TrainConfig*>& named,
                          const RunVariants& names) {
    std::vector<const RunEntry*> pointRuns;
    for (const pfa::TradeoffDot& dot : model.points) {
        const RunEntry* run = runOf.at(dot.id);
        m_points.push_back({dot.id, dot.x, dot.y, run->summary(), false, QColor()});
        pointRuns.push_back(run);
    }
    // Runs of one algorithm that differ in its own settings (isrl-dp-sgd's trust models,
    // ppsgd's personalisation) are told apart: by name in the legend and by marker shape,
    // the algorithm's own shape first. The curve setting (γ, a dual step) is not a variant.
    const std::vector<const pfa::TrainConfig*>& configs = named;
    m_variants = names;
    const RunVariants& runVariants = *m_variants;
    std::map<std::string, std::set<std::string>> variants;  // algorithm → its variants shown
    for (const pfa::TrainConfig* config : configs)
        variants[config->algorithm].insert(runVariants.of(*config));
    static const QScatterSeries::MarkerShape kShapes[] = {
        QScatterSeries::MarkerShapeCircle,   QScatterSeries::MarkerShapeRectangle,
        QScatterSeries::MarkerShapeTriangle, QScatterSeries::MarkerShapeRotatedRectangle,
        QScatterSeries::MarkerShapeStar,     QScatterSeries::MarkerShapePentagon};
    // Each variant's marker: the algorithm's own for the first, then the next shapes that no
    // other algorithm shown uses (so isrl-dp-sgd's "local" never looks like dp-fermi).
    std::set<QScatterSeries::MarkerShape> ownShapes;
    for (const auto& [algorithm, shown] : variants)
        ownShapes.insert(chart_style::markerForAlgorithm(QString::fromStdString(algorithm)));
    std::map<std::pair<std::string, std::string>, QScatterSeries::MarkerShape> shapeOf;
    for (const auto& [algorithm, shown] : variants) {
        const QScatterSeries::MarkerShape own =
            chart_style::markerForAlgorithm(QString::fromStdString(algorithm));
        auto next = static_cast<std::size_t>(
            std::find(std::begin(kShapes), std::end(kShapes), own) - std::begin(kShapes));
        std::set<QScatterSeries::MarkerShape> used{own};
        bool first = true;
        for (const std::string& variant : shown) {
            if (first) {
                shapeOf[{algorithm, variant}] = own;
                first = false;
                continue;
            }
            QScatterSeries::MarkerShape shape = own;
            for (std::size_t step = 1; step <= std::size(kShapes); ++step) {
                const QScatterSeries::MarkerShape candidate =
                    kShapes[(next + step) % std::size(kShapes)];
                if (!used.count(candidate) && !ownShapes.count(candidate)) {
                    shape = candidate;
                    next = (next + step) % std::size(kShapes);
                    break;
                }
            }
            used.insert(shape);
            shapeOf[{algorithm, variant}] = shape;
        }
    }
    m_labelShapes.clear();
    for (const pfa::TrainConfig* config : configs)
        m_labelShapes[runVariants.label(*config)] =
            shapeOf[{config->algorithm, runVariants.of(*config)}];
    for (std::size_t i = 0; i < pointRuns.size(); ++i) {
        const pfa::TrainConfig& c = pointRuns[i]->result.config;
        m_points[i].shape = shapeOf[{c.algorithm, runVariants.of(c)}];
        m_points[i].label = QString::fromStdString(runVariants.label(c));
    }

    // One scatter series per (algorithm, ε, on front?) so each point gets its colour/marker.
    struct Key {
        QString algorithm;  ///< with its variant (Point::label)
        double epsilon;
        bool front;
        int protection;  ///< its kind when the chart mixes protections, else 0
        bool operator<(const Key& o) const {
            return std::tie(algorithm, epsilon, front, protection) <
                   std::tie(o.algorithm, o.epsilon, o.front, o.protection);
        }
    };
    std::map<Key, QScatterSeries*> seriesFor;
    for (std::size_t i = 0; i < pointRuns.size(); ++i) {
        const pfa::TrainConfig& c = pointRuns[i]->result.config;
        const bool onFront = model.points[i].onFront;
        QColor color = m_palette.color(c.epsilon);
        if (!onFront) color.setAlphaF(0.35f);  // dominated: faded
        m_points[i].color = color;
        const int kind = protections.mixed() ? std::max(0, protections.kindOf(*pointRuns[i])) : 0;
        QScatterSeries*& series = seriesFor[Key{m_points[i].label, c.epsilon, onFront, kind}];
        if (!series) {
            series = new QScatterSeries();
            series->setColor(color);
            series->setBorderColor(onFront ? QColor(30, 30, 30) : QColor(0, 0, 0, 60));
            series->setMarkerShape(m_points[i].shape);
            series->setMarkerSize(onFront ? 15 : 12);
            QString name = QStringLiteral("%1, %2").arg(m_points[i].label,
                                                        chart_style::epsilonLabel(c.epsilon));
            if (protections.mixed()) {
                name += QStringLiteral(" — ") + pointRuns[i]->protectionText();
                if (kind > 0) series->setPen(TradeoffProtections::outlinePen());
            }
            series->setName(name);
            addPointSeries(series);
        }
        series->append(m_points[i].x, m_points[i].y);
        m_seriesRuns[series].push_back(m_points[i].id);
    }

    // A run that traces a curve itself (post-processing solves its whole γ-curve from one
    // noisy table, for one ε) is drawn as that curve: a line in its ε's colour through every
    // point, its headline point marked as usual.
    for (const auto& [id, points] : model.curves) {
        auto* line = new QLineSeries();
        line->setPen(QPen(m_palette.color(runOf.at(id)->result.config.epsilon), 1.8));
        line->setPointsVisible(true);
        line->setMarkerSize(5);
        for (const auto& [x, y] : points) line->append(x, y);
        m_chart->addSeries(line);
        line->attachAxis(m_x);
        line->attachAxis(m_y);
        m_curveLines.push_back(line);
    }

    // The live-mode trail: the runs in the order they finished; those of one ε joined by a thin
    // line in that ε's colour (a λ move draws a line, an ε move starts another: one line across
    // budgets read as a path the model never took); small dots in their ε's colour (one series
    // per ε), the newest larger. The lines go in first, under the dots.
    std::map<double, QLineSeries*> trailLines;
    for (const pfa::TradeoffDot& dot : model.trail) {
        const double epsilon = dot.result->config.epsilon;
        QLineSeries*& line = trailLines[epsilon];
        if (!line) {
            line = new QLineSeries();
            line->setName(tr("live-mode trail"));
            line->setPen(QPen(m_palette.color(epsilon).lighter(130), 1.4));
            m_chart->addSeries(line);
            line->attachAxis(m_x);
            line->attachAxis(m_y);
            m_trailLines.push_back(line);
        }
        line->append(dot.x, dot.y);
    }
    std::map<double, QScatterSeries*> trailSeries;
    for (const pfa::TradeoffDot& dot : model.trail) {
        const double epsilon = dot.result->config.epsilon;
        const QColor color = m_palette.color(epsilon);
        m_points.push_back({dot.id, dot.x, dot.y, runOf.at(dot.id)->summary(), true, color});
        QScatterSeries*& series = trailSeries[epsilon];
        if (!series) {
            series = new QScatterSeries();
            series->setName(tr("live-mode trail"));
            series->setMarkerShape(QScatterSeries::MarkerShapeCircle);
            series->setMarkerSize(8);
            series->setColor(color);
            series->setBorderColor(QColor(40, 40, 40));
            addPointSeries(series);
        }
        series->append(dot.x, dot.y);
        m_seriesRuns[series].push_back(dot.id);
    }
    if (!model.trail.empty()) {
        // The newest: a larger dot over its small one, so the trail's head is clear.
        const Point& newest = m_points.back();
        auto* head = new QScatterSeries();
        head->setName(tr("live-mode trail, newest"));
        head->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        head->setMarkerSize(12);
        head->setColor(newest.color);
        head->setBorderColor(QColor(40, 40, 40));
        addPointSeries(head);
        head->append(newest.x, newest.y);
        m_seriesRuns[head] = {newest.id};
    }

    // Pareto front as a step line: right along the current error, then down to the next point.
    QList<QPointF> steps;
    for (const auto& [x, y] : model.frontSteps) steps.append(QPointF(x, y));
    m_frontLine->replace(steps);
}

void TradeoffPoints::select(int id) {
    QList<QPointF> points;
    for (const Point& p : m_points) {
        if (p.id == id) points.append(QPointF(p.x, p.y));
    }
    m_selection->replace(points);
}

void TradeoffPoints::hideSelection() {
    // Clearing the ring's points (not hiding the series) keeps its legend entry hidden.
    m_selection->clear();
}

QList<QPointF> TradeoffPoints::trailPath() const {
    QList<QPointF> path;
    for (const Point& p : m_points) {
        if (p.trail) path.append(QPointF(p.x, p.y));
    }
    return path;
}

int TradeoffPoints::trailCount() const {
    return static_cast<int>(
        std::count_if(m_points.begin(), m_points.end(), [](const Point& p) { return p.trail; }));
}

QColor TradeoffPoints::colorOf(int id) const {
    for (const Point& p : m_points) {
        if (p.id == id) return p.color;
    }
    return QColor();
}

int TradeoffPoints::runAt(const QScatterSeries* series, const QPointF& point) const {
    const auto it = m_seriesRuns.find(series);
    if (it == m_seriesRuns.end()) return 0;
    const QList<QPointF> points = series->points();
    int best = 0;
    double bestDistance = INFINITY;
    for (int i = 0; i < points.size() && i < static_cast<int>(it->second.size()); ++i) {
        const double d = std::hypot(points[i].x() - point.x(), points[i].y() - point.y());
        if (d < bestDistance) {
            bestDistance = d;
            best = it->second[static_cast<std::size_t>(i)];
        }
    }
    return best;
}

}  // namespace pfa::ui
