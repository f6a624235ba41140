#pragma once

namespace pfa {

/// e^x by the table method of Arm's optimized-routines (the exp of glibc since 2.28):
/// x = k·ln2/128 + r, e^x = 2^(k/128)·e^r with 2^(k/128) from a 128-entry table and e^r − 1 from
/// a degree-5 polynomial, every multiply-add fused. These are exactly the operations of
/// glibc's exp on a machine with FMA (its __exp_fma), so on such a machine tableExp(x) ==
/// std::exp(x) bit for bit (tested); within 0.52 ulp of e^x everywhere. Its point is
/// tableExps(): the same function four at a time, which glibc does not offer. Arguments below
/// 2^−54 or from 512 on in magnitude (and ±∞, NaN) are passed to std::exp as they are.
double tableExp(double x);

/// tableExp of x[0 … n − 1] into out[0 … n − 1] (which may be x), with the same bits: four at a
/// time where the machine has AVX2 and FMA (and avx2Enabled()), else one by one. (Without them,
/// or with useBaselineInstructionsOnly, the fused multiply-adds are std::fma's: the same bits,
/// slower where the machine has no FMA instruction.)
void tableExps(const double* x, double* out, long n);

/// Whether the table functions take their fused forms (the processor's FMA instruction, four
/// at a time with AVX2): the machine has AVX2 and FMA, and avx2Enabled(). Either way the bits
/// are the same.
bool fusedTableMath();

/// log(x) by the table method of the same routines (glibc's log since 2.28): x = 2^k·z with z
/// near one of 128 centres c, log(x) = k·ln2 + log(c) + log1p(z/c − 1) by a polynomial, and
/// a polynomial of its own for x near 1, every multiply-add fused as in glibc's __log_fma: on
/// a machine with FMA, tableLog(x) == std::log(x) bit for bit (tested); within 0.52 ulp.
/// Zero, negative, subnormal, infinite and NaN arguments are passed to std::log.
double tableLog(double x);

/// tableLog of x[0 … n − 1] into out (which may be x), with the same bits: four at a time where
/// the machine has AVX2 and FMA (and avx2Enabled()), else one by one.
void tableLogs(const double* x, double* out, long n);

}  // namespace pfa
