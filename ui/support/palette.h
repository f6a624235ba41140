#pragma once

// The colours and labels every part of the window shares, charts or not (the run list colours
// its rows like the charts): the ε colour scale and how a run's point on its curve is named.
#include <QColor>
#include <QString>
#include <string>
#include <vector>

#include "core/config/train_config.h"

namespace pfa::ui {

namespace chart_style {

/// The viridis colour scale at t ∈ [0, 1] (dark purple to yellow; clamped).
QColor viridis(double t);

/// Lowest and highest ε of the colour scale: smaller budgets get the colour of 0.05, larger
/// finite ones that of 100.
inline constexpr double kEpsilonScaleMin = 0.05;
inline constexpr double kEpsilonScaleMax = 100.0;

/// Colour of a privacy budget, a fixed function of ε alone (so a figure exported today and
/// one exported after more runs agree): the viridis scale over log ε in [0.05, 100], from dark
/// purple (strong privacy) through blue and teal to green, stopped before viridis turns pale so
/// that every colour keeps a contrast of at least 3:1 against white (WCAG, graphical objects).
/// ε = ∞ (no privacy) is a distinct vermilion, not on the scale.
QColor colorForEpsilon(double epsilon);

/// The colours of the budgets one chart shows. A fixed function of ε cannot keep neighbours
/// apart: over [0.05, 100] on a scale readable on white, ε = 0.5 and 1 differ by about 6
/// CIEDE2000 units (4 in greyscale print). With two finite budgets or more, each is coloured by
/// its rank among them, spread evenly over the same scale (smallest ε darkest): four budgets are
/// then at least 17 units apart (11 in greyscale), five at least 12 (8 in greyscale). With one
/// budget or none it is colorForEpsilon. ε = ∞ stays vermilion.
class EpsilonPalette {
public:
    EpsilonPalette() = default;
    /// The budgets shown (any order, repeats, NaN and ∞ allowed; only finite ones rank).
    explicit EpsilonPalette(const std::vector<double>& epsilons);

    /// The colour of `epsilon`: by rank when it is one of the budgets, between its neighbours'
    /// colours (in log ε) when it is not, colorForEpsilon when the palette ranks nothing.
    QColor color(double epsilon) const;
    /// The finite budgets, ascending, once each.
    const std::vector<double>& values() const { return m_values; }
    /// True when colours come by rank (two finite budgets or more).
    bool ranked() const { return m_values.size() >= 2; }
    bool operator==(const EpsilonPalette& other) const = default;

private:
    std::vector<double> m_values;
};

/// CIEDE2000 colour difference of two sRGB colours (alpha ignored): about 1 is just
/// noticeable, 10 or more tells two plotted series apart at a glance.
double colorDifference(const QColor& a, const QColor& b);
/// `color` as a greyscale print renders it: the grey of its luma (Rec. 709 weights).
QColor greyscale(const QColor& color);

/// WCAG contrast ratio of two colours (1 = none, 21 = black on white); alpha is ignored.
double contrastRatio(const QColor& a, const QColor& b);

/// "ε = 1", "ε = ∞".
QString epsilonLabel(double epsilon);

/// The short symbol of a setting that traces a tradeoff curve: "λ", "γ", "s" (dual step),
/// "c" (tolerance), else the setting's name.
QString curveSettingSymbol(const std::string& setting);
/// Where a run sits on its algorithm's curve: "λ = 0.5", or "s = 0.2" for a method traced over
/// its own setting (AlgorithmCapabilities::curveSetting).
QString curvePointText(const pfa::TrainConfig& config);

}  // namespace chart_style
}  // namespace pfa::ui
