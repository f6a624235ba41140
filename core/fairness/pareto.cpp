#include "core/fairness/pareto.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace pfa {

std::vector<std::size_t> paretoFront(const std::vector<TradeoffPoint>& points) {
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (std::isfinite(points[i].x) && std::isfinite(points[i].y)) order.push_back(i);
    }
    // Sweep by increasing x (ties: lower y first); a point is on the front when its y is
    // strictly below every y seen so far.
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (points[a].x != points[b].x) return points[a].x < points[b].x;
        return points[a].y < points[b].y;
    });
    std::vector<std::size_t> front;
    double bestY = std::numeric_limits<double>::infinity();
    for (std::size_t index : order) {
        if (points[index].y < bestY) {
            front.push_back(index);
            bestY = points[index].y;
        }
    }
    return front;
}

}  // namespace pfa
