#include "ui/charts/chart_view.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QPainter>
#include <QTextDocument>

#include "ui/charts/chart_style.h"

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

namespace {
/// Export size of a view that was never laid out on screen (a hidden tab or dock).
constexpr QSize kUnshownExportSize(900, 600);
}  // namespace

bool ChartView::laidOutOnScreen() const {
    return isVisible() && viewport()->width() >= minimumWidth() - 4 && viewport()->height() >= minimumHeight() - 4;
}

QSize ChartView::exportSize() const { return laidOutOnScreen() ? viewport()->size() : kUnshownExportSize; }

QString ChartView::exportTitle() const {
    if (!chart()) return QString();
    const QString title = chart()->title();
    if (!title.contains(QLatin1Char('<'))) return title;
    // A rich-text title (e.g. the loss chart's "diagnostic — not private" line): plain text for
    // the SVG/PDF metadata, which takes it verbatim.
    QTextDocument document;
    document.setHtml(QString(title).replace(QLatin1String("<br>"), QLatin1String(" — ")));
    return document.toPlainText().simplified();
}

void ChartView::paintExport(QPainter* painter, const QRectF& target, const ExportHeading& heading) {
    // Lays the chart out at the export's size (also when it was never shown, e.g. in an
    // inactive tab) and renders its scene, so no scroll bars or frames leak in and every
    // overlay item (whiskers, labels) is included.
    paintChartForExport(this, painter, target, heading);
}

}  // namespace pfa::ui
