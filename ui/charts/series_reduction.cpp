#include "ui/charts/series_reduction.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace pfa::ui::series_reduction {

QList<QPointF> movingAverage(const QList<QPointF>& points, int window) {
    if (window <= 1 || points.size() <= 1) return points;
    const qsizetype n = points.size();
    // Prefix sums make every window O(1), whatever its size.
    std::vector<double> prefix(static_cast<std::size_t>(n) + 1, 0.0);
    for (qsizetype i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + points[i].y();
    const qsizetype before = (window - 1) / 2, after = window / 2;
    QList<QPointF> smoothed;
    smoothed.reserve(n);
    for (qsizetype i = 0; i < n; ++i) {
        const qsizetype from = std::max<qsizetype>(0, i - before);
        const qsizetype to = std::min<qsizetype>(n - 1, i + after);
        smoothed.append(
            QPointF(points[i].x(), (prefix[to + 1] - prefix[from]) / double(to - from + 1)));
    }
    return smoothed;
}

QList<QPointF> decimateMinMax(const QList<QPointF>& points, int buckets) {
    const qsizetype n = points.size();
    if (buckets < 1 || n <= 2 * qsizetype(buckets) + 2) return points;
    const double x0 = points.front().x(), x1 = points.back().x();
    if (!(x1 > x0)) return points;
    const double width = (x1 - x0) / buckets;
    QList<QPointF> kept;
    kept.reserve(2 * buckets + 2);
    kept.append(points.front());
    qsizetype i = 1;
    const qsizetype last = n - 1;
    while (i < last) {
        // The slice of point i: every following point up to the slice's right edge.
        const int bucket = std::min(buckets - 1, static_cast<int>((points[i].x() - x0) / width));
        qsizetype lo = i, hi = i, j = i;
        for (; j < last; ++j) {
            if (std::min(buckets - 1, static_cast<int>((points[j].x() - x0) / width)) != bucket)
                break;
            if (points[j].y() < points[lo].y()) lo = j;
            if (points[j].y() > points[hi].y()) hi = j;
        }
        kept.append(points[std::min(lo, hi)]);
        if (lo != hi) kept.append(points[std::max(lo, hi)]);
        i = j;
    }
    kept.append(points.back());
    return kept;
}

}  // namespace pfa::ui::series_reduction
