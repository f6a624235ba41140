#include "core/engine/vector_math.h"

#include <Eigen/Core>
#include <algorithm>
#include <cstdint>
#include <limits>

#include "core/engine/vector_math_avx2.h"
#include "core/util/instruction_set.h"
#include "core/util/table_math.h"

namespace pfa::vector_math {

namespace {

using ConstArray = Eigen::Map<const Eigen::ArrayXd>;
using Array = Eigen::Map<Eigen::ArrayXd>;

bool aligned16(const double* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// The baseline forms: Eigen's array expressions, two doubles per operation (SSE2). Eigen
// computes a 16-byte aligned destination in pairs from its first element and an odd last
// element with the scalar std::exp and std::log.
void probabilitiesBaseline(const double* z, long n, double* sigma) {
    const ConstArray zs(z, n);
    Array s(sigma, n);
    s = 1.0 / (1.0 + (-zs).exp());
}

void softplusAndSigmoidBaseline(const double* a, long n, double* e, double* u, double* softplus,
                                double* sigmoid) {
    const ConstArray as(a, n);
    Array es(e, n), us(u, n), sp(softplus, n), sg(sigmoid, n);
    es = (-as.abs()).exp();
    us = 1.0 + es;
    sp = as.max(0.0) + (us.log() - ((us - 1.0) - es) / us);
    const auto q = as.max(0.0) / as.abs().max(std::numeric_limits<double>::min());
    sg = (q + (1.0 - q) * es) / us;
}

/// Whether to take the AVX2 form: the machine runs it (instruction_set.h) and this build has it.
bool avx2Form() { return avx2Enabled() && avx2::compiled(); }

}  // namespace

void logisticProbabilitiesAndLosses(const double* z, const double* labels, long n, double floor,
                                    double* sigma, double* loss) {
    logisticProbabilities(z, n, sigma);
    // The clamped probability of each row's class (c·y + (1 − c)·(1 − y) is exact for
    // y ∈ {0, 1}), then its log, the same bits in every form.
    for (long i = 0; i < n; ++i) {
        const double c = std::min(std::max(sigma[i], floor), 1.0 - floor);
        loss[i] = c * labels[i] + (1.0 - c) * (1.0 - labels[i]);
    }
    tableLogs(loss, loss, n);
    for (long i = 0; i < n; ++i) loss[i] = -loss[i];
}

void logisticProbabilities(const double* z, long n, double* sigma) {
    long done = 0;
    if (avx2Form() && aligned16(sigma)) done = avx2::probabilities(z, n, sigma);
    if (done < n) probabilitiesBaseline(z + done, n - done, sigma + done);
}

void softplusAndSigmoid(const double* a, long n, double* e, double* u, double* softplus,
                        double* sigmoid) {
    long done = 0;
    if (avx2Form() && aligned16(e) && aligned16(u) && aligned16(softplus) && aligned16(sigmoid))
        done = avx2::softplusAndSigmoid(a, n, e, u, softplus, sigmoid);
    if (done < n) {
        softplusAndSigmoidBaseline(a + done, n - done, e + done, u + done, softplus + done,
                                   sigmoid + done);
    }
}

}  // namespace pfa::vector_math
