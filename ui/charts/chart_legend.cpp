#include "ui/charts/chart_legend.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QtMath>
#include <algorithm>
#include <cmath>

#include "ui/charts/chart_style.h"

namespace pfa::ui {

namespace {
constexpr qreal kSymbol = 14.0;   // symbol box
constexpr qreal kTextGap = 5.0;   // symbol to label
constexpr qreal kSpacing = 16.0;  // between entries of a row
constexpr qreal kRowGap = 3.0;
}  // namespace

void drawMarker(QPainter* painter, QScatterSeries::MarkerShape shape, const QPointF& c,
                qreal size) {
    const qreal r = size / 2.0;
    auto polygon = [&](int corners, qreal radius, qreal inner, qreal start) {
        QPolygonF points;
        const int n = inner > 0 ? corners * 2 : corners;
        for (int i = 0; i < n; ++i) {
            const qreal rr = (inner > 0 && i % 2) ? inner : radius;
            const qreal angle = start + i * 2 * M_PI / n;
            points << QPointF(c.x() + rr * std::cos(angle), c.y() + rr * std::sin(angle));
        }
        return points;
    };
    switch (shape) {
        case QScatterSeries::MarkerShapeRectangle:
            painter->drawRect(QRectF(c.x() - r * 0.85, c.y() - r * 0.85, 1.7 * r, 1.7 * r));
            break;
        case QScatterSeries::MarkerShapeRotatedRectangle:
            painter->drawPolygon(polygon(4, r, 0, -M_PI / 2));
            break;
        case QScatterSeries::MarkerShapeTriangle:
            painter->drawPolygon(polygon(3, r * 1.1, 0, -M_PI / 2));
            break;
        case QScatterSeries::MarkerShapeStar:
            painter->drawPolygon(polygon(5, r * 1.1, r * 0.45, -M_PI / 2));
            break;
        case QScatterSeries::MarkerShapePentagon:
            painter->drawPolygon(polygon(5, r, 0, -M_PI / 2));
            break;
        default:
            painter->drawEllipse(c, r, r);
            break;
    }
}

ChartLegend::ChartLegend(QGraphicsItem* parent)
    : QGraphicsItem(parent), m_font(chart_style::labelFont()) {
    setZValue(10);
}

void ChartLegend::setEntries(std::vector<Entry> entries) {
    m_entries = std::move(entries);
    layoutForWidth(m_width);
    update();
}

qreal ChartLegend::entryWidth(const Entry& entry) const {
    return kSymbol + kTextGap + QFontMetricsF(m_font).horizontalAdvance(entry.text) + 1.0;
}

qreal ChartLegend::layoutForWidth(qreal width) {
    prepareGeometryChange();
    m_width = width;
    m_rects.assign(m_entries.size(), QRectF());
    const qreal rowHeight = std::max(kSymbol, QFontMetricsF(m_font).height());
    // Greedy rows, then each row centred.
    std::vector<std::vector<std::size_t>> rows;
    qreal used = 0;
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        const qreal w = entryWidth(m_entries[i]);
        if (rows.empty() || used + kSpacing + w > width) {
            rows.push_back({i});
            used = w;
        } else {
            rows.back().push_back(i);
            used += kSpacing + w;
        }
    }
    qreal y = 0;
    for (const std::vector<std::size_t>& row : rows) {
        qreal total = -kSpacing;
        for (std::size_t i : row) total += kSpacing + entryWidth(m_entries[i]);
        qreal x = std::max<qreal>(0, (width - total) / 2);
        for (std::size_t i : row) {
            const qreal w = entryWidth(m_entries[i]);
            m_rects[i] = QRectF(x, y, w, rowHeight);
            x += w + kSpacing;
        }
        y += rowHeight + kRowGap;
    }
    m_height = rows.empty() ? 0 : y - kRowGap;
    update();
    return m_height;
}

QRectF ChartLegend::boundingRect() const {
    QRectF box(0, 0, m_width, m_height);
    for (const QRectF& rect : m_rects) box |= rect;
    return box.adjusted(-2, -2, 2, 2);
}

void ChartLegend::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setFont(m_font);
    for (std::size_t i = 0; i < m_entries.size() && i < m_rects.size(); ++i) {
        const Entry& entry = m_entries[i];
        const QRectF& rect = m_rects[i];
        const QPointF centre(rect.left() + kSymbol / 2, rect.center().y());
        if (entry.symbol != Entry::Symbol::Marker) {
            painter->setPen(entry.pen);
            painter->drawLine(QPointF(rect.left(), centre.y()),
                              QPointF(rect.left() + kSymbol, centre.y()));
            if (entry.symbol == Entry::Symbol::Trail) {
                painter->setBrush(entry.brush);
                painter->drawEllipse(centre, 3.0, 3.0);
            }
        } else {
            painter->setPen(entry.pen);
            painter->setBrush(entry.brush);
            drawMarker(painter, entry.shape, centre, kSymbol - 3);
        }
        painter->setPen(QColor(30, 30, 30));
        painter->drawText(QRectF(rect.left() + kSymbol + kTextGap, rect.top(),
                                 rect.width() - kSymbol - kTextGap, rect.height()),
                          Qt::AlignLeft | Qt::AlignVCenter, entry.text);
    }
    painter->restore();
}

}  // namespace pfa::ui
