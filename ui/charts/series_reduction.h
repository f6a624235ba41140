#pragma once

#include <QList>
#include <QPointF>

namespace pfa::ui::series_reduction {

/// Moving average over `window` consecutive points, centred on each point: point i becomes the
/// mean of the points i − ⌊(window−1)/2⌋ … i + ⌊window/2⌋, the window cut short at both ends
/// (so the first and last points average fewer values and the curve keeps its full length).
/// x values are kept. A window of 1 or less returns `points` unchanged.
QList<QPointF> movingAverage(const QList<QPointF>& points, int window);

/// At most about 2·`buckets` + 2 points that draw like `points` at `buckets` pixels across:
/// the x range is cut into `buckets` equal slices and each slice keeps its lowest and highest
/// point (in their original order), so spikes survive; the first and last points are always
/// kept. Points must be sorted by x. Returns `points` unchanged when it is already small
/// enough or `buckets` < 1.
QList<QPointF> decimateMinMax(const QList<QPointF>& points, int buckets);

}  // namespace pfa::ui::series_reduction
