#include "core/engine/vector_math.h"

#include <Eigen/Core>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/util/instruction_set.h"
#include "core/util/table_math.h"

namespace core_vector_math_test {

using namespace pfa;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Scores of every kind: ordinary, large, where e^x overflows or goes subnormal, ±0, ±∞, NaN.
Eigen::ArrayXd testValues(long n, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::normal_distribution<double> normal(0.0, 6.0);
    std::uniform_real_distribution<double> wide(-800.0, 800.0);
    const double special[] = {0.0,    -0.0,    kInf,   -kInf, kNaN,  -745.2, -708.5, 709.9,
                              1e-320, -1e-320, 2e-308, 36.8,  -36.8, 1e-9,   0.5,    -0.5};
    Eigen::ArrayXd x(n);
    for (long i = 0; i < n; ++i) {
        if (i % 7 == 3)
            x(i) = special[(i / 7) % 16];
        else
            x(i) = i % 3 == 0 ? wide(random) : normal(random);
    }
    return x;
}

/// Equal bit for bit (NaN against NaN of any payload).
bool sameBits(double a, double b) {
    if (std::isnan(a) && std::isnan(b)) return true;
    return std::memcmp(&a, &b, sizeof a) == 0;
}

long differences(const double* a, const double* b, long n) {
    long count = 0;
    for (long i = 0; i < n; ++i) count += sameBits(a[i], b[i]) ? 0 : 1;
    return count;
}

/// Runs `f` once with the machine's best instructions and once with the baseline ones.
template <typename F>
void bothForms(F&& f) {
    useBaselineInstructionsOnly(false);
    f();
    useBaselineInstructionsOnly(true);
    f();
    useBaselineInstructionsOnly(false);
}

}  // namespace

TEST_CASE("Binary logistic probabilities and losses in SIMD are the same on every machine",
          "[vector-math]") {
    INFO("AVX2 in use: " << avx2Enabled());
    const double floor = 1e-15;
    for (long n : {0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 13L, 64L, 67L, 1001L}) {
        const Eigen::ArrayXd z = testValues(n, 40 + static_cast<std::uint64_t>(n));
        Eigen::ArrayXd labels(n);
        for (long i = 0; i < n; ++i) labels(i) = static_cast<double>((i * 5 + 1) % 3 == 0);
        // σ: the array expression the evaluator computed before, on Eigen's own (aligned)
        // arrays; the loss: tableLog of the clamped probability of the row's class.
        const Eigen::ArrayXd sigma = 1.0 / (1.0 + (-z).exp());
        const auto lossOf = [&](const double* s) {
            Eigen::ArrayXd loss(n);
            for (long i = 0; i < n; ++i) {
                const double c = std::min(std::max(s[i], floor), 1.0 - floor);
                loss(i) = -tableLog(c * labels(i) + (1.0 - c) * (1.0 - labels(i)));
            }
            return loss;
        };
        const Eigen::ArrayXd loss = lossOf(sigma.data());
        bothForms([&] {
            INFO("n = " << n << ", AVX2 now: " << avx2Enabled());
            // On aligned outputs, and on outputs one double off (then the baseline computes all).
            std::vector<double> buffer(2 * static_cast<std::size_t>(n) + 4, -1.0);
            for (long offset : {0L, 1L}) {
                Eigen::ArrayXd s(n), l(n);
                double* sOut = offset == 0 ? s.data() : buffer.data() + 1;
                double* lOut = offset == 0 ? l.data() : buffer.data() + n + 3;
                vector_math::logisticProbabilitiesAndLosses(z.data(), labels.data(), n, floor, sOut,
                                                            lOut);
                if (offset == 1) {
                    // Eigen itself computes an unaligned array's first or last element alone
                    // (with the scalar exp): the same expression at the same addresses.
                    std::vector<double> reference(buffer.size());
                    Eigen::Map<Eigen::ArrayXd> rs(reference.data() + 1, n);
                    rs = 1.0 / (1.0 + (-z).exp());
                    const Eigen::ArrayXd rl = lossOf(rs.data());
                    CHECK(differences(sOut, rs.data(), n) == 0);
                    CHECK(differences(lOut, rl.data(), n) == 0);
                    continue;
                }
                CHECK(differences(s.data(), sigma.data(), n) == 0);
                CHECK(differences(l.data(), loss.data(), n) == 0);
                // And they are the quantities named: σ and the clamped cross-entropy.
                for (long i = 0; i < n; ++i) {
                    if (!std::isfinite(z(i)) || std::abs(z(i)) > 30.0) continue;
                    const double p = 1.0 / (1.0 + std::exp(-z(i)));
                    CHECK(s(i) == Approx(p).epsilon(1e-14));
                    const double c = std::min(std::max(p, floor), 1.0 - floor);
                    CHECK(l(i) == Approx(-std::log(labels(i) == 1.0 ? c : 1.0 - c))
                                      .epsilon(1e-12)
                                      .margin(1e-15));
                }
            }
        });
    }
}

TEST_CASE("Binary logistic probabilities alone are those computed with the losses",
          "[vector-math]") {
    const double floor = 1e-15;
    for (long n : {0L, 1L, 3L, 4L, 5L, 8L, 13L, 67L, 1001L}) {
        const Eigen::ArrayXd z = testValues(n, 80 + static_cast<std::uint64_t>(n));
        const Eigen::ArrayXd labels = Eigen::ArrayXd::Zero(n);
        bothForms([&] {
            INFO("n = " << n << ", AVX2 now: " << avx2Enabled());
            // Aligned, and one double off (then Eigen's own first-element rule applies to both).
            std::vector<double> buffer(3 * static_cast<std::size_t>(n) + 6, -1.0);
            for (long offset : {0L, 1L}) {
                Eigen::ArrayXd s(n), l(n), alone(n);
                double* withLosses = offset == 0 ? s.data() : buffer.data() + 1;
                double* lossOut = offset == 0 ? l.data() : buffer.data() + n + 3;
                double* probabilitiesOnly = offset == 0 ? alone.data() : buffer.data() + 2 * n + 5;
                vector_math::logisticProbabilitiesAndLosses(z.data(), labels.data(), n, floor,
                                                            withLosses, lossOut);
                vector_math::logisticProbabilities(z.data(), n, probabilitiesOnly);
                CHECK(differences(withLosses, probabilitiesOnly, n) == 0);
            }
        });
    }
}

TEST_CASE("softplus and sigmoid in SIMD are the same on every machine", "[vector-math]") {
    INFO("AVX2 in use: " << avx2Enabled());
    for (long n : {0L, 1L, 2L, 3L, 5L, 6L, 10L, 11L, 30L, 67L, 16000L}) {
        const Eigen::ArrayXd a = testValues(n, 7 + static_cast<std::uint64_t>(n));
        // The definition, one entry at a time with tableExp and tableLog.
        Eigen::ArrayXd softplus(n), sigmoid(n);
        for (long i = 0; i < n; ++i) {
            const double e = tableExp(-std::abs(a(i)));
            const double u = 1.0 + e;
            const double positive = std::max(a(i), 0.0);
            softplus(i) = positive + (tableLog(u) - ((u - 1.0) - e) * (1.0 / u));
            const double q =
                positive / std::max(std::abs(a(i)), std::numeric_limits<double>::min());
            sigmoid(i) = (q + (1.0 - q) * e) * (1.0 / u);
        }
        bothForms([&] {
            INFO("n = " << n << ", AVX2 now: " << avx2Enabled());
            Eigen::ArrayXd eOut(n), uOut(n), spOut(n), sgOut(n);
            vector_math::softplusAndSigmoid(a.data(), n, eOut.data(), uOut.data(), spOut.data(),
                                            sgOut.data());
            CHECK(differences(spOut.data(), softplus.data(), n) == 0);
            CHECK(differences(sgOut.data(), sigmoid.data(), n) == 0);
            for (long i = 0; i < n; ++i) {
                if (!std::isfinite(a(i)) || std::abs(a(i)) > 30.0) continue;
                CHECK(spOut(i) == Approx(std::log1p(std::exp(a(i)))).epsilon(1e-13));
                CHECK(sgOut(i) == Approx(1.0 / (1.0 + std::exp(-a(i)))).epsilon(1e-14));
            }
        });
    }
}

}  // namespace core_vector_math_test
