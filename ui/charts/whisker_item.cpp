#include "ui/charts/whisker_item.h"

#include <QPainter>
#include <QtCharts/QChart>
#include <cmath>

#include "ui/charts/series_legend.h"

namespace pfa::ui {

WhiskerItem::WhiskerItem(QChart* chart, QAbstractSeries* series)
    : QGraphicsItem(chart), m_chart(chart), m_series(series) {
    setZValue(4);  // above the grid, below the markers' labels
    m_plotAreaConnection =
        QObject::connect(chart, &QChart::plotAreaChanged, chart, [this] { update(); });
}

WhiskerItem::~WhiskerItem() { QObject::disconnect(m_plotAreaConnection); }

void WhiskerItem::setWhiskers(std::vector<Whisker> whiskers) {
    prepareGeometryChange();
    m_whiskers = std::move(whiskers);
    update();
}

QRectF WhiskerItem::boundingRect() const {
    // The chart's coordinate system (the item is a child of the chart).
    return m_chart->rect();
}

void WhiskerItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    const QRectF plot = m_chart->plotArea();
    painter->save();
    painter->setClipRect(plot);
    painter->setRenderHint(QPainter::Antialiasing);
    constexpr double cap = 4.0;
    for (const Whisker& w : m_whiskers) {
        if (!std::isfinite(w.x) || !std::isfinite(w.y)) continue;
        if (w.owner && !SeriesLegend::isShown(w.owner)) continue;
        QPen pen(w.color, 1.4);
        painter->setPen(pen);
        if (w.dx > 0 && std::isfinite(w.dx)) {
            const QPointF left = m_chart->mapToPosition(QPointF(w.x - w.dx, w.y), m_series);
            const QPointF right = m_chart->mapToPosition(QPointF(w.x + w.dx, w.y), m_series);
            painter->drawLine(left, right);
            painter->drawLine(left + QPointF(0, -cap), left + QPointF(0, cap));
            painter->drawLine(right + QPointF(0, -cap), right + QPointF(0, cap));
        }
        if (w.dy > 0 && std::isfinite(w.dy)) {
            const QPointF low = m_chart->mapToPosition(QPointF(w.x, w.y - w.dy), m_series);
            const QPointF high = m_chart->mapToPosition(QPointF(w.x, w.y + w.dy), m_series);
            painter->drawLine(low, high);
            painter->drawLine(low + QPointF(-cap, 0), low + QPointF(cap, 0));
            painter->drawLine(high + QPointF(-cap, 0), high + QPointF(cap, 0));
        }
    }
    painter->restore();
}

}  // namespace pfa::ui
