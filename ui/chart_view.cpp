#include "ui/chart_view.h"

#include <QContextMenuEvent>
#include <QFileDialog>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QRegularExpression>

#include "ui/chart_export.h"
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

void ChartView::exportWithDialog() {
    const QString title = chart() ? chart()->title() : QString();
    QString suggested = title.isEmpty() ? QStringLiteral("chart") : title;
    suggested.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9]+")), QStringLiteral("-"));
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export chart"), suggested.toLower() + ".png",
        tr("PNG image (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty()) return;
    ExportFormat format;
    if (!exportFormatForPath(path, &format)) {
        QMessageBox::warning(this, tr("Export chart"),
                             tr("Please choose a file name ending in .png, .svg or .pdf."));
        return;
    }
    int dpi = 96;
    if (format == ExportFormat::Png) {
        bool ok = false;
        dpi = QInputDialog::getInt(this, tr("PNG resolution"),
                                   tr("Dots per inch (96 = screen, 300 = print):"), 300, 36, 1200,
                                   1, &ok);
        if (!ok) return;
    }
    QString error;
    if (!exportChart(this, path, format, dpi, &error)) {
        QMessageBox::warning(this, tr("Export chart"), tr("Export failed: %1").arg(error));
    }
}

}  // namespace pfa::ui
