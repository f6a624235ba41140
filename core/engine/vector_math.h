#pragma once

namespace pfa::vector_math {

// Element-wise exp/log work of whole passes over rows, on contiguous arrays of doubles, in SIMD
// through Eigen's vectorised exp and log (and tableLogs for the logistic losses). Machines with
// AVX2 take four doubles per vector operation instead of two (chosen at run time by avx2Enabled(),
// instruction_set.h), with the same results bit for bit: both forms do each element's operations in
// the same order with the same polynomial (no fused multiply-add), and where the AVX2 form stops
// short of the end, the baseline form finishes. The results are those of the Eigen array
// expressions named in each function's comment, evaluated on Eigen-allocated (16-byte aligned)
// arrays.

/// Binary logistic probabilities and losses of n rows: σ_i = 1/(1 + e^{−z_i}) and
/// loss_i = −log(c_i·y_i + (1 − c_i)·(1 − y_i)), c_i = min(max(σ_i, floor), 1 − floor), for
/// labels y_i ∈ {0.0, 1.0}. `sigma` and `loss` hold n values; no array may overlap another.
/// σ is logisticProbabilities'; the log is tableLog's (util/table_math.h), four at a time,
/// which is several times faster than Eigen's and as accurate (within 0.52 ulp).
void logisticProbabilitiesAndLosses(const double* z, const double* labels, long n, double floor,
                                    double* sigma, double* loss);

/// The probabilities σ_i of logisticProbabilitiesAndLosses alone (the same bits), for sets
/// whose losses nobody reads (the test rows).
void logisticProbabilities(const double* z, long n, double* sigma);

/// softplus(a) and its derivative sigmoid(a) of n entries, through one e = exp(−|a|) and one
/// log per entry, neither overflowing: with u = 1 + e,
///   softplus = max(a, 0) + (log(u) − ((u − 1) − e)·(1/u))   (log1p(e) to a few ulps),
///   sigmoid = (q + (1 − q)·e)·(1/u), q = max(a, 0)/max(|a|, DBL_MIN) (0 or 1; 1/2 at a ≈ 0).
/// exp and log are tableExps and tableLogs (util/table_math.h), the same bits in every form.
/// `e` and `u` are scratch of n values; no array may overlap another.
void softplusAndSigmoid(const double* a, long n, double* e, double* u, double* softplus,
                        double* sigmoid);

}  // namespace pfa::vector_math
