#pragma once

#include <cstddef>
#include <vector>

namespace pfa {

/// A point of a tradeoff plot: both coordinates are "lower is better" (e.g. fairness
/// violation and test error).
struct TradeoffPoint {
    double x = 0.0;
    double y = 0.0;
};

/// Indices of the non-dominated points (no other point is ≤ in both coordinates and < in
/// one), sorted by increasing x. Points with a non-finite coordinate are ignored; of exact
/// duplicates only the first is kept on the front.
std::vector<std::size_t> paretoFront(const std::vector<TradeoffPoint>& points);

}  // namespace pfa
