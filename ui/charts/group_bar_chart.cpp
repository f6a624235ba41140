#include "ui/charts/group_bar_chart.h"

#include <QLocale>
#include <QPainter>
#include <algorithm>

namespace pfa::ui {

namespace {
constexpr int kRowHeight = 26;
constexpr int kHeader = 22;
}  // namespace

GroupBarChart::GroupBarChart(QWidget* parent) : QWidget(parent) {
    setToolTip(tr("Light bars: number of rows per group. Dark bars: base rate, the share of the "
                  "group with the positive label (0–100 %)."));
}

void GroupBarChart::setGroups(std::vector<Group> groups, const QString& positiveClass) {
    m_groups = std::move(groups);
    m_positiveClass = positiveClass;
    updateGeometry();
    update();
}

QSize GroupBarChart::sizeHint() const {
    return {420, kHeader + kRowHeight * static_cast<int>(std::max<std::size_t>(1, m_groups.size())) + 6};
}

QSize GroupBarChart::minimumSizeHint() const { return {260, sizeHint().height()}; }

void GroupBarChart::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics metrics = fontMetrics();
    if (m_groups.empty()) {
        painter.setPen(QColor(120, 120, 120));
        painter.drawText(rect(), Qt::AlignCenter, tr("No groups yet"));
        return;
    }
    int labelWidth = 0;
    for (const Group& g : m_groups) labelWidth = std::max(labelWidth, metrics.horizontalAdvance(g.name));
    labelWidth = std::min(labelWidth + 10, width() / 3);
    const int barsLeft = labelWidth;
    const int half = (width() - barsLeft - 8) / 2;
    long largest = 1;
    for (const Group& g : m_groups) largest = std::max(largest, g.size);

    painter.setPen(QColor(90, 90, 90));
    painter.drawText(QRect(barsLeft, 0, half, kHeader), Qt::AlignLeft | Qt::AlignVCenter, tr("rows"));
    painter.drawText(QRect(barsLeft + half + 8, 0, half, kHeader), Qt::AlignLeft | Qt::AlignVCenter,
                     tr("share “%1”").arg(m_positiveClass));
    for (std::size_t i = 0; i < m_groups.size(); ++i) {
        const Group& g = m_groups[i];
        const int top = kHeader + static_cast<int>(i) * kRowHeight;
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(QRect(0, top, labelWidth - 6, kRowHeight), Qt::AlignRight | Qt::AlignVCenter,
                         metrics.elidedText(g.name, Qt::ElideRight, labelWidth - 6));
        // Size bar.
        const int sizeWidth = static_cast<int>(half * static_cast<double>(g.size) / largest);
        painter.fillRect(QRect(barsLeft, top + 4, sizeWidth, kRowHeight - 8), QColor(150, 185, 215));
        painter.setPen(QColor(30, 30, 30));
        painter.drawText(QRect(barsLeft + 4, top, half, kRowHeight), Qt::AlignLeft | Qt::AlignVCenter,
                         QLocale().toString(static_cast<qlonglong>(g.size)));
        // Base-rate bar on a fixed 0–100 % scale so groups compare directly.
        const int rateLeft = barsLeft + half + 8;
        painter.fillRect(QRect(rateLeft, top + 4, half, kRowHeight - 8), QColor(235, 235, 235));
        painter.fillRect(QRect(rateLeft, top + 4, static_cast<int>(half * std::clamp(g.baseRate, 0.0, 1.0)),
                               kRowHeight - 8),
                         QColor(49, 104, 142));
        painter.setPen(g.baseRate > 0.35 ? Qt::white : QColor(30, 30, 30));
        painter.drawText(QRect(rateLeft + 4, top, half, kRowHeight), Qt::AlignLeft | Qt::AlignVCenter,
                         QStringLiteral("%1 %").arg(100.0 * g.baseRate, 0, 'f', 1));
    }
}

}  // namespace pfa::ui
