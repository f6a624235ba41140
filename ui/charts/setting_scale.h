#pragma once

// Where the error–setting view draws the swept values of a setting along x: linearly,
// logarithmically or evenly in grid order, chosen automatically until the user picks one.
#include <map>
#include <set>
#include <vector>

#include "core/sweep/setting_axes.h"
#include "core/sweep/sweep_summary.h"

namespace pfa::ui {

/// How the swept values are spaced along x.
enum class SettingScale { Linear, Log, Even };

namespace setting_scale {

/// The values `axis` takes among `cells`: finite ones and ∞ (Gaussian tails, no privacy);
/// NaN and −∞ are left out.
std::set<double> sweptValues(const std::vector<pfa::SweepCell>& cells,
                             const pfa::SettingAxis& axis);

/// The spacing for `values` until the user chooses: grid order when ∞ is among them; linear
/// unless the positive ones span a factor of 20 or more; then logarithmic when all are
/// positive, else grid order.
SettingScale automatic(const std::set<double>& values);

/// Where each of `values` is drawn under `scale`: itself, its log10 (positive finite values
/// only) or its rank; values with no place on that scale are left out.
std::map<double, double> positions(const std::set<double>& values, SettingScale scale);

}  // namespace setting_scale

}  // namespace pfa::ui
