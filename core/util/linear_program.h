#pragma once
// A small dense linear program solved with GLPK: the floating-point simplex with presolve,
// then GLPK's exact (rational) simplex from that basis, so the vertex returned is the exact
// optimum of the program as given in doubles.

#include <Eigen/Core>

namespace pfa {

/// min costᵀx subject to upperRows·x ≤ upperBounds, equalRows·x = equalBounds and
/// lower ≤ x ≤ upper (entries may be ±∞; an upper bound of +∞ leaves that row free).
struct LinearProgram {
    Eigen::VectorXd cost;
    Eigen::MatrixXd upperRows;
    Eigen::VectorXd upperBounds;
    Eigen::MatrixXd equalRows;
    Eigen::VectorXd equalBounds;
    Eigen::VectorXd lower;  ///< per variable (−∞: none)
    Eigen::VectorXd upper;  ///< per variable (+∞: none)
};

/// How a solve ended.
enum class LinearProgramStatus {
    Optimal,     ///< x holds an optimal vertex
    NotOptimal,  ///< infeasible or unbounded
    Failed       ///< GLPK reported an internal error (its environment was released)
};

/// Solves `program` into `x` (resized to its variables). Throws InputError when the program's
/// sizes disagree or a number in it is NaN.
LinearProgramStatus solveLinearProgram(const LinearProgram& program, Eigen::VectorXd& x);

}  // namespace pfa
