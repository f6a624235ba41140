#pragma once

// The AVX2 forms of vector_math.h's functions, compiled in their own file with AVX2 enabled
// (vector_math_avx2.cpp). Only vector_math.cpp calls them, where compiled() and the machine
// (avx2Enabled(), instruction_set.h) allow.

namespace pfa::vector_math::avx2 {

/// Whether this build has the AVX2 forms (false where the file was built without AVX2).
bool compiled();
/// The first ⌊n/4⌋·4 elements of logisticProbabilities; returns how many it did.
long probabilities(const double* z, long n, double* sigma);
}  // namespace pfa::vector_math::avx2
