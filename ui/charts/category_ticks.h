#pragma once

// Tick labels on a QCategoryAxis, for scales a value axis cannot label: the swept values of a
// setting where they are drawn, or the powers of ten of a log scale.
#include <map>
#include <utility>

class QCategoryAxis;

namespace pfa::ui::category_ticks {

/// Replaces `axis`' ticks by one per entry of `positions` (a value and where it is drawn),
/// labelled with the value (three significant digits, ∞ as "∞"), and ranges the axis over
/// them with 6 % room each side. Returns the lowest and highest position (0 and 1 without any).
std::pair<double, double> setValueTicks(QCategoryAxis* axis,
                                        const std::map<double, double>& positions);

/// Replaces `axis`' ticks by labels at the powers of ten (and 2×, 5× when fewer than three
/// decades show) over `yMin` … `yMax`, given as log10 of the values, and ranges the axis over
/// them with 6 % room each side (at least 0.3 decades in all).
void setDecadeTicks(QCategoryAxis* axis, double yMin, double yMax);

}  // namespace pfa::ui::category_ticks
