#pragma once

// The colours and labels every part of the window shares, charts or not (the run list colours
// its rows like the charts): the ε colour scale and how a run's point on its curve is named.
#include <QColor>
#include <QString>
#include <string>

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
