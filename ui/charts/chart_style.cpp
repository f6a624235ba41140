#include "ui/charts/chart_style.h"

#include <QApplication>
#include <QFontMetrics>
#include <QFontMetricsF>
#include <QPen>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>

#include "core/algorithms/registry.h"
#include "core/util/format.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/group_bar_chart.h"

namespace pfa::ui::chart_style {

namespace {

double g_presentationScale = 1.0;

}  // namespace

double presentationScale() { return g_presentationScale; }

void setPresentationScale(double factor) {
    g_presentationScale = factor > 0.0 ? factor : 1.0;
    ChartView::relayoutAll();
    for (QWidget* widget : QApplication::allWidgets()) {
        if (auto* bars = qobject_cast<GroupBarChart*>(widget)) {
            bars->updateGeometry();  // its rows grow with the factor
            bars->update();
        }
    }
}

QScatterSeries::MarkerShape markerForAlgorithm(const QString& algorithm) {
    switch (presentationOf(algorithm.toStdString()).marker) {
        case ChartMarker::Circle:
            return QScatterSeries::MarkerShapeCircle;
        case ChartMarker::Square:
            return QScatterSeries::MarkerShapeRectangle;
        case ChartMarker::Triangle:
            return QScatterSeries::MarkerShapeTriangle;
        case ChartMarker::Star:
            return QScatterSeries::MarkerShapeStar;
        case ChartMarker::Diamond:
            return QScatterSeries::MarkerShapeRotatedRectangle;
        case ChartMarker::Pentagon:
            break;
    }
    return QScatterSeries::MarkerShapePentagon;
}

QFont titleFont() {
    QFont font;
    font.setPointSizeF(12.5);
    font.setBold(true);
    return font;
}

QFont axisFont() {
    QFont font;
    font.setPointSizeF(10.5);
    return font;
}

QFont labelFont() {
    QFont font;
    font.setPointSizeF(9.5);
    return font;
}

void apply(QChart* chart) {
    chart->setTitleFont(titleFont());
    chart->setBackgroundBrush(Qt::white);
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(6, 6, 6, 6));
    chart->legend()->setFont(labelFont());
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setAnimationOptions(QChart::NoAnimation);
}

void addAxis(QChart* chart, QAbstractAxis* axis, Qt::Alignment side, const QString& title) {
    axis->setTitleText(title);
    axis->setTitleFont(axisFont());
    axis->setLabelsFont(labelFont());
    chart->addAxis(axis, side);
}

QPen paretoFrontPen() { return QPen(QColor(40, 40, 40), 1.8, Qt::DashLine); }

namespace {
/// The printf format of tick labels `interval` apart: enough decimals to tell neighbouring
/// ticks apart (2.5 × 10^k needs one more than 10^k).
QString labelFormatFor(double interval) {
    int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(interval) - 1e-9)));
    if (std::fabs(interval / std::pow(10.0, -decimals) -
                  std::round(interval / std::pow(10.0, -decimals))) > 1e-6) {
        ++decimals;
    }
    return QStringLiteral("%.%1f").arg(decimals);
}
}  // namespace

void setNiceRange(QValueAxis* axis, double low, double high, int ticks) {
    if (!(high > low)) high = low + 1.0;
    const double raw = (high - low) / std::max(1, ticks);
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    double interval = 10 * power;
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (m * power >= raw) {
            interval = m * power;
            break;
        }
    }
    const double from = std::floor(low / interval + 1e-9) * interval;
    const double to = std::ceil(high / interval - 1e-9) * interval;
    const QString format = labelFormatFor(interval);
    // The interval asked for, which fitTicksToLength coarsens on a short axis and restores.
    axis->setProperty("pfaNiceInterval", interval);
    if (axis->min() == from && axis->max() == to && axis->tickInterval() == interval &&
        axis->labelFormat() == format && axis->tickType() == QValueAxis::TicksDynamic) {
        return;
    }
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(from);
    axis->setTickInterval(interval);
    axis->setLabelFormat(format);
    axis->setRange(from, to);
}

std::pair<double, double> setLogEpsilonAxis(QCategoryAxis* axis, const std::set<double>& epsilons) {
    double epsMin = INFINITY, epsMax = 0.0;
    for (double epsilon : epsilons) {
        if (!(epsilon > 0.0) || !std::isfinite(epsilon)) continue;
        epsMin = std::min(epsMin, epsilon);
        epsMax = std::max(epsMax, epsilon);
    }
    if (!std::isfinite(epsMin)) {
        epsMin = 0.1;
        epsMax = 10.0;
    }
    const double span = std::max(std::log10(epsMax) - std::log10(epsMin), 0.5);
    const double low = std::log10(epsMin) - 0.08 * span;
    const double high = std::log10(epsMax) + 0.08 * span;
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    for (const QString& label : axis->categoriesLabels()) axis->remove(label);
    for (double epsilon : epsilons) {
        if (!(epsilon > 0.0) || !std::isfinite(epsilon)) continue;
        axis->append(QString::fromStdString(pfa::formatNumber(epsilon, 3)), std::log10(epsilon));
    }
    axis->setStartValue(low);
    axis->setRange(low, high);
    return {low, high};
}

namespace {
const char* const kFullTitle = "pfaFullTitle";
}  // namespace

QString shortAxisTitle(const QString& title) {
    qsizetype cut = title.size();
    for (const QLatin1String mark : {QLatin1String(" / "), QLatin1String(" (")}) {
        const qsizetype at = title.indexOf(mark);
        if (at > 0) cut = std::min(cut, at);
    }
    return title.left(cut);
}

QString fullAxisTitle(const QAbstractAxis* axis) {
    const QString full = axis->property(kFullTitle).toString();
    const QString shown = axis->titleText();
    return !full.isEmpty() && (shown == full || shown == shortAxisTitle(full)) ? full : shown;
}

void setAxisTitle(QAbstractAxis* axis, const QString& text) {
    if (fullAxisTitle(axis) == text) return;
    axis->setProperty(kFullTitle, text);
    axis->setTitleText(text);
}

void fitAxisTitle(QAbstractAxis* axis, double length) {
    if (!axis->isVisible() || !axis->isTitleVisible() || axis->titleText().isEmpty()) return;
    const QString full = fullAxisTitle(axis);
    const bool fits = QFontMetrics(axis->titleFont()).horizontalAdvance(full) <= length;
    const QString wanted = fits ? full : shortAxisTitle(full);
    if (axis->titleText() == wanted) return;
    axis->setProperty(kFullTitle, full);
    axis->setTitleText(wanted);
}

void fitTicksToLength(QValueAxis* axis, double pixels) {
    const double base = axis->property("pfaNiceInterval").toDouble();
    if (!(base > 0) || !(pixels > 0) || axis->tickType() != QValueAxis::TicksDynamic) return;
    const QFontMetricsF metrics(axis->labelsFont());
    const bool vertical = axis->orientation() == Qt::Vertical;
    // Room per label: its height on a vertical axis; on a horizontal one the widest label's
    // width (the range's ends have the most digits) and a gap of about two characters.
    auto room = [&](double interval) {
        if (vertical) return 1.3 * metrics.height();
        const QByteArray format = labelFormatFor(interval).toLatin1();
        double widest = 0.0;
        for (double end : {axis->min(), axis->max()})
            widest = std::max(
                widest, metrics.horizontalAdvance(QString::asprintf(format.constData(), end)));
        return widest + 2.0 * metrics.averageCharWidth();
    };
    const double span = axis->max() - axis->min();
    double interval = base;
    for (double factor : {1.0, 2.0, 4.0, 5.0, 10.0, 20.0, 50.0, 100.0}) {
        interval = base * factor;
        const double labels = std::floor(span / interval + 1e-9) + 1;
        if (pixels / std::max(1.0, labels - 1) >= room(interval)) break;
    }
    if (axis->tickInterval() == interval) return;
    axis->setTickAnchor(std::ceil(axis->min() / interval - 1e-9) * interval);
    axis->setTickInterval(interval);
    axis->setLabelFormat(labelFormatFor(interval));
}

}  // namespace pfa::ui::chart_style
