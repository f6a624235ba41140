#pragma once

#include <QString>
#include <vector>

#include "ui/runs/run_entry.h"

namespace pfa::ui::tradeoff_datasets {

/// The data set of a run: the datasetKey() its run key starts with (falls back to the ledger
/// key, then the description, for records without a run key). The tradeoff chart compares only
/// runs whose keys are equal.
QString keyOf(const RunEntry& run);

/// A short name for a data-set key, e.g. "adult (sex)", "synthetic".
QString label(const QString& datasetKey);

/// One entry of the tradeoff chart's data-set box.
struct BoxItem {
    QString key;      ///< the data-set key (the item's data)
    QString label;    ///< short; the split or a number tells equal names apart
    QString toolTip;  ///< the data set's description and its number of finished runs
};

/// The entries of the data-set box, in key order: every data set of `runs` and `shown`
/// (possibly without runs yet; empty: none).
std::vector<BoxItem> boxItems(const std::vector<RunEntryPtr>& runs, const QString& shown);

}  // namespace pfa::ui::tradeoff_datasets
