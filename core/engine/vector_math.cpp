#include "core/engine/vector_math.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
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

/// softplus and sigmoid from e = exp(−|a|), u = 1 + e and log(u) (in `softplus`), with one
/// division per entry: q = max(a, 0)/max(|a|, DBL_MIN) is 1 or +0 where |a| is a finite normal
/// number (a choice there; other entries, rare, are divided afterwards).
[[gnu::always_inline]] inline void softplusSigmoidBody(const double* __restrict a, long n,
                                                       const double* __restrict e,
                                                       const double* __restrict u,
                                                       double* __restrict softplus,
                                                       double* __restrict sigmoid) {
    constexpr double smallest = std::numeric_limits<double>::min();
    constexpr double largest = std::numeric_limits<double>::max();
    for (long i = 0; i < n; ++i) {
        const double positive = a[i] < 0.0 ? 0.0 : a[i];  // std::max(a, 0.0), as a choice
        const double inverse = 1.0 / u[i];
        softplus[i] = positive + (softplus[i] - ((u[i] - 1.0) - e[i]) * inverse);
        const double q = a[i] > 0.0 ? 1.0 : 0.0;
        sigmoid[i] = (q + (1.0 - q) * e[i]) * inverse;
    }
    int others = 0;
    for (long i = 0; i < n; ++i) {
        const double magnitude = std::abs(a[i]);
        others |= (magnitude >= smallest) & (magnitude <= largest) ? 0 : 1;
    }
    if (!others) return;
    for (long i = 0; i < n; ++i) {
        const double magnitude = std::abs(a[i]);
        if (magnitude >= smallest && magnitude <= largest) continue;
        const double q = std::max(a[i], 0.0) / std::max(magnitude, smallest);
        sigmoid[i] = (q + (1.0 - q) * e[i]) * (1.0 / u[i]);
    }
}

void softplusSigmoidBaseline(const double* a, long n, const double* e, const double* u,
                             double* softplus, double* sigmoid) {
    softplusSigmoidBody(a, n, e, u, softplus, sigmoid);
}
[[gnu::target("avx2")]] void softplusSigmoidAvx2(const double* a, long n, const double* e,
                                                 const double* u, double* softplus,
                                                 double* sigmoid) {
    softplusSigmoidBody(a, n, e, u, softplus, sigmoid);
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
    // e = exp(−|a|) and log(u) by the table functions, four at a time where the machine can;
    // the rest element by element in plain IEEE operations, the same bits in every form.
    // Block by block, so that each block's arrays stay in the first-level cache between passes.
    const auto tail = avx2Enabled() ? softplusSigmoidAvx2 : softplusSigmoidBaseline;
    constexpr long kBlock = 512;
    for (long b0 = 0; b0 < n; b0 += kBlock) {
        const long count = std::min(kBlock, n - b0);
        for (long i = b0; i < b0 + count; ++i) e[i] = -std::abs(a[i]);
        tableExps(e + b0, e + b0, count);
        for (long i = b0; i < b0 + count; ++i) u[i] = 1.0 + e[i];
        tableLogs(u + b0, softplus + b0, count);
        tail(a + b0, count, e + b0, u + b0, softplus + b0, sigmoid + b0);
    }
}

}  // namespace pfa::vector_math
