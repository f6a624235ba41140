#pragma once

#include <QColor>
#include <QList>
#include <QObject>
#include <QPointF>
#include <QString>
#include <QtCharts/QScatterSeries>
#include <map>
#include <optional>
#include <vector>

#include "core/sweep/tradeoff_model.h"
#include "ui/runs/run_entry.h"
#include "ui/runs/run_variants.h"
#include "ui/support/palette.h"

class QChart;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace pfa::ui {

class TradeoffProtections;

/// The runs drawn on the tradeoff chart, as series on its axes: one scatter series per
/// algorithm, ε, front membership (and protection, when protections are mixed) so that each
/// point gets its colour and marker; a line for each run that traces a curve itself; the
/// live-mode trail, its dots of one ε joined by a thin line (λ moves; an ε move starts another
/// line), the newest larger; the Pareto front's
/// dashed step line and the selection ring. It knows which run each drawn point is, and
/// reports the run under the pointer (hover) and the one clicked.
class TradeoffPoints : public QObject {
    Q_OBJECT
public:
    /// A run drawn, in the chart's values.
    struct Point {
        int id;
        double x, y;
        QString tooltip;
        bool trail;
        QColor color;
        /// What the legend calls its marker: the algorithm, and the own settings that tell
        /// its runs on the chart apart ("isrl-dp-sgd (trust = local)").
        QString label = QString();
        QScatterSeries::MarkerShape shape = QScatterSeries::MarkerShapeCircle;
    };

    /// Adds the front line, the trail line and the selection ring to `chart`.
    TradeoffPoints(QChart* chart, QValueAxis* x, QValueAxis* y, QObject* parent = nullptr);

    /// Removes every series draw() added.
    void clear();
    /// Draws `model`'s points, curves, trail and front; `runOf` holds the entry of every run id
    /// in it, `protections` those of the runs drawn. `named`: the settings of every run the
    /// legend names, drawn or hidden by a legend click, and `names` their RunVariants, so that
    /// names and markers do not change when a series is hidden.
    void draw(const pfa::TradeoffModel& model, const std::map<int, const RunEntry*>& runOf,
              const TradeoffProtections& protections,
              const std::vector<const pfa::TrainConfig*>& named, const RunVariants& names);
    /// The marker of a legend name (an algorithm with its variant) of the last draw();
    /// the algorithm's own marker for a name it did not see.
    QScatterSeries::MarkerShape shapeOfLabel(const std::string& label) const;
    /// The colours of the budgets drawn (set before draw()).
    void setPalette(chart_style::EpsilonPalette palette) { m_palette = std::move(palette); }
    const chart_style::EpsilonPalette& palette() const { return m_palette; }
    /// Rings run `id`'s point (0 or not drawn: none).
    void select(int id);
    /// Hides the ring until the next select() (exports have no selection).
    void hideSelection();
    /// A series on the chart's axes at all times, to map values to positions.
    QLineSeries* frontLine() const { return m_frontLine; }

    /// The runs drawn: the points, then the trail in the order it finished.
    const std::vector<Point>& points() const { return m_points; }
    /// The legend name of a run's settings in the last draw() (its `names`).
    std::string labelOf(const pfa::TrainConfig& config) const;
    /// The trail's points, oldest first.
    QList<QPointF> trailPath() const;
    int trailCount() const;
    /// The trail's lines: one per ε among its runs (each joins that budget's runs in order).
    int trailLineCount() const { return static_cast<int>(m_trailLines.size()); }
    /// Runs drawn with their own curve.
    int curveCount() const { return static_cast<int>(m_curveLines.size()); }
    /// Fill colour of run `id`'s point (invalid if not drawn).
    QColor colorOf(int id) const;

signals:
    /// The pointer entered (`entered`) or left a point of run `id` (0: none found).
    void pointHovered(int id, bool entered);
    void pointClicked(int id);

private:
    /// Puts a series of run points on the axes and reports its hover and click.
    void addPointSeries(QScatterSeries* series);
    /// The run of the point of `series` nearest to `point` (0: none).
    int runAt(const QScatterSeries* series, const QPointF& point) const;

    QChart* m_chart;
    QValueAxis* m_x;
    QValueAxis* m_y;
    QLineSeries* m_frontLine;
    /// The trail's thin lines, one per ε: a λ move at one budget is a line, an ε move is not.
    std::vector<QLineSeries*> m_trailLines;
    QScatterSeries* m_selection;
    chart_style::EpsilonPalette m_palette;
    std::vector<Point> m_points;
    std::map<const QScatterSeries*, std::vector<int>> m_seriesRuns;  // point index → run id
    std::vector<QScatterSeries*> m_pointSeries;
    std::vector<QLineSeries*> m_curveLines;
    std::map<std::string, QScatterSeries::MarkerShape> m_labelShapes;
    std::optional<RunVariants> m_variants;
};

}  // namespace pfa::ui
