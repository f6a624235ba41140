// Compiled with -mavx2 and without fused multiply-add (core/CMakeLists.txt): Eigen's packet
// exp and log then take four doubles at a time in exactly the operations of their SSE2 form,
// so each element gets the bits of the baseline (tested: "[vector-math]").
//
// Eigen is included here under another namespace name. Its templates instantiated with AVX2
// code would otherwise have the same names as the baseline files' instantiations, and the
// linker keeps one copy of each: the baseline code could end up running AVX2 instructions.
// Nothing else of C++'s library is used here for the same reason, and every call goes through
// explicit packets (no expression templates, no alignment-dependent loops).
#if defined(__AVX2__) && !defined(__FMA__)
#define PFA_VECTOR_MATH_AVX2 1
#define Eigen pfa_eigen_avx2
#include <Eigen/Core>
#undef Eigen
#endif

#include "core/engine/vector_math_avx2.h"

namespace pfa::vector_math::avx2 {

#ifdef PFA_VECTOR_MATH_AVX2

namespace {
namespace ev = ::pfa_eigen_avx2::internal;
using Packet = ev::Packet4d;
}  // namespace

bool compiled() { return true; }

long probabilities(const double* z, long n, double* sigma) {
    const Packet one = ev::pset1<Packet>(1.0);
    const long whole = n / 4 * 4;
    for (long i = 0; i < whole; i += 4) {
        // σ = 1/(1 + e^{−z}).
        ev::pstoreu(sigma + i,
                    ev::pdiv(one, ev::padd(one, ev::pexp(ev::pnegate(ev::ploadu<Packet>(z + i))))));
    }
    return whole;
}

#else

bool compiled() { return false; }
long probabilities(const double*, long, double*) { return 0; }

#endif

}  // namespace pfa::vector_math::avx2
