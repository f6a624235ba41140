#include "ui/support/palette.h"

#include <algorithm>
#include <cmath>

#include "core/algorithms/registry.h"
#include "core/util/format.h"

namespace pfa::ui::chart_style {

namespace {

// Viridis anchor colours (matplotlib), interpolated linearly.
const QColor kViridis[] = {QColor(68, 1, 84),    QColor(72, 40, 120),  QColor(62, 74, 137),
                           QColor(49, 104, 142), QColor(38, 130, 142), QColor(31, 158, 137),
                           QColor(53, 183, 121), QColor(109, 205, 89), QColor(180, 222, 44),
                           QColor(253, 231, 37)};

}  // namespace

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

}  // namespace pfa::ui::chart_style
