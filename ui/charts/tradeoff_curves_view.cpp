#include "ui/charts/tradeoff_curves_view.h"

#include <QCursor>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QPainter>
#include <QTextDocument>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
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
#include "core/fairness/fairness_notion.h"
#include "core/fairness/pareto.h"
#include "core/util/format.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/series_legend.h"
#include "ui/charts/whisker_item.h"

namespace pfa::ui {

namespace {

/// The value of `setting` in a cell's key (λ from the cell itself); +∞ sorts last.
double curveValueOf(const pfa::SweepCell& cell, const std::string& setting) {
    if (setting == "lambda") return cell.lambda;
    for (const auto& [name, value] : pfa::runKeySettings(cell.cellKey)) {
        if (name != setting) continue;
        if (value == "inf") return INFINITY;
        char* end = nullptr;
        const double number = std::strtod(value.c_str(), &end);
        return end != value.c_str() ? number : NAN;
    }
    return NAN;
}

/// A point's label value: "0.05", "∞" (no constraint), or the raw text of a non-numeric value.
QString curveValueText(const pfa::SweepCell& cell, const std::string& setting) {
    const double value = curveValueOf(cell, setting);
    if (std::isinf(value)) return QStringLiteral("∞");
    if (std::isnan(value)) return QStringLiteral("?");
    return QString::fromStdString(pfa::formatNumber(value, 3));
}

// Reference methods get colours that differ from the ε scale.
QColor referenceColor(int index) {
    static const QColor colors[] = {QColor(213, 94, 0),  QColor(204, 121, 167),
                                    QColor(230, 159, 0), QColor(86, 180, 233),
                                    QColor(0, 158, 115), QColor(120, 60, 20)};
    return colors[static_cast<std::size_t>(index) % 6];
}

}  // namespace

/// Small "λ=…" labels next to the points of the curves: which point is which λ, without a
/// hover. Each label takes the first free place around its point (right, left, above, below);
/// one that would cover another label or a point is left out rather than drawn over it (the
/// tooltip still tells). The item lives in the chart's scene, so exports show the labels.
class PointLabelItem : public QGraphicsItem {
public:
    struct Label {
        double x = 0.0, y = 0.0;  ///< the point, in data coordinates
        QString text;
        double dx = 0.0, dy = 0.0;  ///< its whiskers' half-lengths, which labels avoid if they can
        /// The curve's markers: the label is placed only while they are shown.
        const QAbstractSeries* owner = nullptr;
    };

    PointLabelItem(QChart* chart, QAbstractSeries* series)
        : QGraphicsItem(chart), m_chart(chart), m_series(series) {
        setZValue(6);  // above the markers
        m_font = chart_style::labelFont();
        m_font.setPointSizeF(m_font.pointSizeF() * 0.85);
        m_plotAreaConnection =
            QObject::connect(chart, &QChart::plotAreaChanged, chart, [this] { update(); });
    }
    ~PointLabelItem() override { QObject::disconnect(m_plotAreaConnection); }

    void setLabels(std::vector<Label> labels) {
        prepareGeometryChange();
        m_labels = std::move(labels);
        update();
    }
    const std::vector<Label>& labels() const { return m_labels; }

    /// Where each label goes, in chart coordinates; an empty rectangle: left out.
    std::vector<QRectF> placements() const {
        const QRectF plot = m_chart->plotArea();
        const QFontMetricsF metrics(m_font);
        constexpr double marker = 6.5;  // half the marker size and a little air
        std::vector<QPointF> points;
        std::vector<QRectF> taken, whiskers;
        for (const Label& label : m_labels) {
            const QPointF p = m_chart->mapToPosition(QPointF(label.x, label.y), m_series);
            points.push_back(p);
            if (label.owner && !SeriesLegend::isShown(label.owner)) continue;
            taken.emplace_back(p.x() - marker, p.y() - marker, 2 * marker, 2 * marker);
            for (const auto& [dx, dy] : {std::pair{label.dx, 0.0}, std::pair{0.0, label.dy}}) {
                if (!(dx > 0 || dy > 0) || !std::isfinite(dx + dy)) continue;
                const QPointF low =
                    m_chart->mapToPosition(QPointF(label.x - dx, label.y - dy), m_series);
                const QPointF high =
                    m_chart->mapToPosition(QPointF(label.x + dx, label.y + dy), m_series);
                whiskers.push_back(QRectF(low, high).normalized().adjusted(-1.5, -1.5, 1.5, 1.5));
            }
        }
        std::vector<QRectF> placed;
        for (std::size_t i = 0; i < m_labels.size(); ++i) {
            if (m_labels[i].owner && !SeriesLegend::isShown(m_labels[i].owner)) {
                placed.emplace_back();
                continue;
            }
            const QPointF p = points[i];
            const double w = metrics.horizontalAdvance(m_labels[i].text) + 2, h = metrics.height();
            // Diagonal places first: straight right, left, above and below are where the
            // whiskers run.
            const QRectF candidates[] = {{p.x() + 3, p.y() - marker - h - 0.5, w, h},
                                         {p.x() + 3, p.y() + marker + 0.5, w, h},
                                         {p.x() - 3 - w, p.y() - marker - h - 0.5, w, h},
                                         {p.x() - 3 - w, p.y() + marker + 0.5, w, h},
                                         {p.x() + marker + 6, p.y() - h / 2, w, h},
                                         {p.x() - marker - w - 6, p.y() - h / 2, w, h}};
            // A place clear of whiskers too if there is one, else one that only crosses a whisker.
            auto clear = [&](const QRectF& candidate, const std::vector<QRectF>& obstacles) {
                return std::none_of(obstacles.begin(), obstacles.end(), [&](const QRectF& other) {
                    return other.intersects(candidate);
                });
            };
            QRectF chosen;
            for (bool avoidWhiskers : {true, false}) {
                for (const QRectF& candidate : candidates) {
                    if (!plot.contains(candidate) || !clear(candidate, taken)) continue;
                    if (avoidWhiskers && !clear(candidate, whiskers)) continue;
                    chosen = candidate;
                    break;
                }
                if (!chosen.isEmpty()) break;
            }
            if (!chosen.isEmpty()) taken.push_back(chosen);
            placed.push_back(chosen);
        }
        return placed;
    }

    QRectF boundingRect() const override { return m_chart->rect(); }

    void paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) override {
        const std::vector<QRectF> places = placements();
        painter->save();
        painter->setRenderHint(QPainter::TextAntialiasing);
        painter->setFont(m_font);
        painter->setPen(QColor(45, 45, 45));
        for (std::size_t i = 0; i < places.size(); ++i) {
            if (!places[i].isEmpty())
                painter->drawText(places[i], Qt::AlignCenter, m_labels[i].text);
        }
        painter->restore();
    }

private:
    QChart* m_chart;
    QAbstractSeries* m_series;
    QFont m_font;
    std::vector<Label> m_labels;
    QMetaObject::Connection m_plotAreaConnection;
};

TradeoffCurvesView::TradeoffCurvesView(QWidget* parent) : QWidget(parent) {
    m_chart = new QChart();
    // Two lines: one would be cut short ("…") in the dock at 1280×720.
    m_chart->setTitle(tr("Error vs fairness violation<br>(mean ± sd over seeds)"));
    chart_style::apply(m_chart);
    // The legend shows each algorithm's marker shape (colour = ε), as the plot does; it wraps
    // under the plot, and a click hides or shows a curve.
    m_legend = new SeriesLegend(m_chart);
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
    m_labels = new PointLabelItem(m_chart, m_front);
    m_view = new ChartView(m_chart, this);
    m_view->setEmptyMessage(tr("Run a sweep (Sweep → New sweep…) or a preset to fill this view"));
    m_view->setToolTip(
        tr("One curve per algorithm and ε over λ, or over the setting that traces the "
           "method's tradeoff (s: PF-LD's dual step, c: the reductions' tolerance, γ: "
           "post-processing's allowed gap, all points of one run); runs that differ in other "
           "settings form curves of their own, named by the difference; the small labels give "
           "each point's value; points are means over seeds with ± one standard deviation "
           "whiskers; dashed: Pareto front; hollow markers: reference results. "
           "Right-click to export."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    rebuild();
}

std::size_t TradeoffCurvesView::whiskerCount() const { return m_whiskers->count(); }

QStringList TradeoffCurvesView::lambdaLabels() const {
    QStringList texts;
    for (const PointLabelItem::Label& label : m_labels->labels()) texts << label.text;
    return texts;
}

int TradeoffCurvesView::placedLambdaLabels() const {
    const std::vector<QRectF> places = m_labels->placements();
    return static_cast<int>(
        std::count_if(places.begin(), places.end(), [](const QRectF& r) { return !r.isEmpty(); }));
}

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
    // Curves: cells equal in every setting but λ (and the seed), so runs that differ in
    // anything else (epochs, learning rate, …) never share a curve; such curves are named by
    // what tells them apart. A curve of the published calibration is shown by what the
    // accountant certifies: its largest certified ε (the guarantee of the whole curve) sets the
    // colour, the certified range the label.
    struct Curve {
        std::string algorithm;
        std::string setting;  ///< the algorithm's curve setting (λ, a dual step, γ, …)
        bool published = false;
        double nominal = 0.0;
        std::string distinction;
        std::vector<const pfa::SweepCell*> cells;
    };
    // Each algorithm's curve runs over its own setting (λ for penalty methods, the dual step,
    // a tolerance, or post-processing's γ); cells equal in all else form one curve.
    std::vector<std::string> varying{"lambda"};
    for (const pfa::SweepCell& cell : m_cells) {
        const std::string setting = pfa::curveSettingOf(cell.algorithm);
        if (std::find(varying.begin(), varying.end(), setting) == varying.end())
            varying.push_back(setting);
    }
    std::vector<Curve> curves;
    for (const pfa::SweepGroup& group :
         pfa::groupCells(m_cells, varying, {"algorithm", "epsilon", "calibration"})) {
        Curve curve;
        for (std::size_t index : group.cells) {
            const pfa::SweepCell& cell = m_cells[index];
            if (cell.testError.n == 0 || !std::isfinite(cell.testError.mean) ||
                !std::isfinite(cell.violation.mean))
                continue;
            curve.cells.push_back(&cell);
        }
        if (curve.cells.empty()) continue;
        curve.algorithm = curve.cells.front()->algorithm;
        curve.setting = pfa::curveSettingOf(curve.algorithm);
        curve.published = curve.cells.front()->knownGaps;
        curve.nominal = curve.cells.front()->epsilon;
        curve.distinction = group.distinction;
        curves.push_back(std::move(curve));
    }
    std::stable_sort(curves.begin(), curves.end(), [](const Curve& a, const Curve& b) {
        return std::tie(a.algorithm, a.published, a.nominal) <
               std::tie(b.algorithm, b.published, b.nominal);
    });
    auto shownOf = [](const std::vector<const pfa::SweepCell*>& cells) {
        double shown = 0.0;
        for (const pfa::SweepCell* cell : cells) shown = std::max(shown, cell->shownEpsilon());
        return shown;
    };
    std::vector<WhiskerItem::Whisker> whiskers;
    std::vector<PointLabelItem::Label> labels;
    std::vector<pfa::TradeoffPoint> means;
    double xMax = 0.02, yMin = 1.0, yMax = 0.0;
    m_points = 0;
    m_curveNames.clear();
    m_curveColors.clear();
    m_curveStyles.clear();
    m_tips.clear();
    std::map<std::tuple<std::string, bool, double>, int> sameColour;
    std::map<std::string, int> algorithmOrder;  ///< algorithms in the order their curves come
    // Colours by rank among the budgets of the curves shown (EpsilonPalette): 0.5 and 1 apart.
    std::vector<double> budgets;
    for (const Curve& curve : curves) budgets.push_back(shownOf(curve.cells));
    const chart_style::EpsilonPalette palette(budgets);
    for (Curve& curve : curves) {
        auto& cells = curve.cells;
        const std::string& setting = curve.setting;
        std::sort(cells.begin(), cells.end(), [&setting](const auto* a, const auto* b) {
            const auto key = [&setting](const pfa::SweepCell& cell) {
                const double value = curveValueOf(cell, setting);
                return std::isnan(value) ? INFINITY : value;
            };
            return key(*a) < key(*b);
        });
        const QString symbol = chart_style::curveSettingSymbol(setting);
        const std::string& algorithm = curve.algorithm;
        const bool published = curve.published;
        const double nominal = curve.nominal;
        const double shown = shownOf(cells);
        const QColor color = palette.color(shown);
        // Series names are rich text in Qt Charts; the algorithm comes from a results file.
        const QString algorithmName = QString::fromStdString(algorithm).toHtmlEscaped();
        QString name =
            QStringLiteral("%1, %2").arg(algorithmName, chart_style::epsilonLabel(nominal));
        if (published) {
            double low = INFINITY;
            for (const pfa::SweepCell* cell : cells) low = std::min(low, cell->shownEpsilon());
            const QString range = low == shown
                                      ? QString::fromStdString(pfa::formatNumber(shown, 3))
                                      : QStringLiteral("%1–%2").arg(
                                            QString::fromStdString(pfa::formatNumber(low, 3)),
                                            QString::fromStdString(pfa::formatNumber(shown, 3)));
            name = tr("%1 (published), certified ε %2").arg(algorithmName, range);
        }
        if (!curve.distinction.empty())
            name += QStringLiteral(" (%1)").arg(
                QString::fromStdString(curve.distinction).toHtmlEscaped());
        m_curveNames << name;
        m_curveColors << color;
        // Colour is ε: algorithms at one ε differ by marker and by line style (DP-FERMI solid,
        // the next algorithm dashed, …); curves of one algorithm and ε that differ in another
        // setting step on to the next style (their names say how they differ).
        const int repeat = sameColour[{algorithm, published, nominal}]++;
        const auto algorithmIndex = static_cast<int>(
            algorithmOrder.emplace(algorithm, static_cast<int>(algorithmOrder.size()))
                .first->second);
        const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
        auto* line = new QLineSeries();
        line->setPen(QPen(color, 1.6, styles[(algorithmIndex + repeat) % 4]));
        m_curveStyles << line->pen().style();
        auto* markers = new QScatterSeries();
        markers->setColor(color);
        markers->setBorderColor(QColor(30, 30, 30));
        markers->setMarkerShape(chart_style::markerForAlgorithm(QString::fromStdString(algorithm)));
        // A dense curve (a post-processing run's dozens of γ values) in small markers, so its
        // points read as a curve rather than a smear.
        markers->setMarkerSize(cells.size() > 15 ? 6.5 : 11);
        markers->setName(name);
        for (const pfa::SweepCell* cell : cells) {
            const double x = cell->violation.mean, y = cell->testError.mean;
            const QString valueText = curveValueText(*cell, setting);
            QString tip = tr("%1, %2 = %3: test error %4, violation %5 (mean of %6 seed(s))")
                              .arg(QString::fromStdString(algorithm), symbol, valueText)
                              .arg(y, 0, 'f', 4)
                              .arg(x, 0, 'f', 4)
                              .arg(cell->testError.n);
            tip +=
                published
                    ? tr("\ncertified ε = %1 (nominal ε = %2 of the published closed form, "
                         "which the accountant does not certify)")
                          .arg(QString::fromStdString(pfa::formatNumber(cell->shownEpsilon(), 4)),
                               QString::fromStdString(pfa::formatNumber(nominal, 4)))
                    : tr("\nε = %1 (certified: at most %2)")
                          .arg(
                              QString::fromStdString(pfa::formatNumber(nominal, 4)),
                              QString::fromStdString(pfa::formatNumber(cell->epsilonSpent.max, 4)));
            if (!curve.distinction.empty())
                tip += QStringLiteral("\n%1").arg(QString::fromStdString(curve.distinction));
            m_tips.push_back({x, y, tip});
            labels.push_back({x, y, QStringLiteral("%1=%2").arg(symbol, valueText),
                              cell->violation.sd, cell->testError.sd, markers});
            line->append(x, y);
            markers->append(x, y);
            whiskers.push_back(
                {x, y, cell->violation.sd, cell->testError.sd, color.darker(115), markers});
            means.push_back({x, y});
            xMax = std::max(xMax, x + cell->violation.sd);
            yMin = std::min(yMin, y - cell->testError.sd);
            yMax = std::max(yMax, y + cell->testError.sd);
            ++m_points;
        }
        for (QAbstractSeries* series :
             {static_cast<QAbstractSeries*>(line), static_cast<QAbstractSeries*>(markers)}) {
            m_chart->addSeries(series);
            series->attachAxis(m_x);
            series->attachAxis(m_y);
        }
        SeriesLegend::tie(markers, line);
        connect(markers, &QScatterSeries::hovered, this, [this](const QPointF& point, bool state) {
            if (!state) {
                QToolTip::hideText();
                return;
            }
            QToolTip::showText(
                QCursor::pos(),
                Qt::convertFromPlainText(tooltipAt(point.x(), point.y()), Qt::WhiteSpaceNormal),
                m_view);
        });
    }
    m_labels->setLabels(std::move(labels));
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
    SeriesLegend::leaveOut(m_front, front.size() <= 1);
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
    m_legend->refresh();
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
