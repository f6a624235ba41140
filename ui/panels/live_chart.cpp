#include "ui/panels/live_chart.h"

#include <QGraphicsSimpleTextItem>
#include <QPen>
#include <QtCharts/QChart>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>

#include "core/util/format.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/chart_view.h"

namespace pfa::ui {

using live_chart::kError;
using live_chart::kFairness;
using live_chart::kLoss;
using live_chart::kPrivacy;

namespace {

/// Plot width assumed before the chart was laid out (hidden, offscreen).
constexpr double kUnlaidPlotWidth = 800.0;

// "Nice" upper bound for an axis: 1, 2 or 5 times a power of ten above `value`.
double niceCeiling(double value) {
    if (!(value > 0) || !std::isfinite(value)) return 1.0;
    const double power = std::pow(10.0, std::floor(std::log10(value)));
    for (double step : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (step * power >= value) return step * power;
    }
    return 10 * power;
}

// δ for a chart title: "1.1 × 10⁻⁹" (small values), "0.01".
QString deltaText(double delta) {
    if (!(delta > 0) || !std::isfinite(delta)) return QStringLiteral("–");
    if (delta >= 1e-3) return QString::fromStdString(pfa::formatNumber(delta, 2));
    int exponent = static_cast<int>(std::floor(std::log10(delta)));
    double mantissa = std::round(delta / std::pow(10.0, exponent) * 10.0) / 10.0;
    if (mantissa >= 10.0) {
        mantissa /= 10.0;
        ++exponent;
    }
    static const char16_t* const digits = u"⁰¹²³⁴⁵⁶⁷⁸⁹";
    QString power = QStringLiteral("10⁻");
    for (QChar c : QString::number(-exponent)) power += QChar(digits[c.digitValue()]);
    if (mantissa == 1.0) return power;
    return QStringLiteral("%1 × %2").arg(QString::number(mantissa, 'f', 1), power);
}

// Shows or hides the legend entry of `series`. What was asked is remembered on the series: a
// marker's isVisible() follows its graphics item, which the legend hides while it lays itself
// out, so it cannot tell whether the entry is shown.
void showInLegend(QChart* chart, QLineSeries* series, bool shown) {
    const char* const property = "pfaLegendShown";
    const QVariant asked = series->property(property);
    if (asked.isValid() && asked.toBool() == shown) return;
    series->setProperty(property, shown);
    for (QLegendMarker* marker : chart->legend()->markers(series)) marker->setVisible(shown);
}

bool sameDelta(double a, double b) {
    return std::fabs(a - b) <= 1e-12 * std::max(std::fabs(a), std::fabs(b));
}

QString dashedName(int which) {
    return which == kError      ? QObject::tr("share of units removed")
           : which == kFairness ? QObject::tr("ERMI")
                                : QObject::tr("target ε");
}

}  // namespace

LiveChart::LiveChart(int which, QWidget* viewParent) : m_which(which) {
    const QString titles[] = {QObject::tr("Training loss"), QObject::tr("Test error"),
                              QObject::tr("Fairness violation"), QObject::tr("Privacy spent (ε)")};
    // Short: a vertical title sets how tall its chart must be (it is drawn whole), and at
    // 1280×720 the charts have no height to spare ("log loss" is the cross-entropy).
    const QString yTitles[] = {QObject::tr("log loss"), QObject::tr("error rate"),
                               QObject::tr("violation / ERMI"), QObject::tr("ε (accountant)")};
    m_chart = new QChart();
    m_chart->setTitle(titles[which]);
    chart_style::apply(m_chart);
    // Legend entries drawn as line samples, so the dashed key looks like the dashed lines.
    m_chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    m_chart->legend()->setShowToolTips(true);  // a name cut short in a narrow chart, in full
    m_x = new QValueAxis();
    m_y = new QValueAxis();
    chart_style::addAxis(m_chart, m_x, Qt::AlignBottom, QObject::tr("epoch"));
    chart_style::addAxis(m_chart, m_y, Qt::AlignLeft, yTitles[which]);
    if (which == kError || which == kFairness || which == kPrivacy) {
        // An empty series whose only job is the legend key of the dashed lines (the error
        // chart's only shows for runs that remove units: their share removed per epoch).
        m_key = new QLineSeries();
        m_key->setName(dashedName(which));
        m_key->setPen(QPen(QColor(90, 90, 90), 1.6, Qt::DashLine));
        m_chart->addSeries(m_key);
        m_key->attachAxis(m_x);
        m_key->attachAxis(m_y);
    }
    m_view = new ChartView(m_chart, viewParent);
    m_view->setEmptyMessage(QObject::tr("Press Run to train your first model"));
    if (which == kPrivacy) {
        m_view->setToolTip(QObject::tr(
            "ε spent so far as certified by the Rényi-DP accountant, at the δ in the title; the "
            "dashed line is the run's target ε. Right-click to export."));
    } else if (which == kLoss) {
        // Inside the plot area, so it takes no room from the axes of a small chart and is part
        // of every export of it.
        m_tag = new QGraphicsSimpleTextItem(QObject::tr("diagnostic — not private"), m_chart);
        QFont tagFont = m_tag->font();
        tagFont.setPointSizeF(tagFont.pointSizeF() * 0.85);
        tagFont.setBold(true);
        m_tag->setFont(tagFont);
        m_tag->setBrush(QColor(154, 52, 18));
        m_tag->setZValue(20);
        m_tag->setVisible(false);
        QGraphicsSimpleTextItem* tag = m_tag;
        QObject::connect(m_chart, &QChart::plotAreaChanged, m_chart, [tag](const QRectF& area) {
            tag->setPos(area.right() - tag->boundingRect().width() - 4, area.top() + 2);
        });
        m_view->setToolTip(
            QObject::tr("The training loss on all training rows after each epoch, round or step: "
                        "the mean cross-entropy (log loss) of classifiers, the squared loss of "
                        "regression. For "
                        "private runs this is a diagnostic computed exactly on the private rows: "
                        "it is not covered by the privacy guarantee (it can be switched off under "
                        "Advanced). Right-click to export."));
    } else if (which == kFairness) {
        m_view->setToolTip(QObject::tr(
            "Solid: the chosen fairness violation on the test set. Dashed: ERMI (exponential "
            "Rényi mutual information) of the same notion. Right-click to export."));
    }
}

QString LiveChart::tagText() const {
    return m_tag && m_tag->isVisible() ? m_tag->text() : QString();
}

void LiveChart::update(const std::vector<LiveCurve*>& shown, int smoothing) {
    const int which = m_which;
    QChart* chart = m_chart;
    // Per curve a faint raw series (behind), the main series and an extra one (ERMI or target
    // line); created lazily and never hidden (toggling a series' visibility resets its legend
    // marker): unused ones are simply empty.
    while (m_lines.size() < shown.size()) {
        auto* raw = new QLineSeries();
        auto* line = new QLineSeries();
        auto* extra = new QLineSeries();
        for (QLineSeries* series : {raw, line, extra}) {
            chart->addSeries(series);
            series->attachAxis(m_x);
            series->attachAxis(m_y);
        }
        raw->setName(QObject::tr("raw"));
        extra->setName(dashedName(which));
        showInLegend(chart, raw, false);
        showInLegend(chart, extra, false);
        m_raw.push_back(raw);
        m_lines.push_back(line);
        m_extras.push_back(extra);
    }

    // δ of the privacy chart: in the title when the private curves share it, else per curve.
    bool deltasDiffer = false;
    double delta = 0.0;
    if (which == kPrivacy) {
        bool first = true;
        for (const LiveCurve* curve : shown) {
            if (!curve->isPrivate) continue;
            if (first)
                delta = curve->config.delta;
            else if (!sameDelta(delta, curve->config.delta))
                deltasDiffer = true;
            first = false;
        }
        QString title = QObject::tr("Privacy spent (ε)");
        if (deltasDiffer)
            title = QObject::tr("ε spent (δ per run)");
        else if (delta > 0)
            title = QObject::tr("ε spent (δ = %1)").arg(deltaText(delta));  // short: narrow chart
        if (chart->title() != title) chart->setTitle(title);
    }

    // The loss chart names the loss the shown runs minimise: the cross-entropy of classifiers,
    // the squared loss of regression.
    if (which == kLoss) {
        int squared = 0, logLoss = 0;
        for (const LiveCurve* curve : shown) ++(curve->regression ? squared : logLoss);
        const QString yTitle = squared > 0 && logLoss > 0 ? QObject::tr("loss")
                               : squared > 0              ? QObject::tr("squared loss")
                                                          : QObject::tr("log loss");
        chart_style::setAxisTitle(m_y, yTitle);
    }
    // The error chart shows the excess risk of runs that report it, the test MSE of other
    // regression runs and the error rate of classifiers (titled for what it shows).
    if (which == kError) {
        int excess = 0, mse = 0, error = 0;
        for (const LiveCurve* curve : shown) {
            if (curve->metrics.empty()) continue;
            ++(curve->reportsExcessRisk() ? excess : curve->regression ? mse : error);
        }
        const int kinds = (excess > 0) + (mse > 0) + (error > 0);
        const QString title = kinds > 1    ? QObject::tr("Test error / excess risk")
                              : excess > 0 ? QObject::tr("Excess risk")
                              : mse > 0    ? QObject::tr("Test MSE")
                                           : QObject::tr("Test error");
        const QString yTitle = kinds > 1    ? QObject::tr("error / excess risk")
                               : excess > 0 ? QObject::tr("excess risk")
                               : mse > 0    ? QObject::tr("mean squared error")
                                            : QObject::tr("error rate");
        if (chart->title() != title) chart->setTitle(title);
        chart_style::setAxisTitle(m_y, yTitle);
    }

    // The x range first: the points are cut down to what its pixels can show.
    double xMax = 1.0;
    for (const LiveCurve* curve : shown) {
        xMax = std::max(xMax, static_cast<double>(curve->epochs));
        // Algorithms that report by round or step (not by epoch) number past the Epochs setting.
        if (!curve->metrics.empty())
            xMax = std::max(xMax, curve->progressOf(curve->metrics.back()));
    }
    chart_style::setNiceRange(m_x, 0.0, std::max(2.0, xMax), 5);
    // The x axis counts what the shown runs count: epochs, rounds or steps.
    QStringList units;
    for (const LiveCurve* curve : shown) {
        if (!units.contains(curve->unit)) units << curve->unit;
    }
    const QString xTitle =
        units.isEmpty() ? QObject::tr("epoch") : units.join(QStringLiteral(" / "));
    chart_style::setAxisTitle(m_x, xTitle);
    const double plotWidth =
        chart->plotArea().width() >= 50 ? chart->plotArea().width() : kUnlaidPlotWidth;
    m_plotWidth = chart->plotArea().width();
    const double xSpan = std::max(1e-9, m_x->max() - m_x->min());
    // The privacy chart shows the certified ε exactly as computed: never smoothed.
    const int window = which == kPrivacy ? 0 : smoothing;

    double yMax = 0.0;
    bool anyPoint = false, anyDashed = false;
    for (std::size_t c = 0; c < m_lines.size(); ++c) {
        QLineSeries* raw = m_raw[c];
        QLineSeries* line = m_lines[c];
        QLineSeries* extra = m_extras[c];
        const bool used = c < shown.size();
        // The runs are named once, in the legend above the four charts; a chart's own legend
        // keeps its dashed-line key (and each run's δ when they differ). Four copies of the
        // run names were cut to "DP-FERMI …" in charts a quarter of the window wide.
        showInLegend(chart, line, used && which == kPrivacy && deltasDiffer);
        if (!used) {
            raw->clear();
            line->clear();
            extra->clear();
            line->setProperty("pfaDrawnId", QVariant::fromValue(quint64(0)));
            continue;
        }
        LiveCurve& curve = *shown[c];
        const QColor color = curve.color(shown.size());
        // Setting a pen or a name re-lays out the legend: only do it when something changed.
        QPen pen(color, curve.live ? 2.6 : 2.2, Qt::SolidLine);
        pen.setCapStyle(Qt::RoundCap);
        if (line->pen() != pen) line->setPen(pen);
        QColor faint = color;
        faint.setAlphaF(0.3f);
        const QPen rawPen(faint, 1.2);
        if (raw->pen() != rawPen) raw->setPen(rawPen);
        QString name = curve.name;
        if (which == kPrivacy && deltasDiffer && curve.isPrivate) {
            name += QObject::tr(", δ = %1").arg(deltaText(curve.config.delta));
        }
        if (line->name() != name) line->setName(name);

        // The points of a curve change only when epochs arrive or the view changes: the runs
        // compared next to a live one are computed once, not 30 times a second.
        const LiveCurve::Drawn& drawn = curve.pointsFor(which, window, plotWidth, xSpan);
        yMax = std::max(yMax, drawn.yMax);
        anyPoint = anyPoint || drawn.finitePoints > 0;
        anyDashed = anyDashed || drawn.anyDashed;
        // One replace() per series, and none when the series shows these points already.
        const char* const shows = "pfaDrawnId";
        if (line->property(shows).toULongLong() != drawn.id) {
            raw->replace(drawn.raw);
            line->replace(drawn.line);
            extra->replace(drawn.extra);
            line->setProperty(shows, QVariant::fromValue(drawn.id));
        }
        QColor light = color;
        light.setAlphaF(0.75f);
        const QPen dashed(light, 1.6, Qt::DashLine);
        if (extra->pen() != dashed) extra->setPen(dashed);
    }
    if (m_key) showInLegend(chart, m_key, anyDashed);
    // Axis changes re-lay out the whole chart; the ranges only move in "nice" steps.
    double top = niceCeiling(yMax * 1.08);
    // An error rate never exceeds 1; an excess risk (a regression's) may.
    if (which == kError && m_y->titleText() == QObject::tr("error rate")) top = std::min(1.0, top);
    chart_style::setNiceRange(m_y, 0.0, top, 4);
    // Both ranges are set: their ticks again as many as their labels have room for (a run of
    // 100,000 epochs needs fewer six-digit labels on a narrow chart).
    m_view->fitTicks();

    const bool anyPrivate =
        std::any_of(shown.begin(), shown.end(), [](const LiveCurve* c) { return c->isPrivate; });
    const bool nonPrivateOnly = which == kPrivacy && !shown.empty() && !anyPrivate;
    QString message = nonPrivateOnly ? QObject::tr("Not private: ε = ∞ (no privacy accounting)")
                                     : QObject::tr("Press Run to train your first model");
    if (which == kLoss) {
        // Exact on the private training rows: say so on the chart itself, where it is read
        // (and where an exported figure carries it).
        if (m_tag->isVisible() != anyPrivate) m_tag->setVisible(anyPrivate);
        const bool anyMetrics = std::any_of(shown.begin(), shown.end(),
                                            [](const LiveCurve* c) { return !c->metrics.empty(); });
        if (anyPrivate && anyMetrics && !anyPoint) {
            message =
                QObject::tr("Not recorded: training diagnostics are off for this private run");
        }
    }
    // A regression has no fairness notion: say so rather than invite a first run.
    const bool regressionOnly =
        which == kFairness && !shown.empty() &&
        std::all_of(shown.begin(), shown.end(), [](const LiveCurve* c) { return c->regression; });
    if (regressionOnly && !anyPoint)
        message = QObject::tr("Regression: no fairness violation (no groups to compare)");
    m_view->setEmptyMessage(message);
    m_view->setEmpty(!anyPoint || nonPrivateOnly);
}

}  // namespace pfa::ui
