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

TEST_CASE("A design keeps its rows' nonzero entries when most entries are zero",
          "[design][sparse]") {
    RowMatrix X = RowMatrix::Zero(6, 8);
    for (Eigen::Index i = 0; i < 6; ++i) {
        X(i, i % 8) = 1.0;
        X(i, 7) = -0.5 * static_cast<double>(i);  // 0 in row 0
    }
    const DesignMatrix design = makeDesignMatrix(X, 0.0);
    const SparseRows& rows = design.sparse;
    REQUIRE(rows.start.size() == 7);
    for (Eigen::Index i = 0; i < 6; ++i) {
        // Exactly the nonzero entries, in column order.
        std::vector<std::int32_t> columns;
        std::vector<double> values;
        for (Eigen::Index j = 0; j < design.X.cols(); ++j) {
            if (design.X(i, j) == 0.0) continue;
            columns.push_back(static_cast<std::int32_t>(j));
            values.push_back(design.X(i, j));
        }
        const auto begin = rows.start[static_cast<std::size_t>(i)];
        const auto end = rows.start[static_cast<std::size_t>(i) + 1];
        CHECK(std::vector<std::int32_t>(rows.columns.begin() + begin, rows.columns.begin() + end) ==
              columns);
        CHECK(std::vector<double>(rows.values.begin() + begin, rows.values.begin() + end) ==
              values);
    }
    CHECK(rows.columns[static_cast<std::size_t>(rows.start[1]) - 1] == 8);  // the bias column
    // The bound rescales the kept values with the rows.
    const DesignMatrix bounded = makeDesignMatrix(X, 1.0);
    CHECK(bounded.sparse.values.back() == bounded.X(5, 8));
    // Dense rows keep none: the products read the whole rows.
    CHECK(makeDesignMatrix(features(5, 3), 0.0).sparse.empty());
    CHECK(sparseRowsOf(design.X, 0.1).empty());
}
