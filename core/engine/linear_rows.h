#pragma once

namespace pfa {

/// Rows of a feature matrix as a linear model's batch loop reads them: row i's `features`
/// values start at data + i·stride.
template <typename Value>
struct LinearRowsOf {
    const Value* data = nullptr;
    long stride = 0;
    long features = 0;
};
using LinearRows = LinearRowsOf<double>;
/// Rows stored in single precision (half the memory traffic of reading them): unpackRows
/// converts a chunk of them exactly into double rows for the kernels below.
using SingleLinearRows = LinearRowsOf<float>;

/// scores[k] = Σ_j x_{rows[k], j}·w_j for k < count, each sum in one fixed order: four running
/// sums (sum l takes features 4q + l, each term a multiplication then an addition, from +0),
/// folded as (s₀ + s₁) + (s₂ + s₃), then the last features mod 4 added one at a time. The rows
/// are read eight at a time, sharing every load of w; a row's sum does not depend on the others,
/// and the AVX2 form (chosen at run time, avx2Enabled()) gives the same bits as the baseline one.
void linearRowScores(const LinearRows& X, const long* rows, long count, const double* w,
                     double* scores);

/// g_j += scales[k]·x_{rows[k], j} for every feature j, the rows k = 0 … count − 1 added in
/// order, each term a multiplication then an addition: the bits of adding the rows one by one
/// (g += s·x), eight rows per pass over g. Same bits with AVX2 or without.
void addScaledRows(const LinearRows& X, const long* rows, long count, const double* scales,
                   double* g);

/// out[k·outStride + j] = x_{rows[k], j} (exactly, as double) for k < count and every feature j:
/// the rows of a batch chunk read from memory once, for the double kernels to compute on.
void unpackRows(const SingleLinearRows& X, const long* rows, long count, double* out,
                long outStride);

/// scores[k] = Σ_j x_{rows[k], j}·w_j computed in SINGLE precision (w: `features` floats),
/// converted to double, for k < count: eight running float sums (sum l takes features 8q + l,
/// each term a multiplication then an addition, from +0), folded as
/// ((s₀ + s₁) + (s₂ + s₃)) + ((s₄ + s₅) + (s₆ + s₇)), then the last features mod 8 added one at
/// a time. Eight values per instruction with AVX2, and the rows read as stored (no unpacking);
/// the same bits with AVX2 or without.
void linearRowScoresSingle(const SingleLinearRows& X, const long* rows, long count, const float* w,
                           double* scores);

/// The score of row `row` of X computed in double (each value converted exactly, w in double,
/// added in feature order): for a row whose single-precision score is not finite.
double singleRowScoreInDouble(const SingleLinearRows& X, long row, const double* w);

/// addScaledRows for rows stored in single precision, each value converted to double exactly:
/// the bits of unpackRows followed by addScaledRows.
void addScaledSingleRows(const SingleLinearRows& X, const long* rows, long count,
                         const double* scales, double* g);

}  // namespace pfa
