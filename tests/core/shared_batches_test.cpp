// Batch sharing by seed: runs that draw one shared Poisson sample train together (one pass over
// each batch for all of them) with results bit for bit those of each run alone, and the ledger
// charges them as one subsampled Gaussian mechanism, checked against an independent numerical
// integration of the joint mechanism.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

#include "core/algorithms/registry.h"
#include "core/algorithms/saddle/shared_binary_rows.h"
#include "core/config/parameters.h"
#include "core/data/catalog.h"
#include "core/data/preprocessing.h"
#include "core/engine/shared_batch_products.h"
#include "core/privacy/accounting_json.h"
#include "core/privacy/dataset_ledger.h"
#include "core/privacy/ledger_store.h"
#include "core/sweep/prepared_dataset.h"
#include "core/sweep/sweep_runner.h"
#include "core/sweep/sweep_spec.h"
#include "core/util/error.h"
#include "core/util/instruction_set.h"
#include "core/util/json_value.h"
#include "core/util/json_writer.h"
#include "test_data.h"

namespace core_shared_batches_test {

using namespace pfa;
using Catch::Matchers::WithinRel;

namespace {

TrainConfig sharing(const std::string& algorithm, double epsilon, double lambda) {
    TrainConfig config = test::quickConfig(algorithm, epsilon, lambda);
    config.batchSharing = BatchSharing::BySeed;
    config.evaluateEvery = 2;
    return config;
}

/// Same model, W, per-epoch history, final metrics and ε, bit for bit.
void requireIdentical(const RunResult& a, const RunResult& b) {
    REQUIRE(a.status == b.status);
    REQUIRE(a.steps == b.steps);
    REQUIRE(a.theta.size() == b.theta.size());
    for (Eigen::Index i = 0; i < a.theta.size(); ++i)
        REQUIRE(a.theta.data()[i] == b.theta.data()[i]);
    REQUIRE(a.W.size() == b.W.size());
    for (Eigen::Index i = 0; i < a.W.size(); ++i) REQUIRE(a.W.data()[i] == b.W.data()[i]);
    REQUIRE(a.history.size() == b.history.size());
    for (std::size_t e = 0; e < a.history.size(); ++e) {
        REQUIRE(a.history[e].step == b.history[e].step);
        REQUIRE(a.history[e].testError == b.history[e].testError);
        REQUIRE(a.history[e].violation == b.history[e].violation);
        REQUIRE(a.history[e].clipFraction == b.history[e].clipFraction);
        REQUIRE(a.history[e].epsilonSpent == b.history[e].epsilonSpent);
    }
    REQUIRE(a.test.error == b.test.error);
    REQUIRE(a.privacy.epsilonSpent == b.privacy.epsilonSpent);
    REQUIRE(a.privacy.accounting.sharedBatches == b.privacy.accounting.sharedBatches);
}

std::vector<RunResult> together(const std::vector<TrainConfig>& configs, const DataSplit& data,
                                std::vector<TrainingObserver>& observers) {
    std::vector<TrainingObserver*> pointers;
    for (TrainingObserver& observer : observers) pointers.push_back(&observer);
    CancelToken cancel;
    return runAlgorithmTogether(configs, data, pointers, cancel);
}

/// Simpson's rule for E[f(x)], x ~ N(0, z²), on [−14z, 14z + 1] (the shifted mean included):
/// the points and their weights.
struct GaussianQuadrature {
    std::vector<double> x, weight;
};
GaussianQuadrature gaussianQuadrature(double z) {
    const int points = 801;
    GaussianQuadrature out;
    const double lo = -14 * z, hi = 14 * z + 1, h = (hi - lo) / (points - 1);
    for (int k = 0; k < points; ++k) {
        const double x = lo + h * k;
        out.x.push_back(x);
        const double simpson = (k == 0 || k == points - 1) ? 1 : (k % 2 ? 4 : 2);
        out.weight.push_back(simpson * h / 3 * std::exp(-x * x / (2 * z * z)) /
                             (std::sqrt(2 * M_PI) * z));
    }
    return out;
}

/// ε(α) of one release of the Poisson-subsampled Gaussian whose neighbour adds a row that moves
/// release r by one unit (noise std z_r), by direct numerical integration over the release
/// space: A_α = E_Q[(P/Q)^α] with P/Q(x) = 1 − q + q·exp(Σ_r (2x_r − 1)/(2z_r²)).
/// Independent of the accountant: no series, no reduction to one dimension.
double jointRdp(double q, const std::vector<double>& z, double alpha) {
    const GaussianQuadrature first = gaussianQuadrature(z[0]);
    double total = 0;
    if (z.size() == 1) {
        for (std::size_t i = 0; i < first.x.size(); ++i) {
            const double ratio = 1 - q + q * std::exp((2 * first.x[i] - 1) / (2 * z[0] * z[0]));
            total += first.weight[i] * std::pow(ratio, alpha);
        }
    } else {
        const GaussianQuadrature second = gaussianQuadrature(z[1]);
        for (std::size_t i = 0; i < first.x.size(); ++i) {
            const double a = (2 * first.x[i] - 1) / (2 * z[0] * z[0]);
            for (std::size_t j = 0; j < second.x.size(); ++j) {
                const double b = (2 * second.x[j] - 1) / (2 * z[1] * z[1]);
                total += first.weight[i] * second.weight[j] *
                         std::pow(1 - q + q * std::exp(a + b), alpha);
            }
        }
    }
    return std::log(total) / (alpha - 1);
}

/// Both Rényi divergences of order α of two releases (noise std z1, z2) on one NESTED sample
/// whose neighbour adds a row: the row is in both batches with probability q1, in run 2's alone
/// with q2 − q1 (q1 ≤ q2), else in none. Returns max(D_α(P‖Q), D_α(Q‖P)) by direct 2-D
/// integration over the release space, P/Q(x) = 1 − q2 + q1·e^{a+b} + (q2 − q1)·e^{b}.
double nestedJointRdp(double q1, double q2, double z1, double z2, double alpha) {
    const GaussianQuadrature first = gaussianQuadrature(z1), second = gaussianQuadrature(z2);
    double forward = 0, backward = 0;
    for (std::size_t i = 0; i < first.x.size(); ++i) {
        const double a = (2 * first.x[i] - 1) / (2 * z1 * z1);
        for (std::size_t j = 0; j < second.x.size(); ++j) {
            const double b = (2 * second.x[j] - 1) / (2 * z2 * z2);
            const double ratio = 1 - q2 + q1 * std::exp(a + b) + (q2 - q1) * std::exp(b);
            const double weight = first.weight[i] * second.weight[j];
            forward += weight * std::pow(ratio, alpha);
            backward += weight * std::pow(ratio, 1 - alpha);
        }
    }
    return std::max(std::log(forward), std::log(backward)) / (alpha - 1);
}

privacy::AccountingInputs sharedRun(long steps, double z, const std::string& sample) {
    privacy::AccountingInputs in;
    in.kind = privacy::ReleaseKind::PoissonSubsampled;
    in.samplingRate = 0.05;
    in.noiseMultiplier = z;
    in.steps = steps;
    in.delta = 1e-5;
    in.sharedBatches = sample;
    return in;
}

}  // namespace

TEST_CASE("Runs trained together on shared batches equal each run trained alone, bit for bit",
          "[shared-batches][trainer]") {
    const DataSplit data = test::syntheticSplit(3000);
    for (const std::string algorithm : {"dp-fermi", "dp-sgd"}) {
        const bool fair = algorithm == "dp-fermi";
        std::vector<TrainConfig> configs = {sharing(algorithm, 0.5, 0.0),
                                            sharing(algorithm, 1.0, fair ? 2.0 : 0.0),
                                            sharing(algorithm, 4.0, fair ? 8.0 : 0.0)};
        if (fair) configs[2].wStream = WStream::ClippedGradient;
        configs[1].lossClipShare = fair ? 0.5 : 0.0;
        std::vector<TrainingObserver> observers(configs.size());
        const std::vector<RunResult> trained = together(configs, data, observers);
        REQUIRE(trained.size() == configs.size());
        for (std::size_t i = 0; i < configs.size(); ++i) {
            INFO(algorithm << " run " << i);
            const RunResult alone = test::runQuietly(configs[i], data);
            requireIdentical(trained[i], alone);
            CHECK(trained[i].status == RunStatus::Completed);
            // One sample for all: named alike in every record, and in the statement.
            CHECK(!trained[i].privacy.accounting.sharedBatches.empty());
            CHECK(trained[i].privacy.accounting.sharedBatches ==
                  trained[0].privacy.accounting.sharedBatches);
            CHECK(trained[i].privacy.statement.find("Batches: shared") != std::string::npos);
        }
    }
}

TEST_CASE("A run that stops early leaves the others of its group unchanged",
          "[shared-batches][trainer]") {
    const DataSplit data = test::syntheticSplit(3000);
    struct StopAfterThreeEpochs : TrainingObserver {
        int epochs = 0;
        bool onEpochEnd(const EpochMetrics&) override { return ++epochs == 3; }
    };
    std::vector<TrainConfig> configs = {sharing("dp-fermi", 1.0, 1.0),
                                        sharing("dp-fermi", 2.0, 4.0)};
    configs[0].evaluateEvery = configs[1].evaluateEvery = 1;
    std::vector<TrainingObserver> observers(2);
    StopAfterThreeEpochs stopper;
    std::vector<TrainingObserver*> pointers = {&stopper, &observers[1]};
    CancelToken cancel;
    const std::vector<RunResult> trained = runAlgorithmTogether(configs, data, pointers, cancel);
    CHECK(trained[0].status == RunStatus::Cancelled);
    CHECK(trained[0].history.size() == 3);
    requireIdentical(trained[1], test::runQuietly(configs[1], data));
    StopAfterThreeEpochs alone;
    CancelToken never;
    requireIdentical(trained[0], runAlgorithm(configs[0], data, alone, never));
}

TEST_CASE(
    "Shared batches: one sample per seed and sampler, never across seeds, and own is unchanged",
    "[shared-batches]") {
    const DataSplit data = test::syntheticSplit(2000);
    TrainConfig a = sharing("dp-fermi", 1.0, 1.0);
    a.epochs = 2;
    TrainConfig b = a;
    b.epsilon = 3;
    b.lambda = 0;
    TrainConfig otherSeed = a;
    otherSeed.seed = 1;
    TrainConfig own = a;
    own.batchSharing = BatchSharing::Own;
    const auto sample = [&](const TrainConfig& c) {
        return test::runQuietly(c, data).privacy.accounting.sharedBatches;
    };
    // Named by public settings only: never by the rows' fingerprint, which would tell
    // neighbouring data sets apart.
    CHECK(sample(a) ==
          "seed 0;sampling=poisson;batch=256;epochs=2;rows=" + std::to_string(data.train.rows()));
    DataSplit neighbour = data;
    neighbour.train.X(0, 0) += 1.0;
    CHECK(test::runQuietly(a, neighbour).privacy.accounting.sharedBatches == sample(a));
    CHECK(sample(a) == sample(b));
    CHECK(sample(a) != sample(otherSeed));
    CHECK(sample(own).empty());
    // Own batches keep the run keys (and so the noise) of every earlier run.
    CHECK(settingsKey(own).find("batch-sharing") == std::string::npos);
    CHECK(settingsKey(a).find("batch-sharing=by-seed") != std::string::npos);
    // An algorithm that does not declare batch sharing keeps its own sample.
    TrainConfig postprocessing = a;
    postprocessing.algorithm = "dp-postprocessing";
    postprocessing.lambda = 0;
    postprocessing.fairness = FairnessNotion::EqualizedOdds;
    postprocessing.scope = ProtectionScope::SensitiveOnly;
    const Algorithm& postprocessor = findAlgorithm("dp-postprocessing");
    REQUIRE(!readsParameter(postprocessor, "batch-sharing"));
    CHECK(prepareRun(postprocessor, postprocessing, data).config().batchSharing ==
          BatchSharing::Own);
}

TEST_CASE("Shared batches are refused where no joint analysis applies", "[shared-batches]") {
    const DataSplit data = test::syntheticSplit(2000);
    const Algorithm& dpFermi = findAlgorithm("dp-fermi");
    TrainConfig shuffled = sharing("dp-fermi", 1.0, 1.0);
    shuffled.sampling = Sampling::Shuffle;
    CHECK_THROWS_WITH(prepareRun(dpFermi, shuffled, data),
                      Catch::Contains("needs Poisson sampling"));
    TrainConfig secure = sharing("dp-fermi", 1.0, 1.0);
    secure.secureNoise = true;
    CHECK_THROWS_WITH(prepareRun(dpFermi, secure, data), Catch::Contains("secure noise"));
}

TEST_CASE("The joint mechanism of runs sharing a sample is the subsampled Gaussian at z_g",
          "[shared-batches][privacy]") {
    // Two releases on one Poisson sample, whitened, against one release at
    // z_g = (1/z1² + 1/z2²)^(-1/2): the same ε(α) by 2-D integration, and what the ledger uses.
    const double q = 0.05;
    const privacy::OrderGrid grid = privacy::OrderGrid::standard();
    for (const auto& [z1, z2] : {std::pair{1.5, 2.5}, {0.9, 4.0}}) {
        const double zg = 1 / std::sqrt(1 / (z1 * z1) + 1 / (z2 * z2));
        privacy::AccountingInputs one = sharedRun(1, zg, "");
        const privacy::RdpCurve accountant = privacy::releaseCurve(grid, one);
        const privacy::RdpCurve ledger =
            privacy::sharedBatchesCurve(grid, {sharedRun(1, z1, "s"), sharedRun(1, z2, "s")});
        for (const double alpha : {2.0, 4.0, 8.0}) {
            INFO("z1 = " << z1 << ", z2 = " << z2 << ", alpha = " << alpha);
            const double joint = jointRdp(q, {z1, z2}, alpha);
            CHECK_THAT(joint, WithinRel(jointRdp(q, {zg}, alpha), 1e-6));
            std::size_t k = 0;
            while (grid.orders()[k] != alpha) ++k;
            CHECK_THAT(accountant[k], WithinRel(joint, 1e-4));
            CHECK(ledger[k] == accountant[k]);
            // A shared sample is not two independent ones: sharing costs more than composing.
            const double independent = jointRdp(q, {z1}, alpha) + jointRdp(q, {z2}, alpha);
            CHECK(joint > independent);
        }
    }
}

TEST_CASE("The ledger charges runs sharing a sample as one mechanism, by segments of length",
          "[shared-batches][ledger][privacy]") {
    privacy::DatasetLedger ledger("synthetic", "synthetic");
    ledger.add(test::ledgerEntryOf("a", sharedRun(300, 1.2, "seed 0, batches x")));
    ledger.add(test::ledgerEntryOf("b", sharedRun(100, 2.0, "seed 0, batches x")));
    ledger.add(test::ledgerEntryOf("c", sharedRun(300, 1.2, "seed 1, batches y")));
    const privacy::LedgerTotals totals = ledger.totals();
    CHECK(totals.sharedSamples == 2);
    CHECK(totals.runsSharingSamples == 3);
    // By hand: 100 steps at z_g(1.2, 2.0) and 200 steps at 1.2 for sample x, or the two runs
    // composed independently where that is larger (the name of a sample does not say which
    // rows drew it); 300 at 1.2 for y.
    const privacy::OrderGrid grid = privacy::OrderGrid::standard();
    const double zg = 1 / std::sqrt(1 / 1.44 + 1 / 4.0);
    const auto curveOf = [&](long steps, double z) {
        return privacy::runCurve(grid, sharedRun(steps, z, ""));
    };
    const privacy::RdpCurve a = curveOf(100, zg), b = curveOf(200, 1.2), c = curveOf(300, 1.2),
                            d = curveOf(100, 2.0);
    privacy::RdpCurve expected(grid.size(), 0.0);
    for (std::size_t k = 0; k < expected.size(); ++k)
        expected[k] = std::max(a[k] + b[k], c[k] + d[k]) + c[k];
    CHECK_THAT(totals.epsilon,
               WithinRel(privacy::epsilonFromRdp(grid, expected, 1e-5).epsilon, 1e-12));
    // Each run's own ε is what it was; the joint charge is above independent composition.
    privacy::DatasetLedger independent("synthetic", "synthetic");
    for (const auto& entry : ledger.entries()) {
        privacy::LedgerEntry copy = entry;
        copy.accounting.sharedBatches.clear();
        independent.add(copy);
    }
    CHECK(totals.epsilon > independent.totals().epsilon);
    CHECK(privacy::describeTotals(totals).find("shared batches") != std::string::npos);
    // Simple addition too counts each shared sample once, at its joint ε (at the Σδ of its
    // runs): the runs' own ε do not add up to a bound, since they shared randomness.
    const auto epsilonOf = [&](const privacy::RdpCurve& curve, double delta) {
        return privacy::epsilonFromRdp(grid, curve, delta).epsilon;
    };
    privacy::RdpCurve x(grid.size()), y(grid.size());
    for (std::size_t k = 0; k < x.size(); ++k) {
        x[k] = std::max(a[k] + b[k], c[k] + d[k]);
        y[k] = c[k];
    }
    const auto& entries = ledger.entries();
    CHECK_THAT(totals.naiveEpsilon, WithinRel(epsilonOf(x, entries[0].delta + entries[1].delta) +
                                                  epsilonOf(y, entries[2].delta),
                                              1e-12));
    CHECK(totals.naiveEpsilon != entries[0].epsilon + entries[1].epsilon + entries[2].epsilon);
    CHECK(totals.naiveDelta == entries[0].delta + entries[1].delta + entries[2].delta);
    // A run that releases nothing adds nothing; a sample shared with a release of another
    // kind has no joint analysis: +∞, never less.
    privacy::AccountingInputs nothing = sharedRun(50, 1.0, "seed 0, batches x");
    nothing.kind = privacy::ReleaseKind::NoRelease;
    ledger.add(test::ledgerEntryOf("d", nothing));
    CHECK(ledger.totals().epsilon == totals.epsilon);
    privacy::AccountingInputs odd = sharedRun(50, 1.0, "seed 0, batches x");
    odd.kind = privacy::ReleaseKind::LinearAmplification;
    ledger.add(test::ledgerEntryOf("e", odd));
    CHECK(std::isinf(ledger.totals().epsilon));
}

TEST_CASE("Runs on a nested sample are charged at the highest rate, which bounds their mechanism",
          "[shared-batches][privacy]") {
    // Runs at different rates on one nested sample (shared-sample nested): the differing row is
    // in the higher-rate batch with probability q2 and in the lower-rate one only with it. The
    // joint mechanism, integrated directly, must stay below the ledger's charge (the subsampled
    // Gaussian at q2 and z_g) and above each run alone; at equal rates the two coincide.
    const privacy::OrderGrid grid = privacy::OrderGrid::standard();
    const auto nestedRun = [](long steps, double q, double z) {
        privacy::AccountingInputs in = sharedRun(steps, z, "seed 0;nested");
        in.samplingRate = q;
        in.nestedSample = true;
        return in;
    };
    for (const auto& [q1, z1, z2] : {std::tuple{0.04, 1.5, 2.5}, {0.02, 0.9, 4.0}}) {
        const double q2 = 0.05;
        const privacy::RdpCurve ledger =
            privacy::sharedBatchesCurve(grid, {nestedRun(1, q1, z1), nestedRun(1, q2, z2)});
        const double zg = 1 / std::sqrt(1 / (z1 * z1) + 1 / (z2 * z2));
        const privacy::RdpCurve atHighest = privacy::releaseCurve(grid, nestedRun(1, q2, zg));
        for (const double alpha : {2.0, 4.0, 8.0}) {
            INFO("q1 = " << q1 << ", z1 = " << z1 << ", z2 = " << z2 << ", alpha = " << alpha);
            std::size_t k = 0;
            while (grid.orders()[k] != alpha) ++k;
            CHECK(ledger[k] == atHighest[k]);
            const double joint = nestedJointRdp(q1, q2, z1, z2, alpha);
            CHECK(joint <= ledger[k] * (1 + 1e-4));
            CHECK(joint > jointRdp(q2, {z2}, alpha));
            CHECK(joint > jointRdp(q1, {z1}, alpha));
            // Equal rates: the shared sample's own mechanism.
            CHECK_THAT(nestedJointRdp(q2, q2, z1, z2, alpha),
                       WithinRel(jointRdp(q2, {z1, z2}, alpha), 1e-6));
        }
    }
    // By segments of length, each at the highest rate among the runs still training.
    const privacy::RdpCurve segments =
        privacy::sharedBatchesCurve(grid, {nestedRun(300, 0.02, 1.2), nestedRun(100, 0.05, 2.0)});
    const double zg = 1 / std::sqrt(1 / 1.44 + 1 / 4.0);
    const privacy::RdpCurve first = privacy::runCurve(grid, nestedRun(100, 0.05, zg)),
                            rest = privacy::runCurve(grid, nestedRun(200, 0.02, 1.2));
    for (std::size_t k = 0; k < segments.size(); ++k)
        CHECK_THAT(segments[k], WithinRel(first[k] + rest[k], 1e-12));
    // Without the nested flag different rates have no joint analysis, nor has a nested sample
    // under replace-one: +∞, never less.
    privacy::AccountingInputs plain = nestedRun(100, 0.02, 1.2);
    plain.nestedSample = false;
    privacy::AccountingInputs other = nestedRun(100, 0.05, 1.2);
    other.nestedSample = false;
    CHECK(std::isinf(privacy::sharedBatchesCurve(grid, {plain, other})[0]));
    privacy::AccountingInputs replace = nestedRun(100, 0.02, 1.2);
    replace.kind = privacy::ReleaseKind::PoissonReplace;
    replace.adjacency = privacy::Adjacency::Replace;
    privacy::AccountingInputs replace2 = replace;
    replace2.samplingRate = 0.05;
    CHECK(std::isinf(privacy::sharedBatchesCurve(grid, {replace, replace2})[0]));
    // The flag survives the record's JSON (and is absent otherwise).
    JsonWriter json;
    privacy::writeAccountingJson(json, nestedRun(5, 0.02, 1.0));
    CHECK(privacy::accountingFromJson(parseJson(json.text())).nestedSample);
    JsonWriter plainJson;
    privacy::writeAccountingJson(plainJson, plain);
    CHECK(plainJson.text().find("shared_sample_nested") == std::string::npos);
    CHECK(!privacy::accountingFromJson(parseJson(plainJson.text())).nestedSample);
}

TEST_CASE("The shared sample survives the record's accounting JSON", "[shared-batches]") {
    const privacy::AccountingInputs in = sharedRun(12, 1.5, "seed 3, batches 0123456789abcdef");
    JsonWriter json;
    privacy::writeAccountingJson(json, in);
    const privacy::AccountingInputs back = privacy::accountingFromJson(parseJson(json.text()));
    CHECK(back.sharedBatches == in.sharedBatches);
    privacy::AccountingInputs own = in;
    own.sharedBatches.clear();
    JsonWriter ownJson;
    privacy::writeAccountingJson(ownJson, own);
    CHECK(ownJson.text().find("shared_batches") == std::string::npos);
}

TEST_CASE("A sweep with shared batches records what each run gives alone",
          "[shared-batches][sweep]") {
    const PreparedDatasetPtr data = test::preparedSynthetic(2000);
    SweepSpec spec;
    spec.datasets = {data->key};
    spec.epsilons = {0.5, 2.0, INFINITY};
    spec.lambdas = {0, 2};
    spec.seeds = {0, 1};
    spec.base.epochs = 6;
    spec.base.batchSharing = BatchSharing::BySeed;
    for (const int threads : {1, 2}) {
        SweepOptions options;
        options.threads = threads;
        options.resume = false;
        CancelToken never;
        const SweepOutcome outcome = runSweep(
            spec, [&](const std::string&) { return data; }, options, never);
        REQUIRE(outcome.results.size() == 12);
        for (std::size_t i = 0; i < outcome.results.size(); ++i) {
            INFO("threads " << threads << ", run " << outcome.runs[i].key);
            requireIdentical(outcome.results[i],
                             test::runQuietly(outcome.runs[i].config, data->split));
            // Non-private runs have nothing to share (and nothing charged).
            CHECK(outcome.results[i].privacy.accounting.sharedBatches.empty() ==
                  !outcome.runs[i].config.isPrivate());
        }
    }
}

namespace {

/// 70 rows of 13 columns: normal draws, or one-hot like (a numeric column, two categorical
/// columns of five levels and the bias: 4 of 13 nonzero).
DesignMatrix productsDesign(bool oneHot) {
    std::mt19937_64 random(7);
    std::normal_distribution<double> normal;
    RowMatrix X(70, 12);
    for (Eigen::Index i = 0; i < X.size(); ++i) X.data()[i] = normal(random);
    if (oneHot) {
        X.rightCols(11).setZero();
        for (Eigen::Index i = 0; i < X.rows(); ++i) {
            X(i, 1 + (i * 7) % 5) = 1.0;
            X(i, 6 + (i * 3) % 5) = 1.0;
            if (i % 9 == 0) X(i, 11) = 2.5;  // a rarely set column
        }
    }
    return makeDesignMatrix(X, 0.0);
}

/// The scores and gradient sums of `runs` runs from SharedBatchProducts checked against the plain
/// sums, one multiplication and one addition at a time in feature and batch order; returned
/// for comparisons between instruction sets and row layouts.
void checkPlainSums(const DesignMatrix& design, std::vector<RowMatrix>& scores,
                    std::vector<RowMatrix>& gradients, int runs = 5) {
    std::mt19937_64 random(8);
    std::normal_distribution<double> normal;
    std::vector<RowMatrix> thetas(static_cast<std::size_t>(runs), RowMatrix(1, 13));
    for (RowMatrix& theta : thetas)
        for (Eigen::Index j = 0; j < 13; ++j) theta(0, j) = normal(random);
    // 45 rows of a batch (two chunks, the second short), in a scattered order.
    std::vector<long> batch;
    for (long i = 0; i < 45; ++i) batch.push_back((i * 37) % 70);
    std::vector<std::vector<double>> coefficients(static_cast<std::size_t>(runs),
                                                  std::vector<double>(45));
    for (auto& run : coefficients)
        for (double& c : run) c = normal(random);

    const auto compute = [&](std::vector<RowMatrix>& scores, std::vector<RowMatrix>& gradients) {
        SharedBatchProducts products(design, runs);
        std::vector<const RowMatrix*> models;
        std::vector<RowMatrix*> out;
        scores.assign(static_cast<std::size_t>(runs), RowMatrix(70, 1));
        for (int r = 0; r < runs; ++r) {
            models.push_back(&thetas[r]);
            out.push_back(&scores[r]);
        }
        products.scoreAllRows(design, models, out);
        products.begin(runs);
        for (int r = 0; r < runs; ++r) products.setParameters(r, thetas[r]);
        for (long c0 = 0; c0 < 45; c0 += SharedBatchProducts::kChunkRows) {
            const long count = std::min(SharedBatchProducts::kChunkRows, 45 - c0);
            products.forward(batch, 45, c0, count);
            for (long k = 0; k < count; ++k) {
                for (int r = 0; r < runs; ++r) {
                    // The chunk's scores are the rows' scores.
                    REQUIRE(products.score(k, r) == scores[r](batch[c0 + k], 0));
                    products.setCoefficient(k, r, coefficients[r][c0 + k]);
                }
            }
            products.backward();
        }
        gradients.assign(static_cast<std::size_t>(runs), RowMatrix(1, 13));
        for (int r = 0; r < runs; ++r) products.getGradient(r, gradients[r]);
    };
    compute(scores, gradients);
    // The plain sums, one multiplication and one addition at a time, in order.
    for (int r = 0; r < runs; ++r) {
        for (long i = 0; i < 70; ++i) {
            double z = 0.0;
            for (long j = 0; j < 13; ++j) {
                const double product = design.X()(i, j) * thetas[r](0, j);
                z = z + product;
            }
            REQUIRE(scores[r](i, 0) == z);
        }
        for (long j = 0; j < 13; ++j) {
            double g = 0.0;
            for (long k = 0; k < 45; ++k) {
                const double product = design.X()(batch[k], j) * coefficients[r][k];
                g = g + product;
            }
            REQUIRE(gradients[r](0, j) == g);
        }
    }
}

}  // namespace

TEST_CASE(
    "Shared products: every lane is the plain sum in feature and batch order, on any "
    "instructions, over whole rows or one-hot rows' nonzeros",
    "[shared-batches][sparse]") {
    for (const bool oneHot : {false, true}) {
        INFO((oneHot ? "one-hot rows" : "dense rows"));
        const DesignMatrix design = productsDesign(oneHot);
        REQUIRE(design.sparse.empty() == !oneHot);  // one-hot: 4 or 5 of 13 entries nonzero
        // One to four runs put rows or features in the lanes over whole rows (kFewColumns),
        // five to nine the runs: every count gives the plain sums.
        for (int runs = 1; runs <= 9; ++runs) {
            INFO(runs << " runs");
            std::vector<RowMatrix> scores, gradients;
            checkPlainSums(design, scores, gradients, runs);
            // The same bits with the baseline instructions as with AVX2, and over the whole rows.
            INFO("AVX2 in use: " << avx2Enabled());
            for (const bool baseline : {false, true}) {
                for (const bool dense : {false, true}) {
                    useBaselineInstructionsOnly(baseline);
                    DesignMatrix::useDenseRowsOnly(dense);
                    std::vector<RowMatrix> again, againGradients;
                    checkPlainSums(design, again, againGradients, runs);
                    DesignMatrix::useDenseRowsOnly(false);
                    useBaselineInstructionsOnly(false);
                    for (int r = 0; r < runs; ++r) {
                        REQUIRE(again[r] == scores[r]);
                        REQUIRE(againGradients[r] == gradients[r]);
                    }
                }
            }
        }
    }
}

namespace {

/// `configs` trained together on `data` over the rows' nonzero entries, then over the whole rows.
std::pair<std::vector<RunResult>, std::vector<RunResult>> onNonzerosAndWholeRows(
    const std::vector<TrainConfig>& configs, const DataSplit& data) {
    std::vector<TrainingObserver> observers(configs.size());
    std::vector<RunResult> sparse = together(configs, data, observers);
    DesignMatrix::useDenseRowsOnly(true);
    std::vector<RunResult> dense = together(configs, data, observers);
    DesignMatrix::useDenseRowsOnly(false);
    return {std::move(sparse), std::move(dense)};
}

/// The synthetic data with three numeric features and three one-hot encoded categorical
/// columns of eight levels each (levels drawn from the rows' own features, so they carry
/// signal): 7 of 28 design entries per row are nonzero, as in Adult's one-hot encoding.
DataSplit oneHotSplit() {
    DataSplit data = test::syntheticSplit(3000, 3);
    for (Dataset* part : {&data.train, &data.test}) {
        RowMatrix X = RowMatrix::Zero(part->rows(), 3 + 3 * 8);
        X.leftCols(3) = part->X;
        for (Eigen::Index i = 0; i < part->rows(); ++i) {
            for (int c = 0; c < 3; ++c) {
                const double v = part->X(i, c);
                const int level = std::clamp(static_cast<int>(std::floor(2.0 * v + 4.0)), 0, 7);
                X(i, 3 + 8 * c + level) = 1.0;
            }
        }
        for (int c = 0; c < 3; ++c)
            for (int level = 0; level < 8; ++level)
                part->featureNames.push_back("c" + std::to_string(c) + "=" + std::to_string(level));
        part->X = std::move(X);
    }
    return data;
}

}  // namespace

TEST_CASE("Runs trained together on one-hot data give the same bits from the nonzeros alone",
          "[shared-batches][trainer][sparse]") {
    const DataSplit data = oneHotSplit();
    REQUIRE(!makeDesignMatrix(data.train.X, 0.0).sparse.empty());
    std::vector<TrainConfig> configs = {sharing("dp-fermi", 1.0, 2.0),
                                        sharing("dp-fermi", 4.0, 8.0),
                                        sharing("dp-fermi", 0.5, 0.0)};
    configs[1].wStream = WStream::ClippedGradient;
    configs[1].lossClipShare = 0.5;
    const auto [sparse, dense] = onNonzerosAndWholeRows(configs, data);
    for (std::size_t i = 0; i < configs.size(); ++i) {
        INFO("run " << i);
        CHECK(sparse[i].status == RunStatus::Completed);
        CHECK(sparse[i].test.error < 0.45);  // learnt something
        requireIdentical(sparse[i], dense[i]);
    }
}

TEST_CASE("A run with its own batches on one-hot data learns the same from the nonzeros",
          "[trainer][sparse]") {
    const DataSplit data = oneHotSplit();
    std::vector<TrainConfig> configs = {
        test::quickConfig("dp-fermi", 1.0, 2.0), test::quickConfig("dp-fermi", 2.0, 4.0),
        test::quickConfig("dp-sgd", 1.0, 0.0), test::quickConfig("fermi", INFINITY, 2.0)};
    configs[1].wStream = WStream::ClippedGradient;
    configs[1].fairness = FairnessNotion::EqualizedOdds;
    for (const TrainConfig& config : configs) {
        INFO(config.algorithm << " at lambda " << config.lambda);
        REQUIRE(config.batchSharing == BatchSharing::Own);
        const RunResult sparse = test::runQuietly(config, data);
        DesignMatrix::useDenseRowsOnly(true);
        const RunResult dense = test::runQuietly(config, data);
        DesignMatrix::useDenseRowsOnly(false);
        CHECK(sparse.test.error < 0.45);
        // Scores are summed in feature order over the nonzeros, where the dense rows take
        // Eigen's dot product (its own order): the runs differ by rounding only.
        REQUIRE(sparse.status == dense.status);
        REQUIRE(sparse.steps == dense.steps);
        const double scale = dense.theta.cwiseAbs().maxCoeff();
        const double difference = (sparse.theta - dense.theta).cwiseAbs().maxCoeff();
        INFO("relative difference " << difference / scale);  // about 2e-16 when written
        CHECK(difference <= 1e-9 * scale);
        CHECK(std::abs(sparse.test.error - dense.test.error) <= 1.0 / data.test.rows());
        CHECK(sparse.privacy.epsilonSpent == dense.privacy.epsilonSpent);
    }
}

TEST_CASE("Binary logistic runs stepped in lanes give the bits of each run stepped on its own",
          "[shared-batches][trainer][lanes]") {
    for (const bool oneHot : {false, true}) {
        const DataSplit data = oneHot ? oneHotSplit() : test::syntheticSplit(3000);
        for (const FairnessNotion notion :
             {FairnessNotion::DemographicParity, FairnessNotion::EqualizedOdds,
              FairnessNotion::EqualOpportunity}) {
            INFO((oneHot ? "one-hot data, " : "dense data, ") << fairnessCode(notion));
            // No penalty, unit W masses, a clipped W-gradient, several budgets; five runs fill
            // two lanes of four and leave three lanes empty.
            std::vector<TrainConfig> configs = {
                sharing("dp-fermi", 0.5, 0.0), sharing("dp-fermi", 1.0, 2.0),
                sharing("dp-fermi", 4.0, 8.0), sharing("dp-fermi", 2.0, 1.0),
                sharing("dp-fermi", 9.0, 32.0)};
            configs[4].clipTheta = 0.5;  // most rows clipped
            for (TrainConfig& config : configs) config.fairness = notion;
            // With a clipped W-gradient in one lane, or unit masses in every fair lane (then no
            // lane computes the W-gradient's norm); then the same with the loss and fairness
            // parts clipped on their own.
            for (const auto& [clippedW, lossShare] :
                 {std::pair{true, 0.0}, std::pair{true, 0.5}, std::pair{false, 0.0},
                  std::pair{false, 0.5}}) {
                INFO("clipped W-gradient " << clippedW << ", loss clip share " << lossShare);
                configs[2].wStream = clippedW ? WStream::ClippedGradient : WStream::GroupMasses;
                for (TrainConfig& config : configs) config.lossClipShare = lossShare;
                const auto [lanes, oneByOne, baseline] =
                    test::runTogetherThreeWays(configs, data, SharedBinaryRows::stepRunsOneByOne);
                for (std::size_t i = 0; i < configs.size(); ++i) {
                    INFO("run " << i);
                    CHECK(lanes[i].status == RunStatus::Completed);
                    requireIdentical(lanes[i], oneByOne[i]);
                    requireIdentical(lanes[i], baseline[i]);
                }
                // The runs clip (the lanes' clip branch is taken) and the fair runs move W.
                CHECK(lanes[4].history.back().clipFraction > 0.25);
                CHECK(lanes[1].W.cwiseAbs().maxCoeff() > 0.0);
            }
        }
    }
}

TEST_CASE("Runs trained together on Adult give the same bits from the nonzeros alone",
          "[shared-batches][trainer][sparse][needs-data]") {
    const std::string directory = test::sharedDatasetPath("adult");
    if (directory.empty()) PFA_SKIP_TEST(test::missingDatasetReason("adult"));
    const DataSplit data = splitAndEncode(findCatalogEntry("adult").load(directory, ""));
    const SparseRows& rows = sharedDesignMatrix(data.train.X, 0.0)->sparse;
    REQUIRE(!rows.empty());
    // About 15 of Adult's 103 design entries per row are nonzero.
    CHECK(static_cast<double>(rows.values.size()) / static_cast<double>(data.train.rows()) < 16);
    std::vector<TrainConfig> configs = {sharing("dp-fermi", 1.0, 3.0),
                                        sharing("dp-fermi", 3.0, 10.0)};
    for (TrainConfig& config : configs) {
        config.epochs = 3;
        config.batchSize = 2048;
    }
    const auto [sparse, dense] = onNonzerosAndWholeRows(configs, data);
    for (std::size_t i = 0; i < configs.size(); ++i) {
        INFO("run " << i);
        CHECK(sparse[i].test.error < 0.24);  // better than the majority class
        requireIdentical(sparse[i], dense[i]);
    }
}

TEST_CASE("Runs trained together give the same bits with baseline and AVX2 instructions",
          "[shared-batches][trainer]") {
    const DataSplit data = test::syntheticSplit(2000);
    const std::vector<TrainConfig> configs = {sharing("dp-fermi", 1.0, 2.0),
                                              sharing("dp-fermi", 3.0, 0.0)};
    std::vector<TrainingObserver> observers(2);
    const std::vector<RunResult> best = together(configs, data, observers);
    useBaselineInstructionsOnly(true);
    const std::vector<RunResult> baseline = together(configs, data, observers);
    useBaselineInstructionsOnly(false);
    for (std::size_t i = 0; i < configs.size(); ++i) requireIdentical(best[i], baseline[i]);
}

TEST_CASE("Shared batches leave the distribution of a run's final metrics unchanged",
          "[shared-batches][statistical]") {
    // Over 40 seeds, dp-fermi at ε = 1, λ = 2 with its own batches and with batches shared by
    // seed: the mean test error, violation and training loss agree within 4 standard errors of
    // their difference (the runs of a seed are not paired: their batches differ).
    const DataSplit data = test::syntheticSplit(2000);
    constexpr int kSeeds = 40;
    struct Moments {
        double sum = 0, squares = 0;
        void add(double x) {
            sum += x;
            squares += x * x;
        }
        double mean() const { return sum / kSeeds; }
        double variance() const { return (squares - sum * sum / kSeeds) / (kSeeds - 1); }
    };
    Moments own[3], shared[3];
    for (int seed = 0; seed < kSeeds; ++seed) {
        TrainConfig config = test::quickConfig("dp-fermi", 1.0, 2.0);
        config.seed = static_cast<std::uint64_t>(seed);
        const RunResult alone = test::runQuietly(config, data);
        config.batchSharing = BatchSharing::BySeed;
        const RunResult sharing = test::runQuietly(config, data);
        own[0].add(alone.test.error);
        own[1].add(alone.test.dpGap);
        own[2].add(alone.trainLoss);
        shared[0].add(sharing.test.error);
        shared[1].add(sharing.test.dpGap);
        shared[2].add(sharing.trainLoss);
    }
    for (int m = 0; m < 3; ++m) {
        const double standardError = std::sqrt((own[m].variance() + shared[m].variance()) / kSeeds);
        INFO("metric " << m << ": own " << own[m].mean() << ", shared " << shared[m].mean()
                       << ", standard error of the difference " << standardError);
        CHECK(standardError > 0);
        CHECK(std::fabs(own[m].mean() - shared[m].mean()) < 4 * standardError);
    }
}

TEST_CASE("Runs of the linear amplification bound that share a sample are charged at z_g",
          "[shared-batches][ledger][privacy]") {
    // The published calibration's sensitive-only runs: the unit is absent from every release of
    // the step or present in all of them, so the bound holds for the joint Gaussian at z_g.
    const auto linear = [](long steps, double z) {
        privacy::AccountingInputs in = sharedRun(steps, z, "seed 0, batches x");
        in.kind = privacy::ReleaseKind::LinearAmplification;
        in.adjacency = privacy::Adjacency::Replace;
        return in;
    };
    const privacy::OrderGrid grid = privacy::OrderGrid::standard();
    const double zg = 1 / std::sqrt(1 / (3.0 * 3.0) + 1 / (5.0 * 5.0));
    const privacy::RdpCurve joint =
        privacy::sharedBatchesCurve(grid, {linear(40, 3.0), linear(40, 5.0)});
    privacy::AccountingInputs one = linear(40, zg);
    one.sharedBatches.clear();
    const privacy::RdpCurve expected = privacy::runCurve(grid, one);
    for (std::size_t k = 0; k < grid.size(); ++k)
        CHECK_THAT(joint[k], WithinRel(expected[k], 1e-12));
}

TEST_CASE("Published-calibration runs trained together equal each run alone, bit for bit",
          "[shared-batches][trainer]") {
    const DataSplit data = test::syntheticSplit(3000);
    std::vector<TrainConfig> configs = {sharing("dp-fermi", 1.0, 2.0),
                                        sharing("dp-fermi", 3.0, 0.0),
                                        sharing("dp-fermi", 0.5, 8.0)};
    for (TrainConfig& config : configs) {
        config.calibration = Calibration::Published;
        config.scope = ProtectionScope::SensitiveOnly;
        config.minGroupShare = 0.25;
    }
    std::vector<TrainingObserver> observers(configs.size());
    const std::vector<RunResult> trained = together(configs, data, observers);
    for (std::size_t i = 0; i < configs.size(); ++i) {
        INFO("run " << i);
        requireIdentical(trained[i], test::runQuietly(configs[i], data));
        CHECK(trained[i].privacy.accounting.sharedBatches ==
              trained[0].privacy.accounting.sharedBatches);
        CHECK(!trained[i].privacy.accounting.sharedBatches.empty());
    }
    // λ = 0 releases nothing about the sensitive attribute; the others are charged jointly.
    CHECK(trained[1].privacy.accounting.kind == privacy::ReleaseKind::NoRelease);
    CHECK(trained[0].privacy.accounting.kind == privacy::ReleaseKind::LinearAmplification);
}

TEST_CASE("A sweep with shared batches stops when cancelled and records no cut-short run",
          "[shared-batches][sweep]") {
    const PreparedDatasetPtr data = test::preparedSynthetic(2000);
    SweepSpec spec;
    spec.datasets = {data->key};
    spec.epsilons = {0.5, 2.0};
    spec.lambdas = {0, 2};
    spec.seeds = {0, 1, 2};
    spec.base.epochs = 40;
    spec.base.batchSharing = BatchSharing::BySeed;
    CancelToken cancel;
    SweepOptions options;
    options.threads = 2;
    options.resume = false;
    std::size_t charged = 0, cutShort = 0;
    options.onCharge = [&](const RunContext&, const std::vector<privacy::LedgerEntry>& entries) {
        charged += entries.size();
    };
    options.onRunCutShort = [&](const SweepRun&, const RunResult&) { ++cutShort; };
    options.onRunFinished = [&](const SweepRun&, const RunResult&, const SweepProgress& p) {
        if (p.finished == 1) cancel.cancel();
    };
    const SweepOutcome outcome = runSweep(
        spec, [&](const std::string&) { return data; }, options, cancel);
    CHECK(outcome.cancelled);
    CHECK(outcome.results.size() < 12);
    for (const RunResult& r : outcome.results) CHECK(r.status == RunStatus::Completed);
    // Every run that touched the rows was charged, whether it finished or was cut short.
    CHECK(charged == outcome.results.size() + cutShort);
}

TEST_CASE("Fewer runs train together on large data", "[shared-batches][sweep]") {
    // Adult-sized data: 32 at a time; 10 M rows: each run's evaluation buffers take 600 MB, so
    // three fit in 2 GiB; beyond, one at a time.
    CHECK(togetherLimit(45'222, 2) == 32);
    CHECK(togetherLimit(10'000'000, 2) == 3);
    CHECK(togetherLimit(10'000'000, 5) == 1);
    CHECK(togetherLimit(1'000'000'000, 2) == 1);
}

TEST_CASE("The ledger's CSV names the shared sample of each run", "[shared-batches][ledger]") {
    privacy::DatasetLedger ledger("synthetic", "synthetic");
    ledger.add(
        test::ledgerEntryOf("a", sharedRun(30, 1.2, "seed 0;sampling=poisson;batch=8;epochs=1")));
    ledger.add(test::ledgerEntryOf("b", sharedRun(30, 1.2, "")));
    const std::string csv = privacy::ledgerCsv(ledger);
    CHECK_THAT(csv, Catch::Contains("extra_epsilon,shared_batches\n") &&
                        Catch::Contains(",\"seed 0;sampling=poisson;batch=8;epochs=1\"\n"));
    // Every line has the header's number of fields.
    std::istringstream lines(csv);
    std::string line;
    std::getline(lines, line);  // the totals comment
    std::getline(lines, line);
    const auto commas = std::count(line.begin(), line.end(), ',');
    while (std::getline(lines, line)) {
        long outside = 0;
        bool quoted = false;
        for (const char c : line) {
            if (c == '"') quoted = !quoted;
            if (c == ',' && !quoted) ++outside;
        }
        CHECK(outside == commas);
    }
}

TEST_CASE("A run on shared batches learns what it learns on its own, in every clipping mode",
          "[shared-batches][trainer]") {
    // Together-equals-alone cannot see a contribution the shared pass drops (a run alone is a
    // group of one and drops it too). With almost no noise, a by-seed run and an own-batch run
    // differ only in which batches they draw, so they must land at about the same model: the
    // whole clipped gradient, clipped jointly or the loss and penalty parts apart, reaches θ.
    const DataSplit data = test::syntheticSplit(4000);
    struct Mode {
        const char* name;
        double lambda;
        double lossClipShare;
    };
    for (const Mode mode : {Mode{"joint clip", 0.0, 0.0}, Mode{"joint clip, penalty", 4.0, 0.0},
                            Mode{"split clip", 0.0, 0.5}, Mode{"split clip, penalty", 4.0, 0.5}}) {
        INFO(mode.name);
        TrainConfig own = test::quickConfig("dp-fermi", 1000.0, mode.lambda);
        own.epochs = 15;
        own.lossClipShare = mode.lossClipShare;
        TrainConfig shared = own;
        shared.batchSharing = BatchSharing::BySeed;
        const RunResult a = test::runQuietly(own, data), b = test::runQuietly(shared, data);
        REQUIRE(a.status == RunStatus::Completed);
        REQUIRE(b.status == RunStatus::Completed);
        CHECK(a.test.error < 0.3);
        CHECK(std::abs(a.test.error - b.test.error) < 0.02);
        CHECK((a.theta - b.theta).norm() < 0.25 * a.theta.norm());
    }
}

}  // namespace core_shared_batches_test
