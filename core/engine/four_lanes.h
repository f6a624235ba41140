#pragma once

// Four doubles as one vector, for kernels compiled twice, in a baseline and an AVX2 form
// (`[[gnu::target("avx2")]]`), that must give the same bits: one operation with AVX2, two halves
// of two without; the same values either way (with -ffp-contract=off: no fused multiply-add).
// Include only from such a kernel's .cpp file: the pragma below is for that file alone.
#include <cstring>

// Four lanes are only passed between always-inlined functions, so no call ever has the AVX ABI
// GCC warns about for the baseline form.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace pfa::lanes {

using FourDoubles = double __attribute__((vector_size(4 * sizeof(double))));

/// The four doubles from p (any alignment).
[[gnu::always_inline]] inline FourDoubles load(const double* p) {
    FourDoubles v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

/// The four floats from p (any alignment), each converted to double (exact).
[[gnu::always_inline]] inline FourDoubles load(const float* p) {
    // Element by element: GCC makes one 4-wide conversion of it in the AVX2 form (its
    // __builtin_convertvector is lowered to two halves there).
    return FourDoubles{static_cast<double>(p[0]), static_cast<double>(p[1]),
                       static_cast<double>(p[2]), static_cast<double>(p[3])};
}

/// Stores the four doubles at p (any alignment).
[[gnu::always_inline]] inline void store(double* p, FourDoubles v) { std::memcpy(p, &v, sizeof v); }

}  // namespace pfa::lanes
