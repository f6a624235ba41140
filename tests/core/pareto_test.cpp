#include "core/fairness/pareto.h"

#include <catch2/catch.hpp>
#include <cmath>

namespace core_pareto_test {

using namespace pfa;

TEST_CASE("Pareto front of tradeoff points", "[pareto]") {
    const std::vector<TradeoffPoint> points = {{0.20, 0.15}, {0.05, 0.17}, {0.10, 0.16},
                                               {0.12, 0.18}, {0.02, 0.25}, {0.05, 0.17},
                                               {NAN, 0.1},   {0.30, 0.15}};
    // (0.12, 0.18) is dominated by (0.10, 0.16); (0.30, 0.15) by (0.20, 0.15); the duplicate
    // (0.05, 0.17) and the NaN point are not on the front.
    CHECK(paretoFront(points) == std::vector<std::size_t>{4, 1, 2, 0});
    CHECK(paretoFront({}).empty());
    CHECK(paretoFront({{1, 1}}) == std::vector<std::size_t>{0});
}

}  // namespace core_pareto_test
