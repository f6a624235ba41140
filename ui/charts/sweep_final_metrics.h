#pragma once

// The final values of a sweep's runs that a view can plot per cell, named by their record
// names: "" is the test error (or the excess risk), "violation" the fairness violation, any
// other a metric the runs recorded in their history.
#include <QString>
#include <vector>

#include "core/sweep/sweep_summary.h"

namespace pfa::ui::sweep_final_metrics {

/// A metric in plain words ("train_loss": "train loss"); unknown ones by their name.
QString label(const QString& metric);

/// The metrics `cells` can show: "" always, "violation" when any cell has one, then every other
/// recorded one, by name.
std::vector<QString> offered(const std::vector<pfa::SweepCell>& cells);

/// The value `cell` shows for `metric` (null when it has none); with `metric` "", the excess
/// risk when `excess`, else the test error.
const pfa::MeanSd* valueOf(const pfa::SweepCell& cell, const QString& metric, bool excess);

}  // namespace pfa::ui::sweep_final_metrics
