#include "ui/charts/privacy_price_view.h"

#include <QBoxLayout>
#include <QHBoxLayout>
#include <QResizeEvent>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "core/algorithms/registry.h"
#include "core/util/format.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/series_legend.h"
#include "ui/charts/whisker_item.h"

namespace pfa::ui {

namespace {

QColor algorithmColor(const std::string& algorithm) {
    // Declared by each algorithm (Okabe–Ito), so both charts agree.
    return QColor(static_cast<QRgb>(presentationOf(algorithm).colour));
}

}  // namespace

PrivacyPriceView::PrivacyPriceView(QWidget* parent) : QWidget(parent) {
    // Side by side where there is room, one above the other in a narrow dock (resizeEvent);
    // the minimum is the stacked one, so the view never forces the dock wider.
    auto* layout = new QBoxLayout(QBoxLayout::LeftToRight, this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSizeConstraint(QLayout::SetNoConstraint);
    const QString titles[] = {tr("Test error vs ε"), tr("Fairness violation vs ε")};
    for (int i = 0; i < 2; ++i) {
        m_charts[i] = new QChart();
        m_charts[i]->setTitle(titles[i]);
        chart_style::apply(m_charts[i]);
        m_legends[i] = new SeriesLegend(m_charts[i]);
        // ε on a log scale, with ticks exactly at the sweep's ε values (a log axis would label
        // powers of ten only): the series carry log10 ε, the category labels show ε.
        m_x[i] = new QCategoryAxis();
        m_x[i]->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        m_y[i] = new QValueAxis();
        chart_style::addAxis(m_charts[i], m_x[i], Qt::AlignBottom, tr("ε (log scale)"));
        chart_style::addAxis(m_charts[i], m_y[i], Qt::AlignLeft,
                             i == 0 ? tr("test error") : tr("violation"));
        m_views[i] = new ChartView(m_charts[i], this);
        m_views[i]->setEmptyMessage(tr("Needs a sweep over several ε values"));
        layout->addWidget(m_views[i]);
    }
}

QSize PrivacyPriceView::minimumSizeHint() const {
    const QSize error = m_views[0]->minimumSizeHint().expandedTo(m_views[0]->minimumSize());
    const QSize violation = m_views[1]->minimumSizeHint().expandedTo(m_views[1]->minimumSize());
    return {std::max(error.width(), violation.width()), error.height() + violation.height()};
}

void PrivacyPriceView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    auto* box = static_cast<QBoxLayout*>(layout());
    const int sideBySide = m_views[0]->minimumWidth() + m_views[1]->minimumWidth() + 8;
    const QBoxLayout::Direction direction =
        width() >= sideBySide ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (box->direction() != direction) box->setDirection(direction);
}

void PrivacyPriceView::setCells(const std::vector<pfa::SweepCell>& cells, double lambda,
                                const QString& notion) {
    m_points = 0;
    m_lineNames.clear();
    // One line over ε per group of cells equal in every other setting (so runs that differ in
    // epochs or a learning rate never join a line); finite ε on the line, ε = ∞ a reference
    // level. Lines that share an algorithm are named by what differs.
    std::vector<pfa::SweepCell> atLambda;
    for (const pfa::SweepCell& cell : cells) {
        if (cell.lambda == lambda && cell.testError.n > 0) atLambda.push_back(cell);
    }
    m_cells = std::move(atLambda);
    std::map<std::string, std::vector<const pfa::SweepCell*>> lines;
    std::map<std::string, const pfa::SweepCell*> unlimited;
    std::map<std::string, QColor> colors;
    std::map<std::string, int> perAlgorithm;
    for (const pfa::SweepGroup& group :
         pfa::groupCells(m_cells, {"epsilon"}, {"algorithm", "calibration"})) {
        const pfa::SweepCell& first = m_cells[group.cells.front()];
        // Published-calibration runs stand at the ε the accountant certifies (their nominal ε is
        // not a guarantee), and form their own line.
        std::string line =
            first.knownGaps ? first.algorithm + " (published, certified ε)" : first.algorithm;
        if (!group.distinction.empty()) line += " (" + group.distinction + ")";
        // A second line of one algorithm gets a darker, a third a lighter shade of its colour.
        const int shade = perAlgorithm[first.algorithm]++;
        const QColor base = algorithmColor(first.algorithm);
        colors[line] = shade == 0       ? base
                       : shade % 2 == 1 ? base.darker(100 + 80 * ((shade + 1) / 2))
                                        : base.lighter(100 + 60 * (shade / 2));
        for (std::size_t index : group.cells) {
            const pfa::SweepCell& cell = m_cells[index];
            if (std::isinf(cell.shownEpsilon())) {
                unlimited[line] = &cell;
            } else {
                lines[line].push_back(&cell);
            }
        }
    }
    std::set<double> ticks;
    for (const auto& entry : lines) {
        for (const pfa::SweepCell* cell : entry.second) ticks.insert(cell->shownEpsilon());
    }
    double xLow = 0.0, xHigh = 0.0;
    for (QCategoryAxis* axis : m_x)
        std::tie(xLow, xHigh) = chart_style::setLogEpsilonAxis(axis, ticks);
    for (int i = 0; i < 2; ++i) {
        QChart* chart = m_charts[i];
        // The whisker item maps through a series' axes: it goes before the series do.
        delete m_whiskers[i];
        m_whiskers[i] = nullptr;
        for (QAbstractSeries* series : chart->series()) {
            chart->removeSeries(series);
            delete series;
        }
        auto value = [i](const pfa::SweepCell& c) { return i == 0 ? c.testError : c.violation; };
        std::vector<WhiskerItem::Whisker> whiskers;
        double yMax = 0.0;
        // Cells without this value (no fairness violation for regression runs) draw nothing.
        bool anyValue = false;
        QAbstractSeries* anySeries = nullptr;
        for (auto& [algorithm, list] : lines) {
            std::sort(list.begin(), list.end(), [](const auto* a, const auto* b) {
                return a->shownEpsilon() < b->shownEpsilon();
            });
            const QColor color = colors[algorithm];
            auto* line = new QLineSeries();
            line->setName(
                QString::fromStdString(algorithm).toHtmlEscaped());  // rich text in Qt Charts
            if (i == 0) m_lineNames << line->name();
            line->setPen(QPen(color, 2.0));
            auto* dots = new QScatterSeries();
            dots->setColor(color);
            dots->setMarkerSize(9);
            for (const pfa::SweepCell* cell : list) {
                const pfa::MeanSd s = value(*cell);
                if (!std::isfinite(s.mean)) continue;
                anyValue = true;
                const double x = std::log10(cell->shownEpsilon());
                line->append(x, s.mean);
                dots->append(x, s.mean);
                const double sd = std::isfinite(s.sd) ? s.sd : 0.0;
                whiskers.push_back({x, s.mean, 0.0, sd, color, line});
                yMax = std::max(yMax, s.mean + sd);
                if (i == 0) ++m_points;
            }
            for (QAbstractSeries* series :
                 {static_cast<QAbstractSeries*>(line), static_cast<QAbstractSeries*>(dots)}) {
                chart->addSeries(series);
                series->attachAxis(m_x[i]);
                series->attachAxis(m_y[i]);
            }
            SeriesLegend::tie(line, dots);
            anySeries = line;
        }
        for (const auto& [algorithm, cell] : unlimited) {
            const double y = value(*cell).mean;
            if (!std::isfinite(y)) continue;
            anyValue = true;
            const QColor color = colors[algorithm];
            auto* level = new QLineSeries();
            level->setName(tr("%1, ε = ∞").arg(QString::fromStdString(algorithm).toHtmlEscaped()));
            level->setPen(QPen(color, 1.6, Qt::DashLine));
            level->append(xLow, y);
            level->append(xHigh, y);
            yMax = std::max(yMax, y);
            chart->addSeries(level);
            level->attachAxis(m_x[i]);
            level->attachAxis(m_y[i]);
            anySeries = anySeries ? anySeries : level;
        }
        chart_style::setNiceRange(m_y[i], 0.0, std::max(0.01, yMax * 1.1), 4);
        if (anySeries) {
            m_whiskers[i] = new WhiskerItem(chart, anySeries);
            m_whiskers[i]->setWhiskers(std::move(whiskers));
        }
        QString violation = notion.isEmpty() ? tr("Fairness") : notion;
        violation[0] = violation[0].toUpper();
        chart->setTitle((i == 0 ? tr("Test error vs ε") : tr("%1 violation vs ε").arg(violation)) +
                        tr(" at λ = %1").arg(QString::fromStdString(pfa::formatNumber(lambda, 3))));
        const bool noCells = lines.empty() && unlimited.empty();
        m_views[i]->setEmptyMessage(
            noCells  ? tr("Needs a sweep over several ε values")
            : i == 0 ? tr("The runs recorded no test error")
                     : tr("No fairness violation: these runs predict no classes (regression)"));
        m_views[i]->setEmpty(!anyValue);
        m_legends[i]->refresh();
    }
}

}  // namespace pfa::ui
