#include "ui/charts/unit_histogram.h"

#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

namespace pfa::ui {

namespace {
constexpr int kHeight = 110;
constexpr int kBarGap = 1;
const QColor kBarColor(150, 185, 215);
const QColor kBarEdge(49, 104, 142);

QString number(long n) { return QLocale().toString(static_cast<qlonglong>(n)); }
}  // namespace

UnitHistogram::UnitHistogram(QWidget* parent) : QWidget(parent) { setMouseTracking(true); }

void UnitHistogram::setUnits(std::vector<Unit> units, const QString& unitWord,
                             const QString& unitsWord, const QString& rowsWord) {
    m_units = std::move(units);
    m_unitWord = unitWord;
    m_unitsWord = unitsWord;
    m_rowsWord = rowsWord;
    m_bars.clear();
    if (m_units.empty()) {
        m_axisCaption.clear();
    } else if (!binned()) {
        // One bar per unit, largest first: the spread of sizes reads at a glance.
        std::vector<Unit> sorted = m_units;
        std::stable_sort(sorted.begin(), sorted.end(),
                         [](const Unit& a, const Unit& b) { return a.rows > b.rows; });
        for (const Unit& unit : sorted) {
            // A bare id ("12", a subject number) reads better with what it numbers.
            bool numeric = false;
            unit.name.toLongLong(&numeric);
            const QString name = numeric ? tr("%1 %2").arg(m_unitWord, unit.name) : unit.name;
            m_bars.push_back({unit.rows, tr("%1: %2 %3").arg(name, number(unit.rows), m_rowsWord)});
        }
        m_axisCaption = tr("%1 per %2, largest first").arg(m_rowsWord, m_unitWord);
    } else {
        // Ranges of rows per unit, of equal width, and how many units fall in each.
        long low = m_units.front().rows, high = low;
        for (const Unit& unit : m_units) {
            low = std::min(low, unit.rows);
            high = std::max(high, unit.rows);
        }
        const long span = high - low + 1;
        const long bins = std::min<long>(20, span);
        const long width = (span + bins - 1) / bins;
        const long used = (span + width - 1) / width;
        std::vector<long> counts(static_cast<std::size_t>(used), 0);
        for (const Unit& unit : m_units)
            ++counts[static_cast<std::size_t>((unit.rows - low) / width)];
        for (long b = 0; b < used; ++b) {
            const long from = low + b * width, to = std::min(high, from + width - 1);
            const long count = counts[static_cast<std::size_t>(b)];
            const QString range =
                from == to ? number(from) : tr("%1–%2").arg(number(from), number(to));
            m_bars.push_back({count, tr("%1 %2 with %3 %4 each")
                                         .arg(number(count), count == 1 ? m_unitWord : m_unitsWord,
                                              range, m_rowsWord)});
        }
        m_axisCaption = tr("number of %1 by %2 each (%3 to %4)")
                            .arg(m_unitsWord, m_rowsWord, number(low), number(high));
    }
    setToolTip(m_units.empty() ? QString()
               : binned() ? tr("How many %1 hold how many %2 (training and test rows together); "
                               "hover over a bar for its range")
                                .arg(m_unitsWord, m_rowsWord)
                          : tr("The %1 of each of the %2 (training and test rows together), "
                               "largest first; hover over a bar for its name")
                                .arg(m_rowsWord, m_unitsWord));
    updateGeometry();
    update();
}

QSize UnitHistogram::sizeHint() const { return {420, kHeight}; }

QSize UnitHistogram::minimumSizeHint() const { return {240, kHeight}; }

QRect UnitHistogram::plotRect() const {
    const QFontMetrics metrics = fontMetrics();
    long largest = 1;
    for (const Bar& bar : m_bars) largest = std::max(largest, bar.value);
    const int axis = metrics.horizontalAdvance(number(largest)) + 8;
    return QRect(axis, metrics.height() / 2 + 2, std::max(10, width() - axis - 6),
                 std::max(10, height() - metrics.height() / 2 - metrics.height() - 8));
}

int UnitHistogram::barAt(const QPoint& position) const {
    const QRect plot = plotRect();
    if (m_bars.empty() || position.x() < plot.left() || position.x() > plot.right()) return -1;
    const int index = static_cast<int>(static_cast<double>(position.x() - plot.left()) *
                                       static_cast<double>(m_bars.size()) / plot.width());
    return std::clamp(index, 0, static_cast<int>(m_bars.size()) - 1);
}

bool UnitHistogram::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int bar = barAt(help->pos());
        if (bar >= 0 && plotRect().adjusted(0, -4, 0, 4).contains(help->pos())) {
            QToolTip::showText(help->globalPos(), m_bars[static_cast<std::size_t>(bar)].tip, this);
        } else {
            QToolTip::showText(help->globalPos(), toolTip(), this);
        }
        return true;
    }
    return QWidget::event(event);
}

void UnitHistogram::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QFontMetrics metrics = fontMetrics();
    if (m_bars.empty()) {
        painter.setPen(QColor(120, 120, 120));
        painter.drawText(rect(), Qt::AlignCenter, tr("No units"));
        return;
    }
    const QRect plot = plotRect();
    long largest = 1;
    for (const Bar& bar : m_bars) largest = std::max(largest, bar.value);
    // Axis: 0 and the largest value on the left, the caption below.
    painter.setPen(QColor(90, 90, 90));
    painter.drawText(QRect(0, plot.top() - metrics.height() / 2, plot.left() - 4, metrics.height()),
                     Qt::AlignRight | Qt::AlignVCenter, number(largest));
    painter.drawText(
        QRect(0, plot.bottom() - metrics.height() / 2, plot.left() - 4, metrics.height()),
        Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("0"));
    painter.drawText(QRect(plot.left(), plot.bottom() + 4, plot.width(), metrics.height()),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     metrics.elidedText(m_axisCaption, Qt::ElideRight, plot.width()));
    painter.setPen(QColor(200, 200, 200));
    painter.drawLine(plot.left(), plot.top(), plot.right(), plot.top());
    painter.setPen(QColor(120, 120, 120));
    painter.drawLine(plot.left(), plot.bottom(), plot.right(), plot.bottom());
    // Bars, side by side over the plot's width (a gap between them while they are wide enough).
    const double step = static_cast<double>(plot.width()) / static_cast<double>(m_bars.size());
    const int gap = step >= 4.0 ? kBarGap : 0;
    for (std::size_t i = 0; i < m_bars.size(); ++i) {
        const int left = plot.left() + static_cast<int>(static_cast<double>(i) * step);
        const int right = plot.left() + static_cast<int>(static_cast<double>(i + 1) * step) - gap;
        const int barHeight =
            static_cast<int>(static_cast<double>(plot.height()) *
                             static_cast<double>(m_bars[i].value) / static_cast<double>(largest));
        if (barHeight <= 0) continue;
        const QRect bar(left, plot.bottom() - barHeight + 1, std::max(1, right - left), barHeight);
        painter.fillRect(bar, kBarColor);
        painter.fillRect(QRect(bar.left(), bar.top(), bar.width(), std::min(2, bar.height())),
                         kBarEdge);
    }
}

}  // namespace pfa::ui
