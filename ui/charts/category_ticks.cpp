#include "ui/charts/category_ticks.h"

#include <QtCharts/QCategoryAxis>
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/util/format.h"

namespace pfa::ui::category_ticks {

std::pair<double, double> setValueTicks(QCategoryAxis* axis,
                                        const std::map<double, double>& positions) {
    for (const QString& label : axis->categoriesLabels()) axis->remove(label);
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    double low = INFINITY, high = -INFINITY;
    for (const auto& [x, at] : positions) {
        axis->append(
            std::isinf(x) ? QStringLiteral("∞") : QString::fromStdString(pfa::formatNumber(x, 3)),
            at);
        low = std::min(low, at);
        high = std::max(high, at);
    }
    if (!std::isfinite(low)) low = 0.0, high = 1.0;
    const double span = std::max(high - low, 1e-9);
    axis->setStartValue(low - 0.06 * span);
    axis->setRange(low - 0.06 * span, high + 0.06 * span);
    return {low, high};
}

void setDecadeTicks(QCategoryAxis* axis, double yMin, double yMax) {
    for (const QString& label : axis->categoriesLabels()) axis->remove(label);
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    const double span = std::max(yMax - yMin, 0.3);
    const double low = yMin - 0.06 * span, high = yMax + 0.06 * span;
    const bool fine = high - low < 3.0;
    for (int decade = static_cast<int>(std::floor(low));
         decade <= static_cast<int>(std::ceil(high)); ++decade) {
        for (double mantissa :
             fine ? std::vector<double>{1.0, 2.0, 5.0} : std::vector<double>{1.0}) {
            const double at = decade + std::log10(mantissa);
            if (at < low || at > high) continue;
            axis->append(
                QString::fromStdString(pfa::formatNumber(mantissa * std::pow(10.0, decade), 3)),
                at);
        }
    }
    axis->setStartValue(low);
    axis->setRange(low, high);
}

}  // namespace pfa::ui::category_ticks
