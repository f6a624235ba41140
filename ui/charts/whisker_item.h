#pragma once

#include <QColor>
#include <QGraphicsItem>
#include <vector>

class QChart;
class QAbstractSeries;

namespace pfa::ui {

/// Error bars drawn over a QChart (Qt Charts has none): for each point, ± one standard
/// deviation horizontally and/or vertically, with small caps. The item lives in the chart's
/// scene, so it is part of every export, and it follows the plot area when the chart is
/// resized or its axes change.
class WhiskerItem : public QGraphicsItem {
public:
    struct Whisker {
        double x = 0.0, y = 0.0;    ///< the mean, in data coordinates
        double dx = 0.0, dy = 0.0;  ///< half-lengths (sd) along each axis; 0 = none
        QColor color;
        /// The series the point belongs to: its whiskers are drawn only while that series is
        /// shown (SeriesLegend::isShown); null: always drawn.
        const QAbstractSeries* owner = nullptr;
    };

    /// `series` supplies the axes used to map data to scene coordinates.
    WhiskerItem(QChart* chart, QAbstractSeries* series);
    ~WhiskerItem() override;

    void setWhiskers(std::vector<Whisker> whiskers);
    std::size_t count() const { return m_whiskers.size(); }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QChart* m_chart;
    QAbstractSeries* m_series;
    std::vector<Whisker> m_whiskers;
    QMetaObject::Connection m_plotAreaConnection;
};

}  // namespace pfa::ui
