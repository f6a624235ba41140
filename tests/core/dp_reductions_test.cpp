// DP reductions (simplified): the game's arithmetic on the spec's six rows, the noise-free
// limit, the noise calibration against the formulas written out here, the automatic rounds,
// the auditor's multipliers and step, and the privacy plumbing of a run.
#include <Eigen/QR>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "core/algorithms/reductions/reductions_game.h"
#include "core/algorithms/registry.h"
#include "core/config/algorithm.h"
#include "core/privacy/accounting_inputs.h"
#include "core/privacy/accounting_json.h"
#include "core/sweep/run_record.h"
#include "core/util/error.h"
#include "core/util/json_value.h"
#include "test_data.h"

namespace core_dp_reductions_test {

using namespace pfa;
using namespace pfa::reductions;

namespace {

/// The six rows of the worked example: (s, y) = (0,1), (0,0), (0,1), (0,0), (1,1), (1,0).
struct SixRows {
    Eigen::VectorXi s{{0, 0, 0, 0, 1, 1}};
    Eigen::VectorXi y{{1, 0, 1, 0, 1, 0}};
};

/// Exact shares of the six rows (no floor): p_j = n_j/n, P_y = n_y/n.
Shares exactShares(const Cells& cells, const SixRows& rows) {
    Shares shares;
    shares.cell = cells.counts(rows.y, rows.s) / 6.0;
    shares.label = Eigen::Vector2d(0.5, 0.5);
    return shares;
}

/// Exact cell and label shares of the training rows (no noise, no floor).
Shares exactTrainShares(const Cells& cells, const Dataset& train) {
    const double n = static_cast<double>(train.rows());
    Shares shares;
    shares.cell = cells.counts(train.y, train.s) / n;
    shares.label = Eigen::Vector2d::Zero();
    for (Eigen::Index i = 0; i < train.y.size(); ++i) shares.label(train.y(i)) += 1.0 / n;
    return shares;
}

TrainConfig reductionsConfig(double epsilon, long rounds) {
    TrainConfig c;
    c.algorithm = "dp-reductions";
    c.epsilon = epsilon;
    c.lambda = 0.0;
    c.seed = 7;
    c.fairness = FairnessNotion::EqualizedOdds;
    c.scope = ProtectionScope::SensitiveOnly;
    c.extra["game-rounds"] = std::to_string(rounds);
    return c;
}

/// ε of 2T unsampled Gaussian releases at multiplier z, δ, on the standard order grid, written
/// out from the formulas: ρ(α) = 2T·α/(2z²), ε(α) = ρ + ln(1 − 1/α) − (ln δ + ln α)/(α − 1).
double independentEpsilon(long rounds, double z, double delta) {
    std::vector<double> orders;
    for (int i = 11; i <= 109; ++i) orders.push_back(i / 10.0);
    for (int a = 11; a <= 63; ++a) orders.push_back(a);
    for (double a : {128.0, 256.0, 512.0, 1024.0}) orders.push_back(a);
    double best = INFINITY;
    for (double a : orders) {
        const double rho = 2.0 * static_cast<double>(rounds) * a / (2.0 * z * z);
        const double eps =
            rho + std::log(1.0 - 1.0 / a) - (std::log(delta) + std::log(a)) / (a - 1.0);
        best = std::min(best, eps);
    }
    return std::max(0.0, best);
}

}  // namespace

TEST_CASE("Reductions signed weights and constraint values on the six worked-example rows",
          "[dp-reductions]") {
    const SixRows rows;
    const Cells cells(FairnessNotion::EqualizedOdds, 2);
    REQUIRE(cells.count() == 4);
    // λ̃_(a,y): (0,1) = 0.3, (1,1) = −0.1, (0,0) = 0, (1,0) = 0.2.
    Eigen::VectorXd lambdaTilde(4);
    lambdaTilde(cells.cellOf(1, 0)) = 0.3;
    lambdaTilde(cells.cellOf(1, 1)) = -0.1;
    lambdaTilde(cells.cellOf(0, 0)) = 0.0;
    lambdaTilde(cells.cellOf(0, 1)) = 0.2;
    Eigen::VectorXd r(6);
    signedWeights(cells, lambdaTilde, exactShares(cells, rows), rows.y, rows.s, r);
    const std::vector<double> expected = {0.5, -0.6, 0.5, -0.6, 2.0, -1.8};
    for (int i = 0; i < 6; ++i) CHECK(r(i) == Approx(expected[i]).margin(1e-12));

    const Eigen::VectorXd h{{1, 1, 0, 0, 1, 0}};
    const Eigen::VectorXd gamma = cellViolations(cells, h, rows.y, rows.s);
    CHECK(gamma(cells.cellOf(1, 0)) == Approx(-1.0 / 6).margin(1e-12));
    CHECK(gamma(cells.cellOf(1, 1)) == Approx(1.0 / 3).margin(1e-12));
    CHECK(gamma(cells.cellOf(0, 0)) == Approx(1.0 / 6).margin(1e-12));
    CHECK(gamma(cells.cellOf(0, 1)) == Approx(-1.0 / 3).margin(1e-12));

    // The auditor without noise and with exact shares sees the same values.
    RandomStream unused(1, 2);
    Eigen::VectorXd audited(4);
    auditorViolations(cells, h, rows.y, rows.s, exactShares(cells, rows), 0.0, unused, audited);
    for (int j = 0; j < 4; ++j) CHECK(audited(j) == Approx(gamma(j)).margin(1e-12));
}

TEST_CASE("Reductions signed weights for demographic parity", "[dp-reductions]") {
    const SixRows rows;
    const Cells cells(FairnessNotion::DemographicParity, 2);
    REQUIRE(cells.count() == 2);
    Shares shares;
    shares.cell = Eigen::Vector2d(4.0 / 6, 2.0 / 6);
    shares.label = Eigen::Vector2d(0.5, 0.5);
    const Eigen::Vector2d lambdaTilde(0.4, -0.2);
    Eigen::VectorXd r(6);
    signedWeights(cells, lambdaTilde, shares, rows.y, rows.s, r);
    // r_i = (2y − 1) − λ̃_a/p_a + (λ̃_0 + λ̃_1): group 0: −0.6 + 0.2 = −0.4; group 1: +0.6 + 0.2.
    CHECK(r(0) == Approx(1.0 - 0.4).margin(1e-12));
    CHECK(r(1) == Approx(-1.0 - 0.4).margin(1e-12));
    CHECK(r(4) == Approx(1.0 + 0.8).margin(1e-12));
    CHECK(r(5) == Approx(-1.0 + 0.8).margin(1e-12));
}

TEST_CASE("Reductions multipliers stay in the simplex scaled by B", "[dp-reductions]") {
    const double bound = 20.0;
    RandomStream random(5, 6);
    for (int trial = 0; trial < 200; ++trial) {
        Eigen::VectorXd theta(8);
        const double scale = trial < 100 ? 3.0 : 800.0;  // also far beyond exp's range
        for (int k = 0; k < 8; ++k) theta(k) = scale * (2.0 * random.uniformOpen() - 1.0);
        const Eigen::VectorXd lambda = lambdaFromTheta(theta, bound);
        REQUIRE(lambda.allFinite());
        CHECK(lambda.minCoeff() >= 0.0);
        CHECK(lambda.sum() <= bound * (1.0 + 1e-12));
    }
    // θ = 0: every multiplier is B/(K + 1) (the slack takes the rest), λ̃ = 0.
    const Eigen::VectorXd lambda0 = lambdaFromTheta(Eigen::VectorXd::Zero(8), bound);
    for (int k = 0; k < 8; ++k) CHECK(lambda0(k) == Approx(bound / 9.0));
    CHECK(signedLambda(lambda0).cwiseAbs().maxCoeff() == 0.0);
    // One dominant coordinate takes (nearly) all of B.
    Eigen::VectorXd big = Eigen::VectorXd::Zero(8);
    big(3) = 1000.0;
    CHECK(lambdaFromTheta(big, bound)(3) == Approx(bound));
}

TEST_CASE("Reductions auditor step raises θ and λ on a violated constraint", "[dp-reductions]") {
    const double bound = 10.0, c = 0.05, eta = 0.5;
    Eigen::VectorXd theta = Eigen::VectorXd::Zero(8);
    const Eigen::VectorXd before = lambdaFromTheta(theta, bound);
    // Cell 2 violates by +0.3 (> c); the others are within tolerance.
    const Eigen::Vector4d gamma(0.0, 0.01, 0.3, -0.02);
    updateTheta(theta, gamma, eta, c);
    CHECK(theta(2) == Approx(eta * (0.3 - c)));
    CHECK(theta(4 + 2) == Approx(eta * (-0.3 - c)));
    CHECK(theta(0) == Approx(-eta * c));
    const Eigen::VectorXd after = lambdaFromTheta(theta, bound);
    CHECK(after(2) > before(2));
    CHECK(after(6) < before(6));
    // The signed multiplier of the violated cell grows positive: it now penalises predicting 1
    // in that cell (r shrinks there).
    CHECK(signedLambda(after)(2) > 0.0);
    for (int k : {0, 1, 3}) CHECK(signedLambda(after)(2) > signedLambda(after)(k));
}

TEST_CASE("Reductions rounds and step follow the reference formulas", "[dp-reductions]") {
    auto formula = [](double B, double n, double d, double eps, double delta, double beta) {
        const double T = std::floor(B * std::sqrt(std::log(5.0)) * n * eps /
                                    (2.0 * (4.0 * B + 1.0) * std::sqrt(std::log(1.0 / delta)) *
                                     ((d + 1.0) * std::log(n) + std::log(2.0 / beta))));
        return std::max(1.0, T);
    };
    // Adult-size inputs: about 34,000 training rows and about 100 encoded features.
    for (double eps : {0.5, 1.0, 3.0}) {
        for (double c : {0.2, 0.1, 0.05, 0.02, 0.01}) {
            const double n = 34000, d = 100;
            INFO("eps " << eps << " c " << c);
            CHECK(referenceRounds(1.0 / c, 34000, 100, eps, 1.0 / (n * n), 0.01) ==
                  static_cast<long>(formula(1.0 / c, n, d, eps, 1.0 / (n * n), 0.01)));
        }
    }
    CHECK(referenceRounds(20.0, 34000, 100, 1.0, 1.0 / (34000.0 * 34000.0), 0.01) == 1);
    CHECK(referenceRounds(20.0, 1000000, 10, 10.0, 1e-12, 0.01) ==
          static_cast<long>(formula(20.0, 1e6, 10, 10.0, 1e-12, 0.01)));
    CHECK(referenceRounds(20.0, 1000000, 10, 10.0, 1e-12, 0.01) > 100);
    CHECK(referenceStep(4, 20.0) == Approx(0.5 * std::sqrt(std::log(5.0) / 4.0) / 20.0));

    // The resolved run uses the formula (and δ = 1/n²).
    const DataSplit data = test::syntheticSplit(4000);
    TrainConfig config = reductionsConfig(3.0, 0);
    config.extra.erase("game-rounds");
    const PreparedConfig prepared = prepareRun(findAlgorithm("dp-reductions"), config, data);
    const double n = static_cast<double>(data.train.rows());
    CHECK(prepared.config().delta == 1.0 / (n * n));
    CHECK(ownNumber(prepared.config(), "bound") == 20.0);
    CHECK(ownNumber(prepared.config(), "game-rounds") ==
          formula(20.0, n, data.train.features(), 3.0, 1.0 / (n * n), 0.01));
    const long T = static_cast<long>(ownNumber(prepared.config(), "game-rounds"));
    // The automatic step is Fairlearn's 2/B, or the sources' formula by the step rule.
    CHECK(ownNumber(prepared.config(), "auditor-step") == Approx(2.0 / 20.0));
    config.extra["step-rule"] = "reference";
    const PreparedConfig reference = prepareRun(findAlgorithm("dp-reductions"), config, data);
    CHECK(ownNumber(reference.config(), "auditor-step") ==
          Approx(0.5 * std::sqrt(std::log(5.0) / T) / 20.0));
}

TEST_CASE("Reductions learner solves the ridge-regularised normal equations, factorised once",
          "[dp-reductions]") {
    const DataSplit data = test::syntheticSplit(1200);
    const Eigen::MatrixXd design = designWithBias(data.train.X);
    NoisyLeastSquares learner(design);
    const Eigen::Index p = design.cols();
    const Eigen::MatrixXd gram = design.transpose() * design;
    CHECK(learner.ridge() == Approx(1e-6 * gram.trace() / static_cast<double>(p)));
    RandomStream random(1, 1);
    Eigen::VectorXd r = (2.0 * data.train.y.cast<double>()).array() - 1.0;
    Eigen::VectorXd w;
    learner.solve(r, 0.0, random, w);
    const Eigen::MatrixXd A = gram + learner.ridge() * Eigen::MatrixXd::Identity(p, p);
    const Eigen::VectorXd expected = A.colPivHouseholderQr().solve(design.transpose() * r);
    CHECK((w - expected).norm() <= 1e-9 * expected.norm());
}

TEST_CASE("Reductions learner noise has standard deviation S_l", "[dp-reductions]") {
    const DataSplit data = test::syntheticSplit(400);
    const Eigen::MatrixXd design = designWithBias(data.train.X);
    NoisyLeastSquares learner(design);
    const Eigen::VectorXd r = Eigen::VectorXd::Ones(design.rows());
    const Eigen::VectorXd exact = design.transpose() * r;
    const double S = 3.0;
    RandomStream random(11, 12);
    Eigen::VectorXd w;
    double sum = 0.0, sumSq = 0.0;
    long count = 0;
    for (int draw = 0; draw < 2000; ++draw) {
        learner.solve(r, S, random, w);
        const Eigen::VectorXd e = learner.lastStatistic() - exact;
        sum += e.sum();
        sumSq += e.squaredNorm();
        count += e.size();
    }
    const double mean = sum / count;
    const double sd = std::sqrt(sumSq / count - mean * mean);
    // 18,000 draws: the sample std is within 0.6 % of S (one standard error), 3 % is 5 of them.
    CHECK(std::abs(mean) < 5.0 * S / std::sqrt(static_cast<double>(count)));
    CHECK(sd == Approx(S).epsilon(0.03));
}

TEST_CASE("Reductions learner sensitivity follows the round's multipliers", "[dp-reductions]") {
    const SixRows rows;
    const double rowNorm = 3.0;
    for (FairnessNotion notion :
         {FairnessNotion::EqualizedOdds, FairnessNotion::DemographicParity}) {
        const Cells cells(notion, 2);
        const Shares shares = exactShares(cells, rows);
        INFO(fairnessCode(notion));
        // Round 1: λ̃ = 0, the weights do not read the sensitive attribute.
        CHECK(learnerSensitivity(cells, Eigen::VectorXd::Zero(cells.count()), shares, rowNorm) ==
              0.0);
        // Any λ̃: Δ is the largest change of one r_i when its row's group is changed, found by
        // changing every row's group in turn, times X₂; at most X₂·B/p̃_min.
        RandomStream random(3, 4);
        for (int trial = 0; trial < 20; ++trial) {
            Eigen::VectorXd theta(2 * cells.count());
            for (Eigen::Index k = 0; k < theta.size(); ++k) theta(k) = 3.0 * random.normal();
            const double bound = 7.0;
            const Eigen::VectorXd lambdaTilde = signedLambda(lambdaFromTheta(theta, bound));
            Eigen::VectorXd r(6), moved(6);
            signedWeights(cells, lambdaTilde, shares, rows.y, rows.s, r);
            double largest = 0.0;
            for (int i = 0; i < 6; ++i) {
                Eigen::VectorXi s = rows.s;
                s(i) = 1 - s(i);
                signedWeights(cells, lambdaTilde, shares, rows.y, s, moved);
                largest = std::max(largest, std::abs(moved(i) - r(i)));
                for (int k = 0; k < 6; ++k)
                    if (k != i) CHECK(moved(k) == r(k));
            }
            const double delta = learnerSensitivity(cells, lambdaTilde, shares, rowNorm);
            CHECK(delta == Approx(rowNorm * largest).epsilon(1e-12));
            CHECK(delta <= rowNorm * bound / shares.cell.minCoeff() * (1.0 + 1e-12));
        }
    }
}

TEST_CASE("Reductions learner noise is z times each round's sensitivity", "[dp-reductions]") {
    // The releases as a tap sees them (noise left on): round 1 is noise-free, every later
    // round's learner noise is z·Δ_t with Δ_t ≤ X₂·B/p̃_min, and the auditor's is z·√2.
    struct Recorder : privacy::ReleaseTap {
        std::vector<privacy::ReleaseSpec> learner, auditor;
        bool onRelease(const privacy::ReleaseSpec& spec, Eigen::Ref<Eigen::VectorXd>) override {
            const std::string channel = spec.channel;
            if (channel == "learner-statistic") learner.push_back(spec);
            if (channel == "auditor-cell-sums") auditor.push_back(spec);
            return true;
        }
        void onBatch(const privacy::BatchDraw&, std::vector<long>&, long&) override {}
    } recorder;
    const DataSplit data = test::syntheticSplit(2000);
    TrainConfig config = reductionsConfig(3.0, 8);
    config.extra["auditor-step"] = "2";
    RunResult result;
    {
        privacy::ScopedReleaseTap scope(recorder);
        result = test::runQuietly(config, data);
    }
    REQUIRE(result.status == RunStatus::Completed);
    REQUIRE(recorder.learner.size() == 8);
    REQUIRE(recorder.auditor.size() == 8);
    const double z = result.privacy.noiseMultiplierTheta;
    const double n = static_cast<double>(data.train.rows());
    double x2 = 0.0;
    for (Eigen::Index i = 0; i < data.train.rows(); ++i)
        x2 = std::max(x2, std::sqrt(data.train.X.row(i).squaredNorm() + 1.0));
    // B = 1/c = 20; p̃_min ≥ 10/n (the floor).
    const double worst = x2 * 20.0 / (10.0 / n);
    CHECK(recorder.learner.front().sensitivity == 0.0);
    CHECK(recorder.learner.front().noiseScale == 0.0);
    double largest = 0.0;
    for (const privacy::ReleaseSpec& spec : recorder.learner) {
        CHECK(spec.noiseScale == z * spec.sensitivity);
        CHECK(spec.sensitivity <= worst);
        largest = std::max(largest, spec.noiseScale);
    }
    CHECK(largest > 0.0);  // the auditor moved the multipliers
    for (const privacy::ReleaseSpec& spec : recorder.auditor)
        CHECK(spec.noiseScale == Approx(z * std::sqrt(2.0)).epsilon(1e-12));
    // The statement's σ_θ is the largest learner noise, on the mean of the n rows.
    CHECK(result.privacy.sigmaTheta == Approx(largest / n).epsilon(1e-12));
}

TEST_CASE("Reductions noise calibration matches the formulas", "[dp-reductions]") {
    // S_l = z·X₂·B/p̃_min, S_a = z·√2.
    const Noise noise = noiseFor(2.5, 4.0, 20.0, 0.05);
    CHECK(noise.learnerStd == Approx(2.5 * 4.0 * 20.0 / 0.05));
    CHECK(noise.auditorStd == Approx(2.5 * std::sqrt(2.0)));
    // z: the smallest multiplier (to the solver's tolerance) at which 2T Gaussian releases cost
    // at most ε − ε_cnt.
    for (long T : {1L, 5L, 20L}) {
        for (double eps : {0.5, 1.0, 3.0}) {
            const double delta = 1e-9;
            const double target = 0.95 * eps;
            const double z = solveMultiplier(T, target, delta);
            INFO("T " << T << " eps " << eps << " z " << z);
            CHECK(independentEpsilon(T, z, delta) <= target * (1.0 + 1e-12));
            CHECK(independentEpsilon(T, z, delta) >=
                  target - std::min(0.01, 0.01 * target) - 1e-12);
        }
    }

    // A private run states these noise levels: X₂ of its rows, B, and a floored p̃_min.
    const DataSplit data = test::syntheticSplit(2000);
    const TrainConfig config = reductionsConfig(1.0, 4);
    const RunResult result = test::runQuietly(config, data);
    REQUIRE(result.status == RunStatus::Completed);
    const double n = static_cast<double>(data.train.rows());
    double x2 = 0.0;
    for (Eigen::Index i = 0; i < data.train.rows(); ++i)
        x2 = std::max(x2, std::sqrt(data.train.X.row(i).squaredNorm() + 1.0));
    const double z = solveMultiplier(4, 0.95, 1.0 / (n * n));
    CHECK(result.privacy.noiseMultiplierTheta == z);
    // The statement's σ's are on the mean of the full batch: S/n.
    CHECK(result.privacy.sigmaW * n == Approx(z * std::sqrt(2.0)).epsilon(1e-12));
    // The learner's worst-case bound X₂·B/p̃_min is stated in the clip description.
    const std::string bound = result.privacy.clipDescription;
    const std::size_t at = bound.find("≤ X₂·B/p̃_min = ");
    REQUIRE(at != std::string::npos);
    const double worst = std::stod(bound.substr(at + std::string("≤ X₂·B/p̃_min = ").size()));
    const double pMin = x2 * 20.0 / worst;  // p̃_min implied by the bound
    CHECK(pMin >= 10.0 / n * (1.0 - 1e-3));
    // p̃_min·n is the smallest cell count plus Laplace(2/0.05) noise: within 15 scales
    // (probability e^−15 to fail) of the exact smallest count, or at the floor of 10.
    const Eigen::VectorXd counts =
        Cells(FairnessNotion::EqualizedOdds, 2).counts(data.train.y, data.train.s);
    CHECK(std::abs(pMin * n - std::max(10.0, counts.minCoeff())) <= 15.0 * 2.0 / 0.05 + 1.0);
}

TEST_CASE("Reductions at epsilon = inf equal the noise-free loop", "[dp-reductions]") {
    const DataSplit data = test::syntheticSplit(2000);
    TrainConfig config = reductionsConfig(INFINITY, 15);
    config.extra["tolerance"] = "0.02";
    config.extra["auditor-step"] = "0.5";
    config.extra["mixture"] = "uniform";
    const RunResult result = test::runQuietly(config, data);  // evaluated in expectation
    REQUIRE(result.status == RunStatus::Completed);
    CHECK(result.steps == 15);
    CHECK(std::isinf(result.privacy.epsilonSpent));
    config.extra["evaluation"] = "sampled";
    const RunResult sampled = test::runQuietly(config, data);

    // The same loop written against the game's parts, exact shares, no noise.
    const Cells cells(FairnessNotion::EqualizedOdds, 2);
    const Dataset& train = data.train;
    const Shares shares = exactTrainShares(cells, train);
    const Eigen::MatrixXd design = designWithBias(train.X);
    NoisyLeastSquares learner(design);
    RandomStream unused(0, 0);
    Eigen::VectorXd theta = Eigen::VectorXd::Zero(8), r(train.rows()), w, gamma(4);
    std::vector<Eigen::VectorXd> plays;
    for (int t = 0; t < 15; ++t) {
        signedWeights(cells, signedLambda(lambdaFromTheta(theta, 50.0)), shares, train.y, train.s,
                      r);
        learner.solve(r, 0.0, unused, w);
        const Eigen::VectorXd h = ((design * w).array() > 0.0).cast<double>().matrix();
        // Exact violations: the auditor with exact counts and no noise.
        gamma = cellViolations(cells, h, train.y, train.s);
        updateTheta(theta, gamma, 0.5, 0.02);
        plays.push_back(w);
    }
    // The auditor moved: the plays are not all the unconstrained one.
    CHECK((plays.front() - plays.back()).norm() > 0.0);
    const Eigen::VectorXd prob = mixtureProbability(plays, designWithBias(data.test.X));
    RandomStream draw(config.seed, 0x4556414c53414d50ULL);
    Eigen::VectorXi predicted(prob.size());
    for (Eigen::Index i = 0; i < prob.size(); ++i)
        predicted(i) = draw.uniformOpen() < prob(i) ? 1 : 0;
    const FairnessMetrics expectedSampled = evaluateFairness(
        predicted, RowMatrix(0, 2), data.test.y, data.test.s, data.test.groupNames, 2, 1);
    CHECK(sampled.test.error == expectedSampled.error);
    CHECK(sampled.test.eoGap == expectedSampled.eoGap);
    CHECK(sampled.test.dpGap == expectedSampled.dpGap);
    const FairnessMetrics expected =
        evaluateFairnessInExpectation(prob, data.test.y, data.test.s, data.test.groupNames, 1);
    CHECK(result.test.error == expected.error);
    CHECK(result.test.eoGap == expected.eoGap);
    CHECK(result.test.dpGap == expected.dpGap);
    // In expectation the error is the mean over rows of P(ŷ ≠ y).
    double error = 0.0;
    for (Eigen::Index i = 0; i < prob.size(); ++i)
        error += data.test.y(i) == 1 ? 1.0 - prob(i) : prob(i);
    CHECK(result.test.error == Approx(error / static_cast<double>(prob.size())).epsilon(1e-12));
}

TEST_CASE("Reductions best mixture: the linear program over the plays' errors and violations",
          "[dp-reductions]") {
    const DataSplit data = test::syntheticSplit(2000);
    TrainConfig config = reductionsConfig(INFINITY, 15);
    config.extra["tolerance"] = "0.02";
    config.extra["auditor-step"] = "0.5";
    const RunResult result = test::runQuietly(config, data);  // mixture "best" by default
    REQUIRE(result.status == RunStatus::Completed);

    // The game again, through playGame with exact shares and no noise.
    const Cells cells(FairnessNotion::EqualizedOdds, 2);
    const Dataset& train = data.train;
    const Shares shares = exactTrainShares(cells, train);
    GameSettings game;
    game.rounds = 15;
    game.tolerance = 0.02;
    game.bound = 50.0;
    game.step = 0.5;
    const Eigen::MatrixXd design = designWithBias(train.X);
    RandomStream unused(0, 0);
    const GameOutcome outcome =
        playGame(cells, game, design, train.y, train.s, shares, unused, nullptr, nullptr);
    REQUIRE(outcome.trainErrors.size() == 15);
    const double positive = shares.label(1);
    const Eigen::VectorXd Q = bestMixtureWeights(outcome, 0.02, 50.0, positive);

    // A distribution on the plays and the two constants, at a vertex: at most 2·cells + 1 of
    // them weighted.
    CHECK(Q.size() == 17);
    CHECK(Q.minCoeff() >= 0.0);
    CHECK(Q.sum() == Approx(1.0).epsilon(1e-12));
    CHECK((Q.array() > 0.0).count() <= 2 * cells.count() + 1);
    // Its Lagrangian value err + B·max(0, max_k (±γ_k) − c) is no worse than the uniform
    // mixture's or any single play's (each is a feasible point of the program).
    const auto value = [&](const Eigen::VectorXd& weights) {
        double error = weights(15) * positive + weights(16) * (1.0 - positive);
        Eigen::VectorXd gamma = Eigen::VectorXd::Zero(cells.count());
        for (int t = 0; t < 15; ++t) {
            error += weights(t) * outcome.trainErrors[static_cast<std::size_t>(t)];
            gamma += weights(t) * outcome.violations[static_cast<std::size_t>(t)];
        }
        return error + 50.0 * std::max(0.0, gamma.cwiseAbs().maxCoeff() - 0.02);
    };
    const double best = value(Q);
    Eigen::VectorXd uniform = Eigen::VectorXd::Constant(17, 1.0 / 15.0);
    uniform.tail(2).setZero();
    CHECK(best <= value(uniform) + 1e-12);
    for (int t = 0; t < 17; ++t) CHECK(best <= value(Eigen::VectorXd::Unit(17, t)) + 1e-12);
    // Never worse than a constant on the training rows.
    CHECK(best <= std::min(positive, 1.0 - positive) + 1e-12);
    // The plays' errors and violations are the exact ones of their training predictions.
    for (int t = 0; t < 15; ++t) {
        const Eigen::VectorXd h =
            ((design * outcome.w[static_cast<std::size_t>(t)]).array() > 0.0).cast<double>();
        CHECK(outcome.trainErrors[static_cast<std::size_t>(t)] ==
              Approx((h - train.y.cast<double>()).cwiseAbs().mean()).epsilon(1e-12));
        CHECK((outcome.violations[static_cast<std::size_t>(t)] -
               cellViolations(cells, h, train.y, train.s))
                  .cwiseAbs()
                  .maxCoeff() <= 1e-12);
    }

    // The run reports that mixture, scored in expectation.
    const Eigen::VectorXd prob =
        weightedMixtureProbability(outcome.w, Q, designWithBias(data.test.X));
    const FairnessMetrics expected =
        evaluateFairnessInExpectation(prob, data.test.y, data.test.s, data.test.groupNames, 1);
    CHECK(result.test.error == expected.error);
    CHECK(result.test.eoGap == expected.eoGap);
    CHECK(result.test.dpGap == expected.dpGap);
}

TEST_CASE("Reductions private run: epsilon within target, recomputed from the record",
          "[dp-reductions]") {
    const DataSplit data = test::syntheticSplit(2000);
    for (FairnessNotion notion :
         {FairnessNotion::EqualizedOdds, FairnessNotion::DemographicParity}) {
        TrainConfig config = reductionsConfig(1.0, 6);
        config.fairness = notion;
        const RunResult result = test::runQuietly(config, data);
        REQUIRE(result.status == RunStatus::Completed);
        const double spent = result.privacy.epsilonSpent;
        CHECK(spent <= 1.0 * (1 + 1e-9));
        CHECK(spent >= 0.98);
        REQUIRE(result.history.size() == 6);
        for (std::size_t t = 1; t < result.history.size(); ++t)
            CHECK(result.history[t].epsilonSpent > result.history[t - 1].epsilonSpent);
        CHECK(result.history.back().epsilonSpent == Approx(spent).epsilon(1e-12));
        const std::string line = runRecordJson(result, RunContext{});
        const JsonValue privacyJson = parseJson(line).at("privacy");
        const double recomputed =
            privacy::certifiedEpsilon(privacy::accountingFromJson(privacyJson.at("accounting")))
                .epsilon;
        CHECK(recomputed == Approx(spent).epsilon(1e-12));
        // Per round two unsampled Gaussian releases at z, nothing else but the Laplace counts.
        const privacy::AccountingInputs& in = result.privacy.accounting;
        CHECK(in.kind == privacy::ReleaseKind::NoRelease);
        CHECK(in.steps == 6);
        REQUIRE(in.gaussianReleases.size() == 2);
        for (const privacy::GaussianRelease& g : in.gaussianReleases) {
            CHECK(g.everySteps == 1);
            CHECK(g.noiseMultiplier == result.privacy.noiseMultiplierTheta);
        }
        REQUIRE(in.pureReleases.size() == 1);
        CHECK(in.pureReleases[0].epsilon == Approx(0.05));
        // The same ε as 2T unsampled Gaussian releases at z plus ε_cnt.
        const double n = static_cast<double>(data.train.rows());
        CHECK(spent ==
              Approx(independentEpsilon(6, in.gaussianReleases[0].noiseMultiplier, 1.0 / (n * n)) +
                     0.05)
                  .epsilon(1e-9));
        const std::string& statement = result.privacy.statement;
        CHECK(statement.find("DP reductions (simplified)") != std::string::npos);
        CHECK(statement.find("only the sensitive attribute") != std::string::npos);
        CHECK(statement.find("replace-one") != std::string::npos);
        CHECK(statement.find("Test rows used for the displayed metrics are not protected") !=
              std::string::npos);
        CHECK(result.test.error > 0.0);
        CHECK(result.test.error < 0.5);
    }
}

TEST_CASE("Reductions refuse what they do not support", "[dp-reductions]") {
    const DataSplit data = test::syntheticSplit(1000);
    const Algorithm& algorithm = findAlgorithm("dp-reductions");
    CHECK(algorithm.description().find("DP reductions (simplified)") != std::string::npos);
    TrainConfig all = reductionsConfig(1.0, 2);
    all.scope = ProtectionScope::AllFeatures;
    CHECK_THROWS_WITH(
        prepareRun(algorithm, all, data),
        Catch::Contains("only the sensitive attribute") && Catch::Contains("sensitive-only"));
    TrainConfig eopp = reductionsConfig(1.0, 2);
    eopp.fairness = FairnessNotion::EqualOpportunity;
    CHECK_THROWS_AS(prepareRun(algorithm, eopp, data), InputError);
    CHECK_THROWS_WITH(Cells(FairnessNotion::DemographicParity, 3), Catch::Contains("2 groups"));
    // A budget too small for the rounds is refused before the run.
    TrainConfig tiny = reductionsConfig(1e-7, 100000);
    CHECK_THROWS_AS(prepareRun(algorithm, tiny, data), InputError);
}

TEST_CASE("Reductions stop between rounds when cancelled", "[dp-reductions]") {
    const DataSplit data = test::syntheticSplit(1000);
    struct CancelAfter : TrainingObserver {
        CancelToken& token;
        explicit CancelAfter(CancelToken& t) : token(t) {}
        bool onEpochEnd(const EpochMetrics& m) override {
            if (m.step == 3) token.cancel();
            return false;
        }
    };
    CancelToken cancel;
    CancelAfter observer(cancel);
    const RunResult result = runAlgorithm(reductionsConfig(1.0, 10), data, observer, cancel);
    CHECK(result.status == RunStatus::Cancelled);
    CHECK(result.steps == 3);
    // Charged for the three rounds executed.
    CHECK(result.privacy.epsilonSpent == Approx(result.history.back().epsilonSpent).epsilon(1e-12));
    CHECK(result.privacy.epsilonSpent < 1.0);
}

TEST_CASE("Runs of DP reductions on the same rows share their designs and the learner's factor",
          "[dp-reductions]") {
    const DataSplit data = test::syntheticSplit(1500);
    const auto first = reductionsData(data.train, data.test);
    CHECK(reductionsData(data.train, data.test).get() == first.get());  // built once
    CHECK(first->design == designWithBias(data.train.X));
    CHECK(first->testDesign == designWithBias(data.test.X));
    CHECK(first->rowNorm == maxRowNorm2(first->design));
    // Other rows: another.
    const DataSplit other = test::syntheticSplit(1400);
    CHECK(reductionsData(other.train, other.test).get() != first.get());

    // The game with the shared factor plays exactly as with its own, noise included.
    const Cells cells(FairnessNotion::EqualizedOdds, 2);
    const Shares shares = exactTrainShares(cells, data.train);
    GameSettings game;
    game.rounds = 8;
    game.tolerance = 0.02;
    game.bound = 50.0;
    game.step = 0.5;
    game.learnerStd = 3.0;
    game.auditorStd = 2.0;
    RandomStream ownNoise(5, 1), sharedNoise(5, 1);
    const GameOutcome own = playGame(cells, game, first->design, data.train.y, data.train.s, shares,
                                     ownNoise, nullptr, nullptr);
    const GameOutcome shared = playGame(cells, game, first->design, data.train.y, data.train.s,
                                        shares, sharedNoise, nullptr, nullptr, &first->learner);
    REQUIRE(own.w.size() == 8);
    REQUIRE(shared.w.size() == 8);
    for (std::size_t t = 0; t < 8; ++t) {
        CHECK(shared.w[t] == own.w[t]);
        CHECK(shared.violations[t] == own.violations[t]);
    }
    CHECK(learnerFactor(first->design).mu == first->learner.mu);
}

}  // namespace core_dp_reductions_test
