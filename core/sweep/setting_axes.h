#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/sweep/sweep_summary.h"

namespace pfa {

/// A numeric quantity the cells of a sweep differ in, to plot results against: a setting of the
/// run key (public-share, clip-norm, restart-period, lambda, …) or a knob of a generated data set
/// (the "(n=…,nu=…)" part of its identity, e.g. the tail index of synthetic-heavy-tailed).
struct SettingAxis {
    std::string name;       ///< the run-key setting ("clip-norm") or the data knob ("nu")
    bool dataKnob = false;  ///< a knob of the data-set identity rather than a training setting
    /// What an axis title says: the setting's name, or "data: NAME" for a data knob.
    std::string label() const;
    bool operator==(const SettingAxis& other) const = default;
};

/// The axes along which `cells` vary: numeric settings and data knobs that take at least two
/// distinct finite values among the cells. Run-key settings first (in key order), then data
/// knobs, then ε (labelled "ε"; its value is SweepCell::shownEpsilon). The seed is what a cell
/// spans: never an axis.
std::vector<SettingAxis> settingAxesOf(const std::vector<SweepCell>& cells);

/// The value of `axis` in `cell`; none when the cell does not have it or it is not a number.
std::optional<double> axisValue(const SweepCell& cell, const SettingAxis& axis);

/// The lines of a plot along `axis`: cells equal in everything but the axis (and the seed) form
/// a group, named apart from the other groups of their algorithm (groupCells).
std::vector<SweepGroup> groupAlongAxis(const std::vector<SweepCell>& cells,
                                       const SettingAxis& axis);

/// The knobs of a data-set identity ("synthetic-heavy-tailed(n=20000,d=20,nu=3)|split=…" →
/// {{"n","20000"},{"d","20"},{"nu","3"}}), in order; empty for data without knobs.
std::vector<std::pair<std::string, std::string>> datasetKnobs(const std::string& datasetKey);

/// The family of a data-set identity: the identity with its knobs blanked
/// ("synthetic-heavy-tailed(*)|split=0,0.25"), shared by the data sets of a preset's data axes;
/// the identity itself for data without knobs.
std::string datasetFamilyKey(const std::string& datasetKey);

/// The constant c minimising Σ (y_i − c·g_i)² over the pairs with finite y and finite g > 0
/// (closed form c = Σ g y / Σ g²); none with no such pair or when c ≤ 0. Fits a theory rate
/// whose value g_i at each measured point comes from that point's own settings.
std::optional<double> fitScale(const std::vector<double>& measured,
                               const std::vector<double>& rate);

}  // namespace pfa
