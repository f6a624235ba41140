#pragma once

#include <QColor>
#include <QFont>
#include <QString>
#include <QtCharts/QScatterSeries>
#include <set>
#include <string>

#include "core/config/train_config.h"
#include "ui/support/palette.h"

class QAbstractAxis;
class QCategoryAxis;
class QChart;
class QPen;
class QValueAxis;

namespace pfa::ui {

/// One look for every chart: fonts, axes and the algorithm markers, with the ε colour scale and
/// the curve labels of ui/support/palette.h. The same ε gets the same colour everywhere (live
/// charts, tradeoff chart, history table).
namespace chart_style {

/// Marker shape of an algorithm in the tradeoff chart.
QScatterSeries::MarkerShape markerForAlgorithm(const QString& algorithm);

/// The presentation factor (View → Presentation mode): every chart view draws its chart
/// enlarged by it — fonts, pen widths, marker sizes and overlays alike, for the charts that
/// exist and the ones made later — by laying the chart out at 1/factor of the view's size and
/// scaling the view (ChartView). 1 outside presentation mode.
double presentationScale();
/// The factor presentation mode uses: 1.3, so that 9.5-point tick labels read as 12.4 points
/// and titles as 16 — as large as four live charts and the tradeoff chart allow on a 1280×720
/// projector with every axis title in full.
inline constexpr double kPresentationFactor = 1.3;
/// Sets the factor and lays out every chart view again (ChartView::relayoutAll).
void setPresentationScale(double factor);

/// Title, axis and legend fonts sized for projection.
QFont titleFont();
QFont axisFont();
QFont labelFont();

/// Applies fonts, margins, legend placement and a white background to `chart`.
void apply(QChart* chart);

/// Gives `axis` its title and the projection fonts and adds it to `chart` at `side`.
void addAxis(QChart* chart, QAbstractAxis* axis, Qt::Alignment side, const QString& title);

/// The line of a Pareto front: dark grey, dashed.
QPen paretoFrontPen();

/// Sets `axis` to a range covering [low, high] with about `ticks` intervals of a "nice" size
/// (1, 2, 2.5 or 5 × 10^k), ticks anchored on multiples of it and labels with just enough
/// decimals. Does nothing when the axis already shows exactly that.
void setNiceRange(QValueAxis* axis, double low, double high, int ticks = 5);

/// Sets `axis`'s title to `text` unless it already shows it, in full or in the short form a
/// chart too short for it uses (ChartView shortens a vertical title that does not fit).
void setAxisTitle(QAbstractAxis* axis, const QString& text);
/// The short form of an axis title: the part before " / " or " (" ("violation / ERMI" →
/// "violation", "ε (accountant)" → "ε"); the title itself when it has neither.
QString shortAxisTitle(const QString& title);
/// The title `axis` would show in full (its text, or the full one it was shortened from).
QString fullAxisTitle(const QAbstractAxis* axis);
/// Shows `axis`'s full title when it is at most `length` long, else its short form (so a short
/// plot shows "violation", not Qt's "violation…"); the full one comes back when it fits.
void fitAxisTitle(QAbstractAxis* axis, double length);

/// Coarsens the ticks of `axis` (set by setNiceRange) until each label has room on an axis
/// `pixels` long — its height on a vertical axis, its width on a horizontal one; Qt cuts the
/// labels of a short plot (a one-column figure, a run of 100,000 epochs on a narrow chart) to
/// "…" — by 2, 4, 5, 10, … times the nice interval; on a longer axis the nice interval comes
/// back. Keeps the range.
void fitTicksToLength(QValueAxis* axis, double pixels);

/// A logarithmic ε axis with ticks exactly at `epsilons` (a log axis would label powers of ten
/// only): the series carry log10 ε, `axis` labels each tick with its ε. The range spans the
/// finite ε with 8 % of room on each side (at least half a decade); returned as (low, high) in
/// log10 ε. With no finite ε, the range is 0.1 … 10.
std::pair<double, double> setLogEpsilonAxis(QCategoryAxis* axis, const std::set<double>& epsilons);

}  // namespace chart_style
}  // namespace pfa::ui
