#pragma once

#include <QWidget>
#include <map>
#include <vector>

#include "ui/charts/chart_export.h"
#include "ui/runs/run_entry.h"

class QChart;
class QValueAxis;
class QScatterSeries;
class QLineSeries;

namespace pfa::ui {

class ChartView;

/// Error versus fairness violation, one point per finished run: colour = ε (the same colours
/// as everywhere else), marker = algorithm. The Pareto front of the visible points is drawn as
/// a step line and dominated points are faded. Hovering a point shows the run's settings;
/// clicking it selects the run.
class TradeoffChart : public QWidget, public ExportDecorations {
    Q_OBJECT
public:
    explicit TradeoffChart(QWidget* parent = nullptr);

    /// Replaces the points with the completed runs among `runs`.
    void setRuns(const std::vector<RunEntryPtr>& runs);
    /// Highlights a run (0 = none).
    void setSelectedRun(int id);
    /// Shows where the running run currently stands (its latest epoch), so the point travels
    /// while it trains and while the user drags ε or λ in live mode.
    void setLivePoint(int runId, const pfa::TrainConfig& config, double violation, double error);
    /// Removes the live point (the run ended, was stopped or superseded).
    void clearLivePoint();
    /// True while a live point is drawn (tests).
    bool hasLivePoint() const;

    /// Number of points drawn (tests).
    int pointCount() const { return static_cast<int>(m_points.size()); }
    /// Ids on the Pareto front, in order of increasing violation (tests).
    std::vector<int> frontRunIds() const { return m_front; }
    ChartView* view() const { return m_view; }
    /// Hides the selection ring while the chart is exported (a paper figure has no selection).
    void setExportMode(bool exporting) override;
    /// The data set and notion of the points for an export's caption and file name, when all
    /// points share them (else empty).
    ExportContext exportContext() const;

signals:
    void runClicked(int id);

private:
    struct Point {
        int id;
        double x, y;
        QString tooltip;
    };
    int runAt(const QScatterSeries* series, const QPointF& point) const;
    void rebuild();

    ChartView* m_view;
    QChart* m_chart;
    QValueAxis* m_x;
    QValueAxis* m_y;
    QLineSeries* m_frontLine;
    QScatterSeries* m_selection;
    QScatterSeries* m_live;
    int m_liveRunId = 0;
    std::vector<RunEntryPtr> m_runs;
    std::vector<Point> m_points;
    std::vector<int> m_front;
    std::map<const QScatterSeries*, std::vector<int>> m_seriesRuns;  // point index → run id
    int m_selectedId = 0;
};

}  // namespace pfa::ui
