#include "core/util/table_math.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/util/instruction_set.h"
#include "core/util/table_sincos.h"
#include "test_skip.h"

namespace core_table_math_test {

using namespace pfa;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::uint64_t bitsOf(double value) {
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

/// Equal bit for bit (NaN against NaN of any payload).
bool sameBits(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || bitsOf(a) == bitsOf(b);
}

/// e^x of glibc 2.36's exp on a machine with FMA (Debian 12), which tableExp reproduces: the
/// edges of the table method's range, ordinary values, and the last six, where a separate
/// multiplication and addition in place of the fused ones would give another last bit.
struct Pinned {
    double x;
    std::uint64_t bits;
};
constexpr Pinned kPinned[] = {
    {0x1p-54, 0x3ff0000000000000ULL},
    {-0x1p-54, 0x3ff0000000000000ULL},
    {0x1.fffffffffffffp-55, 0x3ff0000000000000ULL},
    {0x1.b7cdfd9d7bdbbp-34, 0x3ff000000006df38ULL},
    {-0x1.b7cdfd9d7bdbbp-34, 0x3feffffffff24190ULL},
    {0x1p-1, 0x3ffa61298e1e069cULL},
    {-0x1p-1, 0x3fe368b2fc6f960aULL},
    {0x1p+0, 0x4005bf0a8b145769ULL},
    {-0x1p+0, 0x3fd78b56362cef38ULL},
    {0x1.62e42fefa39ecp-1, 0x3ffffffffffffffdULL},
    {0x1.d99999999999ap+1, 0x4044394144eeec81ULL},
    {-0x1.d99999999999ap+1, 0x3f99511fc6871044ULL},
    {-0x1.2ap+5, 0x3c93278bcd70e981ULL},
    {0x1.205966f2b4f12p+5, 0x432fffffffffffe9ULL},
    {-0x1.48p+4, 0x3e157a3afeed00abULL},
    {0x1.908p+6, 0x48f5daaf24221d5eULL},
    {-0x1.2ccp+8, 0x24d142e2639c685dULL},
    {0x1.ffffffffffffep+8, 0x6e19476504ba8205ULL},
    {-0x1.ffffffffffffep+8, 0x11c44109edb20bb9ULL},
    {0x1.62e42fefa39efp-8, 0x3ff0163da9fb3335ULL},
    {0x1.2aaaaaaaaaaabp+1, 0x40249fe058a62f2dULL},
    {-0x1.5555555555555p-1, 0x3fe06de9bcee72deULL},
    {0x1.4f8b588e368f1p-17, 0x3ff0000a7c5e340eULL},
    {-0x1p-7, 0x3fefc03fd56aa225ULL},
    {0x1.154245f5ad96ap+4, 0x418000008275c486ULL},
    {0x1.a453c60a8bba8p+3, 0x411ee9a3f315a1e1ULL},
    {-0x1.528fc07552bbep+4, 0x3e0632fdebbc2ef7ULL},
    {-0x1.cafbb36b04cep+2, 0x3f492b25f10fd2d3ULL},
    {0x1.39b8ab5cfdcccp+5, 0x4377d7f850972677ULL},
    {-0x1.13d9e11f57c7dp+5, 0x3cd31417aebcf9c1ULL},
    {-0x1.38a934fad7ebdp+4, 0x3e2c0273f7f1ab23ULL},
};

/// ln x of glibc 2.36's log on a machine with FMA: both of its methods (a table, and a
/// polynomial for x in [1 − 2^−4, 1 + 0x1.09p-4)) and their edges; the last six are where
/// separate multiplications and additions would give another last bit.
constexpr Pinned kPinnedLog[] = {
    {0x1p-1, 0xbfe62e42fefa39efULL},
    {0x1p+1, 0x3fe62e42fefa39efULL},
    {0x1.8p+1, 0x3ff193ea7aad030bULL},
    {0x1.4p+3, 0x40026bb1bbb55516ULL},
    {0x1.56e1fc2f8f359p-997, 0xc085963447f87fb5ULL},
    {0x1.7e43c8800759cp+996, 0x4085963447f87fb5ULL},
    {0x1p-1022, 0xc086232bdd7abcd2ULL},
    {0x1.ep-1, 0xbfb08598b59e3a07ULL},
    {0x1.10fffffffffffp+0, 0x3fb075983598e462ULL},
    {0x1.109p+0, 0x3fb00c7c14184ec5ULL},
    {0x1.fffffffffffffp-1, 0xbca0000000000000ULL},
    {0x1.0000000000001p+0, 0x3cafffffffffffffULL},
    {0x1.028f5c28f5c29p+0, 0x3f8460d6ccca367cULL},
    {0x1.fae147ae147aep-1, 0xbf8495453e6fd4bcULL},
    {0x1.203af9ee75616p-50, 0xc04144f69ff9ffc4ULL},
    {0x1.ffffffffffff7p-1, 0xbcd2000000000003ULL},
    {0x1p-2, 0xbff62e42fefa39efULL},
    {0x1.6666666666666p-1, 0xbfd6d3c324e13f50ULL},
    {0x1.8p+0, 0x3fd9f323ecbf984cULL},
    {0x1.e240c9fbe76c9p+16, 0x40277281cad8a844ULL},
    {0x1.9de05eb3c517dp-3, 0xbff995b7063fdd1fULL},
    {0x1.f084b955f1fe5p-1, 0xbf9f70dcf48ee418ULL},
    {0x1.d3c217398734fp+1, 0x3ff4bc17d3cbb1b5ULL},
    {0x1.09830a800c149p+0, 0x3fa2adc963567b5fULL},
    {0x1.44f291839d18p-1, 0xbfdd192a009fbea7ULL},
    {0x1.e3106e44fe1a8p-1, 0xbfadc920565bf44dULL},
};

/// Arguments of every kind: the sigmoid's range, the whole range where e^x is finite, the
/// edges of the table method's range, tiny, subnormal, ±0, ±∞, NaN, and raw bit patterns.
std::vector<double> testArguments(long n, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> sigmoidRange(-40.0, 0.0);
    std::uniform_real_distribution<double> finiteRange(-745.0, 709.0);
    const double special[] = {0.0,    -0.0,    kInf,   -kInf,   kNaN,     -745.2, -708.5, 709.9,
                              1e-320, -1e-320, 2e-308, 0x1p-54, -0x1p-54, 512.0,  -512.0, 1e-9};
    std::vector<double> x(static_cast<std::size_t>(n));
    for (long i = 0; i < n; ++i) {
        double& value = x[static_cast<std::size_t>(i)];
        switch (i % 5) {
            case 0:
                value = sigmoidRange(random);
                break;
            case 1:
                value = finiteRange(random);
                break;
            case 2:
                value = special[(i / 5) % 16];
                break;
            case 3: {
                const std::uint64_t bits = random();
                std::memcpy(&value, &bits, sizeof value);
                break;
            }
            default:
                value = std::ldexp(sigmoidRange(random), -static_cast<int>(random() % 64));
        }
    }
    return x;
}

/// Checks that the array form `arrayForm(x, out, n)` gives `scalar`'s bits on every argument of
/// `x`, with the machine's best instructions and with the baseline ones: from every alignment,
/// with a tail shorter than four, writing nothing outside its output, and in place.
template <typename Scalar, typename ArrayForm>
void checkArrayFormGivesScalarBits(const std::vector<double>& x, Scalar scalar,
                                   ArrayForm arrayForm) {
    std::vector<double> expected(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) expected[i] = scalar(x[i]);
    for (const bool baseline : {false, true}) {
        INFO((baseline ? "baseline instructions" : "best instructions"));
        useBaselineInstructionsOnly(baseline);
        for (const long offset : {0L, 1L, 2L, 3L}) {
            const long n = static_cast<long>(x.size()) - offset;
            std::vector<double> out(x.size() + 3, 7.0);
            arrayForm(x.data() + offset, out.data() + 1, n);
            long differing = 0;
            for (long i = 0; i < n; ++i) {
                differing += sameBits(out[static_cast<std::size_t>(i + 1)],
                                      expected[static_cast<std::size_t>(i + offset)])
                                 ? 0
                                 : 1;
            }
            INFO("offset " << offset);
            CHECK(differing == 0);
            CHECK(out[0] == 7.0);  // nothing written outside
            CHECK(out[static_cast<std::size_t>(n + 1)] == 7.0);
        }
        std::vector<double> inPlace = x;
        arrayForm(inPlace.data(), inPlace.data(), static_cast<long>(inPlace.size()));
        long differing = 0;
        for (std::size_t i = 0; i < x.size(); ++i)
            differing += sameBits(inPlace[i], expected[i]) ? 0 : 1;
        CHECK(differing == 0);
    }
    useBaselineInstructionsOnly(false);
}

}  // namespace

TEST_CASE("tableExp gives glibc's exp bits on the pinned arguments", "[table-exp]") {
    for (const Pinned& pinned : kPinned) {
        INFO("x = " << pinned.x);
        CHECK(bitsOf(tableExp(pinned.x)) == pinned.bits);
    }
    CHECK(tableExp(0.0) == 1.0);
    CHECK(tableExp(-0.0) == 1.0);
    CHECK(tableExp(-kInf) == 0.0);
    CHECK(tableExp(kInf) == kInf);
    CHECK(std::isnan(tableExp(kNaN)));
    CHECK(tableExp(-746.0) == 0.0);
    CHECK(tableExp(710.0) == kInf);
}

TEST_CASE("tableExp is within 0.52 ulp of e^x", "[table-exp]") {
    // Against expl (64-bit significand): the reference's own error is 2^−11 of an ulp here.
    std::mt19937_64 random(11);
    std::uniform_real_distribution<double> finiteRange(-700.0, 700.0);
    double worst = 0.0;
    for (int i = 0; i < 200000; ++i) {
        const double x = i % 2 == 0 ? finiteRange(random) : finiteRange(random) / 64.0;
        const double value = tableExp(x);
        const long double exact = std::exp(static_cast<long double>(x));
        const double ulp = std::nextafter(value, kInf) - value;
        worst = std::max(worst, static_cast<double>(std::fabs(value - exact) / ulp));
    }
    INFO("largest error " << worst << " ulp");
    CHECK(worst <= 0.52);
    CHECK(worst > 0.4);  // the measure sees errors of about half an ulp, as it should
}

TEST_CASE("tableExps gives tableExp's bits, four at a time and one by one", "[table-exp]") {
    checkArrayFormGivesScalarBits(testArguments(100003, 5), tableExp, tableExps);
}

TEST_CASE("tableLog gives glibc's log bits on the pinned arguments", "[table-exp]") {
    for (const Pinned& pinned : kPinnedLog) {
        INFO("x = " << pinned.x);
        CHECK(bitsOf(tableLog(pinned.x)) == pinned.bits);
    }
    CHECK(bitsOf(tableLog(1.0)) == 0);  // +0
    CHECK(tableLog(0.0) == -kInf);
    CHECK(tableLog(kInf) == kInf);
    CHECK(std::isnan(tableLog(-1.0)));
    CHECK(std::isnan(tableLog(kNaN)));
    CHECK(tableLog(1e-320) == Approx(std::log(1e-320)).epsilon(1e-15));
}

TEST_CASE("tableLog is within 0.52 ulp of ln x", "[table-exp]") {
    std::mt19937_64 random(13);
    std::uniform_real_distribution<double> exponent(-700.0, 700.0), nearOne(0.93, 1.07);
    double worst = 0.0;
    for (int i = 0; i < 200000; ++i) {
        const double x = i % 2 == 0 ? std::exp(exponent(random)) : nearOne(random);
        const double value = tableLog(x);
        const long double exact = std::log(static_cast<long double>(x));
        const double ulp = std::nextafter(std::fabs(value), kInf) - std::fabs(value);
        if (value == 0.0) continue;
        worst = std::max(worst, static_cast<double>(std::fabs(value - exact) / ulp));
    }
    INFO("largest error " << worst << " ulp");
    CHECK(worst <= 0.52);
    CHECK(worst > 0.4);
}

TEST_CASE("tableLogs gives tableLog's bits, four at a time and one by one", "[table-exp]") {
    // Positive arguments of both methods mixed in every way within a vector of four, and the
    // others (zero, negative, subnormal, ∞, NaN) that std::log takes.
    std::vector<double> x = testArguments(100003, 7);
    std::mt19937_64 random(17);
    std::uniform_real_distribution<double> nearOne(0.9, 1.1), wide(0.0, 3.0);
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (i % 3 == 0)
            x[i] = nearOne(random);
        else if (i % 3 == 1)
            x[i] = wide(random);
    }
    checkArrayFormGivesScalarBits(x, tableLog, tableLogs);
}

TEST_CASE("tableLog equals this machine's std::log where that is glibc's FMA log", "[table-exp]") {
    for (const Pinned& pinned : kPinnedLog) {
        if (bitsOf(std::log(pinned.x)) != pinned.bits)
            PFA_SKIP_TEST("this machine's std::log is not glibc's table method with FMA");
    }
    std::vector<double> x = testArguments(1000000, 19);
    std::mt19937_64 random(23);
    std::uniform_real_distribution<double> nearOne(0.9, 1.1);
    for (std::size_t i = 0; i < x.size(); i += 2) x[i] = nearOne(random);
    long differing = 0;
    for (const double value : x) differing += sameBits(tableLog(value), std::log(value)) ? 0 : 1;
    CHECK(differing == 0);
}

TEST_CASE("tableExp equals this machine's std::exp where that is glibc's FMA exp", "[table-exp]") {
    // Where std::exp is another method (another C library, or glibc without FMA), the runs keep
    // tableExp's bits: the same on every machine, not those of that library.
    for (const Pinned& pinned : kPinned) {
        if (bitsOf(std::exp(pinned.x)) != pinned.bits)
            PFA_SKIP_TEST("this machine's std::exp is not glibc's table method with FMA");
    }
    const std::vector<double> x = testArguments(1000000, 9);
    long differing = 0;
    for (const double value : x) differing += sameBits(tableExp(value), std::exp(value)) ? 0 : 1;
    CHECK(differing == 0);
}

namespace {

/// sin x and cos x of glibc 2.36 on a machine with FMA (Debian 12), which tableSinCos
/// reproduces: two arguments of each of its forms (sin by its Taylor polynomial or by the table
/// beside |x| itself, beside π/2 − |x|, and x − n·π/2 in each quadrant the angles of (0, 2π)
/// reach), each one where separate multiplications and additions in place of the fused ones
/// would give another last bit.
struct PinnedSinCos {
    double x;
    std::uint64_t sine, cosine;
};
constexpr PinnedSinCos kPinnedSinCos[] = {
    {0x1.aa0f268460361p-4, 0x3fba94a918949b8bULL, 0x3fefd3b8d303d88cULL},
    {0x1.2f5e0ed4c2c3ep-4, 0x3fb2f171317f5d07ULL, 0x3fefe98aa4655fc8ULL},
    {0x1.51c641d21e8e9p-1, 0x3fe39cd02e9fee65ULL, 0x3fe9490b43f01ef5ULL},
    {0x1.aae4db1b9ec27p-1, 0x3fe7b1f93fd7d747ULL, 0x3fe581b56b22da2fULL},
    {0x1.aa997bba51ba2p+0, 0x3fefda965a588142ULL, 0xbfb8703bd8f0f037ULL},
    {0x1.a357a34902c7fp+0, 0x3fefed7a2c6f4ec2ULL, 0xbfb1349b6684c0e6ULL},
    {0x1.d54afec0f70cp+0, 0x3feee7a231b9042aULL, 0xbfd099aada2df982ULL},
    {0x1.6511bb142c792p+0, 0x3fef81751399b135ULL, 0x3fc6694376df7d36ULL},
    {0x1.be70b90b8ae12p+1, 0xbfd5b7db8489e6ceULL, 0xbfee19e5d318fde6ULL},
    {0x1.cbc5c8994c7d5p+1, 0xbfdbdc1770d66a84ULL, 0xbfeccf1b038e0b14ULL},
    {0x1.45c98507e894p+2, 0xbfedbd930af50532ULL, 0x3fd79f43771f6adcULL},
    {0x1.4829f0e74a87ep+2, 0xbfed48117de4dee3ULL, 0x3fd9d06d10006604ULL},
    {0x1.85fb134c99286p+2, 0xbfc8240777d24d95ULL, 0x3fef6cfcae9da1b8ULL},
    {0x1.8651704597779p+2, 0xbfc77a5146abc1caULL, 0x3fef7504ee59f3e4ULL},
};

/// Arguments of every range of tableSinCos and beyond: Box–Muller's angles 2π·u, both signs
/// up to 10⁸ on a log scale, the ranges' edges, and testArguments' special values.
std::vector<double> sinCosArguments(long n, std::uint64_t seed) {
    std::vector<double> x = testArguments(n, seed);
    std::mt19937_64 random(seed + 1);
    std::uniform_real_distribution<double> unit(0.0, 1.0), exponent(-30.0, 27.0);
    const double edges[] = {0x1p-27,     0x1.b6p-1,           std::nextafter(0x1.b6p-1, 0.0),
                            0x1.368fdp1, 0x1.921fb54442d18p0, 105414350.0,
                            105414349.0, -0x1.b6p-1,          6.283185307179586};
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (i % 5 == 0)
            x[i] = 2.0 * 3.14159265358979323846 * unit(random);
        else if (i % 5 == 4)
            x[i] = (random() % 2 == 0 ? 1.0 : -1.0) * std::exp2(exponent(random));
        else if (i % 50 == 1)
            x[i] = edges[(i / 50) % 9];
    }
    return x;
}

}  // namespace

TEST_CASE("tableSinCos gives glibc's sin and cos bits on the pinned arguments", "[table-exp]") {
    for (const PinnedSinCos& pinned : kPinnedSinCos) {
        INFO("x = " << pinned.x);
        double sine = 0.0, cosine = 0.0;
        tableSinCos(pinned.x, sine, cosine);
        CHECK(bitsOf(sine) == pinned.sine);
        CHECK(bitsOf(cosine) == pinned.cosine);
        // sin(−x) = −sin x, cos(−x) = cos x: the method is symmetric.
        tableSinCos(-pinned.x, sine, cosine);
        CHECK(bitsOf(-sine) == pinned.sine);
        CHECK(bitsOf(cosine) == pinned.cosine);
    }
    double sine = 1.0, cosine = 0.0;
    tableSinCos(0.0, sine, cosine);
    CHECK((sine == 0.0 && !std::signbit(sine) && cosine == 1.0));
    tableSinCos(-0.0, sine, cosine);
    CHECK((sine == 0.0 && std::signbit(sine) && cosine == 1.0));
    tableSinCos(kInf, sine, cosine);
    CHECK((std::isnan(sine) && std::isnan(cosine)));
    tableSinCos(kNaN, sine, cosine);
    CHECK((std::isnan(sine) && std::isnan(cosine)));
}

TEST_CASE("tableSinCos is within 0.52 ulp of sin x and cos x", "[table-exp]") {
    // Against sinl and cosl (64-bit significand), up to 10⁸ where it reduces by itself.
    const std::vector<double> x = sinCosArguments(400000, 29);
    double worst = 0.0;
    for (const double value : x) {
        if (!std::isfinite(value) || std::fabs(value) >= 105414350.0) continue;
        double sine = 0.0, cosine = 0.0;
        tableSinCos(value, sine, cosine);
        const long double exact[] = {std::sin(static_cast<long double>(value)),
                                     std::cos(static_cast<long double>(value))};
        const double computed[] = {sine, cosine};
        for (int j = 0; j < 2; ++j) {
            const double magnitude = std::fabs(computed[j]);
            if (magnitude < 1e-300) continue;
            const double ulp = std::nextafter(magnitude, kInf) - magnitude;
            worst = std::max(worst, static_cast<double>(std::fabs(computed[j] - exact[j]) / ulp));
        }
    }
    INFO("largest error " << worst << " ulp");
    CHECK(worst <= 0.52);
    CHECK(worst > 0.4);
}

TEST_CASE("tableSinCoss gives tableSinCos's bits, four at a time and one by one", "[table-exp]") {
    const std::vector<double> x = sinCosArguments(100003, 31);
    const auto sineOf = [](double value) {
        double sine = 0.0, cosine = 0.0;
        tableSinCos(value, sine, cosine);
        return sine;
    };
    const auto cosineOf = [](double value) {
        double sine = 0.0, cosine = 0.0;
        tableSinCos(value, sine, cosine);
        return cosine;
    };
    checkArrayFormGivesScalarBits(x, sineOf, [](const double* in, double* out, long n) {
        std::vector<double> cosine(static_cast<std::size_t>(n));
        tableSinCoss(in, out, cosine.data(), n);
    });
    checkArrayFormGivesScalarBits(x, cosineOf, [](const double* in, double* out, long n) {
        std::vector<double> sine(static_cast<std::size_t>(n));
        tableSinCoss(in, sine.data(), out, n);
    });
}

TEST_CASE(
    "tableSinCos equals this machine's std::sin and std::cos where those are glibc's FMA "
    "forms",
    "[table-exp]") {
    for (const PinnedSinCos& pinned : kPinnedSinCos) {
        if (bitsOf(std::sin(pinned.x)) != pinned.sine ||
            bitsOf(std::cos(pinned.x)) != pinned.cosine)
            PFA_SKIP_TEST("this machine's std::sin and std::cos are not glibc's with FMA");
    }
    const std::vector<double> x = sinCosArguments(1000000, 37);
    long differing = 0;
    for (const double value : x) {
        double sine = 0.0, cosine = 0.0;
        tableSinCos(value, sine, cosine);
        differing += sameBits(sine, std::sin(value)) && sameBits(cosine, std::cos(value)) ? 0 : 1;
    }
    CHECK(differing == 0);
}

}  // namespace core_table_math_test
