#include "ui/charts/tradeoff_legend.h"

#include <QtCharts/QChart>
#include <algorithm>
#include <cmath>

#include "ui/charts/chart_legend.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/epsilon_color_bar.h"
#include "ui/charts/tradeoff_protection.h"

namespace pfa::ui {

TradeoffLegend::TradeoffLegend(QChart* chart, QObject* parent)
    : QObject(parent),
      m_chart(chart),
      m_legend(new ChartLegend(chart)),
      m_colorBar(new EpsilonColorBar(chart)) {
    connect(m_chart, &QChart::geometryChanged, this, &TradeoffLegend::layout);
    connect(m_chart, &QChart::plotAreaChanged, this, &TradeoffLegend::layout);
    // A click on an algorithm's entry hides its points (another click shows them again).
    m_legend->setToolTip(
        tr("Click an algorithm to hide its points (the axes fit the rest); "
           "click it again to show them"));
    m_legend->setClickHandler([this](std::size_t index) {
        if (index < m_entryAlgorithm.size() && !m_entryAlgorithm[index].isEmpty())
            emit algorithmClicked(m_entryAlgorithm[index]);
    });
}

void TradeoffLegend::show(const Contents& contents, const TradeoffProtections& protections) {
    using Entry = ChartLegend::Entry;
    std::vector<Entry> entries;
    m_entryAlgorithm.clear();
    // Marker = algorithm (drawn neutral: colour means ε, explained by the colour bar).
    // With runs of different protection: one entry per algorithm and protection, named.
    for (const auto& [algorithm, kind] : contents.algorithms) {
        Entry entry;
        entry.text = QString::fromStdString(algorithm);
        const auto shape = contents.shapes.find(algorithm);
        entry.shape = shape != contents.shapes.end() ? shape->second
                                                     : chart_style::markerForAlgorithm(entry.text);
        entry.brush = QColor(235, 235, 235);
        entry.pen = QPen(QColor(40, 40, 40), 1.2);
        if (kind != -2) {
            entry.text +=
                QStringLiteral(" — ") + (kind < 0 ? tr("not private") : protections.kindText(kind));
            if (kind > 0) entry.pen = TradeoffProtections::outlinePen();
        }
        entry.dimmed = contents.hidden.count(algorithm) > 0;
        entries.push_back(entry);
        m_entryAlgorithm.push_back(QString::fromStdString(algorithm));
    }
    if (const int curves = contents.curves; curves > 0) {
        Entry entry;
        entry.text = curves == 1 ? tr("one run's curve (e.g. post-processing over γ)")
                                 : tr("%1 runs' curves (e.g. post-processing over γ)").arg(curves);
        entry.symbol = Entry::Symbol::Trail;
        entry.brush = chart_style::viridis(0.3);
        entry.pen = QPen(QColor(120, 120, 120), 1.8);
        entries.push_back(entry);
    }
    if (contents.front) {
        Entry entry;
        entry.text = tr("Pareto front");
        entry.symbol = Entry::Symbol::Line;
        entry.pen = chart_style::paretoFrontPen();
        entries.push_back(entry);
    }
    if (!contents.constant.isEmpty()) {
        Entry entry;
        entry.text = contents.constant;
        entry.symbol = Entry::Symbol::Trail;  // its level through its point
        entry.pen = contents.constantPen;
        entry.brush = QColor(110, 110, 110);
        entries.push_back(entry);
    }
    if (const int trail = contents.trail; trail > 0) {
        Entry entry;
        entry.text =
            trail == 1 ? tr("live-mode trail (1 run)") : tr("live-mode trail (%1 runs)").arg(trail);
        entry.symbol = Entry::Symbol::Trail;
        entry.brush = chart_style::viridis(0.3);
        entry.pen = QPen(QColor(120, 120, 120), 1.2);
        entries.push_back(entry);
    }
    if (const pfa::TrainConfig* live = contents.live) {
        Entry entry;
        entry.text =
            tr("running: %1, %2")
                .arg(chart_style::curvePointText(*live), chart_style::epsilonLabel(live->epsilon));
        entry.brush = QColor(Qt::white);
        entry.pen = contents.livePen;
        entries.push_back(entry);
    }
    m_entryAlgorithm.resize(entries.size());
    m_legend->setEntries(std::move(entries));

    std::vector<double> epsilons = contents.epsilons;
    std::sort(epsilons.begin(), epsilons.end());
    epsilons.erase(std::unique(epsilons.begin(), epsilons.end()), epsilons.end());
    m_colorBar->setMarkedEpsilons(std::move(epsilons));
    m_colorBar->setPalette(contents.palette);
    layout();
}

void TradeoffLegend::layout() {
    if (m_layingOut) return;
    m_layingOut = true;
    const QRectF area = m_chart->rect();
    constexpr int kEdge = 6;
    const qreal barWidth = m_colorBar->preferredWidth();
    const qreal legendHeight = m_legend->layoutForWidth(area.width() - 2 * kEdge);
    const QMargins wanted(
        kEdge, kEdge, kEdge + static_cast<int>(std::ceil(barWidth)) + 10,
        kEdge + static_cast<int>(std::ceil(legendHeight)) + (legendHeight > 0 ? 6 : 0));
    if (m_chart->margins() != wanted) m_chart->setMargins(wanted);  // plotAreaChanged follows
    m_legend->setPos(area.left() + kEdge, area.bottom() - kEdge - legendHeight);
    const QRectF plot = m_chart->plotArea();
    m_colorBar->setArea(
        QRectF(area.right() - kEdge - barWidth, plot.top() - 4, barWidth, plot.height() + 4));
    m_layingOut = false;
}

}  // namespace pfa::ui
