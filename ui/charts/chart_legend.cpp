#include "ui/charts/chart_legend.h"

#include <QFontMetricsF>
#include <QGraphicsSceneMouseEvent>
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
    const QFontMetricsF metrics(m_font);
    const qreal lineHeight = std::max(kSymbol, metrics.height());
    // An entry wider than the legend (a long name in a one-column figure) is as wide as the
    // legend and its label wraps: every word stays readable.
    const auto sizeOf = [&](const Entry& entry) {
        const qreal w = entryWidth(entry);
        if (w <= width || width <= kSymbol + kTextGap + 20) return QSizeF(w, lineHeight);
        const qreal textWidth = width - kSymbol - kTextGap - 1.0;
        const QRectF text = metrics.boundingRect(QRectF(0, 0, textWidth, 1e6),
                                                 Qt::AlignLeft | Qt::TextWordWrap, entry.text);
        return QSizeF(width, std::max(lineHeight, text.height()));
    };
    // Greedy rows, then each row centred.
    std::vector<std::vector<std::size_t>> rows;
    qreal used = 0;
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        const qreal w = sizeOf(m_entries[i]).width();
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
        qreal total = -kSpacing, rowHeight = lineHeight;
        for (std::size_t i : row) {
            const QSizeF size = sizeOf(m_entries[i]);
            total += kSpacing + size.width();
            rowHeight = std::max(rowHeight, size.height());
        }
        qreal x = std::max<qreal>(0, (width - total) / 2);
        for (std::size_t i : row) {
            const QSizeF size = sizeOf(m_entries[i]);
            m_rects[i] = QRectF(x, y, size.width(), size.height());
            x += size.width() + kSpacing;
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

void ChartLegend::setClickHandler(std::function<void(std::size_t)> onClick) {
    m_onClick = std::move(onClick);
    setAcceptedMouseButtons(m_onClick ? Qt::LeftButton : Qt::NoButton);
    if (m_onClick) {
        setCursor(Qt::PointingHandCursor);
    } else {
        unsetCursor();
    }
}

int ChartLegend::entryAt(const QPointF& position) const {
    for (std::size_t i = 0; i < m_rects.size(); ++i) {
        if (m_rects[i].contains(position)) return static_cast<int>(i);
    }
    return -1;
}

void ChartLegend::mousePressEvent(QGraphicsSceneMouseEvent* event) {
    // Accepted on an entry, so that the release comes here too.
    if (m_onClick && entryAt(event->pos()) >= 0) {
        event->accept();
    } else {
        event->ignore();
    }
}

void ChartLegend::mouseReleaseEvent(QGraphicsSceneMouseEvent* event) {
    const int entry = entryAt(event->pos());
    if (m_onClick && entry >= 0) m_onClick(static_cast<std::size_t>(entry));
}

QRectF ChartLegend::labelRect(const QRectF& rect) {
    return QRectF(rect.left() + kSymbol + kTextGap, rect.top(), rect.width() - kSymbol - kTextGap,
                  rect.height());
}

void ChartLegend::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setFont(m_font);
    for (std::size_t i = 0; i < m_entries.size() && i < m_rects.size(); ++i) {
        const Entry& entry = m_entries[i];
        const QRectF& rect = m_rects[i];
        painter->setOpacity(entry.dimmed ? 0.35 : 1.0);
        const QPointF centre(rect.left() + kSymbol / 2,
                             rect.top() + std::max(kSymbol, QFontMetricsF(m_font).height()) / 2);
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
        painter->drawText(labelRect(rect), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap,
                          entry.text);
    }
    painter->restore();
}

}  // namespace pfa::ui
