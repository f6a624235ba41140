#include "ui/charts/chart_view.h"

#include <QApplication>
#include <QContextMenuEvent>
#include <QCoreApplication>
#include <QFontMetrics>
#include <QGraphicsLayout>
#include <QMenu>
#include <QPainter>
#include <QTextDocument>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>

#include "ui/charts/chart_style.h"
#include "ui/charts/series_legend.h"

namespace pfa::ui {

namespace {
/// Room beyond an axis title's text, so that rounding never elides it.
constexpr int kTitleRoom = 8;
/// The smallest a chart view gets, before its axis titles ask for more.
constexpr QSize kBaseMinimum(240, 190);
}  // namespace

ChartView::ChartView(QChart* chart, QWidget* parent) : QChartView(chart, parent) {
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(kBaseMinimum);
    setToolTip(tr("Right-click to export this chart as PNG, SVG or PDF"));
    // Redrawn whole, with the scene pinned to the top-left corner. Centred (the default), a
    // resize first re-centres the old, smaller scene — scrolling the pixels already drawn —
    // and the minimal update then repainted only the items' new places: after maximising, old
    // tick labels and pieces of grid stayed on screen beside the new ones.
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    if (chart) {
        // The chart fills the view: no grey frame around it, and its room goes to the plot.
        if (chart->layout()) chart->layout()->setContentsMargins(0, 0, 0, 0);
        connect(chart, &QChart::plotAreaChanged, this, &ChartView::fitAxisTitles);
    }
}

void ChartView::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    applyPresentationScale();
    fitAxisTitles();
}

void ChartView::applyPresentationScale() {
    if (!chart()) return;
    const double scale = chart_style::presentationScale();
    if (scale == 1.0 && transform().isIdentity())
        return;  // the usual case: as QChartView laid it out
    // The chart laid out smaller and the view scaled up: every font, line, marker and overlay
    // item grows by the same factor, also series added later.
    const QSizeF size = QSizeF(viewport()->size()) / scale;
    chart()->resize(size);
    setSceneRect(QRectF(chart()->pos(), size));
    setTransform(QTransform::fromScale(scale, scale));
}

void ChartView::relayoutAll() {
    for (QWidget* widget : QApplication::allWidgets()) {
        if (auto* view = qobject_cast<ChartView*>(widget)) {
            view->applyPresentationScale();
            view->fitAxisTitles();
            view->viewport()->update();
        }
    }
}

double ChartView::drawnScale() const {
    if (!chart() || chart()->size().width() <= 0) return 1.0;
    return transform().m11();
}

void ChartView::fitTicks() {
    if (!chart()) return;
    const QRectF plot = chart()->plotArea();
    if (plot.width() <= 0 || plot.height() <= 0) return;
    // Tick labels need room too: fewer of them on a short axis (also while exporting), where
    // Qt cuts labels taller (vertical) or wider (horizontal) than their share to "…".
    for (QAbstractAxis* axis : chart()->axes()) {
        if (auto* value = qobject_cast<QValueAxis*>(axis);
            value && !qobject_cast<QCategoryAxis*>(axis) && value->isVisible()) {
            chart_style::fitTicksToLength(
                value, axis->orientation() == Qt::Vertical ? plot.height() : plot.width());
        }
    }
}

void ChartView::fitAxisTitles() {
    if (!chart()) return;
    const QRectF plot = chart()->plotArea();
    if (plot.width() <= 0 || plot.height() <= 0) return;
    fitTicks();
    // A vertical title longer than its plot (presentation mode at 1280×720, where the screen
    // limits the charts, or a small export) shows its short form ("violation" for "violation /
    // ERMI") rather than Qt's "violation…"; the full one comes back when it fits.
    for (QAbstractAxis* axis : chart()->axes(Qt::Vertical))
        chart_style::fitAxisTitle(axis, plot.height() - kTitleRoom);
    // Only the chart laid out in this view counts: an export lays it out at another size for a
    // moment, and measuring that against the view's size would ask for a huge minimum.
    const double scale = chart_style::presentationScale();
    const QSizeF laidOut = chart()->size() * scale;
    if (std::abs(laidOut.width() - viewport()->width()) > 2 ||
        std::abs(laidOut.height() - viewport()->height()) > 2)
        return;
    // What the chart takes around its plot area is about constant; a plot area as long as the
    // longest axis title (a vertical one runs along the plot's height) shows it in full.
    // Measured from the base minimum each time, so the minimum never ratchets up.
    // In presentation mode the chart is drawn `scale` times larger: so are its titles.
    QSize needed = kBaseMinimum;
    // In presentation mode the window fills the screen and must fit it (a 1280×720 projector):
    // there the screen limits the charts, not their titles.
    for (const QAbstractAxis* axis : scale == 1.0 ? chart()->axes() : QList<QAbstractAxis*>()) {
        if (!axis->isVisible() || !axis->isTitleVisible() || axis->titleText().isEmpty()) continue;
        // The full title, also while a short plot shows its short form.
        const int title = static_cast<int>(
            scale *
            (QFontMetrics(axis->titleFont()).horizontalAdvance(chart_style::fullAxisTitle(axis)) +
             kTitleRoom));
        if (axis->orientation() == Qt::Vertical) {
            needed.setHeight(std::max(needed.height(),
                                      height() - static_cast<int>(scale * plot.height()) + title));
        } else {
            needed.setWidth(
                std::max(needed.width(), width() - static_cast<int>(scale * plot.width()) + title));
        }
    }
    if (needed != minimumSize()) setMinimumSize(needed);
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
    if (m_menuExtender) {
        m_menuExtender(&menu, viewport()->mapFromGlobal(event->globalPos()));
        if (!menu.isEmpty()) menu.addSeparator();
    }
    menu.addAction(tr("Export chart…"), this, &ChartView::exportWithDialog);
    if (SeriesLegend* legend = SeriesLegend::of(chart())) {
        menu.addSeparator();
        QAction* outliers = menu.addAction(tr("Axes ignore outlying points"));
        outliers->setCheckable(true);
        outliers->setChecked(legend->ignoresOutliers());
        outliers->setToolTip(
            tr("Fit the axes to the points shown, leaving out those beyond 1.5 "
               "interquartile ranges past the quartiles"));
        connect(outliers, &QAction::toggled, legend, &SeriesLegend::setIgnoreOutliers);
        QAction* all = menu.addAction(tr("Show every series"), legend, &SeriesLegend::showAll);
        all->setEnabled(legend->anyHidden());
    }
    menu.exec(event->globalPos());
}

void ChartView::exportWithDialog() { pfa::ui::exportWithDialog(this, this); }

namespace {
/// Export size of a view that was never laid out on screen (a hidden tab or dock).
constexpr QSize kUnshownExportSize(900, 600);
}  // namespace

bool ChartView::laidOutOnScreen() const {
    return isVisible() && viewport()->width() >= minimumWidth() - 4 &&
           viewport()->height() >= minimumHeight() - 4;
}

QSize ChartView::exportSize() const {
    return laidOutOnScreen() ? viewport()->size() : kUnshownExportSize;
}

QString ChartView::exportTitle() const {
    if (!chart()) return QString();
    const QString title = chart()->title();
    if (!title.contains(QLatin1Char('<'))) return title;
    // A rich-text title (e.g. the loss chart's "diagnostic — not private" line): plain text for
    // the SVG/PDF metadata, which takes it verbatim.
    QTextDocument document;
    // A second line in brackets ("<br>(mean ± sd over seeds)") continues the first.
    document.setHtml(QString(title)
                         .replace(QLatin1String("<br>("), QLatin1String(" ("))
                         .replace(QLatin1String("<br>"), QLatin1String(" — ")));
    return document.toPlainText().simplified();
}

void ChartView::paintExport(QPainter* painter, const QRectF& target, const ExportHeading& heading) {
    // Lays the chart out at the export's size (also when it was never shown, e.g. in an
    // inactive tab) and renders its scene, so no scroll bars or frames leak in and every
    // overlay item (whiskers, labels) is included.
    paintChartForExport(this, painter, target, heading);
}

}  // namespace pfa::ui
