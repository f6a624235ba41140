// dp-sgd-linear (thesis-algorithms.md §3, accountant B): the noise it adds has the variance it
// states (χ² test on weights whose gradient is exactly zero), its ε equals an independent
// evaluation of the Poisson-subsampled Gaussian RDP formula written out here, ε = ∞ is plain
// SGD bit for bit, and without privacy it learns the Gaussian linear model. Single-precision
// rows (row-precision single) train as the double path on the rounded rows, change the results
// far less than the noise does, and leave ε and the keys of runs in double unchanged; scores in
// single precision (row-precision single-scores) as well, with a score beyond float's range
// computed in double.
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <limits>

#include "core/algorithms/linear_sgd/linear_dp_sgd.h"
#include "core/algorithms/registry.h"
#include "core/config/algorithm.h"
#include "core/data/builtin_datasets.h"
#include "core/engine/batch_sampler.h"
#include "core/engine/linear_rows.h"
#include "core/engine/run_streams.h"
#include "core/generators/dataset_loading.h"
#include "core/sweep/sweep_spec.h"
#include "test_data.h"

namespace core_dp_sgd_linear_test {

using namespace pfa;

namespace {

TrainConfig linearConfig(double epsilon,
                         privacy::Adjacency adjacency = privacy::Adjacency::AddRemove) {
    TrainConfig c;
    c.algorithm = "dp-sgd-linear";
    c.epsilon = epsilon;
    c.delta = 1e-5;
    c.lambda = 0.0;
    c.seed = 5;
    c.epochs = 2;
    c.batchSize = 100;
    c.clipTheta = 1.0;
    c.lrTheta = 0.05;
    c.adjacency = adjacency;
    c.averaging = IterateAveraging::None;
    return c;
}

/// ln Σ_k C(α,k)(1−q)^{α−k} q^k exp(k(k−1)/(2z²)), integer α, by log-sum-exp.
double logA(int alpha, double q, double z) {
    double top = -INFINITY;
    std::vector<double> terms;
    for (int k = 0; k <= alpha; ++k) {
        const double t = std::lgamma(alpha + 1.0) - std::lgamma(k + 1.0) -
                         std::lgamma(alpha - k + 1.0) + (alpha - k) * std::log1p(-q) +
                         k * std::log(q) + k * (k - 1.0) / (2.0 * z * z);
        terms.push_back(t);
        top = std::max(top, t);
    }
    double sum = 0.0;
    for (double t : terms) sum += std::exp(t - top);
    return top + std::log(sum);
}

/// RDP of one add/remove Poisson-subsampled Gaussian step at integer order α.
double rdpAddRemove(int alpha, double q, double z) { return logA(alpha, q, z) / (alpha - 1.0); }

/// ε after T steps from integer orders only, with the conversion
/// ε(α) = T·ρ(α) + ln(1 − 1/α) − (ln δ + ln α)/(α − 1). Replace-one: the group-of-two bound
/// ρ(α) = (2α−1)/(2α−2)·ρ_SGM(2α) + ρ_SGM(2α−1).
double independentEpsilon(double q, double z, long steps, double delta, bool replace) {
    double best = INFINITY;
    std::vector<int> orders;
    for (int a = 2; a <= 63; ++a) orders.push_back(a);
    for (int a : {128, 256, 512}) orders.push_back(a);
    for (int alpha : orders) {
        const double rho =
            replace ? (2.0 * alpha - 1.0) / (2.0 * alpha - 2.0) * rdpAddRemove(2 * alpha, q, z) +
                          rdpAddRemove(2 * alpha - 1, q, z)
                    : rdpAddRemove(alpha, q, z);
        const double eps = steps * rho + std::log1p(-1.0 / alpha) -
                           (std::log(delta) + std::log(alpha)) / (alpha - 1.0);
        best = std::min(best, eps);
    }
    return std::max(0.0, best);
}

}  // namespace

TEST_CASE("dp-sgd-linear: the noise has the stated variance (chi-square on zero-gradient weights)",
          "[dp-sgd-linear][statistical]") {
    // Every feature is 0, so each feature weight gets exactly zero gradient and ends at
    // −η Σ_t N(0, σ²): Σ_j w_j² / (η² T σ²) is χ² with d degrees of freedom.
    const int d = 2000;
    const DataSplit data = test::zeroFeatureData(1000, d);
    const TrainConfig config = linearConfig(1.0);
    const RunResult result = test::runQuietly(config, data);
    REQUIRE(result.status == RunStatus::Completed);
    const double sigma = result.privacy.sigmaTheta;
    // σ on the mean is z·C/b, z the multiplier the accountant solved.
    CHECK(sigma == Approx(result.privacy.noiseMultiplier * 1.0 / 100.0).epsilon(1e-12));
    REQUIRE(result.steps == 2 * 10);  // ⌈1000/100⌉ steps per epoch
    double chi2 = 0.0;
    for (int j = 0; j < d; ++j) {
        const double w = result.theta(0, j);
        chi2 += w * w;
    }
    chi2 /= config.lrTheta * config.lrTheta * static_cast<double>(result.steps) * sigma * sigma;
    // Mean d, sd √(2d) ≈ 63: four sd either way. A σ 10 % off would give 1653 or 2420: outside.
    INFO("chi2 = " << chi2);
    CHECK(std::abs(chi2 - d) < 4.0 * std::sqrt(2.0 * d));
}

TEST_CASE("dp-sgd-linear: epsilon equals the RDP formula evaluated independently",
          "[dp-sgd-linear]") {
    const DataSplit data = test::syntheticSplit(4000, 8);  // 3000 training rows
    for (const privacy::Adjacency adjacency :
         {privacy::Adjacency::AddRemove, privacy::Adjacency::Replace}) {
        for (double epsilon : {0.5, 2.0}) {
            const bool replace = adjacency == privacy::Adjacency::Replace;
            INFO("epsilon " << epsilon << (replace ? " replace" : " add/remove"));
            TrainConfig config = linearConfig(epsilon, adjacency);
            config.epochs = 3;
            const RunResult result = test::runQuietly(config, data);
            REQUIRE(result.status == RunStatus::Completed);
            const double q = 100.0 / 3000.0;
            const long steps = 3 * 30;
            CHECK(result.steps == steps);
            CHECK(result.privacy.samplingRate == Approx(q).epsilon(1e-15));
            const double z = result.privacy.noiseMultiplier;
            const double independent = independentEpsilon(q, z, steps, 1e-5, replace);
            const double spent = result.privacy.epsilonSpent;
            // The app's grid adds fractional orders: never worse, at most a little better.
            CHECK(spent <= independent + 1e-9);
            CHECK(spent >= 0.98 * independent);
            // Within the budget, and the noise is not wasted (solver tolerance 1 %).
            CHECK(spent <= epsilon);
            CHECK(spent >= 0.98 * epsilon);
            // A 10 % smaller z costs visibly more.
            CHECK(independentEpsilon(q, 0.9 * z, steps, 1e-5, replace) > 1.05 * spent);
        }
    }
}

TEST_CASE("dp-sgd-linear: epsilon = inf is plain SGD bit for bit", "[dp-sgd-linear]") {
    const DataSplit data = test::syntheticSplit(2000, 6);
    TrainConfig config = linearConfig(INFINITY);
    const Algorithm& algorithm = findAlgorithm("dp-sgd-linear");
    const TrainConfig resolved = prepareRun(algorithm, config, data).config();
    const RunResult result = test::runQuietly(config, data);
    REQUIRE(result.status == RunStatus::Completed);
    CHECK(std::isinf(result.privacy.epsilonSpent));

    // Plain SGD on (ŷ − y)² with an intercept: Poisson batches from the run's sampling stream,
    // the gradient sum divided by the expected batch b, no clipping, no noise.
    const Dataset& train = data.train;
    const long n = static_cast<long>(train.rows()), d = static_cast<long>(train.features());
    const Eigen::VectorXd y = regressionTargets(train);
    RandomStream sampling = RunStreams(resolved, train).stream(streams::kSampling);
    const double q = 100.0 / static_cast<double>(n);
    const long steps = 2 * ((n + 99) / 100);
    Eigen::VectorXd w = Eigen::VectorXd::Zero(d + 1), g(d + 1);
    const LinearRows rows{train.X.data(), static_cast<long>(train.X.outerStride()), d};
    for (long t = 0; t < steps; ++t) {
        g.setZero();
        drawPoisson(sampling, std::log1p(-q), n, [&](long row) {
            // xᵀw in the engine's order for a linear row (tested in linear_rows_test.cpp).
            double score = 0.0;
            linearRowScores(rows, &row, 1, w.data(), &score);
            const double residual = score + w(d) - y(row);
            const double scale = 2.0 * residual;
            g.head(d).noalias() += scale * train.X.row(row).transpose();
            g(d) += scale;
        });
        g /= 100.0;
        w.noalias() -= config.lrTheta * g;
    }
    REQUIRE(result.theta.cols() == d + 1);
    for (long k = 0; k <= d; ++k) CHECK(result.theta(0, k) == w(k));  // bit for bit
    CHECK(result.steps == steps);
}

TEST_CASE("dp-sgd-linear: learns the Gaussian linear model, and privacy costs accuracy",
          "[dp-sgd-linear]") {
    const DataSplit data = test::linearSplit(6000, 10);
    TrainConfig config = linearConfig(INFINITY);
    config.epochs = 10;
    config.batchSize = 64;
    const RunResult exact = test::runQuietly(config, data);
    REQUIRE(exact.status == RunStatus::Completed);
    // Excess risk over the known optimum 0.25 (sampling error of 1500 test rows ≈ 0.01).
    REQUIRE_FALSE(exact.history.empty());
    CHECK(exact.history.back().excessRisk == Approx(exact.regression.testMse - 0.25).margin(1e-12));
    CHECK(exact.history.back().excessRisk < 0.03);
    CHECK(exact.regression.weightError < 0.2);
    config.epsilon = 0.2;
    const RunResult priv = test::runQuietly(config, data);
    REQUIRE(priv.status == RunStatus::Completed);
    CHECK(priv.privacy.epsilonSpent <= 0.2);
    CHECK(priv.regression.testMse > exact.regression.testMse);
}

namespace {

/// `data` with its training features rounded to single precision (the test rows as they are).
DataSplit withSingleTrainingRows(const DataSplit& data) {
    DataSplit rounded = data;
    for (Eigen::Index i = 0; i < rounded.train.X.rows(); ++i) {
        for (Eigen::Index j = 0; j < rounded.train.X.cols(); ++j)
            rounded.train.X(i, j) = static_cast<float>(data.train.X(i, j));
    }
    return rounded;
}

/// The setup dp-sgd-linear plans for `config` on `data`, with the public rows of `publicShare`
/// mixed in by the automatic weight when it is positive (semi-dp-sgd's step).
LinearSgdSetup linearSetup(const TrainConfig& config, const DataSplit& data, double publicShare) {
    const TrainConfig resolved = prepareRun(findAlgorithm("dp-sgd-linear"), config, data).config();
    LinearSgdPlan plan =
        planLinearSgd(resolved, data.train, splitPublicRows(data.train, publicShare, 0));
    if (publicShare > 0.0) {
        plan.setup.alpha = NAN;
        plan.setup.publicBatch = 64;
    }
    return plan.setup;
}

/// Trains `setup` on `data` with the streams of `config` on `streamData` (the same noise and
/// batches for every call with the same config and stream data).
RunResult trainWithStreams(const LinearSgdSetup& setup, const DataSplit& data,
                           const TrainConfig& config, const DataSplit& streamData) {
    const TrainConfig resolved =
        prepareRun(findAlgorithm("dp-sgd-linear"), config, streamData).config();
    return test::trainLinearSetup(setup, data, resolved, streamData.train);
}

/// The final test MSE of runs with one setting changed, against the same runs without it, with
/// the same batches and noise: seeds 0 … 11, ε = 1, 5 epochs.
struct SeedComparison {
    double spread = 0.0;   ///< standard deviation over seeds of the unchanged runs
    double largest = 0.0;  ///< largest |changed − unchanged| of a seed
};

/// `reference` sets up the unchanged runs, `change` turns such a setup into the changed one.
SeedComparison compareOverSeeds(const DataSplit& data, double publicShare,
                                const std::function<void(LinearSgdSetup&)>& reference,
                                const std::function<void(LinearSgdSetup&)>& change) {
    std::vector<double> unchangedMse, differences;
    for (std::uint64_t seed = 0; seed < 12; ++seed) {
        TrainConfig config = linearConfig(1.0);
        config.seed = seed;
        config.epochs = 5;
        LinearSgdSetup unchanged = linearSetup(config, data, publicShare);
        reference(unchanged);
        LinearSgdSetup changed = unchanged;
        change(changed);
        const RunResult a = trainWithStreams(changed, data, config, data);
        const RunResult b = trainWithStreams(unchanged, data, config, data);
        REQUIRE(a.status == RunStatus::Completed);
        REQUIRE(b.status == RunStatus::Completed);
        unchangedMse.push_back(b.regression.testMse);
        differences.push_back(a.regression.testMse - b.regression.testMse);
    }
    const double n = static_cast<double>(unchangedMse.size());
    double mean = 0.0;
    for (const double m : unchangedMse) mean += m / n;
    double variance = 0.0;
    for (const double m : unchangedMse) variance += (m - mean) * (m - mean) / (n - 1.0);
    SeedComparison result;
    result.spread = std::sqrt(variance);
    for (const double d : differences) result.largest = std::max(result.largest, std::abs(d));
    return result;
}

}  // namespace

TEST_CASE("Linear DP-SGD with single-precision rows runs as on the rows rounded to single",
          "[dp-sgd-linear]") {
    // The single-precision path reads a float copy of the rows and computes in double, so with
    // the same batches and noise it is the double path on the rounded rows; the only
    // difference is the order in which each row's squared norm (for its clip) is summed: far
    // below 1e-12.
    const DataSplit data = test::linearSplit(3000, 37);
    const DataSplit rounded = withSingleTrainingRows(data);
    REQUIRE(rounded.train.X(0, 0) != data.train.X(0, 0));
    for (const double publicShare : {0.0, 0.1}) {
        for (const double epsilon : {1.0, std::numeric_limits<double>::infinity()}) {
            TrainConfig config = linearConfig(epsilon);
            config.epochs = 3;
            LinearSgdSetup single = linearSetup(config, data, publicShare);
            single.singlePrecisionRows = true;
            LinearSgdSetup plain = single;
            plain.singlePrecisionRows = false;
            const RunResult a = trainWithStreams(single, data, config, data);
            const RunResult b = trainWithStreams(plain, rounded, config, data);
            const RunResult unrounded = trainWithStreams(plain, data, config, data);
            INFO("public share " << publicShare << ", epsilon " << epsilon);
            REQUIRE(a.status == RunStatus::Completed);
            REQUIRE(b.status == RunStatus::Completed);
            REQUIRE(a.theta.cols() == b.theta.cols());
            const double scale = 1.0 + b.theta.cwiseAbs().maxCoeff();
            CHECK((a.theta - b.theta).cwiseAbs().maxCoeff() <= 1e-12 * scale);
            // … while the rows as loaded give another model: the rounding is seen.
            CHECK((a.theta - unrounded.theta).cwiseAbs().maxCoeff() > 1e-10 * scale);
            REQUIRE(a.history.size() == b.history.size());
            for (std::size_t e = 0; e < a.history.size(); ++e)
                CHECK(a.history[e].testError == Approx(b.history[e].testError).epsilon(1e-12));
        }
    }
}

TEST_CASE("row-precision names a run only when not double, and leaves its epsilon unchanged",
          "[dp-sgd-linear]") {
    const DataSplit data = test::linearSplit(2000, 12);
    for (const std::string algorithm : {"dp-sgd-linear", "semi-dp-sgd"}) {
        for (const std::string precision : {"single", "single-scores"}) {
            TrainConfig plain = linearConfig(1.0);
            plain.algorithm = algorithm;
            TrainConfig single = plain;
            single.extra["row-precision"] = precision;
            const RunResult a = test::runQuietly(single, data);
            const RunResult b = test::runQuietly(plain, data);
            INFO(algorithm << ", " << precision);
            REQUIRE(a.status == RunStatus::Completed);
            CHECK(a.privacy.epsilonSpent == b.privacy.epsilonSpent);
            CHECK(a.privacy.noiseMultiplier == b.privacy.noiseMultiplier);
            const TrainConfig singleResolved =
                prepareRun(findAlgorithm(algorithm), single, data).config();
            const TrainConfig plainResolved =
                prepareRun(findAlgorithm(algorithm), plain, data).config();
            CHECK(runKey("synthetic-linear", singleResolved) !=
                  runKey("synthetic-linear", plainResolved));
            // Runs in double keep the keys (and so the noise) they had before the setting existed.
            CHECK(runKey("synthetic-linear", plainResolved).find("row-precision") ==
                  std::string::npos);
            // Named exactly (single is not read as a prefix of single-scores).
            const std::string key = runKey("synthetic-linear", singleResolved);
            const std::string named = "row-precision=" + precision;
            const std::size_t at = key.find(named);
            REQUIRE(at != std::string::npos);
            CHECK((at + named.size() == key.size() || key[at + named.size()] == ';'));
        }
    }
}

TEST_CASE("Single-precision rows change linear DP-SGD's results far less than its noise does",
          "[dp-sgd-linear]") {
    // Same batches, same noise: each run in single precision against the same run in double on
    // the rows as loaded. The difference must be tiny next to the spread over seeds (what the
    // noise and sampling do), so the setting never changes a comparison the tool shows.
    const DataSplit data = test::linearSplit(4000, 50);
    const auto [spread, largest] = compareOverSeeds(
        data, 0.0, [](LinearSgdSetup&) {}, [](LinearSgdSetup& s) { s.singlePrecisionRows = true; });
    INFO("spread over seeds " << spread << ", largest difference " << largest);
    REQUIRE(spread > 1e-3);  // the noise moves the result: the comparison means something
    CHECK(largest > 0.0);    // the rows were rounded: single precision is not a no-op
    CHECK(largest < 1e-3 * spread);
}

TEST_CASE("Single-precision scores change linear DP-SGD's results far less than its noise does",
          "[dp-sgd-linear]") {
    // Same batches, same noise: each run with its scores in single precision against the same
    // run with single-precision rows and double scores (the only difference is the scores'
    // rounding, about 1e-7 of each score). Far below the spread over seeds, with and without
    // public rows (whose scores are computed the same way).
    const DataSplit data = test::linearSplit(4000, 50);
    for (const double publicShare : {0.0, 0.1}) {
        const auto [spread, largest] = compareOverSeeds(
            data, publicShare, [](LinearSgdSetup& s) { s.singlePrecisionRows = true; },
            [](LinearSgdSetup& s) { s.singlePrecisionScores = true; });
        INFO("public share " << publicShare << ": spread over seeds " << spread
                             << ", largest difference " << largest);
        REQUIRE(spread > 1e-3);  // the noise moves the result: the comparison means something
        CHECK(largest > 0.0);    // the scores were rounded: not a no-op
        CHECK(largest < 1e-3 * spread);
    }
}

TEST_CASE("A single-precision score beyond float's range is computed in double, never added as NaN",
          "[dp-sgd-linear]") {
    // Rows of 1e37 and a model started at 100 in every weight: each score (six terms of 1e39) is
    // +∞ in single precision. Computed in double instead, it is finite, the row's gradient is
    // clipped like any other, and the run trains on (without the fallback its released sums
    // would be NaN and the run would diverge).
    DataSplit data = test::linearSplit(2000, 6);
    for (Eigen::Index i = 0; i < data.train.rows(); i += 3) data.train.X.row(i).setConstant(1e37);
    TrainConfig config = linearConfig(1.0);
    config.epochs = 2;
    LinearSgdSetup setup = linearSetup(config, data, 0.0);
    setup.singlePrecisionRows = true;
    setup.singlePrecisionScores = true;
    setup.start = Eigen::VectorXd::Constant(data.train.features() + 1, 100.0);
    const RunResult run = trainWithStreams(setup, data, config, data);
    CHECK(run.status == RunStatus::Completed);
    CHECK(run.theta.allFinite());
    CHECK(run.privacy.epsilonSpent <= 1.0);
}

TEST_CASE("Single-precision rows saturate values beyond float's range instead of adding NaN",
          "[dp-sgd-linear]") {
    // 1e300 is +inf in single precision; a clipped infinite row would add 0·∞ = NaN to the
    // released sum. Saturated at ±3.4e38, each such row is clipped like any other.
    DataSplit data = test::linearSplit(2000, 6);
    for (Eigen::Index i = 0; i < 20; ++i) data.train.X(i, 0) = (i % 2 ? 1e300 : -1e300);
    TrainConfig config = linearConfig(1.0);
    config.epochs = 10;
    config.extra["row-precision"] = "single";
    const RunResult run = test::runQuietly(config, data);
    REQUIRE(run.status == RunStatus::Completed);
    CHECK(run.theta.allFinite());
    CHECK(std::isfinite(run.regression.testMse));
    CHECK(run.privacy.epsilonSpent <= 1.0);
}

}  // namespace core_dp_sgd_linear_test
