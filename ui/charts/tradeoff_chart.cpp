#include "ui/charts/tradeoff_chart.h"

#include <QCursor>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <QTextDocument>
#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include "core/fairness/pareto.h"
#include "core/util/format.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/chart_view.h"

namespace pfa::ui {

TradeoffChart::TradeoffChart(QWidget* parent) : QWidget(parent) {
    m_chart = new QChart();
    m_chart->setTitle(tr("Accuracy–fairness tradeoff"));
    chart_style::apply(m_chart);
    m_x = new QValueAxis();
    m_y = new QValueAxis();
    chart_style::addAxis(m_chart, m_x, Qt::AlignBottom, tr("fairness violation (test set)"));
    chart_style::addAxis(m_chart, m_y, Qt::AlignLeft, tr("test error"));

    m_frontLine = new QLineSeries();
    m_frontLine->setName(tr("Pareto front"));
    m_frontLine->setPen(chart_style::paretoFrontPen());
    m_chart->addSeries(m_frontLine);
    m_frontLine->attachAxis(m_x);
    m_frontLine->attachAxis(m_y);

    m_selection = new QScatterSeries();
    m_selection->setName(tr("selected"));
    m_selection->setMarkerSize(22);
    m_selection->setColor(Qt::transparent);
    m_selection->setBorderColor(QColor(220, 30, 30));
    m_selection->setPen(QPen(QColor(220, 30, 30), 2.5));
    m_chart->addSeries(m_selection);
    m_selection->attachAxis(m_x);
    m_selection->attachAxis(m_y);

    m_live = new QScatterSeries();
    m_live->setName(tr("running"));
    m_live->setMarkerSize(16);
    m_live->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_chart->addSeries(m_live);
    m_live->attachAxis(m_x);
    m_live->attachAxis(m_y);

    m_view = new ChartView(m_chart, this);
    m_view->setEmptyMessage(tr("Finished runs appear here: press Run, then change λ or ε and "
                               "run again"));
    m_view->setToolTip(tr("One point per finished run: colour = ε, marker = algorithm. Dashed: "
                          "Pareto front (lower-left is better). Hover for settings, click to "
                          "select. Right-click to export."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    rebuild();
}

void TradeoffChart::setRuns(const std::vector<RunEntryPtr>& runs) {
    m_runs.clear();
    for (const RunEntryPtr& run : runs) {
        if (run->isComplete() && !run->stoppedByUser) m_runs.push_back(run);
    }
    rebuild();
}

void TradeoffChart::setSelectedRun(int id) {
    m_selectedId = id;
    QList<QPointF> points;
    for (const Point& p : m_points) {
        if (p.id == id) points.append(QPointF(p.x, p.y));
    }
    m_selection->replace(points);
}

void TradeoffChart::setLivePoint(int runId, const pfa::TrainConfig& config, double violation,
                                 double error) {
    if (!std::isfinite(violation) || !std::isfinite(error)) return;  // never draw NaN/Inf
    m_liveRunId = runId;
    const QColor color = chart_style::colorForEpsilon(config.epsilon);
    if (m_live->color() != Qt::white) m_live->setColor(Qt::white);
    const QPen ring(color, 3.0);
    if (m_live->pen() != ring) m_live->setPen(ring);
    m_live->replace(QList<QPointF>{QPointF(violation, error)});
    const QString name = tr("running: λ = %1, %2")
                             .arg(QString::fromStdString(pfa::formatNumber(config.lambda, 3)),
                                  chart_style::epsilonLabel(config.epsilon));
    if (m_live->name() != name) m_live->setName(name);
    for (QLegendMarker* marker : m_chart->legend()->markers(m_live)) {
        if (!marker->isVisible()) marker->setVisible(true);
    }
    // Keep the live point inside the axes without re-fitting on every epoch.
    if (violation > m_x->max() || error > m_y->max() || error < m_y->min()) rebuild();
    m_view->setEmpty(false);
}

void TradeoffChart::clearLivePoint() {
    m_liveRunId = 0;
    m_live->clear();
    for (QLegendMarker* marker : m_chart->legend()->markers(m_live)) marker->setVisible(false);
    m_view->setEmpty(m_points.empty());
}

void TradeoffChart::setExportMode(bool exporting) {
    // Clearing the ring's points (not hiding the series) keeps its legend entry hidden.
    if (exporting) {
        m_selection->clear();
    } else {
        setSelectedRun(m_selectedId);
    }
}

ExportContext TradeoffChart::exportContext() const {
    std::set<std::string> datasets;
    std::set<pfa::FairnessNotion> notions;
    for (const RunEntryPtr& run : m_runs) {
        datasets.insert(run->result.dataset);
        notions.insert(run->result.config.fairness);
    }
    if (datasets.size() != 1 || notions.size() != 1 || datasets.begin()->empty()) return {};
    const QString dataset = QString::fromStdString(*datasets.begin());
    return {dataset + QStringLiteral(" · ") + QString::fromStdString(pfa::fairnessName(*notions.begin())),
            dataset + QLatin1Char('-') + QString::fromStdString(pfa::fairnessCode(*notions.begin()))};
}

bool TradeoffChart::hasLivePoint() const { return m_live->count() > 0; }

int TradeoffChart::runAt(const QScatterSeries* series, const QPointF& point) const {
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

void TradeoffChart::rebuild() {
    // Drop the previous point series (the Pareto line and selection ring stay).
    for (auto& [series, ids] : m_seriesRuns) {
        m_chart->removeSeries(const_cast<QScatterSeries*>(series));
        delete series;
    }
    m_seriesRuns.clear();
    m_points.clear();

    std::set<std::string> notions;
    std::vector<pfa::TradeoffPoint> coordinates;
    for (const RunEntryPtr& run : m_runs) {
        const double x = run->violation(), y = run->result.test.error;
        if (!std::isfinite(x) || !std::isfinite(y)) continue;  // never draw NaN/Inf
        m_points.push_back({run->id, x, y, run->summary()});
        coordinates.push_back({x, y});
        notions.insert(pfa::fairnessName(run->result.config.fairness));
    }
    const std::vector<std::size_t> front = pfa::paretoFront(coordinates);
    std::vector<bool> onFront(m_points.size(), false);
    m_front.clear();
    for (std::size_t i : front) {
        onFront[i] = true;
        m_front.push_back(m_points[i].id);
    }

    // One scatter series per (algorithm, ε, on front?) so each point gets its colour/marker.
    struct Key {
        std::string algorithm;
        double epsilon;
        bool front;
        bool operator<(const Key& o) const {
            return std::tie(algorithm, epsilon, front) < std::tie(o.algorithm, o.epsilon, o.front);
        }
    };
    std::map<Key, QScatterSeries*> seriesFor;
    std::set<std::pair<std::string, double>> legendShown;
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        const RunEntryPtr& run = *std::find_if(m_runs.begin(), m_runs.end(),
                                               [&](const RunEntryPtr& r) { return r->id == m_points[i].id; });
        const pfa::TrainConfig& c = run->result.config;
        const Key key{c.algorithm, c.epsilon, onFront[i]};
        QScatterSeries*& series = seriesFor[key];
        if (!series) {
            series = new QScatterSeries();
            QColor color = chart_style::colorForEpsilon(c.epsilon);
            if (!onFront[i]) color.setAlphaF(0.35f);  // dominated: faded
            series->setColor(color);
            series->setBorderColor(onFront[i] ? QColor(30, 30, 30) : QColor(0, 0, 0, 60));
            series->setMarkerShape(chart_style::markerForAlgorithm(QString::fromStdString(c.algorithm)));
            series->setMarkerSize(onFront[i] ? 15 : 12);
            // Series names are rich text in Qt Charts; runs may come from a results file.
            series->setName(
                QStringLiteral("%1, %2").arg(QString::fromStdString(c.algorithm).toHtmlEscaped(),
                                             chart_style::epsilonLabel(c.epsilon)));
            m_chart->addSeries(series);
            series->attachAxis(m_x);
            series->attachAxis(m_y);
            connect(series, &QScatterSeries::hovered, this, [this, series](const QPointF& p, bool state) {
                if (!state) {
                    QToolTip::hideText();
                    return;
                }
                const int id = runAt(series, p);
                for (const Point& point : m_points) {
                    if (point.id == id) QToolTip::showText(QCursor::pos(), Qt::convertFromPlainText(point.tooltip, Qt::WhiteSpaceNormal), m_view);
                }
            });
            connect(series, &QScatterSeries::clicked, this, [this, series](const QPointF& p) {
                if (const int id = runAt(series, p)) emit runClicked(id);
            });
            m_seriesRuns[series] = {};
        }
        series->append(m_points[i].x, m_points[i].y);
        m_seriesRuns[series].push_back(m_points[i].id);
    }
    // Legend: one entry per (algorithm, ε), showing the opaque (front) style when there is one;
    // the faded twin is not listed again.
    for (const auto& [key, series] : seriesFor) {
        const bool hasFrontTwin = !key.front && seriesFor.count(Key{key.algorithm, key.epsilon, true});
        const bool show = !hasFrontTwin && legendShown.insert({key.algorithm, key.epsilon}).second;
        for (QLegendMarker* marker : m_chart->legend()->markers(series)) marker->setVisible(show);
    }
    for (QLegendMarker* marker : m_chart->legend()->markers(m_selection)) marker->setVisible(false);

    // Pareto front as a step line: right along the current error, then down to the next point.
    QList<QPointF> steps;
    for (std::size_t k = 0; k < front.size(); ++k) {
        const Point& p = m_points[front[k]];
        if (k > 0) steps.append(QPointF(p.x, m_points[front[k - 1]].y));
        steps.append(QPointF(p.x, p.y));
    }
    m_frontLine->replace(steps);
    for (QLegendMarker* marker : m_chart->legend()->markers(m_frontLine)) marker->setVisible(front.size() > 1);

    // Explicit axes with some room around the points.
    double xMax = 0.05, yMin = 1.0, yMax = 0.0;
    for (const Point& p : m_points) {
        xMax = std::max(xMax, p.x);
        yMin = std::min(yMin, p.y);
        yMax = std::max(yMax, p.y);
    }
    for (const QPointF& p : m_live->points()) {
        xMax = std::max(xMax, p.x());
        yMin = std::min(yMin, p.y());
        yMax = std::max(yMax, p.y());
    }
    if (m_points.empty() && m_live->count() == 0) {
        yMin = 0.0;
        yMax = 0.5;
    }
    const double yPad = std::max(0.005, (yMax - yMin) * 0.12);
    chart_style::setNiceRange(m_x, 0.0, xMax * 1.08, 5);
    chart_style::setNiceRange(m_y, std::max(0.0, yMin - yPad), std::min(1.0, yMax + yPad), 5);
    if (notions.size() == 1) {
        m_x->setTitleText(tr("%1 violation (test set)").arg(QString::fromStdString(*notions.begin())));
    } else {
        m_x->setTitleText(notions.empty() ? tr("fairness violation (test set)")
                                          : tr("fairness violation of each run's notion (test set)"));
    }
    for (QLegendMarker* marker : m_chart->legend()->markers(m_live)) marker->setVisible(m_live->count() > 0);
    m_view->setEmpty(m_points.empty() && m_live->count() == 0);
    setSelectedRun(m_selectedId);
}

}  // namespace pfa::ui
