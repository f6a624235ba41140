// semi-dp-sgd (thesis-algorithms.md §5.2): public share 0 is dp-sgd-linear bit for bit (same
// streams), α = 1 never reads a public row, α = 0 never reads a private row (and spends ε = 0),
// the accountant charges the private rows only (q = K_priv/n_priv), public-only is exact least
// squares on the public rows, and the statement says which rows are protected.
#include <Eigen/Dense>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <iterator>

#include "core/algorithms/linear_sgd/linear_dp_sgd.h"
#include "core/algorithms/registry.h"
#include "core/config/algorithm.h"
#include "core/config/parameters.h"
#include "core/data/builtin_datasets.h"
#include "core/data/linear_gaussian.h"
#include "core/data/preprocessing.h"
#include "core/engine/run_streams.h"
#include "core/generators/dataset_loading.h"
#include "core/privacy/accounting_inputs.h"
#include "core/sweep/theory_rates.h"
#include "test_data.h"

namespace core_semi_dp_sgd_test {

using namespace pfa;

namespace {

DataSplit linearData(long rows = 3000, long features = 10) {
    return test::linearSplit(rows, features);
}

TrainConfig semiConfig(double epsilon, double share, const std::string& alpha = "auto") {
    TrainConfig c;
    c.algorithm = "semi-dp-sgd";
    c.epsilon = epsilon;
    c.delta = 1e-5;
    c.lambda = 0.0;
    c.seed = 3;
    c.epochs = 3;
    c.batchSize = 64;
    c.clipTheta = 1.0;
    c.lrTheta = 0.2;
    c.extra["public-share"] = realText(share);
    c.extra["public-weight"] = alpha == "auto" ? "-1" : alpha;
    return c;
}

bool sameTheta(const RunResult& a, const RunResult& b) {
    if (a.theta.size() != b.theta.size()) return false;
    for (Eigen::Index k = 0; k < a.theta.size(); ++k) {
        if (a.theta.data()[k] != b.theta.data()[k]) return false;
    }
    return true;
}

/// The trajectory of the run `config` asks for on `data`, with streams fixed by `streamData` (a
/// run's own streams are keyed by its data too, so runs on changed data never share noise).
RunResult runWithStreams(const TrainConfig& config, const DataSplit& data,
                         const DataSplit& streamData) {
    const TrainConfig resolved = prepareRun(findAlgorithm("semi-dp-sgd"), config, data).config();
    LinearSgdPlan plan = planLinearSgd(
        resolved, data.train,
        splitPublicRows(data.train, ownNumber(resolved, "public-share"),
                        static_cast<std::uint64_t>(ownNumber(resolved, "public-seed"))));
    const double alpha = ownNumber(resolved, "public-weight");
    plan.setup.alpha = alpha < 0.0 ? NAN : alpha;
    plan.setup.publicBatch = static_cast<long>(ownNumber(resolved, "public-batch"));
    if (ownChoice(resolved, "warm-start") == "public-least-squares") {
        plan.setup.start = leastSquaresOnRows(data.train, plan.setup.publicRows);
    }
    return test::trainLinearSetup(plan.setup, data, resolved, streamData.train);
}

/// `data` with the targets of `rows` of the training part shifted by 3.
DataSplit shiftTargets(DataSplit data, const std::vector<long>& rows) {
    for (long row : rows) data.train.target(row) += 3.0;
    return data;
}

}  // namespace

TEST_CASE("semi-dp-sgd: public share 0 is dp-sgd-linear bit for bit", "[semi-dp-sgd]") {
    const DataSplit data = linearData();
    TrainConfig semi = semiConfig(1.0, 0.0);
    TrainConfig plain = semi;
    plain.algorithm = "dp-sgd-linear";
    plain.extra.clear();
    const TrainConfig semiResolved = prepareRun(findAlgorithm("semi-dp-sgd"), semi, data).config();
    const TrainConfig plainResolved =
        prepareRun(findAlgorithm("dp-sgd-linear"), plain, data).config();

    // The full runs: same noise level, same accounting, same ε.
    const RunResult semiRun = test::runQuietly(semi, data);
    const RunResult plainRun = test::runQuietly(plain, data);
    REQUIRE(semiRun.status == RunStatus::Completed);
    CHECK(semiRun.privacy.sigmaTheta == plainRun.privacy.sigmaTheta);
    CHECK(semiRun.privacy.epsilonSpent == plainRun.privacy.epsilonSpent);
    CHECK(semiRun.steps == plainRun.steps);

    // The runs' noise streams are keyed by their settings (two algorithms never share noise),
    // so the same trajectory is checked with the same streams: the plans both algorithms make.
    LinearSgdPlan semiPlan =
        planLinearSgd(semiResolved, data.train, splitPublicRows(data.train, 0.0, 0));
    const LinearSgdPlan plainPlan =
        planLinearSgd(plainResolved, data.train, splitPublicRows(data.train, 0.0, 0));
    semiPlan.setup.alpha = NAN;  // automatic, as the run asks: there are no public rows to mix
    semiPlan.setup.publicBatch = 256;
    semiPlan.setup.start = leastSquaresOnRows(data.train, semiPlan.setup.publicRows);
    const RunStreams streams(plainResolved, data.train);
    RandomStream s1 = streams.stream(streams::kSampling), n1 = streams.stream(streams::kNoise),
                 p1 = streams.stream(1);
    RandomStream s2 = streams.stream(streams::kSampling), n2 = streams.stream(streams::kNoise),
                 p2 = streams.stream(1);
    TrainingObserver observer;
    CancelToken cancel;
    const auto noEpsilon = [](long) { return 0.0; };
    const RunResult a =
        runLinearSgd(semiPlan.setup, data, {s1, p1, n1}, noEpsilon, observer, cancel);
    const RunResult b =
        runLinearSgd(plainPlan.setup, data, {s2, p2, n2}, noEpsilon, observer, cancel);
    CHECK(sameTheta(a, b));
    CHECK(a.steps == b.steps);
}

TEST_CASE("semi-dp-sgd: alpha = 1 ignores the public rows and auto alpha uses them",
          "[semi-dp-sgd]") {
    const DataSplit data = linearData();
    const double n = static_cast<double>(data.train.rows());
    const PublicPrivateRows rows = splitPublicRows(data.train, 0.2, 0);
    // Each row is public with chance 0.2: a binomial count, within 4 standard deviations.
    CHECK(std::abs(static_cast<double>(rows.publicRows.size()) - 0.2 * n) <
          4.0 * std::sqrt(0.2 * 0.8 * n));
    const DataSplit changed = shiftTargets(data, rows.publicRows);
    TrainConfig one = semiConfig(1.0, 0.2, "1");
    one.extra["warm-start"] = "none";
    CHECK(sameTheta(runWithStreams(one, data, data), runWithStreams(one, changed, data)));
    const TrainConfig automatic = semiConfig(1.0, 0.2);
    CHECK_FALSE(
        sameTheta(runWithStreams(automatic, data, data), runWithStreams(automatic, changed, data)));
    // Without the warm start too: the public gradients move the iterates.
    TrainConfig half = semiConfig(1.0, 0.2, "0.5");
    half.extra["warm-start"] = "none";
    CHECK_FALSE(sameTheta(runWithStreams(half, data, data), runWithStreams(half, changed, data)));
}

TEST_CASE("semi-dp-sgd: alpha = 0 is non-private SGD on the public rows and spends nothing",
          "[semi-dp-sgd]") {
    const DataSplit data = linearData();
    const PublicPrivateRows rows = splitPublicRows(data.train, 0.2, 0);
    const TrainConfig zero = semiConfig(1.0, 0.2, "0");
    const RunResult run = test::runQuietly(zero, data);
    REQUIRE(run.status == RunStatus::Completed);
    const RunResult same = runWithStreams(zero, data, data);
    CHECK(sameTheta(same, runWithStreams(zero, shiftTargets(data, rows.privateRows), data)));
    CHECK_FALSE(sameTheta(same, runWithStreams(zero, shiftTargets(data, rows.publicRows), data)));
    CHECK(run.privacy.epsilonSpent == 0.0);
    CHECK(run.privacy.accounting.kind == privacy::ReleaseKind::NoRelease);
    // Public rows only: it learns (non-private SGD on 600 rows, d = 10).
    CHECK(run.history.back().excessRisk < 0.05);
}

TEST_CASE("semi-dp-sgd: a public batch of three passes over the public rows steps as one pass",
          "[semi-dp-sgd]") {
    // With α = 0 and no normalisation every step is the mean gradient of the public rows it
    // reads. A batch of exactly one pass and one of exactly three passes (each pass a reshuffle,
    // the second batch read in pieces: more rows than a piece) then take the same full-batch
    // steps, up to the order of their sums.
    const DataSplit data = linearData();
    const long nPublic = static_cast<long>(splitPublicRows(data.train, 0.2, 0).publicRows.size());
    REQUIRE(3 * nPublic > 1024);
    auto run = [&](long publicBatch) {
        TrainConfig c = semiConfig(1.0, 0.2, "0");
        c.extra["warm-start"] = "none";
        c.extra["normalise-public"] = "false";
        c.extra["public-batch"] = std::to_string(publicBatch);
        const RunResult r = test::runQuietly(c, data);
        REQUIRE(r.status == RunStatus::Completed);
        return r;
    };
    const RunResult onePass = run(nPublic), threePasses = run(3 * nPublic);
    const RunResult skewed = run(3 * nPublic - 7);  // not whole passes: other steps
    REQUIRE(onePass.theta.size() == threePasses.theta.size());
    double largest = 0.0, skewedLargest = 0.0;
    for (Eigen::Index k = 0; k < onePass.theta.size(); ++k) {
        largest =
            std::max(largest, std::abs(onePass.theta.data()[k] - threePasses.theta.data()[k]));
        skewedLargest =
            std::max(skewedLargest, std::abs(onePass.theta.data()[k] - skewed.theta.data()[k]));
    }
    CHECK(largest < 1e-12);
    CHECK(skewedLargest > 1e-6);
}

TEST_CASE("semi-dp-sgd: the accountant charges the private rows only", "[semi-dp-sgd]") {
    const DataSplit data = linearData();
    const long n = static_cast<long>(data.train.rows());
    const long nPublic = static_cast<long>(splitPublicRows(data.train, 0.2, 0).publicRows.size());
    const RunResult run = test::runQuietly(semiConfig(1.0, 0.2), data);
    REQUIRE(run.status == RunStatus::Completed);
    const privacy::AccountingInputs& in = run.privacy.accounting;
    CHECK(in.samplingRate == Approx(64.0 / static_cast<double>(n - nPublic)).epsilon(1e-15));
    CHECK(in.steps == 3 * ((n - nPublic + 63) / 64));
    CHECK(run.privacy.sigmaTheta == Approx(in.noiseMultiplier * 1.0 / 64.0).epsilon(1e-12));
    CHECK(privacy::certifiedEpsilon(in).epsilon == run.privacy.epsilonSpent);
    CHECK(run.privacy.epsilonSpent <= 1.0);
    CHECK(run.privacy.epsilonSpent >= 0.98);
    // The statement names what is protected and what is not.
    CHECK_THAT(run.privacy.protectedData, Catch::Contains("each PRIVATE training row only"));
    CHECK_THAT(run.privacy.protectedData, Catch::Contains("get NO protection"));
    CHECK_THAT(run.privacy.protectedData, Catch::Contains("assumed to be public knowledge"));
    CHECK_THAT(run.privacy.protectedData, Catch::Contains("depends on that row alone"));
    CHECK_THAT(run.privacy.protectedData,
               Catch::Contains("automatic weight α is computed from public rows only"));
    CHECK(run.theoryInputs.at("public_rows") == static_cast<double>(nPublic));
    const double alpha = run.theoryInputs.at("alpha_mean");
    CHECK(alpha > 0.0);
    CHECK(alpha < 1.0);
}

TEST_CASE("semi-dp-sgd: public-only is exact least squares on the public rows", "[semi-dp-sgd]") {
    const DataSplit data = linearData();
    const PublicPrivateRows rows = splitPublicRows(data.train, 0.1, 4);
    TrainConfig config = semiConfig(1.0, 0.1);
    config.extra["public-use"] = "public-only";
    config.extra["public-seed"] = "4";
    const RunResult run = test::runQuietly(config, data);
    REQUIRE(run.status == RunStatus::Completed);
    // Normal equations on the public rows (225 rows, 11 coefficients).
    const long d = static_cast<long>(data.train.features());
    Eigen::MatrixXd A(static_cast<Eigen::Index>(rows.publicRows.size()), d + 1);
    Eigen::VectorXd b(A.rows());
    for (Eigen::Index i = 0; i < A.rows(); ++i) {
        const long row = rows.publicRows[static_cast<std::size_t>(i)];
        A.row(i).head(d) = data.train.X.row(row);
        A(i, d) = 1.0;
        b(i) = data.train.target(row);
    }
    const Eigen::VectorXd w = (A.transpose() * A).ldlt().solve(A.transpose() * b);
    for (long k = 0; k <= d; ++k) CHECK(run.theta(0, k) == Approx(w(k)).margin(1e-9));
    CHECK(run.privacy.epsilonSpent == 0.0);
    CHECK_THAT(run.privacy.protectedData, Catch::Contains("not used at all"));
    // The split is the same for the same data, share and seed, and another seed changes it.
    CHECK(splitPublicRows(data.train, 0.1, 4).publicRows == rows.publicRows);
    CHECK(splitPublicRows(data.train, 0.1, 5).publicRows != rows.publicRows);
}

TEST_CASE(
    "semi-dp-sgd: a sweep's runs on the same public rows share one least-squares fit, "
    "other rows get their own",
    "[semi-dp-sgd]") {
    const DataSplit data = linearData();
    const std::vector<long> rowsA = splitPublicRows(data.train, 0.1, 4).publicRows;
    const std::vector<long> rowsB = splitPublicRows(data.train, 0.1, 5).publicRows;
    const std::vector<long> rowsC = splitPublicRows(data.train, 0.2, 4).publicRows;
    const Eigen::VectorXd alone[] = {leastSquaresOnRows(data.train, rowsA),
                                     leastSquaresOnRows(data.train, rowsB),
                                     leastSquaresOnRows(data.train, rowsC)};
    CHECK(alone[0] != alone[1]);
    CHECK(alone[0] != alone[2]);
    // Within a sweep (the data's fingerprint known), kept fits come back for the same rows only,
    // bit for bit, whatever order they are asked in; another data set's never come back.
    const KnownDataFingerprint known(data.train);
    for (int pass = 0; pass < 2; ++pass) {
        CHECK(leastSquaresOnRows(data.train, rowsB) == alone[1]);
        CHECK(leastSquaresOnRows(data.train, rowsA) == alone[0]);
        CHECK(leastSquaresOnRows(data.train, rowsC) == alone[2]);
    }
    const DataSplit other = linearData(3000, 12);
    const KnownDataFingerprint knownOther(other.train);
    const Eigen::VectorXd otherFit = leastSquaresOnRows(other.train, rowsA);
    CHECK(otherFit.size() == 13);
    CHECK(leastSquaresOnRows(other.train, rowsA) == otherFit);
}

TEST_CASE("semi-dp-sgd: a sweep's runs split the rows once per share and seed, as a fresh split",
          "[semi-dp-sgd]") {
    const DataSplit data = linearData();
    const DataSplit other = linearData(3000, 12);
    const std::pair<double, std::uint64_t> settings[] = {{0.1, 4}, {0.1, 5}, {0.2, 4}, {0.0, 4}};
    std::vector<PublicPrivateRows> fresh;
    for (const auto& [share, seed] : settings)
        fresh.push_back(splitPublicRows(data.train, share, seed));
    const PublicPrivateRows otherFresh = splitPublicRows(other.train, 0.1, 4);
    CHECK(fresh[0].publicRows != fresh[1].publicRows);
    CHECK(fresh[0].publicRows != fresh[2].publicRows);
    // Within a sweep (the data's fingerprint known) the kept splits come back for the same
    // share, seed and rows only, in any order.
    const KnownDataFingerprint known(data.train);
    const KnownDataFingerprint knownOther(other.train);
    for (int pass = 0; pass < 2; ++pass) {
        for (int k = 3; k >= 0; --k) {
            const PublicPrivateRows kept =
                splitPublicRows(data.train, settings[k].first, settings[k].second);
            CHECK(kept.publicRows == fresh[static_cast<std::size_t>(k)].publicRows);
            CHECK(kept.privateRows == fresh[static_cast<std::size_t>(k)].privateRows);
        }
        const PublicPrivateRows kept = splitPublicRows(other.train, 0.1, 4);
        CHECK(kept.publicRows == otherFresh.publicRows);
        CHECK(kept.privateRows == otherFresh.privateRows);
    }
}

TEST_CASE("semi-dp-sgd: whether a row is public depends on that row alone", "[semi-dp-sgd]") {
    // The counterexample of the trust audit: drawing the public rows from n let one removed
    // private row turn 25 others public. A row's status now follows from its own values.
    const DataSplit data = linearData();
    const Dataset& train = data.train;
    const PublicPrivateRows all = splitPublicRows(train, 0.05, 0);
    REQUIRE(!all.privateRows.empty());
    // Remove one private row (the first): every other row keeps its status.
    std::vector<long> kept;
    for (long r = 0; r < static_cast<long>(train.rows()); ++r)
        if (r != all.privateRows.front()) kept.push_back(r);
    const Dataset fewer = selectRows(train, kept);
    const PublicPrivateRows after = splitPublicRows(fewer, 0.05, 0);
    long moved = 0;
    for (std::size_t k = 0; k < kept.size(); ++k) {
        const bool wasPublic =
            std::binary_search(all.publicRows.begin(), all.publicRows.end(), kept[k]);
        const bool isPublic = std::binary_search(after.publicRows.begin(), after.publicRows.end(),
                                                 static_cast<long>(k));
        moved += wasPublic != isPublic ? 1 : 0;
    }
    CHECK(moved == 0);
    // Changing one raw row (a huge target) and encoding again — every encoded row moves with
    // the new training mean — moves no other row: the keys come from each row's raw values.
    LinearGaussianOptions options;
    options.rows = 800;
    options.features = 10;
    TabularData raw = generateLinearGaussian(options);
    const DataSplit before = splitAndEncode(raw);
    raw.target[0] = 1e6;
    const DataSplit afterChange = splitAndEncode(raw);
    REQUIRE(before.train.rowKeys.size() == static_cast<std::size_t>(before.train.rows()));
    long keysMoved = 0;
    for (std::size_t r = 0; r < before.train.rowKeys.size(); ++r)
        keysMoved += before.train.rowKeys[r] != afterChange.train.rowKeys[r] ? 1 : 0;
    CHECK(keysMoved <= 1);  // the changed row itself, when it is a training row
    const PublicPrivateRows a = splitPublicRows(before.train, 0.05, 0);
    const PublicPrivateRows b = splitPublicRows(afterChange.train, 0.05, 0);
    std::vector<long> differ;
    std::set_symmetric_difference(a.publicRows.begin(), a.publicRows.end(), b.publicRows.begin(),
                                  b.publicRows.end(), std::back_inserter(differ));
    CHECK(differ.size() <= 1);
}

TEST_CASE("semi-dp-sgd: the per-run weight rule trusts the reused public rows less",
          "[semi-dp-sgd]") {
    const DataSplit data = linearData();
    TrainConfig perStep = semiConfig(1.0, 0.05);
    perStep.extra["weight-rule"] = "per-step";
    TrainConfig perRun = perStep;
    perRun.extra["weight-rule"] = "per-run";
    const RunResult a = test::runQuietly(perStep, data);
    const RunResult b = test::runQuietly(perRun, data);
    REQUIRE(a.status == RunStatus::Completed);
    REQUIRE(b.status == RunStatus::Completed);
    // Per step: V²/K_pub against dσ² and V²/K_priv; per run: V²/n_pub against dσ²/T and V²/n_priv.
    CHECK(b.theoryInputs.at("alpha_mean") > a.theoryInputs.at("alpha_mean"));
    CHECK(b.privacy.epsilonSpent == a.privacy.epsilonSpent);  // the rule is public: same ε
}

TEST_CASE("semi-dp-sgd: its theory rate depends on n_pub, n and d", "[semi-dp-sgd]") {
    RateInputs in;
    in.algorithm = "semi-dp-sgd";
    in.settings = {{"public-share", "0.2"}, {"public-use", "weighted"}};
    in.n = 10000;
    in.d = 200;
    in.delta = 1e-8;
    const std::optional<RateShape> rate = theoryRate(in);
    REQUIRE(rate.has_value());
    const double privateTerm = [&](double eps) {
        return std::sqrt(200.0 * std::log(1e8)) / (eps * 10000.0) + 1.0 / std::sqrt(10000.0);
    }(1.0);
    CHECK(rate->f(1.0) == Approx(std::min(1.0 / std::sqrt(2000.0), privateTerm)));
    CHECK(rate->f(0.01) ==
          Approx(1.0 / std::sqrt(2000.0)));  // strong privacy: the public rows' rate
    in.settings["public-share"] = "0";
    CHECK(theoryRate(in)->f(1.0) == Approx(privateTerm));
    in.settings = {{"public-share", "0.2"}, {"public-use", "public-only"}};
    CHECK(theoryRate(in)->f(5.0) == Approx(1.0 / std::sqrt(2000.0)));
    in.algorithm = "dp-sgd-linear";
    in.settings.clear();
    CHECK(theoryRate(in)->f(1.0) == Approx(privateTerm));
}

}  // namespace core_semi_dp_sgd_test
