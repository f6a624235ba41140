#include "ui/charts/setting_scale.h"

#include <algorithm>
#include <cmath>

namespace pfa::ui::setting_scale {

std::set<double> sweptValues(const std::vector<pfa::SweepCell>& cells,
                             const pfa::SettingAxis& axis) {
    // ∞ (Gaussian tails, no privacy) has a place only in grid order.
    std::set<double> xs;
    for (const pfa::SweepCell& cell : cells) {
        if (const auto x = pfa::axisValue(cell, axis); x && !std::isnan(*x) && *x > -INFINITY)
            xs.insert(*x);
    }
    return xs;
}

SettingScale automatic(const std::set<double>& values) {
    const bool anyInfinite = !values.empty() && std::isinf(*values.rbegin());
    const double lowest = values.empty() ? 0.0 : *values.begin();
    double lowestPositive = INFINITY, highestFinite = -INFINITY;
    for (double x : values) {
        if (x > 0.0) lowestPositive = std::min(lowestPositive, x);
        if (std::isfinite(x)) highestFinite = std::max(highestFinite, x);
    }
    const bool wide = std::isfinite(lowestPositive) && highestFinite / lowestPositive >= 20.0;
    return anyInfinite    ? SettingScale::Even
           : !wide        ? SettingScale::Linear
           : lowest > 0.0 ? SettingScale::Log
                          : SettingScale::Even;
}

std::map<double, double> positions(const std::set<double>& values, SettingScale scale) {
    std::map<double, double> position;
    int rank = 0;
    for (double x : values) {
        if (scale == SettingScale::Log && !(x > 0.0 && std::isfinite(x))) continue;
        if (scale == SettingScale::Linear && !std::isfinite(x)) continue;
        position[x] = scale == SettingScale::Log    ? std::log10(x)
                      : scale == SettingScale::Even ? rank++
                                                    : x;
    }
    return position;
}

}  // namespace pfa::ui::setting_scale
