// The design matrix x̃ = (x, 1) with its row norms, and its sharing between runs: one copy per
// data set while any run holds it.
#include "core/engine/design_matrix.h"

#include <catch2/catch.hpp>
#include <thread>
#include <vector>

namespace core_design_matrix_test {

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
    REQUIRE(plain.X().cols() == 4);
    CHECK(plain.X().leftCols(3) == X);
    CHECK(plain.X().col(3).isOnes());
    for (Eigen::Index i = 0; i < 5; ++i) {
        CHECK(plain.norms(i) == Approx(plain.X().row(i).norm()));
        CHECK(plain.squaredNorms(i) == Approx(plain.X().row(i).squaredNorm()));
    }
    const DesignMatrix bounded = makeDesignMatrix(X, 1.5);
    for (Eigen::Index i = 0; i < 5; ++i) CHECK(bounded.X().row(i).norm() <= 1.5 + 1e-12);
    CHECK_FALSE(plain.borrowsFeatures());  // makeDesignMatrix always copies
}

TEST_CASE("Features are stored with the design's bias column", "[design][features]") {
    const RowMatrix values = features(5, 3);
    FeatureMatrix X = values;
    REQUIRE(X.rows() == 5);
    REQUIRE(X.cols() == 3);
    CHECK(X == values);
    CHECK(X.withBias().cols() == 4);
    CHECK(X.withBias().leftCols(3) == values);
    CHECK(X.withBias().col(3).isOnes());
    // Rows are d + 1 apart in memory: row i starts at withBias's row i.
    CHECK(&X(2, 0) == X.withBias().data() + 2 * 4);

    // Written through the expression, the bias column stays 1.
    X.row(1).setConstant(7.0);
    X(4, 2) = -1.0;
    CHECK(X.withBias().row(1).head(3).isConstant(7.0));
    CHECK(X.withBias()(4, 2) == -1.0);
    CHECK(X.withBias().col(3).isOnes());

    // Copies and moves own their storage and keep the bias column.
    FeatureMatrix copy = X;
    copy(0, 0) = 99.0;
    CHECK(X(0, 0) == values(0, 0));
    CHECK(copy.withBias().col(3).isOnes());
    const double* storage = X.withBias().data();
    FeatureMatrix moved = std::move(X);
    CHECK(moved.withBias().data() == storage);  // no copy
    CHECK(moved(4, 2) == -1.0);
    CHECK(X.rows() == 0);  // NOLINT(bugprone-use-after-move): a moved-from matrix is empty

    // Resizing keeps the bias column 1 in new rows.
    moved.conservativeResize(7, Eigen::NoChange);
    CHECK(moved.rows() == 7);
    CHECK(moved.withBias().col(3).isOnes());
    CHECK(moved(4, 2) == -1.0);
    moved.resize(2, 5);
    CHECK(moved.withBias().cols() == 6);
    CHECK(moved.withBias().col(5).isOnes());

    // Functions that read feature rows bind either storage without a copy.
    const auto firstEntry = [](FeatureRows rows) { return rows.data(); };
    CHECK(firstEntry(copy) == &copy(0, 0));
    CHECK(firstEntry(values) == &values(0, 0));
}

TEST_CASE("A shared design reads the features' own rows unless it rescales them", "[design]") {
    const FeatureMatrix X = features(6, 3);
    const double longest = X.withBias().rowwise().norm().maxCoeff();
    const auto plain = sharedDesignMatrix(X, 0.0);
    CHECK(plain->borrowsFeatures());
    CHECK(&plain->X() == &X.withBias());
    const auto looseBound = sharedDesignMatrix(X, longest);  // no row is longer than the bound
    CHECK(looseBound->borrowsFeatures());
    CHECK(looseBound->norms == plain->norms);
    const auto bounded = sharedDesignMatrix(X, 0.5 * longest);
    CHECK_FALSE(bounded->borrowsFeatures());
    CHECK(bounded->X() == makeDesignMatrix(X, 0.5 * longest).X());
    CHECK(bounded->X().rowwise().norm().maxCoeff() <= 0.5 * longest * (1.0 + 1e-12));
    // Every design gives the same rows and norms as one built as a copy.
    const DesignMatrix copied = makeDesignMatrix(X, 0.0);
    CHECK(plain->X() == copied.X());
    CHECK(plain->norms == copied.norms);
    CHECK(plain->squaredNorms == copied.squaredNorms);
}

TEST_CASE("Runs on one data set share one design while any holds it", "[design]") {
    FeatureMatrix X = features(200, 6);
    auto first = sharedDesignMatrix(X, 0.0);
    auto again = sharedDesignMatrix(X, 0.0);
    CHECK(first.get() == again.get());                       // no second copy
    CHECK(sharedDesignMatrix(X, 2.0).get() != first.get());  // another bound: another design
    const FeatureMatrix other = X;                           // equal values, another matrix
    CHECK(sharedDesignMatrix(other, 0.0).get() != first.get());
    CHECK(first->X() == makeDesignMatrix(X, 0.0).X());

    // From several threads at once: still one design.
    std::vector<std::shared_ptr<const DesignMatrix>> seen(4);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < seen.size(); ++t)
        threads.emplace_back([&, t] { seen[t] = sharedDesignMatrix(X, 0.0); });
    for (std::thread& thread : threads) thread.join();
    for (const auto& design : seen) CHECK(design.get() == first.get());

    // Released by every holder it is freed; the matrix refilled in place gets a design of its
    // new values.
    const double before = first->X()(3, 2);
    const std::weak_ptr<const DesignMatrix> released = first;
    seen.clear();
    first.reset();
    again.reset();
    CHECK(released.expired());
    X *= 2.0;
    const auto rebuilt = sharedDesignMatrix(X, 0.0);
    CHECK(rebuilt->X()(3, 2) == 2.0 * before);
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
        for (Eigen::Index j = 0; j < design.X().cols(); ++j) {
            if (design.X()(i, j) == 0.0) continue;
            columns.push_back(static_cast<std::int32_t>(j));
            values.push_back(design.X()(i, j));
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
    CHECK(bounded.sparse.values.back() == bounded.X()(5, 8));
    // Dense rows keep none: the products read the whole rows.
    CHECK(makeDesignMatrix(features(5, 3), 0.0).sparse.empty());
    CHECK(sparseRowsOf(design.X(), 0.1).empty());
}

TEST_CASE("A sweep's data set keeps its designs that read its rows until the sweep ends",
          "[design]") {
    const FeatureMatrix X = features(50, 4);
    const double longest = X.withBias().rowwise().norm().maxCoeff();
    std::weak_ptr<const DesignMatrix> plain, rescaled, outside;
    {
        const DesignRetention keep(X);
        plain = sharedDesignMatrix(X, 0.0);  // released at once, as a run ending
        rescaled = sharedDesignMatrix(X, 0.5 * longest);
        // Kept: the next run gets the same design instead of building another.
        REQUIRE_FALSE(plain.expired());
        CHECK(sharedDesignMatrix(X, 0.0).get() == plain.lock().get());
        // A rescaled copy of the rows is not kept (memory): freed with its last holder.
        CHECK(rescaled.expired());
        // Another matrix is not covered by the scope.
        const FeatureMatrix other = X;
        outside = sharedDesignMatrix(other, 0.0);
        CHECK(outside.expired());
        {
            const DesignRetention nested(X);  // scopes nest: the inner end keeps it
        }
        CHECK_FALSE(plain.expired());
    }
    CHECK(plain.expired());  // the scope ended: freed
}

}  // namespace core_design_matrix_test
