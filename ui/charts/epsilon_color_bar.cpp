#include "ui/charts/epsilon_color_bar.h"

#include <QFontMetricsF>
#include <QLinearGradient>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "ui/charts/chart_style.h"

namespace pfa::ui {

namespace {
constexpr qreal kBarWidth = 13.0;
constexpr qreal kTick = 4.0;
constexpr qreal kGap = 3.0;
constexpr qreal kMark = 5.0;  // the triangles marking budgets in the chart

QString tickText(double epsilon) {
    if (!std::isfinite(epsilon)) return QStringLiteral("∞");
    return QString::number(epsilon, 'g', 3);
}
}  // namespace

EpsilonColorBar::EpsilonColorBar(QGraphicsItem* parent)
    : QGraphicsItem(parent),
      m_font(chart_style::labelFont()),
      m_titleFont(chart_style::axisFont()) {
    m_titleFont.setItalic(true);
    setZValue(10);
}

void EpsilonColorBar::setArea(const QRectF& area) {
    if (area == m_area) return;
    prepareGeometryChange();
    m_area = area;
    update();
}

void EpsilonColorBar::setMarkedEpsilons(std::vector<double> epsilons) {
    if (epsilons == m_marked) return;
    m_marked = std::move(epsilons);
    update();
}

void EpsilonColorBar::setPalette(chart_style::EpsilonPalette palette) {
    if (palette == m_palette) return;
    prepareGeometryChange();
    m_palette = std::move(palette);
    update();
}

qreal EpsilonColorBar::preferredWidth() const {
    const QFontMetricsF metrics(m_font);
    qreal labels = metrics.horizontalAdvance(QStringLiteral("0.05"));
    if (m_palette.ranked()) {
        for (double value : m_palette.values())
            labels = std::max(labels, metrics.horizontalAdvance(tickText(value)));
    }
    return kMark + kBarWidth + kTick + kGap + labels + 2.0;
}

QRectF EpsilonColorBar::swatchRect(std::size_t i) const {
    const QRectF bar = barRect();
    const std::size_t count = m_palette.values().size();
    const qreal pitch = std::min<qreal>(QFontMetricsF(m_font).height() + 6.0,
                                        bar.height() / std::max<std::size_t>(1, count));
    return QRectF(bar.left(), bar.top() + pitch * static_cast<qreal>(i), kBarWidth,
                  std::max<qreal>(4.0, pitch - 3.0));
}

QString EpsilonColorBar::title() const { return QStringLiteral("ε"); }

QRectF EpsilonColorBar::infinityRect() const {
    const qreal top = m_area.top() + QFontMetricsF(m_titleFont).height() + 4.0;
    return QRectF(m_area.left() + kMark, top, kBarWidth, kBarWidth);
}

QRectF EpsilonColorBar::barRect() const {
    const QRectF infinity = infinityRect();
    const qreal top = infinity.bottom() + 10.0;
    const qreal bottom = m_area.bottom() - QFontMetricsF(m_font).height() / 2.0;
    return QRectF(m_area.left() + kMark, top, kBarWidth, std::max<qreal>(10.0, bottom - top));
}

qreal EpsilonColorBar::yFor(double epsilon) const {
    const QRectF bar = barRect();
    const double lo = std::log(chart_style::kEpsilonScaleMin);
    const double hi = std::log(chart_style::kEpsilonScaleMax);
    const double e =
        std::clamp(epsilon, chart_style::kEpsilonScaleMin, chart_style::kEpsilonScaleMax);
    return bar.bottom() - (std::log(e) - lo) / (hi - lo) * bar.height();
}

std::vector<double> EpsilonColorBar::ticks() const {
    // Decades always; the in-between 0.05, 0.5, 5, 50 only when their labels do not collide.
    const qreal labelHeight = QFontMetricsF(m_font).height();
    const std::vector<double> decades{100.0, 10.0, 1.0, 0.1};
    const std::vector<double> all{100.0, 50.0, 10.0, 5.0, 1.0, 0.5, 0.1, 0.05};
    const qreal closest = std::fabs(yFor(0.1) - yFor(0.05));  // log10(2) of a decade: the tightest
    return closest >= 1.3 * labelHeight ? all : decades;
}

QStringList EpsilonColorBar::tickLabels() const {
    QStringList labels{tickText(INFINITY)};
    if (m_palette.ranked()) {
        const std::vector<double>& values = m_palette.values();
        for (auto it = values.rbegin(); it != values.rend(); ++it) labels << tickText(*it);
        return labels;
    }
    for (double tick : ticks()) labels << tickText(tick);
    return labels;
}

QRectF EpsilonColorBar::boundingRect() const { return m_area.adjusted(-1, -1, 1, 1); }

void EpsilonColorBar::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    if (m_area.isEmpty()) return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const QColor text(40, 40, 40);
    const QRectF bar = barRect();
    const QRectF infinity = infinityRect();

    // Title, centred over the bar.
    painter->setFont(m_titleFont);
    painter->setPen(text);
    const QRectF titleRect(bar.left() - 20, m_area.top(), bar.width() + 40,
                           infinity.top() - m_area.top());
    painter->drawText(titleRect, Qt::AlignHCenter | Qt::AlignVCenter, title());

    if (m_palette.ranked()) {
        // A key: each budget's swatch in its rank colour, largest ε on top, and ∞ above.
        const QPen frame(QColor(60, 60, 60), 0.8);
        painter->setPen(frame);
        painter->setBrush(chart_style::colorForEpsilon(INFINITY));
        painter->drawRect(infinity);
        painter->setFont(m_font);
        const QFontMetricsF metrics(m_font);
        const qreal labelX = bar.right() + kGap + 2;
        const auto label = [&](const QRectF& swatch, const QString& value) {
            painter->setPen(text);
            painter->drawText(QRectF(labelX, swatch.center().y() - metrics.height() / 2,
                                     m_area.right() - labelX + 1, metrics.height()),
                              Qt::AlignLeft | Qt::AlignVCenter, value);
        };
        label(infinity, tickText(INFINITY));
        const std::vector<double>& values = m_palette.values();
        for (std::size_t i = 0; i < values.size(); ++i) {
            const double value = values[values.size() - 1 - i];
            const QRectF swatch = swatchRect(i);
            painter->setPen(frame);
            painter->setBrush(m_palette.color(value));
            painter->drawRect(swatch);
            label(swatch, tickText(value));
        }
        painter->restore();
        return;
    }

    // The bar: sampled densely, so the gradient is the colour map itself.
    QLinearGradient gradient(bar.bottomLeft(), bar.topLeft());
    const double lo = std::log(chart_style::kEpsilonScaleMin);
    const double hi = std::log(chart_style::kEpsilonScaleMax);
    for (int i = 0; i <= 32; ++i) {
        const double t = i / 32.0;
        gradient.setColorAt(t, chart_style::colorForEpsilon(std::exp(lo + t * (hi - lo))));
    }
    const QPen frame(QColor(60, 60, 60), 0.8);
    painter->setPen(frame);
    painter->setBrush(gradient);
    painter->drawRect(bar);
    painter->setBrush(chart_style::colorForEpsilon(INFINITY));
    painter->drawRect(infinity);

    // Ticks and labels.
    painter->setFont(m_font);
    const QFontMetricsF metrics(m_font);
    const qreal labelX = bar.right() + kTick + kGap;
    auto label = [&](qreal y, const QString& value) {
        painter->setPen(frame);
        painter->drawLine(QPointF(bar.right(), y), QPointF(bar.right() + kTick, y));
        painter->setPen(text);
        painter->drawText(
            QRectF(labelX, y - metrics.height() / 2, m_area.right() - labelX + 1, metrics.height()),
            Qt::AlignLeft | Qt::AlignVCenter, value);
    };
    label(infinity.center().y(), tickText(INFINITY));
    for (double tick : ticks()) label(yFor(tick), tickText(tick));

    // Budgets in the chart: small dark triangles pointing at the bar.
    painter->setPen(Qt::NoPen);
    painter->setBrush(QColor(30, 30, 30));
    for (double epsilon : m_marked) {
        if (std::isnan(epsilon)) continue;
        const qreal y = std::isfinite(epsilon) ? yFor(epsilon) : infinity.center().y();
        const QPointF tip(bar.left() - 1, y);
        const QPolygonF triangle{tip, QPointF(tip.x() - kMark, y - kMark * 0.7),
                                 QPointF(tip.x() - kMark, y + kMark * 0.7)};
        painter->drawPolygon(triangle);
    }
    painter->restore();
}

}  // namespace pfa::ui
