#pragma once

namespace pfa {

/// sin x and cos x together by the table method of IBM's Accurate Mathematical Library, the
/// sin, cos and sincos of glibc (since 2.28): |x| < 0.855 directly; up to 2.426 as π/2 − |x| in
/// two parts; up to 105414350 less the nearest multiple n·π/2 (in three parts); then, for the
/// reduced a, sin a as a Taylor polynomial below 0.126 and otherwise, like cos a, from the
/// nearest k/128 (a table of sin and cos of k/128 to 106 bits, each the nearest double and the
/// nearest double to what is left) and short polynomials in the rest, every multiply-add
/// fused where glibc's FMA build fuses it. So on a machine with FMA it gives std::sin's and
/// std::cos's bits (tested on a million arguments, and on many more when it was written); its
/// point is tableSinCoss(), the same four at a time, which glibc does not offer. Arguments
/// below 2^−27 or from 105414350 on in magnitude (and ±∞, NaN) go to std::sin and std::cos.
void tableSinCos(double x, double& sine, double& cosine);

/// tableSinCos of x[0 … n − 1] into sine[0 … n − 1] and cosine[0 … n − 1], with the same bits:
/// four at a time where the machine has AVX2 and FMA (and avx2Enabled()), else one by one.
void tableSinCoss(const double* x, double* sine, double* cosine, long n);

}  // namespace pfa
