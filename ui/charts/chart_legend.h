#pragma once

#include <QBrush>
#include <QFont>
#include <QGraphicsItem>
#include <QPen>
#include <QtCharts/QScatterSeries>
#include <functional>
#include <vector>

namespace pfa::ui {

/// A chart legend drawn in the chart's scene (so exports include it) that wraps its entries
/// onto as many rows as the width needs instead of eliding them, as Qt's legend does when
/// space runs out ("Par… run… dp-…"): every label is always shown in full.
class ChartLegend : public QGraphicsItem {
public:
    struct Entry {
        /// A marker, a line, or a line through a small dot (a trail).
        enum class Symbol { Marker, Line, Trail };
        QString text;
        Symbol symbol = Symbol::Marker;
        QScatterSeries::MarkerShape shape = QScatterSeries::MarkerShapeCircle;
        QBrush brush;
        QPen pen;
        /// Drawn faded: its series is hidden (a click on the entry shows it again).
        bool dimmed = false;
    };

    explicit ChartLegend(QGraphicsItem* parent = nullptr);

    void setEntries(std::vector<Entry> entries);
    const std::vector<Entry>& entries() const { return m_entries; }
    /// Lays the entries out in centred rows at most `width` wide (an entry wider than that gets
    /// a row of its own, its label wrapped onto as many lines as it needs) and returns the
    /// height they need (0 without entries).
    qreal layoutForWidth(qreal width);
    /// Each entry's box (item coordinates), after layoutForWidth().
    const std::vector<QRectF>& entryRects() const { return m_rects; }
    /// The width an entry needs to show its symbol and its whole label.
    qreal entryWidth(const Entry& entry) const;
    QFont font() const { return m_font; }
    /// Makes the entries clickable: a left click on entry i calls `onClick(i)`. Without a
    /// handler (the default) the legend takes no mouse events.
    void setClickHandler(std::function<void(std::size_t)> onClick);
    /// The entry at `position` (item coordinates), or −1.
    int entryAt(const QPointF& position) const;

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option,
               QWidget* widget = nullptr) override;

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent* event) override;

private:
    /// The label's box for an entry placed in `rect`.
    static QRectF labelRect(const QRectF& rect);

    std::function<void(std::size_t)> m_onClick;
    std::vector<Entry> m_entries;
    std::vector<QRectF> m_rects;
    QFont m_font;
    qreal m_width = 0;
    qreal m_height = 0;
};

/// Draws a scatter marker of `shape` centred at `centre`, `size` pixels across (the chart
/// legend, and anyone who needs a symbol matching a QScatterSeries).
void drawMarker(QPainter* painter, QScatterSeries::MarkerShape shape, const QPointF& centre,
                qreal size);

}  // namespace pfa::ui
