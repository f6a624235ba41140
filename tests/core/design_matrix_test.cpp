// The design matrix x̃ = (x, 1) with its row norms, and its sharing between runs: one copy per
// data set while any run holds it.
#include "core/engine/design_matrix.h"

#include <catch2/catch.hpp>
#include <thread>
#include <vector>

using namespace pfa;

namespace {

RowMatrix features(Eigen::Index rows, Eigen::Index cols) {
    RowMatrix X(rows, cols);
    for (Eigen::Index i = 0; i < rows; ++i)
        for (Eigen::Index j = 0; j < cols; ++j) X(i, j) = static_cast<double>(i - 2 * j) / 7.0;
    return X;
}

}  // namespace

TEST_CASE("Design matrix: bias column, norms and the bound", "[design]") {
    const RowMatrix X = features(5, 3);
    const DesignMatrix plain = makeDesignMatrix(X, 0.0);
    REQUIRE(plain.X.cols() == 4);
    CHECK(plain.X.leftCols(3) == X);
    CHECK(plain.X.col(3).isOnes());
    for (Eigen::Index i = 0; i < 5; ++i) {
        CHECK(plain.norms(i) == Approx(plain.X.row(i).norm()));
        CHECK(plain.squaredNorms(i) == Approx(plain.X.row(i).squaredNorm()));
    }
    const DesignMatrix bounded = makeDesignMatrix(X, 1.5);
    for (Eigen::Index i = 0; i < 5; ++i) CHECK(bounded.X.row(i).norm() <= 1.5 + 1e-12);
}

TEST_CASE("Runs on one data set share one design while any holds it", "[design]") {
    RowMatrix X = features(200, 6);
    auto first = sharedDesignMatrix(X, 0.0);
    auto again = sharedDesignMatrix(X, 0.0);
    CHECK(first.get() == again.get());                       // no second copy
    CHECK(sharedDesignMatrix(X, 2.0).get() != first.get());  // another bound: another design
    const RowMatrix other = X;                               // equal values, another matrix
    CHECK(sharedDesignMatrix(other, 0.0).get() != first.get());
    CHECK(first->X == makeDesignMatrix(X, 0.0).X);

    // From several threads at once: still one design.
    std::vector<std::shared_ptr<const DesignMatrix>> seen(4);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < seen.size(); ++t)
        threads.emplace_back([&, t] { seen[t] = sharedDesignMatrix(X, 0.0); });
    for (std::thread& thread : threads) thread.join();
    for (const auto& design : seen) CHECK(design.get() == first.get());

    // Released by every holder it is freed; the matrix refilled in place gets a design of its
    // new values.
    const double before = first->X(3, 2);
    const std::weak_ptr<const DesignMatrix> released = first;
    seen.clear();
    first.reset();
    again.reset();
    CHECK(released.expired());
    X *= 2.0;
    const auto rebuilt = sharedDesignMatrix(X, 0.0);
    CHECK(rebuilt->X(3, 2) == 2.0 * before);
}
