#include "ui/charts/heat_map_view.h"

#include <QContextMenuEvent>
#include <QFontMetricsF>
#include <QLinearGradient>
#include <QMenu>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "core/util/format.h"
#include "ui/charts/chart_style.h"

namespace pfa::ui {

HeatMapView::HeatMapView(QWidget* parent) : QWidget(parent) {
    setToolTip(tr("Mean over seeds for every (ε, λ) of the sweep. Right-click to export."));
    setMinimumSize(360, 240);
}

void HeatMapView::setCells(const std::vector<pfa::SweepCell>& cells, const QString& title,
                           Metric metric, const QString& notion) {
    m_title = title;
    m_metric = metric;
    m_notion = notion;
    m_epsilons.clear();
    m_lambdas.clear();
    for (const pfa::SweepCell& cell : cells) {
        const std::pair<double, bool> row{cell.epsilon, cell.knownGaps};
        if (std::find(m_epsilons.begin(), m_epsilons.end(), row) == m_epsilons.end())
            m_epsilons.push_back(row);
        if (std::find(m_lambdas.begin(), m_lambdas.end(), cell.lambda) == m_lambdas.end())
            m_lambdas.push_back(cell.lambda);
    }
    std::sort(m_epsilons.begin(), m_epsilons.end());  // ∞ sorts last
    std::sort(m_lambdas.begin(), m_lambdas.end());
    m_values.assign(m_epsilons.size(), std::vector<double>(m_lambdas.size(), std::nan("")));
    m_certified = m_values;
    for (const pfa::SweepCell& cell : cells) {
        if (cell.testError.n == 0) continue;
        const auto e = std::find(m_epsilons.begin(), m_epsilons.end(),
                                 std::make_pair(cell.epsilon, cell.knownGaps)) -
                       m_epsilons.begin();
        const auto l =
            std::find(m_lambdas.begin(), m_lambdas.end(), cell.lambda) - m_lambdas.begin();
        m_values[static_cast<std::size_t>(e)][static_cast<std::size_t>(l)] =
            metric == Metric::TestError ? cell.testError.mean : cell.violation.mean;
        if (cell.knownGaps) {
            m_certified[static_cast<std::size_t>(e)][static_cast<std::size_t>(l)] =
                cell.shownEpsilon();
        }
    }
    update();
}

int HeatMapView::filledCells() const {
    int filled = 0;
    for (const auto& row : m_values) {
        for (double v : row) filled += std::isfinite(v);
    }
    return filled;
}

QString HeatMapView::colorBarTitle() const {
    return m_metric == Metric::TestError ? tr("mean test error (fraction)")
                                         : tr("mean violation (rate gap)");
}

QString HeatMapView::exportTitle() const {
    return (m_metric == Metric::TestError ? tr("Mean test error")
                                          : tr("Mean %1 violation").arg(m_notion)) +
           tr(" — %1").arg(m_title);
}

void HeatMapView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), Qt::white);
    paintMap(&painter, rect(), ExportHeading{exportTitle(), QString()});
}

QSize HeatMapView::exportSize() const {
    const bool shown = isVisible() && width() >= minimumWidth() && height() >= minimumHeight();
    return shown ? size() : QSize(900, 600);
}

void HeatMapView::paintExport(QPainter* painter, const QRectF& target,
                              const ExportHeading& heading) {
    // The screen's paint routine, laid out at the export's size.
    painter->save();
    painter->fillRect(target, Qt::white);
    paintMap(painter, target, heading);
    painter->restore();
}

void HeatMapView::contextMenuEvent(QContextMenuEvent* event) {
    QMenu menu(this);
    menu.addAction(tr("Export chart…"), this, [this] { exportWithDialog(this, this); });
    menu.exec(event->globalPos());
}

void HeatMapView::paintMap(QPainter* painter, const QRectF& area,
                           const ExportHeading& heading) const {
    const QFont title = chart_style::titleFont();
    const QFont labels = chart_style::labelFont();
    painter->setPen(QColor(40, 40, 40));
    // The heading: title and caption lines, each only when there is one (exports may drop
    // both), word-wrapped so that a narrow export does not cut a long title at both ends.
    const int headingFlags = Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap;
    const double headingWidth = std::max(1.0, area.width() - 8);
    double headingBottom = area.top() + 6;
    const auto headingLine = [&](const QString& text, const QFont& font) {
        if (text.isEmpty()) return;
        const QRectF box =
            QFontMetricsF(font).boundingRect(QRectF(0, 0, headingWidth, 1e6), headingFlags, text);
        painter->setFont(font);
        painter->drawText(QRectF(area.left() + 4, headingBottom, headingWidth, box.height()),
                          headingFlags, text);
        headingBottom += box.height() + 2;
    };
    headingLine(heading.title, title);
    headingLine(heading.caption, chart_style::axisFont());
    headingBottom += 8;
    if (m_epsilons.empty() || m_lambdas.empty()) {
        QFont italic = chart_style::axisFont();
        italic.setItalic(true);
        painter->setFont(italic);
        painter->setPen(QColor(110, 110, 110));
        painter->drawText(area, Qt::AlignCenter, tr("Needs a sweep over ε and λ"));
        return;
    }
    double lo = INFINITY, hi = -INFINITY;
    for (const auto& row : m_values) {
        for (double v : row) {
            if (!std::isfinite(v)) continue;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    if (!(hi > lo)) hi = lo + 1e-9;
    // The colour bar: the bar, its end values and its title (what the colours measure).
    const double left = area.left() + 70, top = headingBottom, legendWidth = 92;
    const double gridWidth = area.width() - (left - area.left()) - legendWidth - 16;
    const double gridHeight = area.height() - (top - area.top()) - 46;
    const double cw = gridWidth / static_cast<double>(m_lambdas.size());
    const double ch = gridHeight / static_cast<double>(m_epsilons.size());
    painter->setFont(labels);
    for (std::size_t e = 0; e < m_epsilons.size(); ++e) {
        const double y =
            top + static_cast<double>(m_epsilons.size() - 1 - e) * ch;  // small ε at the bottom
        painter->setPen(QColor(40, 40, 40));
        // A row whose ε is only nominal (published calibration) says so; each of its cells
        // shows the ε the accountant certifies.
        const auto& [epsilon, nominal] = m_epsilons[e];
        painter->drawText(QRectF(area.left(), y, 64, ch), Qt::AlignRight | Qt::AlignVCenter,
                          nominal ? tr("%1\nnominal").arg(chart_style::epsilonLabel(epsilon))
                                  : chart_style::epsilonLabel(epsilon));
        for (std::size_t l = 0; l < m_lambdas.size(); ++l) {
            const QRectF cell(left + static_cast<double>(l) * cw, y, cw - 1, ch - 1);
            const double v = m_values[e][l];
            if (!std::isfinite(v)) {
                painter->fillRect(cell, QColor(238, 238, 238));
                continue;
            }
            const double t = (v - lo) / (hi - lo);
            painter->fillRect(cell, chart_style::viridis(t));
            painter->setPen(t > 0.6 ? QColor(20, 20, 20) : Qt::white);
            const double certified = m_certified[e][l];
            painter->drawText(
                cell, Qt::AlignCenter,
                std::isnan(certified)
                    ? QString::number(v, 'f', 3)
                    : tr("%1\nε %2")
                          .arg(QString::number(v, 'f', 3),
                               QString::fromStdString(pfa::formatNumber(certified, 3))));
        }
    }
    painter->setPen(QColor(40, 40, 40));
    for (std::size_t l = 0; l < m_lambdas.size(); ++l) {
        painter->drawText(QRectF(left + static_cast<double>(l) * cw, top + gridHeight + 2, cw, 18),
                          Qt::AlignCenter,
                          QString::fromStdString(pfa::formatNumber(m_lambdas[l], 3)));
    }
    painter->setFont(chart_style::axisFont());
    painter->drawText(QRectF(left, top + gridHeight + 20, gridWidth, 20), Qt::AlignCenter,
                      tr("λ (fairness weight)"));
    // Colour scale.
    const QRectF bar(area.right() - legendWidth, top, 16, gridHeight);
    QLinearGradient gradient(bar.bottomLeft(), bar.topLeft());
    for (int i = 0; i <= 8; ++i) gradient.setColorAt(i / 8.0, chart_style::viridis(i / 8.0));
    painter->fillRect(bar, gradient);
    painter->setFont(labels);
    painter->drawText(QRectF(bar.right() + 4, bar.top() - 8, 60, 16), Qt::AlignLeft,
                      QString::number(hi, 'f', 3));
    painter->drawText(QRectF(bar.right() + 4, bar.bottom() - 8, 60, 16), Qt::AlignLeft,
                      QString::number(lo, 'f', 3));
    // The title runs up along the bar's right, beside the end values.
    painter->setFont(chart_style::axisFont());
    const QFontMetricsF metrics(painter->font());
    const QString barTitle = metrics.elidedText(colorBarTitle(), Qt::ElideRight, bar.height());
    painter->save();
    painter->translate(area.right() - 4, bar.center().y());
    painter->rotate(-90);
    painter->drawText(QRectF(-bar.height() / 2, -metrics.height(), bar.height(), metrics.height()),
                      Qt::AlignCenter, barTitle);
    painter->restore();
}

}  // namespace pfa::ui
