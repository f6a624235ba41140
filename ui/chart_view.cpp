#include "ui/chart_view.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QPainter>

#include "ui/chart_style.h"

namespace pfa::ui {

ChartView::ChartView(QChart* chart, QWidget* parent) : QChartView(chart, parent) {
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(260, 200);
    setToolTip(tr("Right-click to export this chart as PNG, SVG or PDF"));
}

void ChartView::setEmptyMessage(const QString& message) {
    if (m_emptyMessage == message) return;
    m_emptyMessage = message;
    viewport()->update();
}

void ChartView::setEmpty(bool empty) {
    if (m_empty == empty) return;
    m_empty = empty;
    // Foreground items are cached with the scene; force a repaint of the overlay.
    scene()->update();
    viewport()->update();
}

void ChartView::drawForeground(QPainter* painter, const QRectF& rect) {
    QChartView::drawForeground(painter, rect);
    if (!m_empty || m_emptyMessage.isEmpty() || !chart()) return;
    painter->save();
    QFont font = chart_style::axisFont();
    font.setItalic(true);
    painter->setFont(font);
    painter->setPen(QColor(110, 110, 110));
    painter->drawText(chart()->plotArea(), Qt::AlignCenter | Qt::TextWordWrap, m_emptyMessage);
    painter->restore();
}

void ChartView::contextMenuEvent(QContextMenuEvent* event) {
    QMenu menu(this);
    menu.addAction(tr("Export chart…"), this, &ChartView::exportWithDialog);
    menu.exec(event->globalPos());
}

void ChartView::exportWithDialog() { pfa::ui::exportWithDialog(this, this); }

QSize ChartView::exportSize() const { return viewport()->size(); }

QString ChartView::exportTitle() const { return chart() ? chart()->title() : QString(); }

void ChartView::paintExport(QPainter* painter, const QRectF& target) {
    // Render the chart's scene region (not the widget), so no scroll bars or frames leak in;
    // the scene includes every overlay item (whiskers, labels) drawn on screen.
    scene()->render(painter, target, mapToScene(viewport()->rect()).boundingRect(), Qt::IgnoreAspectRatio);
}

}  // namespace pfa::ui
