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

long softplusAndSigmoid(const double* a, long n, double* /*e*/, double* /*u*/, double* softplus,
                        double* sigmoid) {
    const Packet one = ev::pset1<Packet>(1.0);
    const Packet zero = ev::pset1<Packet>(0.0);
    const Packet smallest = ev::pset1<Packet>(2.2250738585072014e-308);  // DBL_MIN
    const Packet largest = ev::pset1<Packet>(1.7976931348623157e308);    // DBL_MAX
    const long whole = n / 4 * 4;
    // e and u stay in registers: the scratch arrays are the baseline form's.
    for (long i = 0; i < whole; i += 4) {
        const Packet x = ev::ploadu<Packet>(a + i);
        const Packet magnitude = ev::pabs(x);
        const Packet ex = ev::pexp(ev::pnegate(magnitude));
        const Packet ux = ev::padd(one, ex);
        const Packet positive = ev::pmax(x, zero);
        const Packet log1p = ev::psub(ev::plog(ux), ev::pdiv(ev::psub(ev::psub(ux, one), ex), ux));
        ev::pstoreu(softplus + i, ev::padd(positive, log1p));
        // q = max(x, 0)/max(|x|, DBL_MIN) is x/x = 1 or 0/|x| = +0 exactly where |x| is a
        // finite normal number: there it is a choice, not a division. Otherwise (0, subnormal,
        // infinite or NaN) it is divided, as in the baseline form.
        const Packet normal = _mm256_and_pd(_mm256_cmp_pd(magnitude, smallest, _CMP_GE_OQ),
                                            _mm256_cmp_pd(magnitude, largest, _CMP_LE_OQ));
        Packet q;
        if (_mm256_movemask_pd(normal) == 0xF)
            q = _mm256_and_pd(_mm256_cmp_pd(x, zero, _CMP_GT_OQ), one);
        else
            q = ev::pdiv(positive, ev::pmax(magnitude, smallest));
        ev::pstoreu(sigmoid + i, ev::pdiv(ev::padd(q, ev::pmul(ev::psub(one, q), ex)), ux));
    }
    return whole;
}

#else

bool compiled() { return false; }
long probabilities(const double*, long, double*) { return 0; }
long softplusAndSigmoid(const double*, long, double*, double*, double*, double*) { return 0; }

#endif

}  // namespace pfa::vector_math::avx2
