#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/fairness/fairness_metrics.h"
#include "core/fairness/fairness_notion.h"

namespace pfa::report {

/// The test rows of one group as a 2×2 table of counts (y* = the favourable class):
/// tp = ŷ = y*, y = y*; fp = ŷ = y*, y ≠ y*; fn = ŷ ≠ y*, y = y*; tn = ŷ ≠ y*, y ≠ y*.
struct ConfusionCounts {
    std::string group;
    long tp = 0, fp = 0, fn = 0, tn = 0;

    long n() const { return tp + fp + fn + tn; }
    long positives() const { return tp + fn; }
    long negatives() const { return fp + tn; }
};

/// The rates the per-group table shows, from counts (NaN where the denominator is 0).
struct GroupRates {
    double baseRate = 0.0, selectionRate = 0.0, tpr = 0.0, fpr = 0.0, accuracy = 0.0;
};
GroupRates ratesOf(const ConfusionCounts& counts);

/// The gap of `notion` over groups, from their rates, as the records compute it for binary
/// labels: dp = max |Δ selection rate|, eo = max(|ΔTPR|, |ΔFPR|), eopp = max |ΔTPR|, over every
/// pair of groups (groups whose rate is undefined are skipped).
double gapOf(const std::vector<GroupRates>& groups, FairnessNotion notion);

/// The counts behind a record's per-group rates, or the reason they cannot be had. A record's
/// rates are frequencies over the group's test rows: for binary labels
///   positives = n · base_rate, tp = positives · tpr, fp = (n − positives) · fpr
/// are whole numbers, and selection rate and accuracy then follow; anything else is refused
/// (`reason`): rates that are not frequencies (a randomised classifier's expected rates) or
/// an accuracy the 2×2 table does not give (more than two classes).
struct CountsOrReason {
    std::vector<ConfusionCounts> counts;  ///< one per group, empty when `reason` is set
    std::string reason;
};
CountsOrReason countsFromRates(const std::vector<GroupRow>& groups);

/// A 95 % interval (or another level) with its point estimate.
struct Interval {
    double estimate = 0.0;
    double low = 0.0;
    double high = 0.0;
    /// Resamples in which the statistic was undefined (a group without positives, say) and
    /// which the percentiles leave out.
    int undefined = 0;
};

/// Bootstrap intervals of one group's rates.
struct GroupIntervals {
    std::string group;
    long n = 0;
    Interval baseRate, selectionRate, tpr, fpr, accuracy;
};

/// The stratified bootstrap of a run's test rows.
struct BootstrapResult {
    std::vector<GroupIntervals> groups;
    Interval gap;  ///< the gap of the run's notion
    int resamples = 0;
    std::uint64_t seed = 0;
    double level = 0.95;
};

/// Percentile bootstrap: `resamples` times, each group's test rows are drawn again with
/// replacement, as many as it has (stratified by group: the group sizes stay fixed); each
/// resample's rates and gap are computed, and the interval is the (1 − level)/2 and
/// (1 + level)/2 quantiles of those values (linear interpolation between order statistics).
/// Reproducible from `seed`. It covers the sampling of the test rows only: the model (and the
/// randomness of its training) is held fixed.
BootstrapResult bootstrapGroups(const std::vector<ConfusionCounts>& groups, FairnessNotion notion,
                                int resamples, std::uint64_t seed, double level = 0.95);

/// The q-quantile of `values` (sorted in place), linear between order statistics (type 7);
/// NaN for an empty list.
double quantile(std::vector<double>& values, double q);

}  // namespace pfa::report
