// The dense linear-program helper on programs whose optima are known by hand.
#include "core/util/linear_program.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/util/error.h"

namespace core_linear_program_test {

using namespace pfa;

TEST_CASE("Linear program: a vertex optimum with an equality row and an unbounded variable",
          "[linear-program]") {
    // min x0 + 2·x1 + c·s  s.t.  x0 + x1 = 1,  0.8·x0 − s ≤ 0.5,  x ≥ 0, s ≥ 0 (no upper
    // bound). On x0 = a ≥ 0.625 the value is 2 − a + c·(0.8a − 0.5), of slope 0.8c − 1: a dear
    // slack (c = 3) keeps the row (a = 0.625, value 1.375), a cheap one (c = 1) pays for it
    // (a = 1, s = 0.3, value 1.3).
    LinearProgram lp;
    lp.cost = Eigen::Vector3d(1.0, 2.0, 3.0);
    lp.equalRows = Eigen::RowVector3d(1.0, 1.0, 0.0);
    lp.equalBounds = Eigen::VectorXd::Ones(1);
    lp.upperRows = Eigen::RowVector3d(0.8, 0.0, -1.0);
    lp.upperBounds = Eigen::VectorXd::Constant(1, 0.5);
    lp.lower = Eigen::Vector3d::Zero();
    lp.upper = Eigen::Vector3d::Constant(INFINITY);
    Eigen::VectorXd x;
    REQUIRE(solveLinearProgram(lp, x) == LinearProgramStatus::Optimal);
    CHECK(x(0) == Approx(0.625).margin(1e-12));
    CHECK(x(1) == Approx(0.375).margin(1e-12));
    CHECK(x(2) == Approx(0.0).margin(1e-12));

    lp.cost(2) = 1.0;
    REQUIRE(solveLinearProgram(lp, x) == LinearProgramStatus::Optimal);
    CHECK(x(0) == Approx(1.0).margin(1e-12));
    CHECK(x(1) == Approx(0.0).margin(1e-12));
    CHECK(x(2) == Approx(0.3).margin(1e-12));
}

TEST_CASE("Linear program: infeasible programs and bad input are reported", "[linear-program]") {
    LinearProgram lp;
    lp.cost = Eigen::Vector2d(1.0, 1.0);
    lp.equalRows = Eigen::RowVector2d(1.0, 1.0);
    lp.equalBounds = Eigen::VectorXd::Constant(1, 3.0);
    lp.lower = Eigen::Vector2d::Zero();
    lp.upper = Eigen::Vector2d::Ones();  // x0 + x1 ≤ 2 < 3
    Eigen::VectorXd x;
    CHECK(solveLinearProgram(lp, x) == LinearProgramStatus::NotOptimal);
    lp.upper = Eigen::Vector3d::Ones();
    CHECK_THROWS_AS(solveLinearProgram(lp, x), InputError);
    lp.upper = Eigen::Vector2d(1.0, NAN);
    CHECK_THROWS_AS(solveLinearProgram(lp, x), InputError);
}

}  // namespace core_linear_program_test
