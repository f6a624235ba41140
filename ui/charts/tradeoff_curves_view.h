#pragma once

#include <QColor>
#include <QList>
#include <QWidget>
#include <vector>

#include "core/sweep/reference_points.h"
#include "core/sweep/sweep_summary.h"

class QChart;
class QValueAxis;
class QLineSeries;

namespace pfa::ui {

class ChartView;
class PointLabelItem;
class SeriesLegend;
class WhiskerItem;

/// Sweep view (a): test error against fairness violation, one curve over λ per group of cells
/// equal in every other setting (algorithm, ε, epochs, …; see pfa::groupCells), each point
/// labelled with its λ; curves that share algorithm and ε are named by the settings that differ.
/// Colours are a function of ε alone (chart_style::colorForEpsilon).
/// Runs of the published calibration are labelled and coloured by the ε the accountant
/// certifies (its range over the curve), not by their nominal ε, which shows in the tooltip.
/// Each point is the mean over seeds with ± one standard deviation whiskers on both axes; the
/// Pareto front of the means is a dashed step line. Reference points loaded from a CSV are
/// drawn as hollow markers with their method in the legend.
class TradeoffCurvesView : public QWidget {
    Q_OBJECT
public:
    explicit TradeoffCurvesView(QWidget* parent = nullptr);

    void setCells(const std::vector<pfa::SweepCell>& cells, const QString& notion);
    void setReferencePoints(const std::vector<pfa::ReferencePoint>& points);

    int pointCount() const { return m_points; }
    std::size_t whiskerCount() const;
    int referenceCount() const { return m_references; }
    /// Methods of the reference points shown, in legend order.
    QStringList referenceMethods() const { return m_referenceMethods; }
    /// The legend names of the curves, in order (tests).
    QStringList curveNames() const { return m_curveNames; }
    /// The line style of each curve, in the order of curveNames() (tests).
    QList<Qt::PenStyle> curveStyles() const { return m_curveStyles; }
    /// The colours of the curves, in the order of curveNames() (tests).
    QList<QColor> curveColors() const { return m_curveColors; }
    /// The λ label of every point, curve by curve (tests).
    QStringList lambdaLabels() const;
    /// How many λ labels are drawn at the current size (the others would cover a label or a point).
    int placedLambdaLabels() const;
    /// The hover text of the point nearest to (violation, error) (tests).
    QString tooltipAt(double violation, double error) const;
    ChartView* view() const { return m_view; }

private:
    void rebuild();

    ChartView* m_view;
    QChart* m_chart;
    SeriesLegend* m_legend;
    QValueAxis* m_x;
    QValueAxis* m_y;
    QLineSeries* m_front;
    WhiskerItem* m_whiskers;
    PointLabelItem* m_labels;
    std::vector<pfa::SweepCell> m_cells;
    std::vector<pfa::ReferencePoint> m_referencePoints;
    QString m_notion;
    int m_points = 0;
    int m_references = 0;
    QStringList m_referenceMethods;
    QStringList m_curveNames;
    QList<Qt::PenStyle> m_curveStyles;
    QList<QColor> m_curveColors;
    struct PointTip {
        double x, y;
        QString text;
    };
    std::vector<PointTip> m_tips;
};

}  // namespace pfa::ui
