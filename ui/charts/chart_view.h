#pragma once

#include <QtCharts/QChartView>
#include <functional>

#include "ui/charts/chart_export.h"

class QMenu;

namespace pfa::ui {

/// A chart view with an empty-state message, antialiasing, and a context menu to export the
/// chart (PNG at a chosen DPI, SVG, PDF) through chart_export.h.
class ChartView : public QChartView, public ExportableView {
    Q_OBJECT
public:
    explicit ChartView(QChart* chart, QWidget* parent = nullptr);

    /// Adds actions to the context menu at `position` (viewport coordinates), before Export: a
    /// chart's own actions on what is under the pointer (e.g. a point's).
    void setMenuExtender(std::function<void(QMenu* menu, const QPoint& position)> extender) {
        m_menuExtender = std::move(extender);
    }

    /// Text shown centred over the plot area while `setEmpty(true)`.
    void setEmptyMessage(const QString& message);
    void setEmpty(bool empty);
    bool isEmpty() const { return m_empty; }
    const QString& emptyMessage() const { return m_emptyMessage; }

    QSize exportSize() const override;
    void paintExport(QPainter* painter, const QRectF& target,
                     const ExportHeading& heading) override;
    QString exportTitle() const override;

    /// Lays every chart view out again at the current presentation scale
    /// (chart_style::presentationScale()).
    static void relayoutAll();
    /// The chart's size in the view's pixels divided by the chart's own size: the presentation
    /// scale once laid out (for tests).
    double drawnScale() const;
    /// Fits the ticks of every value axis to its length (chart_style::fitTicksToLength): after
    /// a resize, and after a chart sets its ranges again (setNiceRange restores the nice
    /// interval).
    void fitTicks();

public slots:
    /// Opens the export dialog (size, font, format, file) and exports the chart.
    void exportWithDialog();

protected:
    void drawForeground(QPainter* painter, const QRectF& rect) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    /// Lays the chart out at 1/scale of the view and scales the view (presentation mode), or
    /// undoes that at scale 1.
    void applyPresentationScale();
    /// True when the view has been laid out on screen at a usable size.
    bool laidOutOnScreen() const;
    /// Raises the minimum size so that the plot area is as long as every axis title: the
    /// titles are never elided ("cross-e…") while the window is at least its minimum size.
    void fitAxisTitles();

    QString m_emptyMessage;
    bool m_empty = true;
    std::function<void(QMenu*, const QPoint&)> m_menuExtender;
};

}  // namespace pfa::ui
