// The rows' triangular factor gives every model's mean squared error without a pass over the
// rows: checked against sums in long double, where a model fits almost exactly (there the
// normal equations X̃ᵀX̃ would lose every digit), on nearly collinear columns, and for the
// cases evaluateRegression answers NaN.
#include "core/engine/regression_factor.h"

#include <Eigen/Dense>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>

#include "core/engine/evaluator.h"
#include "core/util/random.h"

namespace core_regression_factor_test {

using namespace pfa;

namespace {

/// n rows of d standard normal features (column 1 nearly a copy of column 0 when `collinear`)
/// and targets ⟨truth, x̃⟩ + noise·N(0, 1).
Dataset rowsOf(long n, long d, const Eigen::VectorXd& truth, double noise, bool collinear,
               std::uint64_t seed) {
    RandomStream random(seed, 1);
    Dataset data;
    data.name = "factor-" + std::to_string(seed);
    data.X = RowMatrix(n, d);
    data.target.resize(n);
    data.y = Eigen::VectorXi::Zero(n);
    data.s = Eigen::VectorXi::Zero(n);
    for (long i = 0; i < n; ++i) {
        for (long j = 0; j < d; ++j) data.X(i, j) = random.normal();
        if (collinear) data.X(i, 1) = data.X(i, 0) + 1e-7 * random.normal();
        data.target(i) = data.X.row(i).dot(truth.head(d)) + truth(d) + noise * random.normal();
    }
    return data;
}

/// (1/n)‖X̃w − y‖², every product and sum in long double.
double exactMse(const Dataset& data, const Eigen::VectorXd& w) {
    const long n = static_cast<long>(data.rows()), d = static_cast<long>(data.features());
    long double sum = 0.0L;
    for (long i = 0; i < n; ++i) {
        long double residual = static_cast<long double>(w(d)) - data.target(i);
        for (long j = 0; j < d; ++j)
            residual += static_cast<long double>(data.X(i, j)) * static_cast<long double>(w(j));
        sum += residual * residual;
    }
    return static_cast<double>(sum / n);
}

}  // namespace

TEST_CASE("The rows' factor gives each model's mean squared error as a pass over the rows would",
          "[regression-factor]") {
    const long d = 6;
    RandomStream random(5, 2);
    Eigen::VectorXd truth(d + 1);
    for (long j = 0; j <= d; ++j) truth(j) = random.normal();
    // 1,000 rows: three whole blocks of the QR and a last one of 232.
    for (const bool collinear : {false, true}) {
        CAPTURE(collinear);
        const Dataset data = rowsOf(1000, d, truth, 0.5, collinear, collinear ? 2 : 1);
        const RegressionFactor factor(data);
        CHECK(factor.rows() == 1000);
        for (int trial = 0; trial < 20; ++trial) {
            Eigen::VectorXd w = truth;
            for (long j = 0; j <= d; ++j) w(j) += (trial % 4) * 0.5 * random.normal();
            const double exact = exactMse(data, w);
            CHECK(std::abs(factor.meanSquaredError(w) - exact) <= 1e-13 * exact);
            CHECK(std::abs(evaluationMse(&factor, data, w) - factor.meanSquaredError(w)) == 0.0);
            CHECK(std::abs(evaluateRegression(data, w).testMse - exact) <= 1e-13 * exact);
        }
    }

    // Targets the model fits to 1e-9: the MSE, about 1e-18, is still right to 1e-6 (the error
    // of X̃ᵀX̃ alone, ε·‖y‖², would be a hundred times the MSE).
    const Dataset exactFit = rowsOf(700, d, truth, 1e-9, false, 3);
    const RegressionFactor factor(exactFit);
    const double exact = exactMse(exactFit, truth);
    REQUIRE(exact < 1e-17);
    CHECK(std::abs(factor.meanSquaredError(truth) - exact) <= 1e-6 * exact);
}

TEST_CASE("The rows' factor answers NaN where evaluateRegression does, and is shared by width",
          "[regression-factor]") {
    Eigen::VectorXd truth = Eigen::VectorXd::Ones(4);
    const Dataset data = rowsOf(50, 3, truth, 0.1, false, 4);
    const RegressionFactor factor(data);
    Eigen::VectorXd w = truth;
    w(1) = std::numeric_limits<double>::infinity();
    CHECK(std::isnan(factor.meanSquaredError(w)));
    CHECK(std::isnan(evaluateRegression(data, w).testMse));
    CHECK(std::isnan(factor.meanSquaredError(Eigen::VectorXd::Ones(3))));
    const Dataset none = rowsOf(0, 3, truth, 0.1, false, 4);
    CHECK(std::isnan(RegressionFactor(none).meanSquaredError(truth)));
    CHECK(regressionFactorFor(none) == nullptr);

    // The same rows get the same factor; rows wider than kFactorMaxFeatures none (a pass over
    // them is cheaper than their QR).
    const auto shared = regressionFactorFor(data);
    REQUIRE(shared != nullptr);
    CHECK(regressionFactorFor(data) == shared);
    CHECK(regressionFactorFor(rowsOf(50, 3, truth, 0.1, false, 6)) != shared);
    const long wide = kFactorMaxFeatures + 1;
    CHECK(regressionFactorFor(rowsOf(60, wide, Eigen::VectorXd::Ones(wide + 1), 0.1, false, 7)) ==
          nullptr);
}

}  // namespace core_regression_factor_test
