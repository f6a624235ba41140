#include "core/report/group_bootstrap.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/util/random.h"

namespace pfa::report {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double ratio(long part, long whole) {
    return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : kNaN;
}

/// `value` as a whole number when it is one up to rounding of the record's doubles.
std::optional<long> wholeNumber(double value) {
    if (!std::isfinite(value) || value < -1e-6) return std::nullopt;
    const double rounded = std::round(value);
    if (std::fabs(value - rounded) > 1e-6 * std::max(1.0, rounded)) return std::nullopt;
    return static_cast<long>(rounded);
}

bool sameRate(double recorded, double computed) {
    if (std::isnan(computed)) return true;  // an empty cell: the record's value is a placeholder
    return std::fabs(recorded - computed) <= 1e-9;
}

/// The largest |a − b| over pairs of defined values (0 with fewer than two).
double largestDifference(const std::vector<double>& values) {
    double low = INFINITY, high = -INFINITY;
    for (double v : values) {
        if (std::isnan(v)) continue;
        low = std::min(low, v);
        high = std::max(high, v);
    }
    return high >= low ? high - low : 0.0;
}

Interval intervalOf(double estimate, std::vector<double>& draws, double level) {
    Interval interval;
    interval.estimate = estimate;
    std::vector<double> defined;
    defined.reserve(draws.size());
    for (double d : draws) {
        if (std::isnan(d))
            ++interval.undefined;
        else
            defined.push_back(d);
    }
    interval.low = quantile(defined, (1.0 - level) / 2.0);
    interval.high = quantile(defined, (1.0 + level) / 2.0);
    return interval;
}

}  // namespace

GroupRates ratesOf(const ConfusionCounts& c) {
    GroupRates r;
    r.baseRate = ratio(c.positives(), c.n());
    r.selectionRate = ratio(c.tp + c.fp, c.n());
    r.tpr = ratio(c.tp, c.positives());
    r.fpr = ratio(c.fp, c.negatives());
    r.accuracy = ratio(c.tp + c.tn, c.n());
    return r;
}

double gapOf(const std::vector<GroupRates>& groups, FairnessNotion notion) {
    std::vector<double> selection, tpr, fpr;
    for (const GroupRates& g : groups) {
        selection.push_back(g.selectionRate);
        tpr.push_back(g.tpr);
        fpr.push_back(g.fpr);
    }
    switch (notion) {
        case FairnessNotion::DemographicParity:
            return largestDifference(selection);
        case FairnessNotion::EqualizedOdds:
            return std::max(largestDifference(tpr), largestDifference(fpr));
        case FairnessNotion::EqualOpportunity:
            return largestDifference(tpr);
    }
    return kNaN;
}

CountsOrReason countsFromRates(const std::vector<GroupRow>& groups) {
    CountsOrReason out;
    if (groups.empty()) {
        out.reason = "the run has no per-group table (a regression run, or an older record)";
        return out;
    }
    for (const GroupRow& row : groups) {
        ConfusionCounts c;
        c.group = row.group;
        if (row.n == 0) {
            // A group without test rows (a tiny intersection): its rates are undefined ("–").
            out.counts.push_back(c);
            continue;
        }
        const std::optional<long> positives = wholeNumber(row.n * row.baseRate);
        if (row.n < 0 || !positives || *positives > row.n) {
            out.reason = "group '" + row.group +
                         "': its size and base rate do not give a count of positives";
            out.counts.clear();
            return out;
        }
        const long negatives = row.n - *positives;
        const std::optional<long> tp =
            *positives > 0 ? wholeNumber(*positives * row.truePositiveRate) : 0L;
        const std::optional<long> fp =
            negatives > 0 ? wholeNumber(negatives * row.falsePositiveRate) : 0L;
        if (!tp || !fp || *tp > *positives || *fp > negatives) {
            out.reason = "group '" + row.group +
                         "': its recorded rates are not counts over its test rows (a randomised "
                         "classifier's rates are expectations), so resampling rows does not apply";
            out.counts.clear();
            return out;
        }
        c.tp = *tp;
        c.fn = *positives - *tp;
        c.fp = *fp;
        c.tn = negatives - *fp;
        const GroupRates rates = ratesOf(c);
        if (!sameRate(row.selectionRate, rates.selectionRate)) {
            out.reason = "group '" + row.group +
                         "': its selection rate does not follow from its other rates";
            out.counts.clear();
            return out;
        }
        if (!sameRate(row.accuracy, rates.accuracy)) {
            out.reason =
                "group '" + row.group +
                "': its accuracy is not that of a 2×2 table: the labels have more than two "
                "classes, and the interval is computed for binary labels only";
            out.counts.clear();
            return out;
        }
        out.counts.push_back(c);
    }
    return out;
}

double quantile(std::vector<double>& values, double q) {
    if (values.empty()) return kNaN;
    std::sort(values.begin(), values.end());
    const double position = q * static_cast<double>(values.size() - 1);
    const std::size_t below = static_cast<std::size_t>(std::floor(position));
    const std::size_t above = std::min(values.size() - 1, below + 1);
    const double f = position - static_cast<double>(below);
    return values[below] + f * (values[above] - values[below]);
}

BootstrapResult bootstrapGroups(const std::vector<ConfusionCounts>& groups, FairnessNotion notion,
                                int resamples, std::uint64_t seed, double level) {
    BootstrapResult result;
    result.resamples = resamples;
    result.seed = seed;
    result.level = level;
    const std::size_t k = groups.size();
    // One stream for the whole bootstrap: the label ("report-bootstrap") keeps it apart from
    // every training stream of the same seed.
    RandomStream random(seed, 0x7265706f72742d62ULL);
    std::vector<std::vector<double>> base(k), selection(k), tpr(k), fpr(k), accuracy(k);
    std::vector<double> gap;
    gap.reserve(resamples);
    std::vector<GroupRates> drawn(k);
    for (int b = 0; b < resamples; ++b) {
        for (std::size_t g = 0; g < k; ++g) {
            const ConfusionCounts& c = groups[g];
            // n draws with replacement of the group's rows: each row falls in its cell, so a
            // draw is a uniform index into the rows ordered tp, fp, fn, tn.
            ConfusionCounts again;
            const std::uint64_t n = static_cast<std::uint64_t>(c.n());
            const std::uint64_t tpEnd = c.tp, fpEnd = tpEnd + c.fp, fnEnd = fpEnd + c.fn;
            for (std::uint64_t i = 0; i < n; ++i) {
                const std::uint64_t row = random.uniformIndex(n);
                if (row < tpEnd)
                    ++again.tp;
                else if (row < fpEnd)
                    ++again.fp;
                else if (row < fnEnd)
                    ++again.fn;
                else
                    ++again.tn;
            }
            drawn[g] = ratesOf(again);
            base[g].push_back(drawn[g].baseRate);
            selection[g].push_back(drawn[g].selectionRate);
            tpr[g].push_back(drawn[g].tpr);
            fpr[g].push_back(drawn[g].fpr);
            accuracy[g].push_back(drawn[g].accuracy);
        }
        gap.push_back(gapOf(drawn, notion));
    }
    std::vector<GroupRates> point;
    for (std::size_t g = 0; g < k; ++g) {
        const GroupRates r = ratesOf(groups[g]);
        point.push_back(r);
        GroupIntervals intervals;
        intervals.group = groups[g].group;
        intervals.n = groups[g].n();
        intervals.baseRate = intervalOf(r.baseRate, base[g], level);
        intervals.selectionRate = intervalOf(r.selectionRate, selection[g], level);
        intervals.tpr = intervalOf(r.tpr, tpr[g], level);
        intervals.fpr = intervalOf(r.fpr, fpr[g], level);
        intervals.accuracy = intervalOf(r.accuracy, accuracy[g], level);
        result.groups.push_back(intervals);
    }
    result.gap = intervalOf(gapOf(point, notion), gap, level);
    return result;
}

}  // namespace pfa::report
