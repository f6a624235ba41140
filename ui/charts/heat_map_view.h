#pragma once

#include <QWidget>
#include <vector>

#include "core/sweep/sweep_summary.h"
#include "ui/charts/chart_export.h"

namespace pfa::ui {

/// Sweep view (c): a heat map over (ε, λ) of the mean test error or violation over seeds, for
/// one group of cells equal in every other setting (one algorithm; see pfa::groupCells). Rows
/// are ε (∞ last), columns λ; each cell shows its value; a titled colour scale (viridis, min
/// to max) explains the colours. The same paint routine draws the
/// screen and every export.
class HeatMapView : public QWidget, public ExportableView {
    Q_OBJECT
public:
    enum class Metric { TestError, Violation };

    explicit HeatMapView(QWidget* parent = nullptr);

    /// Shows `cells` (one per (ε, λ): the caller picks a group) under `title` (the algorithm
    /// and what sets its group apart).
    void setCells(const std::vector<pfa::SweepCell>& cells, const QString& title, Metric metric,
                  const QString& notion);
    /// The title of the colour bar: the metric and its unit.
    QString colorBarTitle() const;
    /// Number of filled cells (tests).
    int filledCells() const;

    /// The on-screen size, or 900 × 600 when the view was never shown (an inactive tab).
    QSize exportSize() const override;
    void paintExport(QPainter* painter, const QRectF& target,
                     const ExportHeading& heading) override;
    QString exportTitle() const override;
    QSize sizeHint() const override { return {560, 380}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    /// Draws the map into `area` under `heading` (on screen: the title, no caption).
    void paintMap(QPainter* painter, const QRectF& area, const ExportHeading& heading) const;

    /// Rows: (ε of the settings, published calibration?) — a published row's ε is nominal.
    std::vector<std::pair<double, bool>> m_epsilons;
    std::vector<double> m_lambdas;
    std::vector<std::vector<double>> m_values;  // [ε][λ], NaN = no run
    /// Certified ε per cell where the nominal ε is not certified (published calibration), else NaN.
    std::vector<std::vector<double>> m_certified;
    QString m_title;  ///< the algorithm and what sets its group apart
    QString m_notion;
    Metric m_metric = Metric::TestError;
};

}  // namespace pfa::ui
