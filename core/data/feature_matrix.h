#pragma once

#include <Eigen/Core>
#include <new>
#include <utility>

namespace pfa {

/// Row-major dense matrix: one example per row, so a row is contiguous in memory.
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Read access to feature rows wherever they are stored: a RowMatrix or a FeatureMatrix (whose
/// rows are a stride of d + 1 apart), bound without a copy.
using FeatureRows = Eigen::Ref<const RowMatrix, 0, Eigen::OuterStride<>>;

/// A data set's encoded features (n × d), stored with a 1 after every row: the bias column of
/// the design matrix (x, 1). A design whose rows are not rescaled is then this storage itself
/// (withBias()) rather than a copy of every feature, the largest allocation of a training run.
///
/// It is an Eigen expression of the n × d features (read and written like a RowMatrix: rows,
/// columns, coefficients, products), and it owns its storage: copies, moves and resizes keep
/// the bias column at 1. Its rows are d + 1 doubles apart: code that walks memory goes row by
/// row (row(i), or withBias() for the rows with their bias), never data() + i·cols().
class FeatureMatrix : public Eigen::Map<RowMatrix, 0, Eigen::OuterStride<>> {
public:
    using View = Eigen::Map<RowMatrix, 0, Eigen::OuterStride<>>;

    FeatureMatrix() : View(nullptr, 0, 0, Eigen::OuterStride<>(1)) {}
    FeatureMatrix(Eigen::Index rows, Eigen::Index cols) : FeatureMatrix() { resize(rows, cols); }
    /// The values of any matrix expression (a RowMatrix, a block, Random(…)).
    template <typename Derived>
    FeatureMatrix(const Eigen::DenseBase<Derived>& values) : FeatureMatrix() {  // NOLINT
        assign(values);
    }
    FeatureMatrix(const FeatureMatrix& other) : FeatureMatrix() {
        m_withBias = other.m_withBias;
        seat(other.cols());
    }
    FeatureMatrix(FeatureMatrix&& other) noexcept : FeatureMatrix() { take(std::move(other)); }
    FeatureMatrix& operator=(const FeatureMatrix& other) {
        if (this != &other) {
            m_withBias = other.m_withBias;
            seat(other.cols());
        }
        return *this;
    }
    FeatureMatrix& operator=(FeatureMatrix&& other) noexcept {
        if (this != &other) take(std::move(other));
        return *this;
    }
    template <typename Derived>
    FeatureMatrix& operator=(const Eigen::DenseBase<Derived>& values) {
        assign(values);
        return *this;
    }

    /// n × d features, contents unspecified (the bias column is 1).
    void resize(Eigen::Index rows, Eigen::Index cols) {
        m_withBias.resize(rows, cols + 1);
        m_withBias.col(cols).setOnes();
        seat(cols);
    }
    /// n × d storage that nothing has written yet, not even the bias column, so that memory is
    /// taken only as rows are written (a data set built block by block while its source is
    /// released). Every row must then be written through startRow before any other use.
    void resizeUnwritten(Eigen::Index rows, Eigen::Index cols) {
        m_withBias.resize(rows, cols + 1);
        seat(cols);
    }
    /// Row i's features, to be written, its bias entry set to 1 (see resizeUnwritten).
    auto startRow(Eigen::Index i) {
        m_withBias(i, cols()) = 1.0;
        return row(i);
    }
    /// Keeps the first rows; added rows have unspecified features.
    void conservativeResize(Eigen::Index rows, Eigen::NoChange_t) {
        const Eigen::Index before = m_withBias.rows(), d = cols();
        m_withBias.conservativeResize(rows, Eigen::NoChange);
        if (rows > before) m_withBias.col(d).tail(rows - before).setOnes();
        seat(d);
    }

    /// The rows with their bias column, (x, 1): n × (d + 1), contiguous.
    const RowMatrix& withBias() const { return m_withBias; }

private:
    /// Points the expression at the storage (Eigen's documented way to move a Map).
    void seat(Eigen::Index cols) {
        new (static_cast<View*>(this))
            View(m_withBias.data(), m_withBias.rows(), cols, Eigen::OuterStride<>(cols + 1));
    }
    void take(FeatureMatrix&& other) {
        const Eigen::Index d = other.cols();
        m_withBias = std::move(other.m_withBias);
        seat(d);
        other.m_withBias.resize(0, 1);
        other.seat(0);
    }
    template <typename Derived>
    void assign(const Eigen::DenseBase<Derived>& values) {
        // Evaluated first: the values may read this matrix.
        const RowMatrix evaluated = values;
        resize(evaluated.rows(), evaluated.cols());
        View::operator=(evaluated);
    }

    RowMatrix m_withBias{0, 1};
};

}  // namespace pfa
