#include "ui/charts/chart_style.h"

#include <QApplication>
#include <QPen>
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

// Viridis anchor colours (matplotlib), interpolated linearly.
const QColor kViridis[] = {QColor(68, 1, 84),    QColor(72, 40, 120),  QColor(62, 74, 137),
                           QColor(49, 104, 142), QColor(38, 130, 142), QColor(31, 158, 137),
                           QColor(53, 183, 121), QColor(109, 205, 89), QColor(180, 222, 44),
                           QColor(253, 231, 37)};

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

QColor viridis(double t) {
    const double position = std::clamp(t, 0.0, 1.0) * 9.0;
    const int i = std::min(8, static_cast<int>(position));
    const double f = position - i;
    const QColor& a = kViridis[i];
    const QColor& b = kViridis[i + 1];
    return QColor::fromRgbF(static_cast<float>(a.redF() + f * (b.redF() - a.redF())),
                            static_cast<float>(a.greenF() + f * (b.greenF() - a.greenF())),
                            static_cast<float>(a.blueF() + f * (b.blueF() - a.blueF())));
}

QColor colorForEpsilon(double epsilon) {
    if (std::isnan(epsilon)) return QColor(120, 120, 120);   // unknown: never a budget's colour
    if (!std::isfinite(epsilon)) return QColor(213, 94, 0);  // ∞: vermilion, off the scale
    const double lo = std::log(kEpsilonScaleMin), hi = std::log(kEpsilonScaleMax);
    const double t =
        (std::log(std::clamp(epsilon, kEpsilonScaleMin, kEpsilonScaleMax)) - lo) / (hi - lo);
    // Viridis beyond 0.57 (green to yellow) is too pale on white: stop there.
    return viridis(0.57 * t);
}

double contrastRatio(const QColor& a, const QColor& b) {
    const auto luminance = [](const QColor& c) {
        const auto channel = [](double v) {
            return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) +
               0.0722 * channel(c.blueF());
    };
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
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

QString epsilonLabel(double epsilon) {
    if (!std::isfinite(epsilon)) return QStringLiteral("ε = ∞");
    return QStringLiteral("ε = %1").arg(epsilon, 0, 'g', 3);
}

QString curveSettingSymbol(const std::string& setting) {
    if (setting == "lambda") return QStringLiteral("λ");
    if (setting == "gamma") return QStringLiteral("γ");
    if (setting == "dual-step") return QStringLiteral("s");
    if (setting == "tolerance") return QStringLiteral("c");
    return QString::fromStdString(setting);
}

QString curvePointText(const pfa::TrainConfig& config) {
    const std::string setting = pfa::curveSettingOf(config.algorithm);
    if (setting == "lambda")
        return QStringLiteral("λ = %1").arg(
            QString::fromStdString(pfa::formatNumber(config.lambda, 3)));
    const auto value = config.extra.find(setting);
    return QStringLiteral("%1 = %2").arg(
        curveSettingSymbol(setting),
        value == config.extra.end() ? QStringLiteral("?") : QString::fromStdString(value->second));
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
    // Enough decimals to tell neighbouring ticks apart (2.5 × 10^k needs one more).
    int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(interval) - 1e-9)));
    if (std::fabs(interval / std::pow(10.0, -decimals) -
                  std::round(interval / std::pow(10.0, -decimals))) > 1e-6) {
        ++decimals;
    }
    const QString format = QStringLiteral("%.%1f").arg(decimals);
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

}  // namespace pfa::ui::chart_style
