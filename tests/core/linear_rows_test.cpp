// The batch kernels of the linear models (core/engine/linear_rows.h): each row's score in its
// stated order and the gradient sums in the order of adding the rows one by one, the same bits
// with AVX2 or with the baseline instructions; single-precision rows, unpacked or added as
// stored, as double rows holding the same values; single-precision scores in their float order.
#include "core/engine/linear_rows.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/util/instruction_set.h"

namespace core_linear_rows_test {

using namespace pfa;

namespace {

/// The score of one row in linearRowScores' stated order, one operation at a time.
double referenceScore(const double* x, const double* w, long d) {
    double lane[4] = {0.0, 0.0, 0.0, 0.0};
    const long body = d - d % 4;
    for (long j = 0; j < body; ++j) {
        const double term = x[j] * w[j];
        lane[j % 4] = lane[j % 4] + term;
    }
    double s = (lane[0] + lane[1]) + (lane[2] + lane[3]);
    for (long j = body; j < d; ++j) {
        const double term = x[j] * w[j];
        s = s + term;
    }
    return s;
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// The score of one single-precision row in linearRowScoresSingle's stated order, in float, one
/// operation at a time.
double referenceSingleScore(const float* x, const float* w, long d) {
    float lane[8] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    const long body = d - d % 8;
    for (long j = 0; j < body; ++j) {
        const float term = x[j] * w[j];
        lane[j % 8] = lane[j % 8] + term;
    }
    const float low = (lane[0] + lane[1]) + (lane[2] + lane[3]);
    const float high = (lane[4] + lane[5]) + (lane[6] + lane[7]);
    float s = low + high;
    for (long j = body; j < d; ++j) {
        const float term = x[j] * w[j];
        s = s + term;
    }
    return static_cast<double>(s);
}

struct Rows {
    long features, stride;
    std::vector<double> values;
    std::vector<long> batch;
};

/// `rows` rows of `d` features (a stride of d + 1, as a data set's features with their bias
/// column) on wide scales, and a batch of `count` of them with repeats, in no order.
Rows randomRows(long rows, long d, long count, std::uint64_t seed) {
    std::mt19937_64 engine(seed);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<long> pick(0, rows - 1);
    Rows r{d, d + 1, std::vector<double>(static_cast<std::size_t>(rows * (d + 1))), {}};
    for (double& v : r.values) v = unit(engine) * std::exp2(unit(engine) * 20.0);
    for (long k = 0; k < count; ++k) r.batch.push_back(pick(engine));
    return r;
}

}  // namespace

TEST_CASE("A linear row's score is summed in its stated order, alike with AVX2 and without",
          "[linear-rows]") {
    for (const long d : {1L, 3L, 4L, 5L, 8L, 11L, 200L, 201L}) {
        for (const long count : {1L, 2L, 3L, 4L, 5L, 7L, 9L, 32L}) {
            const Rows r = randomRows(40, d, count, static_cast<std::uint64_t>(d * 100 + count));
            const LinearRows X{r.values.data(), r.stride, r.features};
            std::vector<double> w(static_cast<std::size_t>(d));
            std::mt19937_64 engine(static_cast<std::uint64_t>(d));
            std::uniform_real_distribution<double> unit(-3.0, 3.0);
            for (double& v : w) v = unit(engine);
            for (const bool baseline : {false, true}) {
                useBaselineInstructionsOnly(baseline);
                std::vector<double> scores(static_cast<std::size_t>(count), -1.0);
                linearRowScores(X, r.batch.data(), count, w.data(), scores.data());
                useBaselineInstructionsOnly(false);
                long differing = 0;
                for (long k = 0; k < count; ++k) {
                    const double* row =
                        r.values.data() + r.batch[static_cast<std::size_t>(k)] * r.stride;
                    differing += !sameBits(scores[static_cast<std::size_t>(k)],
                                           referenceScore(row, w.data(), d));
                }
                INFO("d = " << d << ", rows " << count << ", baseline " << baseline);
                CHECK(differing == 0);
            }
        }
    }
}

TEST_CASE("Scaled rows are added as one by one in batch order, alike with AVX2 and without",
          "[linear-rows]") {
    for (const long d : {1L, 3L, 4L, 6L, 200L, 201L}) {
        for (const long count : {1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 13L, 64L}) {
            const Rows r = randomRows(30, d, count, static_cast<std::uint64_t>(7 * d + count));
            const LinearRows X{r.values.data(), r.stride, r.features};
            std::mt19937_64 engine(static_cast<std::uint64_t>(count));
            std::uniform_real_distribution<double> unit(-2.0, 2.0);
            std::vector<double> scales(static_cast<std::size_t>(count)),
                start(static_cast<std::size_t>(d));
            for (double& s : scales) s = unit(engine) * std::exp2(unit(engine) * 10.0);
            for (double& g : start) g = unit(engine);
            // The reference: g += s_k·x_k row after row, one multiplication and one addition.
            std::vector<double> expected = start;
            for (long k = 0; k < count; ++k) {
                const double* row =
                    r.values.data() + r.batch[static_cast<std::size_t>(k)] * r.stride;
                for (long j = 0; j < d; ++j) {
                    const double term = scales[static_cast<std::size_t>(k)] * row[j];
                    expected[static_cast<std::size_t>(j)] =
                        expected[static_cast<std::size_t>(j)] + term;
                }
            }
            for (const bool baseline : {false, true}) {
                useBaselineInstructionsOnly(baseline);
                std::vector<double> g = start;
                addScaledRows(X, r.batch.data(), count, scales.data(), g.data());
                useBaselineInstructionsOnly(false);
                long differing = 0;
                for (long j = 0; j < d; ++j)
                    differing += !sameBits(g[static_cast<std::size_t>(j)],
                                           expected[static_cast<std::size_t>(j)]);
                INFO("d = " << d << ", rows " << count << ", baseline " << baseline);
                CHECK(differing == 0);
            }
        }
    }
}

TEST_CASE("Single-precision rows, unpacked, give the bits of double rows holding the same values",
          "[linear-rows]") {
    for (const long d : {1L, 3L, 4L, 5L, 200L, 201L}) {
        for (const long count : {1L, 3L, 4L, 7L, 8L, 33L}) {
            const Rows r = randomRows(25, d, count, static_cast<std::uint64_t>(31 * d + count));
            // The single-precision rows (a stride of their own) and the same values as doubles.
            const long singleStride = d + 5;
            std::vector<float> single(static_cast<std::size_t>(25 * singleStride), NAN);
            Rows rounded = r;
            for (long i = 0; i < 25; ++i) {
                for (long j = 0; j < d; ++j) {
                    const float value = static_cast<float>(r.values[i * r.stride + j]);
                    single[static_cast<std::size_t>(i * singleStride + j)] = value;
                    rounded.values[static_cast<std::size_t>(i * r.stride + j)] = value;
                }
            }
            const SingleLinearRows S{single.data(), singleStride, d};
            const LinearRows X{rounded.values.data(), rounded.stride, d};
            std::mt19937_64 engine(static_cast<std::uint64_t>(d + count));
            std::uniform_real_distribution<double> unit(-3.0, 3.0);
            std::vector<double> w(static_cast<std::size_t>(d)),
                scales(static_cast<std::size_t>(count));
            for (double& v : w) v = unit(engine);
            for (double& s : scales) s = unit(engine) * std::exp2(unit(engine) * 10.0);
            std::vector<double> expectedScores(static_cast<std::size_t>(count)),
                expectedSum(static_cast<std::size_t>(d), 0.5);
            linearRowScores(X, r.batch.data(), count, w.data(), expectedScores.data());
            addScaledRows(X, r.batch.data(), count, scales.data(), expectedSum.data());
            for (const bool baseline : {false, true}) {
                useBaselineInstructionsOnly(baseline);
                std::vector<double> scores(static_cast<std::size_t>(count), -1.0),
                    sum(static_cast<std::size_t>(d), 0.5),
                    unpacked(static_cast<std::size_t>(count * (d + 2)), NAN);
                // As the batch loop reads them: unpacked, then the double kernels on the block.
                unpackRows(S, r.batch.data(), count, unpacked.data(), d + 2);
                std::vector<long> block(static_cast<std::size_t>(count));
                for (long k = 0; k < count; ++k) block[static_cast<std::size_t>(k)] = k;
                const LinearRows U{unpacked.data(), d + 2, d};
                linearRowScores(U, block.data(), count, w.data(), scores.data());
                addScaledRows(U, block.data(), count, scales.data(), sum.data());
                useBaselineInstructionsOnly(false);
                long differing = 0;
                for (long k = 0; k < count; ++k) {
                    differing += !sameBits(scores[static_cast<std::size_t>(k)],
                                           expectedScores[static_cast<std::size_t>(k)]);
                    const double* row =
                        rounded.values.data() + r.batch[static_cast<std::size_t>(k)] * r.stride;
                    for (long j = 0; j < d; ++j)
                        differing +=
                            !sameBits(unpacked[static_cast<std::size_t>(k * (d + 2) + j)], row[j]);
                }
                for (long j = 0; j < d; ++j)
                    differing += !sameBits(sum[static_cast<std::size_t>(j)],
                                           expectedSum[static_cast<std::size_t>(j)]);
                INFO("d = " << d << ", rows " << count << ", baseline " << baseline);
                CHECK(differing == 0);
            }
        }
    }
}

TEST_CASE(
    "A single-precision score is summed in float in its stated order, alike with AVX2 and "
    "without",
    "[linear-rows]") {
    for (const long d : {1L, 3L, 7L, 8L, 9L, 15L, 16L, 200L, 203L}) {
        for (const long count : {1L, 2L, 3L, 4L, 5L, 7L, 9L, 32L}) {
            const Rows r = randomRows(40, d, count, static_cast<std::uint64_t>(d * 100 + count));
            // The rows in single precision, with padding that must not be read (NaN).
            const long stride = d + 3;
            std::vector<float> single(static_cast<std::size_t>(40 * stride), NAN);
            for (long i = 0; i < 40; ++i)
                for (long j = 0; j < d; ++j)
                    single[static_cast<std::size_t>(i * stride + j)] =
                        static_cast<float>(r.values[static_cast<std::size_t>(i * r.stride + j)]);
            const SingleLinearRows S{single.data(), stride, d};
            std::vector<float> w(static_cast<std::size_t>(d));
            std::mt19937_64 engine(static_cast<std::uint64_t>(d));
            std::uniform_real_distribution<float> unit(-3.0f, 3.0f);
            for (float& v : w) v = unit(engine);
            for (const bool baseline : {false, true}) {
                useBaselineInstructionsOnly(baseline);
                std::vector<double> scores(static_cast<std::size_t>(count), -1.0);
                linearRowScoresSingle(S, r.batch.data(), count, w.data(), scores.data());
                useBaselineInstructionsOnly(false);
                long differing = 0;
                for (long k = 0; k < count; ++k) {
                    const float* row =
                        single.data() + r.batch[static_cast<std::size_t>(k)] * stride;
                    differing += !sameBits(scores[static_cast<std::size_t>(k)],
                                           referenceSingleScore(row, w.data(), d));
                }
                INFO("d = " << d << ", rows " << count << ", baseline " << baseline);
                CHECK(differing == 0);
            }
            // In double, in feature order: the fallback for scores beyond float's range.
            std::vector<double> wDouble(w.begin(), w.end());
            const long row = r.batch.front();
            double expected = 0.0;
            for (long j = 0; j < d; ++j) {
                const double term =
                    static_cast<double>(single[static_cast<std::size_t>(row * stride + j)]) *
                    wDouble[static_cast<std::size_t>(j)];
                expected = expected + term;
            }
            CHECK(sameBits(singleRowScoreInDouble(S, row, wDouble.data()), expected));
        }
    }
}

TEST_CASE("Single-precision rows added as stored give the bits of the rows unpacked",
          "[linear-rows]") {
    for (const long d : {1L, 3L, 4L, 6L, 200L, 201L}) {
        for (const long count : {1L, 2L, 3L, 5L, 8L, 13L, 64L}) {
            const Rows r = randomRows(30, d, count, static_cast<std::uint64_t>(11 * d + count));
            const long stride = d + 2;
            std::vector<float> single(static_cast<std::size_t>(30 * stride), NAN);
            for (long i = 0; i < 30; ++i)
                for (long j = 0; j < d; ++j)
                    single[static_cast<std::size_t>(i * stride + j)] =
                        static_cast<float>(r.values[static_cast<std::size_t>(i * r.stride + j)]);
            const SingleLinearRows S{single.data(), stride, d};
            std::mt19937_64 engine(static_cast<std::uint64_t>(count));
            std::uniform_real_distribution<double> unit(-2.0, 2.0);
            std::vector<double> scales(static_cast<std::size_t>(count)),
                start(static_cast<std::size_t>(d));
            for (double& s : scales) s = unit(engine) * std::exp2(unit(engine) * 10.0);
            for (double& g : start) g = unit(engine);
            // The reference: the rows unpacked, then added by the double kernel.
            std::vector<double> unpacked(static_cast<std::size_t>(count * d));
            unpackRows(S, r.batch.data(), count, unpacked.data(), d);
            std::vector<long> block(static_cast<std::size_t>(count));
            for (long k = 0; k < count; ++k) block[static_cast<std::size_t>(k)] = k;
            std::vector<double> expected = start;
            addScaledRows({unpacked.data(), d, d}, block.data(), count, scales.data(),
                          expected.data());
            for (const bool baseline : {false, true}) {
                useBaselineInstructionsOnly(baseline);
                std::vector<double> g = start;
                addScaledSingleRows(S, r.batch.data(), count, scales.data(), g.data());
                useBaselineInstructionsOnly(false);
                long differing = 0;
                for (long j = 0; j < d; ++j)
                    differing += !sameBits(g[static_cast<std::size_t>(j)],
                                           expected[static_cast<std::size_t>(j)]);
                INFO("d = " << d << ", rows " << count << ", baseline " << baseline);
                CHECK(differing == 0);
            }
        }
    }
}

}  // namespace core_linear_rows_test
