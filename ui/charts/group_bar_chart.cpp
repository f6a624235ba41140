#include "ui/charts/group_bar_chart.h"

#include <QCoreApplication>
#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

#include "ui/charts/chart_style.h"

namespace pfa::ui {

namespace {
// Row and header heights at the usual size; presentation mode scales them with the font.
int rowHeight() { return static_cast<int>(26 * chart_style::presentationScale()); }
int headerHeight() { return static_cast<int>(22 * chart_style::presentationScale()); }
}  // namespace

QString smallGroupNote(long testRows) {
    if (testRows >= kSmallGroupRows) return QString();
    const QString why =
        QCoreApplication::translate("GroupBarChart",
                                    "fewer than %1 test rows: a rate's 95 % interval is then wider "
                                    "than about ±0.18, so this group's rates and any gap involving "
                                    "it are mostly noise")
            .arg(kSmallGroupRows);
    if (testRows <= 0)
        return QCoreApplication::translate("GroupBarChart", "empty — no test rows, no rates (%1)")
            .arg(why);
    return QCoreApplication::translate("GroupBarChart",
                                       "n = %1 test rows — too few for a reliable rate (%2)")
        .arg(testRows)
        .arg(why);
}

GroupBarChart::GroupBarChart(QWidget* parent) : QWidget(parent) {
    setToolTip(tr("Light bars: number of rows per group. Dark bars: base rate, the share of the "
                  "group with the positive label (0–100 %). Hatched rows with ⚠: fewer than %1 "
                  "test rows, too few for reliable rates (shown, never hidden).")
                   .arg(kSmallGroupRows));
}

bool GroupBarChart::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        // The row under the mouse explains its own flag; elsewhere the general tooltip.
        auto* help = static_cast<QHelpEvent*>(event);
        const int row = (help->pos().y() - headerHeight()) / rowHeight();
        if (help->pos().y() >= headerHeight() && row >= 0 &&
            row < static_cast<int>(m_groups.size()) &&
            m_groups[static_cast<std::size_t>(row)].small()) {
            const Group& g = m_groups[static_cast<std::size_t>(row)];
            QToolTip::showText(help->globalPos(),
                               QStringLiteral("%1: %2").arg(g.name, smallGroupNote(g.judgedRows())),
                               this);
            return true;
        }
    }
    return QWidget::event(event);
}

void GroupBarChart::setGroups(std::vector<Group> groups, const QString& positiveClass) {
    m_groups = std::move(groups);
    m_positiveClass = positiveClass;
    updateGeometry();
    update();
}

QSize GroupBarChart::sizeHint() const {
    return {420, headerHeight() +
                     rowHeight() * static_cast<int>(std::max<std::size_t>(1, m_groups.size())) + 6};
}

QSize GroupBarChart::minimumSizeHint() const { return {260, sizeHint().height()}; }

void GroupBarChart::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    QFont scaled = font();
    scaled.setPointSizeF(scaled.pointSizeF() * chart_style::presentationScale());
    painter.setFont(scaled);
    const QFontMetrics metrics(scaled);
    if (m_groups.empty()) {
        painter.setPen(QColor(120, 120, 120));
        painter.drawText(rect(), Qt::AlignCenter, tr("No groups yet"));
        return;
    }
    int labelWidth = 0;
    for (const Group& g : m_groups)
        labelWidth =
            std::max(labelWidth,
                     metrics.horizontalAdvance(g.small() ? QStringLiteral("⚠ ") + g.name : g.name));
    labelWidth = std::min(labelWidth + 10, width() / 3);
    const int barsLeft = labelWidth;
    const int half = (width() - barsLeft - 8) / 2;
    long largest = 1;
    for (const Group& g : m_groups) largest = std::max(largest, g.size);

    painter.setPen(QColor(90, 90, 90));
    painter.drawText(QRect(barsLeft, 0, half, headerHeight()), Qt::AlignLeft | Qt::AlignVCenter,
                     tr("rows"));
    painter.drawText(QRect(barsLeft + half + 8, 0, half, headerHeight()),
                     Qt::AlignLeft | Qt::AlignVCenter, tr("share “%1”").arg(m_positiveClass));
    for (std::size_t i = 0; i < m_groups.size(); ++i) {
        const Group& g = m_groups[i];
        const int top = headerHeight() + static_cast<int>(i) * rowHeight();
        // A small group keeps its row, marked: a warning sign, italic name, hatched bars.
        const bool small = g.small();
        QFont font = painter.font();
        font.setItalic(small);
        painter.setFont(font);
        painter.setPen(small ? QColor(154, 52, 18) : palette().color(QPalette::WindowText));
        painter.drawText(QRect(0, top, labelWidth - 6, rowHeight()),
                         Qt::AlignRight | Qt::AlignVCenter,
                         metrics.elidedText(small ? QStringLiteral("⚠ ") + g.name : g.name,
                                            Qt::ElideRight, labelWidth - 6));
        // Size bar.
        const int sizeWidth = static_cast<int>(half * static_cast<double>(g.size) / largest);
        const QRect sizeBar(barsLeft, top + 4, std::max(sizeWidth, small && g.size > 0 ? 3 : 0),
                            rowHeight() - 8);
        painter.fillRect(sizeBar, QColor(150, 185, 215));
        if (small) painter.fillRect(sizeBar, QBrush(QColor(154, 52, 18), Qt::BDiagPattern));
        painter.setPen(QColor(30, 30, 30));
        QString sizeText = QLocale().toString(static_cast<qlonglong>(g.size));
        if (small) {
            sizeText = g.judgedRows() <= 0 ? tr("%1 — empty in the test set").arg(sizeText)
                       : g.testSize >= 0
                           ? tr("%1 — only %2 test rows").arg(sizeText).arg(g.testSize)
                           : tr("%1 — too few rows").arg(sizeText);
        }
        painter.drawText(
            QRect(barsLeft + 4 + (small ? sizeBar.width() : 0), top, half, rowHeight()),
            Qt::AlignLeft | Qt::AlignVCenter, sizeText);
        font.setItalic(false);
        painter.setFont(font);
        // Base-rate bar on a fixed 0–100 % scale so groups compare directly.
        const int rateLeft = barsLeft + half + 8;
        painter.fillRect(QRect(rateLeft, top + 4, half, rowHeight() - 8), QColor(235, 235, 235));
        const QRect rateBar(rateLeft, top + 4,
                            static_cast<int>(half * std::clamp(g.baseRate, 0.0, 1.0)),
                            rowHeight() - 8);
        painter.fillRect(rateBar, QColor(49, 104, 142));
        if (small) painter.fillRect(rateBar, QBrush(QColor(255, 255, 255, 150), Qt::BDiagPattern));
        painter.setPen(g.baseRate > 0.35 ? Qt::white : QColor(30, 30, 30));
        painter.drawText(QRect(rateLeft + 4, top, half, rowHeight()),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         QStringLiteral("%1 %").arg(100.0 * g.baseRate, 0, 'f', 1));
    }
}

}  // namespace pfa::ui
