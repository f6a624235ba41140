#include "ui/charts/tradeoff_curves_view.h"

#include <QCursor>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <QTextDocument>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/fairness/fairness_notion.h"
#include "core/fairness/pareto.h"
#include "core/util/format.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/whisker_item.h"

namespace pfa::ui {

namespace {

// Reference methods get colours that differ from the ε scale.
QColor referenceColor(int index) {
    static const QColor colors[] = {QColor(213, 94, 0), QColor(204, 121, 167), QColor(230, 159, 0),
                                    QColor(86, 180, 233), QColor(0, 158, 115), QColor(120, 60, 20)};
    return colors[static_cast<std::size_t>(index) % 6];
}

}  // namespace

TradeoffCurvesView::TradeoffCurvesView(QWidget* parent) : QWidget(parent) {
    m_chart = new QChart();
    m_chart->setTitle(tr("Error vs fairness violation (mean ± sd over seeds)"));
    chart_style::apply(m_chart);
    m_chart->legend()->setAlignment(Qt::AlignRight);
    m_x = new QValueAxis();
    m_y = new QValueAxis();
    chart_style::addAxis(m_chart, m_x, Qt::AlignBottom, tr("fairness violation (test set)"));
    chart_style::addAxis(m_chart, m_y, Qt::AlignLeft, tr("test error"));
    m_front = new QLineSeries();
    m_front->setName(tr("Pareto front"));
    m_front->setPen(chart_style::paretoFrontPen());
    m_chart->addSeries(m_front);
    m_front->attachAxis(m_x);
    m_front->attachAxis(m_y);
    m_whiskers = new WhiskerItem(m_chart, m_front);
    m_view = new ChartView(m_chart, this);
    m_view->setEmptyMessage(tr("Run a sweep (Sweep → New sweep…) or a preset to fill this view"));
    m_view->setToolTip(tr("One curve per algorithm and ε over λ; points are means over seeds with "
                          "± one standard deviation whiskers; dashed: Pareto front; hollow markers: "
                          "reference results. Right-click to export."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    rebuild();
}

std::size_t TradeoffCurvesView::whiskerCount() const { return m_whiskers->count(); }

void TradeoffCurvesView::setCells(const std::vector<pfa::SweepCell>& cells, const QString& notion) {
    m_cells = cells;
    m_notion = notion;
    rebuild();
}

void TradeoffCurvesView::setReferencePoints(const std::vector<pfa::ReferencePoint>& points) {
    m_referencePoints = points;
    rebuild();
}

void TradeoffCurvesView::rebuild() {
    for (QAbstractSeries* series : m_chart->series()) {
        if (series == m_front) continue;
        m_chart->removeSeries(series);
        delete series;
    }
    // Curves: (algorithm, published?, nominal ε) → cells sorted by λ. A curve of the published
    // calibration is shown by what the accountant certifies: its largest certified ε (the
    // guarantee of the whole curve) sets the colour, the certified range the label.
    using CurveKey = std::tuple<std::string, bool, double>;
    std::map<CurveKey, std::vector<const pfa::SweepCell*>> curves;
    for (const pfa::SweepCell& cell : m_cells) {
        if (cell.testError.n == 0 || !std::isfinite(cell.testError.mean) || !std::isfinite(cell.violation.mean)) continue;
        curves[{cell.algorithm, cell.knownGaps, cell.epsilon}].push_back(&cell);
    }
    auto shownOf = [](const std::vector<const pfa::SweepCell*>& cells) {
        double shown = 0.0;
        for (const pfa::SweepCell* cell : cells) shown = std::max(shown, cell->shownEpsilon());
        return shown;
    };
    std::vector<WhiskerItem::Whisker> whiskers;
    std::vector<pfa::TradeoffPoint> means;
    double xMax = 0.02, yMin = 1.0, yMax = 0.0;
    m_points = 0;
    m_curveNames.clear();
    m_tips.clear();
    std::set<double> budgets;  // finite ε values shown, for evenly spread colours
    for (const auto& entry : curves) {
        const double shown = shownOf(entry.second);
        if (std::isfinite(shown)) budgets.insert(shown);
    }
    for (auto& [key, cells] : curves) {
        std::sort(cells.begin(), cells.end(), [](const auto* a, const auto* b) { return a->lambda < b->lambda; });
        const auto& [algorithm, published, nominal] = key;
        const double shown = shownOf(cells);
        const auto rank = std::distance(budgets.begin(), budgets.find(shown));
        const QColor color = std::isfinite(shown)
                                 ? chart_style::colorForEpsilonRank(static_cast<int>(rank), static_cast<int>(budgets.size()))
                                 : chart_style::colorForEpsilon(shown);
        // Series names are rich text in Qt Charts; the algorithm comes from a results file.
        const QString algorithmName = QString::fromStdString(algorithm).toHtmlEscaped();
        QString name =
            QStringLiteral("%1, %2").arg(algorithmName, chart_style::epsilonLabel(nominal));
        if (published) {
            double low = INFINITY;
            for (const pfa::SweepCell* cell : cells) low = std::min(low, cell->shownEpsilon());
            const QString range = low == shown ? QString::fromStdString(pfa::formatNumber(shown, 3))
                                               : QStringLiteral("%1–%2").arg(QString::fromStdString(pfa::formatNumber(low, 3)),
                                                                             QString::fromStdString(pfa::formatNumber(shown, 3)));
            name = tr("%1 (published), certified ε %2").arg(algorithmName, range);
        }
        m_curveNames << name;
        auto* line = new QLineSeries();
        line->setPen(QPen(color, 1.6));
        auto* markers = new QScatterSeries();
        markers->setColor(color);
        markers->setBorderColor(QColor(30, 30, 30));
        markers->setMarkerShape(chart_style::markerForAlgorithm(QString::fromStdString(algorithm)));
        markers->setMarkerSize(11);
        markers->setName(name);
        for (const pfa::SweepCell* cell : cells) {
            const double x = cell->violation.mean, y = cell->testError.mean;
            QString tip = tr("%1, λ = %2: test error %3, violation %4 (mean of %5 seed(s))")
                              .arg(QString::fromStdString(algorithm),
                                   QString::fromStdString(pfa::formatNumber(cell->lambda, 3)))
                              .arg(y, 0, 'f', 4)
                              .arg(x, 0, 'f', 4)
                              .arg(cell->testError.n);
            tip += published ? tr("\ncertified ε = %1 (nominal ε = %2 of the published closed form, "
                                  "which the accountant does not certify)")
                                   .arg(QString::fromStdString(pfa::formatNumber(cell->shownEpsilon(), 4)),
                                        QString::fromStdString(pfa::formatNumber(nominal, 4)))
                             : tr("\nε = %1 (certified: at most %2)")
                                   .arg(QString::fromStdString(pfa::formatNumber(nominal, 4)),
                                        QString::fromStdString(pfa::formatNumber(cell->epsilonSpent.max, 4)));
            m_tips.push_back({x, y, tip});
            line->append(x, y);
            markers->append(x, y);
            whiskers.push_back({x, y, cell->violation.sd, cell->testError.sd, color.darker(115)});
            means.push_back({x, y});
            xMax = std::max(xMax, x + cell->violation.sd);
            yMin = std::min(yMin, y - cell->testError.sd);
            yMax = std::max(yMax, y + cell->testError.sd);
            ++m_points;
        }
        for (QAbstractSeries* series : {static_cast<QAbstractSeries*>(line), static_cast<QAbstractSeries*>(markers)}) {
            m_chart->addSeries(series);
            series->attachAxis(m_x);
            series->attachAxis(m_y);
        }
        for (QLegendMarker* marker : m_chart->legend()->markers(line)) marker->setVisible(false);
        connect(markers, &QScatterSeries::hovered, this, [this](const QPointF& point, bool state) {
            if (!state) {
                QToolTip::hideText();
                return;
            }
            QToolTip::showText(QCursor::pos(), Qt::convertFromPlainText(tooltipAt(point.x(), point.y()), Qt::WhiteSpaceNormal), m_view);
        });
    }
    // Reference points of the same notion: hollow markers, one legend entry per method.
    m_references = 0;
    m_referenceMethods.clear();
    std::map<std::string, QScatterSeries*> methods;
    const std::string notionCode = m_cells.empty() ? std::string() : m_cells.front().fairness;
    for (const pfa::ReferencePoint& p : m_referencePoints) {
        if (!notionCode.empty() && p.fairness != notionCode) continue;
        QScatterSeries*& series = methods[p.method];
        if (!series) {
            series = new QScatterSeries();
            const QColor color = referenceColor(static_cast<int>(methods.size()) - 1);
            series->setColor(Qt::transparent);
            series->setBorderColor(color);
            series->setPen(QPen(color, 2.2));
            series->setMarkerSize(13);
            series->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
            // Series names are rich text in Qt Charts; the method comes from the user's file.
            series->setName(
                tr("%1 (reference)").arg(QString::fromStdString(p.method).toHtmlEscaped()));
            m_referenceMethods << QString::fromStdString(p.method);
            m_chart->addSeries(series);
            series->attachAxis(m_x);
            series->attachAxis(m_y);
            // The legend shows the same hollow, coloured marker as the plot.
            for (QLegendMarker* marker : m_chart->legend()->markers(series)) {
                marker->setPen(QPen(color, 2.0));
                marker->setBrush(Qt::NoBrush);
            }
        }
        series->append(p.violation, p.error);
        xMax = std::max(xMax, p.violation);
        yMin = std::min(yMin, p.error);
        yMax = std::max(yMax, p.error);
        ++m_references;
    }
    // Pareto front of the means, as a step line.
    const std::vector<std::size_t> front = pfa::paretoFront(means);
    QList<QPointF> steps;
    for (std::size_t k = 0; k < front.size(); ++k) {
        if (k > 0) steps.append(QPointF(means[front[k]].x, means[front[k - 1]].y));
        steps.append(QPointF(means[front[k]].x, means[front[k]].y));
    }
    m_front->replace(steps);
    for (QLegendMarker* marker : m_chart->legend()->markers(m_front)) marker->setVisible(front.size() > 1);
    m_whiskers->setWhiskers(std::move(whiskers));

    if (m_points == 0 && m_references == 0) {
        yMin = 0.0;
        yMax = 0.5;
    }
    const double pad = std::max(0.005, (yMax - yMin) * 0.08);
    chart_style::setNiceRange(m_x, 0.0, xMax * 1.08, 5);
    chart_style::setNiceRange(m_y, std::max(0.0, yMin - pad), std::min(1.0, yMax + pad), 5);
    m_x->setTitleText(m_notion.isEmpty() ? tr("fairness violation (test set)")
                                         : tr("%1 violation (test set)").arg(m_notion));
    m_view->setEmpty(m_points == 0 && m_references == 0);
}

QString TradeoffCurvesView::tooltipAt(double violation, double error) const {
    const PointTip* best = nullptr;
    double bestDistance = INFINITY;
    for (const PointTip& tip : m_tips) {
        const double distance = std::hypot(tip.x - violation, tip.y - error);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = &tip;
        }
    }
    return best ? best->text : QString();
}

}  // namespace pfa::ui
