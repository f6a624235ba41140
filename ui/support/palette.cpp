#include "ui/support/palette.h"

#include <algorithm>
#include <cmath>
#include <numbers>

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

EpsilonPalette::EpsilonPalette(const std::vector<double>& epsilons) {
    for (double epsilon : epsilons) {
        if (std::isfinite(epsilon)) m_values.push_back(epsilon);
    }
    std::sort(m_values.begin(), m_values.end());
    // Equal up to rounding (a budget typed twice, or read back from a record): one value.
    m_values.erase(std::unique(m_values.begin(), m_values.end(),
                               [](double a, double b) {
                                   return std::fabs(a - b) <=
                                          1e-9 * std::max(std::fabs(a), std::fabs(b));
                               }),
                   m_values.end());
}

QColor EpsilonPalette::color(double epsilon) const {
    if (!ranked() || !std::isfinite(epsilon)) return colorForEpsilon(epsilon);
    const double last = static_cast<double>(m_values.size() - 1);
    double rank = 0.0;
    const auto above = std::lower_bound(m_values.begin(), m_values.end(), epsilon * (1 - 1e-9));
    if (above == m_values.end()) {
        rank = last;
    } else if (above == m_values.begin() ||
               std::fabs(*above - epsilon) <= 1e-9 * std::max(*above, epsilon)) {
        rank = static_cast<double>(above - m_values.begin());
    } else if (epsilon > 0) {
        // Between two budgets shown (the running run's ε while the slider moves): between
        // their colours, by log ε.
        const double high = *above, low = *(above - 1);
        const double f = (std::log(epsilon) - std::log(low)) / (std::log(high) - std::log(low));
        rank = static_cast<double>(above - m_values.begin()) - 1 + std::clamp(f, 0.0, 1.0);
    }
    return viridis(0.57 * rank / last);
}

namespace {
/// sRGB (0–1) to CIELAB (D65).
void toLab(const QColor& color, double& l, double& a, double& b) {
    const auto linear = [](double v) {
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    const double r = linear(color.redF()), g = linear(color.greenF()), bl = linear(color.blueF());
    const double x = (0.4124 * r + 0.3576 * g + 0.1805 * bl) / 0.95047;
    const double y = 0.2126 * r + 0.7152 * g + 0.0722 * bl;
    const double z = (0.0193 * r + 0.1192 * g + 0.9505 * bl) / 1.08883;
    const auto f = [](double t) {
        return t > 216.0 / 24389.0 ? std::cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0;
    };
    l = 116 * f(y) - 16;
    a = 500 * (f(x) - f(y));
    b = 200 * (f(y) - f(z));
}
constexpr double kDegree = std::numbers::pi / 180.0;
}  // namespace

double colorDifference(const QColor& first, const QColor& second) {
    // Sharma, Wu and Dalal (2005), "The CIEDE2000 color-difference formula".
    double l1, a1, b1, l2, a2, b2;
    toLab(first, l1, a1, b1);
    toLab(second, l2, a2, b2);
    const double c1 = std::hypot(a1, b1), c2 = std::hypot(a2, b2);
    const double cMean7 = std::pow((c1 + c2) / 2, 7);
    const double g = 0.5 * (1 - std::sqrt(cMean7 / (cMean7 + std::pow(25.0, 7))));
    const double a1p = (1 + g) * a1, a2p = (1 + g) * a2;
    const double c1p = std::hypot(a1p, b1), c2p = std::hypot(a2p, b2);
    const auto hue = [](double b, double a) {
        const double h = std::atan2(b, a) / kDegree;
        return h < 0 ? h + 360 : h;
    };
    const double h1p = hue(b1, a1p), h2p = hue(b2, a2p);
    const double dLp = l2 - l1, dCp = c2p - c1p;
    double dhp = 0;
    if (c1p * c2p != 0) {
        dhp = h2p - h1p;
        if (dhp > 180) dhp -= 360;
        if (dhp < -180) dhp += 360;
    }
    const double dHp = 2 * std::sqrt(c1p * c2p) * std::sin(dhp / 2 * kDegree);
    const double lMean = (l1 + l2) / 2, cpMean = (c1p + c2p) / 2;
    double hMean = h1p + h2p;
    if (c1p * c2p != 0) {
        hMean = std::fabs(h1p - h2p) <= 180 ? (h1p + h2p) / 2
                : h1p + h2p < 360           ? (h1p + h2p + 360) / 2
                                            : (h1p + h2p - 360) / 2;
    }
    const double t =
        1 - 0.17 * std::cos((hMean - 30) * kDegree) + 0.24 * std::cos(2 * hMean * kDegree) +
        0.32 * std::cos((3 * hMean + 6) * kDegree) - 0.20 * std::cos((4 * hMean - 63) * kDegree);
    const double dTheta = 30 * std::exp(-std::pow((hMean - 275) / 25, 2));
    const double cp7 = std::pow(cpMean, 7);
    const double rC = 2 * std::sqrt(cp7 / (cp7 + std::pow(25.0, 7)));
    const double sL = 1 + 0.015 * std::pow(lMean - 50, 2) / std::sqrt(20 + std::pow(lMean - 50, 2));
    const double sC = 1 + 0.045 * cpMean, sH = 1 + 0.015 * cpMean * t;
    const double rT = -std::sin(2 * dTheta * kDegree) * rC;
    return std::sqrt(std::pow(dLp / sL, 2) + std::pow(dCp / sC, 2) + std::pow(dHp / sH, 2) +
                     rT * (dCp / sC) * (dHp / sH));
}

QColor greyscale(const QColor& color) {
    const double y = 0.2126 * color.redF() + 0.7152 * color.greenF() + 0.0722 * color.blueF();
    return QColor::fromRgbF(static_cast<float>(y), static_cast<float>(y), static_cast<float>(y));
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
