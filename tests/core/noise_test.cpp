// Statistical checks of the randomness: the samplers themselves, and the Gaussian noise the
// private trainers actually add, measured on parameters that receive no gradient at all.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/algorithms/registry.h"
#include "core/engine/batch_sampler.h"
#include "core/privacy/noisy_release.h"
#include "core/util/random.h"
#include "core/util/table_math.h"
#include "core/util/table_sincos.h"
#include "test_data.h"
#include "test_skip.h"

namespace core_noise_test {

using namespace pfa;

namespace {

struct Moments {
    double mean = 0, variance = 0, kurtosis = 0;
};

Moments moments(const std::vector<double>& x) {
    Moments m;
    const double n = static_cast<double>(x.size());
    for (double v : x) m.mean += v / n;
    double m2 = 0, m4 = 0;
    for (double v : x) {
        const double d = v - m.mean;
        m2 += d * d / n;
        m4 += d * d * d * d / n;
    }
    m.variance = m2;
    m.kurtosis = m4 / (m2 * m2);
    return m;
}

using test::zeroFeatureData;

}  // namespace

TEST_CASE("Normal sampler: mean, variance and kurtosis", "[noise]") {
    RandomStream random(123, 7);
    std::vector<double> x(200000);
    for (double& v : x) v = random.normal();
    const Moments m = moments(x);
    // Standard errors: mean 1/√n = 0.0022, variance √(2/n) = 0.0032, kurtosis √(24/n) = 0.011.
    CHECK(std::fabs(m.mean) < 0.011);
    CHECK(std::fabs(m.variance - 1.0) < 0.016);
    CHECK(std::fabs(m.kurtosis - 3.0) < 0.055);
}

TEST_CASE("fillNormals draws the values of as many normal() calls, and leaves the same state",
          "[noise]") {
    // Lengths around the blocks of pairs (32) and of releaseGaussian (64), from a fresh stream and
    // from one holding the spare value of a pair.
    for (const bool withSpare : {false, true}) {
        for (const long n : {0L, 1L, 2L, 3L, 8L, 9L, 63L, 64L, 65L, 129L, 1000L}) {
            INFO("n = " << n << (withSpare ? ", after one normal()" : ""));
            RandomStream oneByOne(5, streams::kNoise), filled(5, streams::kNoise);
            if (withSpare) {
                oneByOne.normal();
                filled.normal();
            }
            std::vector<double> expected(static_cast<std::size_t>(n)), got(expected.size() + 1);
            for (double& z : expected) z = oneByOne.normal();
            got.back() = 12345.0;  // past the end: untouched
            filled.fillNormals(got.data(), n);
            long differing = 0;
            for (long k = 0; k < n; ++k) {
                const auto i = static_cast<std::size_t>(k);
                differing += std::memcmp(&expected[i], &got[i], sizeof(double)) == 0 ? 0 : 1;
            }
            CHECK(differing == 0);
            CHECK(got.back() == 12345.0);
            // The next draws continue alike (the spare of an odd count included).
            for (int k = 0; k < 3; ++k) {
                const double a = oneByOne.normal(), b = filled.normal();
                CHECK(std::memcmp(&a, &b, sizeof(double)) == 0);
            }
        }
    }
}

TEST_CASE("releaseGaussian adds the draws of normal() entry by entry, in either order", "[noise]") {
    // It fills a block of 64 draws at a time: a 7 × 13 matrix (91 entries) crosses a block.
    const privacy::ReleaseSpec spec = privacy::ReleaseSpec::gaussian("test", 1.0, 0.37);
    for (const bool columnOrder : {false, true}) {
        Eigen::MatrixXd released = Eigen::MatrixXd::Constant(7, 13, 2.0);
        Eigen::MatrixXd expected = released;
        RandomStream noise(3, streams::kNoise), oneByOne(3, streams::kNoise);
        noise.normal();  // start with a spare
        oneByOne.normal();
        privacy::releaseGaussian(spec, released, noise, columnOrder);
        for (Eigen::Index a = 0; a < (columnOrder ? 13 : 7); ++a)
            for (Eigen::Index b = 0; b < (columnOrder ? 7 : 13); ++b)
                (columnOrder ? expected(b, a) : expected(a, b)) += 0.37 * oneByOne.normal();
        CHECK((released.array() == expected.array()).all());
        CHECK(noise.normal() == oneByOne.normal());
    }
}

TEST_CASE("releaseGaussianSum has the distribution of the sum of as many releases", "[noise]") {
    // 40,000 sums of k = 17 releases at σ = 0.3: each entry ~ N(0, k·σ²). Variance and
    // kurtosis as for the normal sampler (standard errors √(2/n) = 0.007 and √(24/n) = 0.024 of
    // the normalised values), and the same against k summed releaseGaussian calls, whose
    // empirical variance must agree within the two samples' errors.
    const privacy::ReleaseSpec spec = privacy::ReleaseSpec::gaussian("test", 1.0, 0.3);
    const long k = 17, n = 40000;
    RandomStream atOnce(11, streams::kNoise), oneByOne(12, streams::kNoise);
    std::vector<double> summed, separate;
    Eigen::VectorXd value(1), each(1);
    for (long i = 0; i < n; ++i) {
        value(0) = 0.0;
        privacy::releaseGaussianSum(spec, k, value, atOnce);
        summed.push_back(value(0) / std::sqrt(k * 0.09));
        double total = 0.0;
        for (long j = 0; j < k; ++j) {
            each(0) = 0.0;
            privacy::releaseGaussian(spec, each, oneByOne);
            total += each(0);
        }
        separate.push_back(total / std::sqrt(k * 0.09));
    }
    for (const std::vector<double>* sample : {&summed, &separate}) {
        const Moments m = moments(*sample);
        CHECK(std::fabs(m.mean) < 0.025);
        CHECK(std::fabs(m.variance - 1.0) < 0.035);
        CHECK(std::fabs(m.kurtosis - 3.0) < 0.12);
    }
    CHECK(std::fabs(moments(summed).variance - moments(separate).variance) < 0.05);
    // Nothing to add for no releases; one release is releaseGaussian itself.
    RandomStream a(5, streams::kNoise), b(5, streams::kNoise);
    value(0) = 1.0;
    privacy::releaseGaussianSum(spec, 0, value, a);
    CHECK(value(0) == 1.0);
    privacy::releaseGaussianSum(spec, 1, value, a);
    each(0) = 1.0;
    privacy::releaseGaussian(spec, each, b);
    CHECK(value(0) == each(0));
}

TEST_CASE(
    "normal() is Box–Muller with this machine's std::log, std::sin and std::cos where "
    "those are glibc's FMA forms",
    "[noise]") {
    // normal() takes ln u1 from tableLog and the angle's sine and cosine from tableSinCos (so
    // that fillNormals may take four at once); where std::log, std::sin and std::cos are
    // glibc's with FMA, the values are those of the textbook form with them.
    if (std::log(0.7) != tableLog(0.7) || std::log(1e-300) != tableLog(1e-300) ||
        std::log(0.999999) != tableLog(0.999999))
        PFA_SKIP_TEST("this machine's std::log is not glibc's table method with FMA");
    for (const double angle : {0x1.85fb134c99286p+2, 0x1.d54afec0f70cp+0, 0x1.aa0f268460361p-4}) {
        double sine = 0.0, cosine = 0.0;
        tableSinCos(angle, sine, cosine);
        if (std::sin(angle) != sine || std::cos(angle) != cosine)
            PFA_SKIP_TEST("this machine's std::sin and std::cos are not glibc's with FMA");
    }
    RandomStream sampler(8, streams::kNoise), raw(8, streams::kNoise);
    long differing = 0;
    for (int pair = 0; pair < 50000; ++pair) {
        const double u1 = raw.uniformOpen(), u2 = raw.uniformOpen();
        const double radius = std::sqrt(-2.0 * std::log(u1));
        const double angle = 2.0 * 3.14159265358979323846 * u2;
        const double first = radius * std::cos(angle), second = radius * std::sin(angle);
        const double a = sampler.normal(), b = sampler.normal();
        differing += std::memcmp(&a, &first, sizeof(double)) == 0 ? 0 : 1;
        differing += std::memcmp(&b, &second, sizeof(double)) == 0 ? 0 : 1;
    }
    CHECK(differing == 0);
}

TEST_CASE("Laplace sampler: mean and variance 2b²", "[noise]") {
    RandomStream random(5, 9);
    std::vector<double> x(200000);
    for (double& v : x) v = random.laplace(2.0);
    const Moments m = moments(x);
    CHECK(std::fabs(m.mean) < 0.03);                  // sd 2.83/√n = 0.0063
    CHECK(std::fabs(m.variance / 8.0 - 1.0) < 0.05);  // relative sd √(5/n) = 0.005
    CHECK(std::fabs(m.kurtosis - 6.0) < 0.6);
}

TEST_CASE("Gamma sampler: mean and variance equal the shape", "[noise]") {
    RandomStream random(17, 3);
    for (const double shape : {0.5, 1.0, 2.5, 9.5}) {
        CAPTURE(shape);
        std::vector<double> x(200000);
        for (double& v : x) v = random.gamma(shape);
        const Moments m = moments(x);
        // Standard errors: mean √(a/n), variance √((2a² + 6a)/n) (Gamma's fourth cumulant 6a).
        const double n = static_cast<double>(x.size());
        CHECK(std::fabs(m.mean - shape) < 5.0 * std::sqrt(shape / n));
        CHECK(std::fabs(m.variance - shape) <
              5.0 * std::sqrt((2.0 * shape * shape + 6.0 * shape) / n));
        for (const double v : x) REQUIRE(v > 0.0);
    }
}

TEST_CASE("A coordinate of a uniform point in the unit ball: moments and the direct construction",
          "[noise]") {
    RandomStream random(29, 4), direct(31, 4);
    for (const long dimension : {1L, 2L, 3L, 10L, 21L}) {
        CAPTURE(dimension);
        const int draws = 50000;
        std::vector<double> fast(draws), slow(draws);
        Eigen::VectorXd z(dimension);
        for (int i = 0; i < draws; ++i) {
            fast[static_cast<std::size_t>(i)] = random.unitBallCoordinate(dimension);
            // The point itself: a direction uniform on the sphere times U^(1/dim).
            direct.fillStandardNormal(z);
            slow[static_cast<std::size_t>(i)] =
                std::pow(direct.uniformOpen(), 1.0 / static_cast<double>(dimension)) * z(0) /
                z.norm();
        }
        double second = 0, fourth = 0;
        for (const double t : fast) {
            REQUIRE(std::fabs(t) <= 1.0);
            second += t * t / draws;
            fourth += t * t * t * t / draws;
        }
        // E t² = 1/(d + 2), E t⁴ = 3/((d + 2)(d + 4)), E t⁸ = 105/((d + 2)(d + 4)(d + 6)(d + 8));
        // tolerances 5 standard errors.
        const double d = static_cast<double>(dimension);
        const double e2 = 1.0 / (d + 2.0), e4 = 3.0 / ((d + 2.0) * (d + 4.0)),
                     e8 = 105.0 / ((d + 2.0) * (d + 4.0) * (d + 6.0) * (d + 8.0));
        CHECK(std::fabs(second - e2) < 5.0 * std::sqrt((e4 - e2 * e2) / draws));
        CHECK(std::fabs(fourth - e4) < 5.0 * std::sqrt((e8 - e4 * e4) / draws));
        // Two-sample Kolmogorov–Smirnov distance against the direct construction (critical value
        // 1.95·√(2/n) = 0.0123 at level 0.001).
        std::sort(fast.begin(), fast.end());
        std::sort(slow.begin(), slow.end());
        double distance = 0;
        std::size_t i = 0, j = 0;
        while (i < fast.size() && j < slow.size()) {
            if (fast[i] <= slow[j])
                ++i;
            else
                ++j;
            distance = std::max(distance,
                                std::fabs(static_cast<double>(i) - static_cast<double>(j)) / draws);
        }
        CHECK(distance < 0.0123);
    }
}

TEST_CASE("Poisson batches have the right size distribution", "[noise]") {
    BatchSampler sampler(SamplerSpec::overRows(Sampling::Poisson, 10000, 250, 100),
                         RandomStream(3, streams::kSampling));
    std::vector<long> indices(10000);
    std::vector<double> sizes;
    for (int step = 0; step < 4000; ++step) {
        const long size = sampler.next(step % 40, indices);
        for (long i = 1; i < size; ++i) REQUIRE(indices[i] > indices[i - 1]);
        sizes.push_back(static_cast<double>(size));
    }
    const Moments m = moments(sizes);
    // Binomial(10000, 0.025): mean 250, variance 243.75.
    CHECK(std::fabs(m.mean - 250.0) < 1.0);
    CHECK(std::fabs(m.variance / 243.75 - 1.0) < 0.1);
}

TEST_CASE("A Poisson batch sampler draws the batches of geometric skips one at a time",
          "[noise][sampling]") {
    // The sampler draws its skips in blocks, their logarithms four at a time; the batches must be
    // those of the stream's own geometric skips, one by one, at every rate (q = 1 draws nothing).
    for (const long batch : {1L, 37L, 250L, 5000L, 9999L, 10000L}) {
        INFO("batch " << batch << " of 10000");
        const SamplerSpec spec = SamplerSpec::overRows(Sampling::Poisson, 10000, batch, 100);
        BatchSampler sampler(spec, RandomStream(11, streams::kSampling));
        RandomStream oneByOne(11, streams::kSampling);
        const double rate = spec.samplingRate();
        const double logOneMinusRate = rate >= 1.0 ? -INFINITY : std::log1p(-rate);
        std::vector<long> indices(10000), expected(10000);
        long differing = 0, drawn = 0;
        for (int step = 0; step < 300; ++step) {
            const long size = sampler.next(step % 4, indices);
            long expectedSize = 0;
            drawPoisson(oneByOne, logOneMinusRate, 10000, [&](long row) {
                expected[static_cast<std::size_t>(expectedSize++)] = row;
            });
            drawn += size;
            if (size != expectedSize) {
                ++differing;
                continue;
            }
            for (long i = 0; i < size; ++i)
                differing +=
                    indices[static_cast<std::size_t>(i)] == expected[static_cast<std::size_t>(i)]
                        ? 0
                        : 1;
        }
        CHECK(differing == 0);
        CHECK(drawn > 0);
    }
}

TEST_CASE("A nested Poisson sample gives each rate its own independent Poisson batches, nested",
          "[noise][sampling]") {
    // One envelope draw at 5 % with a level per drawn unit; runs at 1 %, 3 % and 5 % take the
    // units below their rate. Each run's batches must be Poisson at its own rate (every unit
    // independently, step after step), and a lower rate's batch inside a higher one's.
    const long n = 4000;
    const int steps = 2000;
    RandomStream sampling(17, streams::kSampling);
    NestedPoissonSample sample(n, 0.05, sampling);
    const std::vector<double> rates = {0.01, 0.03, 0.05};
    std::vector<std::vector<double>> sizes(rates.size());
    std::vector<long> perUnit(static_cast<std::size_t>(n), 0);  // at 3 %
    long bothNeighbours = 0, notNested = 0, badLevels = 0;
    std::vector<char> in(static_cast<std::size_t>(n));
    for (int step = 0; step < steps; ++step) {
        sample.draw(sampling, "test");
        std::vector<std::vector<char>> taken(rates.size(), std::vector<char>(n, 0));
        for (long k = 0; k < sample.size(); ++k) {
            const long unit = sample.units()[k];
            if (k > 0 && !(unit > sample.units()[k - 1])) ++badLevels;  // ascending
            if (!(sample.levels()[k] > 0.0 && sample.levels()[k] < 0.05)) ++badLevels;
            for (std::size_t r = 0; r < rates.size(); ++r)
                if (sample.takes(k, rates[r])) taken[r][static_cast<std::size_t>(unit)] = 1;
        }
        for (std::size_t r = 0; r < rates.size(); ++r)
            sizes[r].push_back(static_cast<double>(
                std::count(taken[r].begin(), taken[r].end(), static_cast<char>(1))));
        for (long i = 0; i < n; ++i) {
            const auto u = static_cast<std::size_t>(i);
            perUnit[u] += taken[1][u];
            if (taken[0][u] && !taken[1][u]) ++notNested;
            if (taken[1][u] && !taken[2][u]) ++notNested;
            if (i > 0 && taken[1][u] && taken[1][u - 1]) ++bothNeighbours;
        }
        // keepBelow keeps exactly the units under the rate, in order.
        const long below3 = static_cast<long>(sizes[1].back());
        sample.keepBelow(0.03);
        REQUIRE(sample.size() == below3);
        for (long k = 0; k < sample.size(); ++k) REQUIRE(taken[1][sample.units()[k]] == 1);
    }
    CHECK(badLevels == 0);
    CHECK(notNested == 0);
    for (std::size_t r = 0; r < rates.size(); ++r) {
        INFO("rate " << rates[r]);
        const double q = rates[r];
        const Moments m = moments(sizes[r]);
        // Binomial(n, q): the mean within 4 standard errors, the variance within 10 %.
        CHECK(std::fabs(m.mean - q * n) < 4.0 * std::sqrt(n * q * (1 - q) / steps));
        CHECK(std::fabs(m.variance / (n * q * (1 - q)) - 1.0) < 0.1);
        // Independent from step to step: lag-one correlation of the sizes near 0.
        double lagged = 0.0;
        for (int t = 1; t < steps; ++t)
            lagged += (sizes[r][t] - m.mean) * (sizes[r][t - 1] - m.mean);
        CHECK(std::fabs(lagged / ((steps - 1) * m.variance)) < 4.0 / std::sqrt(steps));
    }
    // Every unit at its rate: counts Binomial(steps, q) across units (variance within 10 %).
    std::vector<double> counts(perUnit.begin(), perUnit.end());
    const Moments c = moments(counts);
    CHECK(std::fabs(c.mean - 0.03 * steps) < 4.0 * std::sqrt(0.03 * 0.97 * steps / n));
    CHECK(std::fabs(c.variance / (0.03 * 0.97 * steps) - 1.0) < 0.1);
    // Neighbouring units independently: both in a batch with probability q².
    const double pairs = static_cast<double>(steps) * (n - 1), expected = 0.03 * 0.03 * pairs;
    CHECK(std::fabs(static_cast<double>(bothNeighbours) - expected) < 5.0 * std::sqrt(expected));
}

TEST_CASE("DP noise added by the trainers has the calibrated standard deviation",
          "[noise][privacy]") {
    const int features = 200;
    const DataSplit data = zeroFeatureData(2000, features);
    for (const char* algorithm : {"dp-sgd", "dp-fermi"}) {
        INFO(algorithm);
        std::vector<double> standardised;
        for (std::uint64_t seed = 0; seed < 25; ++seed) {
            TrainConfig config;
            config.algorithm = algorithm;
            config.epsilon = 1.0;
            config.lambda = std::string(algorithm) == "dp-fermi" ? 1.0 : 0.0;
            config.epochs = 3;
            config.batchSize = 200;
            config.lrTheta = 0.5;
            config.seed = seed;
            config.averaging = IterateAveraging::None;  // report the last iterate: θ = −η Σ u
            TrainingObserver observer;
            CancelToken cancel;
            const RunResult result = runAlgorithm(config, data, observer, cancel);
            REQUIRE(result.status == RunStatus::Completed);
            const double sigma = result.privacy.sigmaTheta;
            REQUIRE(sigma > 0);
            // θ_j = −η Σ_t u_tj  ~  N(0, η² T σ²) for every zero feature j.
            const double scale =
                config.lrTheta * std::sqrt(static_cast<double>(result.steps)) * sigma;
            for (int j = 0; j < features; ++j) standardised.push_back(result.theta(0, j) / scale);
        }
        const Moments m = moments(standardised);     // 5000 samples
        CHECK(std::fabs(m.mean) < 0.06);             // 4.2 standard errors
        CHECK(std::fabs(m.variance - 1.0) < 0.085);  // 4.2 standard errors of √(2/n)
        CHECK(std::fabs(m.kurtosis - 3.0) < 0.3);
    }
}

}  // namespace core_noise_test
