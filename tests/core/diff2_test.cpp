// diff2 (DP optimisation from gradient differences) and the round loop it shares with dp-gd:
// the closed-form calibration against the worked numbers, the ε the accountant states (the
// second release kind of AccountingInputs) against an independent evaluation of the RDP sum,
// the live ε per round, restart period 1 = dp-gd bit for bit, ε = ∞ = gradient descent, and a
// finite-difference check of the per-record gradients of the softplus network.
#include <Eigen/Dense>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "core/algorithms/diff2/diff2_rounds.h"
#include "core/algorithms/registry.h"
#include "core/data/builtin_datasets.h"
#include "core/data/silo_splitters.h"
#include "core/generators/dataset_loading.h"
#include "core/model/logistic_functions.h"
#include "core/privacy/accounting_inputs.h"
#include "core/privacy/accounting_json.h"
#include "core/privacy/order_grid.h"
#include "core/sweep/run_record.h"
#include "core/sweep/sweep_summary.h"
#include "core/sweep/theory_rates.h"
#include "core/util/instruction_set.h"
#include "core/util/json_value.h"
#include "core/util/json_writer.h"
#include "core/util/random.h"
#include "test_data.h"

namespace core_diff2_test {

using namespace pfa;

namespace {

/// y = tanh(⟨a, x⟩) + 0.3·N(0, 1), x ~ N(0, I_d), split 80/20; optionally dealt into silos.
DataSplit smoothRegression(int rows, int d, int silos = 0, std::uint64_t seed = 5) {
    RandomStream random(seed, 17);
    DataSplit split;
    for (Dataset* part : {&split.train, &split.test}) {
        const int n = part == &split.train ? rows * 4 / 5 : rows / 5;
        part->name = "smooth-regression";
        part->X.resize(n, d);
        part->target.resize(n);
        for (int i = 0; i < n; ++i) {
            double s = 0.0;
            for (int j = 0; j < d; ++j) {
                part->X(i, j) = random.normal();
                s += part->X(i, j) * (j % 2 ? -0.5 : 0.7);
            }
            part->target(i) = std::tanh(s) + 0.3 * random.normal();
        }
        part->y = Eigen::VectorXi::Zero(n);
        part->s = Eigen::VectorXi::Zero(n);
        part->groupNames = {"all"};
    }
    if (silos > 0) {
        SiloOptions options;
        options.silos = silos;
        assignSilos(split, makeSilos(split, options));
    }
    return split;
}

TrainConfig gdConfig(const std::string& algorithm, double epsilon, long rounds,
                     const std::string& model = "linear") {
    TrainConfig c;
    c.algorithm = algorithm;
    c.epsilon = epsilon;
    c.delta = 1e-5;
    c.seed = 11;
    c.lambda = 0.0;
    c.extra["gd-rounds"] = std::to_string(rounds);
    c.extra["gd-step"] = "0.5";
    c.extra["full-clip"] = "0.5";
    c.extra["model"] = model;
    return c;
}

/// ε of ρ(α) = α·ρ₁ (Gaussian releases only) by the accountant's conversion written out:
/// min over the orders of α·ρ₁ + ln(1 − 1/α) − (ln δ + ln α)/(α − 1).
double independentEpsilon(double rho1, double delta) {
    const privacy::OrderGrid grid = privacy::OrderGrid::standard();
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < grid.size(); ++k) {
        const double a = grid[k];
        if (!(a > 1.01) || std::isinf(a)) continue;
        best = std::min(
            best, a * rho1 + std::log1p(-1.0 / a) - (std::log(delta) + std::log(a)) / (a - 1.0));
    }
    return std::max(0.0, best);
}

}  // namespace

TEST_CASE("DIFF2 noise calibration reproduces the worked numbers", "[diff2][dp-gd]") {
    // nmin = 1651, P = 10, R = 2000, ε = 3, δ = 1e−5 → A = 9.
    // Each value to the digits printed: within half a unit of the last one.
    const auto printed = [](double value, double shown, double unit) {
        return std::abs(value - shown) <= unit / 2;
    };
    const diff2::Calibration t20 = diff2::calibrate(3.0, 1e-5, 2000, 20, 1651, 10, 1.25);
    CHECK(t20.order == 9);
    CHECK(t20.restarts == 100);
    CHECK(printed(t20.sigma1, 2.346e-3, 1e-6));
    CHECK(printed(t20.sigma2, 2.045e-2, 1e-5));
    const diff2::Calibration t200 = diff2::calibrate(3.0, 1e-5, 2000, 200, 1651, 10, 1.25);
    CHECK(t200.restarts == 10);
    CHECK(printed(t200.sigma1, 7.42e-4, 1e-6));
    CHECK(printed(t200.sigma2, 2.093e-2, 1e-5));
    // DP-GD: T = 1, all of the budget to the restarts (u = 1).
    const diff2::Calibration gd = diff2::calibrate(3.0, 1e-5, 2000, 1, 1651, 10, 1.25);
    CHECK(printed(gd.sigma1, 9.383e-3, 1e-6));
    CHECK(gd.sigma2 == 0.0);
    const diff2::Calibration eps5 = diff2::calibrate(5.0, 1e-5, 2000, 20, 1651, 10, 1.25);
    CHECK(eps5.order == 6);
    CHECK(printed(eps5.sigma1, 1.484e-3, 1e-6));
    CHECK(printed(eps5.sigma2, 1.293e-2, 1e-5));
    // Independent evaluation of the closed form (not the library's code path).
    const double A = 1 + std::ceil(2 * std::log(1e5) / 3.0);
    CHECK(t20.sigma1 ==
          Approx(std::sqrt(4 * 1.25 * A * 100 / (1651.0 * 1651 * 100 * 3))).epsilon(1e-12));
    CHECK(t20.sigma2 ==
          Approx(std::sqrt(4 * 5.0 * A * 1900 / (1651.0 * 1651 * 100 * 3))).epsilon(1e-12));
    // ε = ∞: no noise.
    const diff2::Calibration none = diff2::calibrate(INFINITY, 1e-5, 2000, 20, 1651, 10, 1.25);
    CHECK(none.sigma1 == 0.0);
    CHECK(none.sigma2 == 0.0);
}

TEST_CASE("DIFF2's two release kinds are accounted exactly and recomputed from the record",
          "[diff2][accounting]") {
    const double eps = 3.0, delta = 1e-5;
    const long R = 2000, nmin = 1651, P = 10;
    for (long T : {1L, 20L, 200L}) {
        INFO("T = " << T);
        const diff2::Calibration cal = diff2::calibrate(eps, delta, R, T, nmin, P, 1.25);
        const privacy::AccountingInputs in =
            diff2::roundAccounting(cal, {P, nmin}, R, T, delta, "record").afterSteps(R);
        CHECK(in.releases() == cal.restarts);
        CHECK(in.interimReleases() == (T == 1 ? 0 : R - cal.restarts));
        // The spec's ρ_R = 2·(K/σ1² + (R − K)/σ2²)/(nmin²P²), RDP = α·ρ_R.
        const double n2 = double(nmin) * nmin * P * P;
        const double rho = 2.0 *
                           (double(cal.restarts) / (cal.sigma1 * cal.sigma1) +
                            (T == 1 ? 0.0 : double(R - cal.restarts) / (cal.sigma2 * cal.sigma2))) /
                           n2;
        // At order A the calibration spends ε/2, and ln(1/δ)/(A − 1) ≤ ε/2.
        CHECK(cal.order * rho == Approx(eps / 2).epsilon(1e-12));
        CHECK(cal.order * rho + std::log(1 / delta) / (cal.order - 1) <= eps);
        const double stated = privacy::certifiedEpsilon(in).epsilon;
        CHECK(stated == Approx(independentEpsilon(rho, delta)).epsilon(1e-10));
        CHECK(stated <= eps);

        // The record keeps both kinds.
        JsonWriter json;
        privacy::writeAccountingJson(json, in);
        const privacy::AccountingInputs back = privacy::accountingFromJson(parseJson(json.text()));
        CHECK(back.interimNoiseMultiplier == in.interimNoiseMultiplier);
        CHECK(back.interimReleases() == in.interimReleases());
        CHECK(privacy::certifiedEpsilon(back).epsilon == stated);
    }
    // Without the interim kind a record reads and writes as before.
    privacy::AccountingInputs plain;
    plain.kind = privacy::ReleaseKind::Gaussian;
    plain.noiseMultiplier = 10.0;
    plain.steps = 300;
    plain.delta = 1e-4;
    JsonWriter json;
    privacy::writeAccountingJson(json, plain);
    CHECK(json.text().find("interim") == std::string::npos);
    CHECK(privacy::certifiedEpsilon(plain).epsilon ==
          Approx(independentEpsilon(300 / 200.0, 1e-4)).epsilon(1e-10));
}

TEST_CASE("DIFF2 runs state the accountant's ε per round, recomputable from the record",
          "[diff2]") {
    const DataSplit data = smoothRegression(2000, 5, 4);
    TrainConfig config = gdConfig("diff2", 2.0, 200);
    config.extra["restart-period"] = "30";
    const RunResult result = test::runQuietly(config, data);
    REQUIRE(result.status == RunStatus::Completed);
    REQUIRE(result.history.size() == 10);
    // nmin and P are the data's silos.
    CHECK(result.theoryInputs.at("silos") == 4);
    CHECK(result.theoryInputs.at("records_per_silo_min") == data.train.silos->minRowsPerUnit());
    const long nmin = data.train.silos->minRowsPerUnit();
    const diff2::Calibration cal = diff2::calibrate(2.0, 1e-5, 200, 30, nmin, 4, 1.25);
    const double n2 = double(nmin) * nmin * 16;
    for (const EpochMetrics& m : result.history) {
        INFO("round " << m.step);
        const double restarts = std::ceil(m.step / 30.0);
        const double rho = 2.0 *
                           (restarts / (cal.sigma1 * cal.sigma1) +
                            (m.step - restarts) / (cal.sigma2 * cal.sigma2)) /
                           n2;
        CHECK(m.epsilonSpent == Approx(independentEpsilon(rho, 1e-5)).epsilon(1e-10));
        CHECK(std::isfinite(m.gradientNormSquared));
        CHECK(m.gradientNormSquared >= 0.0);
    }
    CHECK(result.history.back().epsilonSpent == result.privacy.epsilonSpent);
    CHECK(result.privacy.epsilonSpent <= 2.0);
    // From the record alone.
    const JsonValue record = parseJson(runRecordJson(result, RunContext{}));
    const privacy::AccountingInputs in =
        privacy::accountingFromJson(record.at("privacy").at("accounting"));
    CHECK(privacy::certifiedEpsilon(in).epsilon == result.privacy.epsilonSpent);
    CHECK(record.at("history").has("gradient_norm_squared"));
    // Sweep summaries carry it per cell (a record's history keeps 7 significant digits).
    const std::vector<SweepCell> cells = summarizeRecords({record});
    REQUIRE(cells.size() == 1);
    CHECK(cells[0].gradientNormSquared.n == 1);
    CHECK(cells[0].gradientNormSquared.mean ==
          Approx(result.history.back().gradientNormSquared).epsilon(1e-6));
    // The squared gradient norm is a training-set diagnostic: named as not protected, and
    // left out when diagnostics are switched off.
    CHECK(result.privacy.statement.find("squared gradient norm") != std::string::npos);
    CHECK(result.privacy.statement.find("Not protected — diagnostics") != std::string::npos);
}

TEST_CASE("DIFF2 with restart period 1 is DP-GD bit for bit", "[diff2][dp-gd]") {
    const DataSplit data = smoothRegression(1500, 4, 3);
    for (const char* model : {"linear", "mlp"}) {
        INFO(model);
        TrainConfig a = gdConfig("diff2", 1.0, 60, model);
        a.extra["restart-period"] = "1";
        a.extra["difference-clip-ratio"] = "7";  // no effect when T = 1
        const TrainConfig b = gdConfig("dp-gd", 1.0, 60, model);
        const RunResult x = test::runQuietly(a, data);
        const RunResult y = test::runQuietly(b, data);
        REQUIRE(x.status == RunStatus::Completed);
        REQUIRE(y.status == RunStatus::Completed);
        REQUIRE(x.history.size() == y.history.size());
        for (std::size_t k = 0; k < x.history.size(); ++k) {
            CHECK(x.history[k].trainLoss == y.history[k].trainLoss);
            CHECK(x.history[k].gradientNormSquared == y.history[k].gradientNormSquared);
            CHECK(x.history[k].epsilonSpent == y.history[k].epsilonSpent);
        }
        CHECK(x.theta == y.theta);
        CHECK(x.test.error == y.test.error);
        CHECK(x.privacy.epsilonSpent == y.privacy.epsilonSpent);
        // A real restart period changes the trajectory (the comparison can fail).
        TrainConfig c = a;
        c.extra["restart-period"] = "5";
        const RunResult z = test::runQuietly(c, data);
        CHECK(z.history.back().trainLoss != y.history.back().trainLoss);
    }
}

TEST_CASE("Without privacy DP-GD and DIFF2 are gradient descent step for step", "[diff2][dp-gd]") {
    const DataSplit data = smoothRegression(1200, 3, 2);
    const Dataset& train = data.train;
    const long R = 45;
    // Gradient descent on f = (1/P) Σ_p mean_p ½(⟨w, x⟩ + b − y)², written out.
    const long P = train.silos->units();
    Eigen::VectorXd w = Eigen::VectorXd::Zero(4);
    std::vector<double> losses;
    for (long r = 1; r <= R; ++r) {
        Eigen::VectorXd g = Eigen::VectorXd::Zero(4);
        for (long p = 0; p < P; ++p) {
            const double np = double(train.silos->rowCount(p));
            for (long i : train.silos->rowsOf(p)) {
                const double e = train.X.row(i).dot(w.head(3)) + w(3) - train.target(i);
                g.head(3) += e * train.X.row(i).transpose() / (P * np);
                g(3) += e / (P * np);
            }
        }
        w -= 0.5 * g;
        if (r % 20 == 0 || r == R) {
            double f = 0.0;
            for (long p = 0; p < P; ++p) {
                for (long i : train.silos->rowsOf(p)) {
                    const double e = train.X.row(i).dot(w.head(3)) + w(3) - train.target(i);
                    f += 0.5 * e * e / (P * double(train.silos->rowCount(p)));
                }
            }
            losses.push_back(f);
        }
    }
    for (const char* algorithm : {"dp-gd", "diff2"}) {
        INFO(algorithm);
        TrainConfig c = gdConfig(algorithm, INFINITY, R);
        c.extra["restart-period"] = "7";
        const RunResult result = test::runQuietly(c, data);
        REQUIRE(result.status == RunStatus::Completed);
        REQUIRE(result.history.size() == losses.size());
        for (std::size_t k = 0; k < losses.size(); ++k)
            CHECK(result.history[k].trainLoss == Approx(losses[k]).epsilon(1e-10));
        for (int j = 0; j < 4; ++j)
            CHECK(result.theta(0, j) == Approx(w(j)).epsilon(1e-10).margin(1e-12));
        CHECK(std::isinf(result.privacy.epsilonSpent));
    }
}

TEST_CASE("The softplus network's per-record gradients match finite differences",
          "[diff2][dp-gd]") {
    const int n = 7, d = 4;
    RandomStream random(3, 4);
    RowMatrix X(n, d);
    Eigen::VectorXd yReal(n), yClass(n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < d; ++j) X(i, j) = random.normal();
        yReal(i) = random.normal();
        yClass(i) = i % 2;
    }
    for (diff2::LossKind lossKind : {diff2::LossKind::Squared, diff2::LossKind::Logistic}) {
        for (diff2::ModelKind modelKind : {diff2::ModelKind::Mlp, diff2::ModelKind::Linear}) {
            diff2::GradientModel model(modelKind, lossKind, d);
            model.reserve(n);
            const Eigen::VectorXd& y = lossKind == diff2::LossKind::Squared ? yReal : yClass;
            const Eigen::Index D = model.parameters();
            CHECK(D == (modelKind == diff2::ModelKind::Mlp ? 10 * d + 21 : d + 1));
            Eigen::VectorXd x = model.initial(9);
            for (Eigen::Index k = 0; k < D; ++k) x(k) += 0.3 * random.normal();
            Eigen::VectorXd loss(n), lossPlus(n), lossMinus(n);
            Eigen::MatrixXd G(n, D), scratch(n, D);
            model.gradients(x, X, y, loss, G);
            const double h = 1e-6;
            double worst = 0.0;
            for (Eigen::Index k = 0; k < D; ++k) {
                Eigen::VectorXd plus = x, minus = x;
                plus(k) += h;
                minus(k) -= h;
                model.gradients(plus, X, y, lossPlus, scratch);
                model.gradients(minus, X, y, lossMinus, scratch);
                const Eigen::VectorXd numeric = (lossPlus - lossMinus) / (2 * h);
                worst = std::max(worst, (numeric - G.col(k)).cwiseAbs().maxCoeff());
            }
            CHECK(worst < 1e-7);
            CHECK(G.norm() > 1e-3);  // a check of something nonzero
        }
    }
    // Initial weights of the network lie in ±1/√fan-in and are not all equal.
    diff2::GradientModel net(diff2::ModelKind::Mlp, diff2::LossKind::Squared, 8);
    const Eigen::VectorXd init = net.initial(1);
    CHECK(init.head(90).cwiseAbs().maxCoeff() <= 1 / std::sqrt(8.0));
    CHECK(init.tail(11).cwiseAbs().maxCoeff() <= 1 / std::sqrt(10.0));
    CHECK(init.head(90).cwiseAbs().maxCoeff() > 0.3);
    CHECK(init.tail(11).cwiseAbs().maxCoeff() > 0.2);
}

TEST_CASE(
    "Record norms and clipped sums from the gradient factors equal the plain per-record "
    "gradients",
    "[diff2][dp-gd]") {
    // The rounds never form the rows × parameters matrix of all records' gradients: norms and
    // weighted sums come from r_i, h_i and δ_i (the network's a block of 64 rows at a time).
    // Checked against that matrix (the plain form), for single gradients and for differences
    // between two iterates, unclipped and clipped, to round-off; 150 rows make two whole blocks
    // and a last one of 22.
    const int n = 150, d = 5;
    RandomStream random(11, 2);
    RowMatrix X(n, d);
    Eigen::VectorXd yReal(n), yClass(n), weight(n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < d; ++j) X(i, j) = random.normal();
        yReal(i) = random.normal();
        yClass(i) = i % 3 == 0;
        weight(i) = random.uniformOpen();
    }
    const Eigen::VectorXd inputs = diff2::inputNormsSquared(X);
    for (diff2::LossKind lossKind : {diff2::LossKind::Squared, diff2::LossKind::Logistic}) {
        for (diff2::ModelKind modelKind : {diff2::ModelKind::Mlp, diff2::ModelKind::Linear}) {
            CAPTURE(static_cast<int>(lossKind), static_cast<int>(modelKind));
            diff2::GradientModel model(modelKind, lossKind, d);
            model.reserve(n);
            const Eigen::VectorXd& y = lossKind == diff2::LossKind::Squared ? yReal : yClass;
            const Eigen::Index D = model.parameters();
            Eigen::VectorXd x = model.initial(5), xPrev = x;
            for (Eigen::Index k = 0; k < D; ++k) {
                x(k) += 0.5 * random.normal();
                xPrev(k) += 0.5 * random.normal();
            }
            Eigen::VectorXd loss(n), lossPrev(n), factorLoss(n), norms(n), coef(n), agg(D);
            Eigen::MatrixXd G(n, D), Gprev(n, D);
            model.gradients(x, X, y, loss, G);
            model.gradients(xPrev, X, y, lossPrev, Gprev);
            diff2::RecordFactors now, before;
            model.reserve(now, n);
            model.reserve(before, n);
            model.pass(xPrev, X, y, before, nullptr);
            // Unclipped: coef = weight, the sum Σ_i weight_i·g_i.
            diff2::ClippedSum sum(nullptr, inputs, std::numeric_limits<double>::infinity(), weight,
                                  norms, coef, agg);
            CHECK(model.pass(x, X, y, now, &factorLoss, &sum) == 0);
            CHECK((factorLoss - loss).cwiseAbs().maxCoeff() == 0.0);
            const Eigen::VectorXd plainNorms = G.rowwise().norm();
            CHECK((norms - plainNorms).cwiseAbs().maxCoeff() <= 1e-13 * plainNorms.maxCoeff());
            CHECK(coef == weight);
            const Eigen::VectorXd plainSum = G.transpose() * weight;
            CHECK((agg - plainSum).cwiseAbs().maxCoeff() <= 1e-13 * plainSum.cwiseAbs().maxCoeff());

            // Differences, clipped at a bound about half of them exceed.
            sum.before = &before;
            const Eigen::MatrixXd difference = G - Gprev;
            const Eigen::VectorXd plainDiffNorms = difference.rowwise().norm();
            std::vector<double> sorted(plainDiffNorms.data(), plainDiffNorms.data() + n);
            std::sort(sorted.begin(), sorted.end());
            sum.bound = 0.5 * (sorted[n / 2] + sorted[n / 2 + 1]);  // between two records
            const long clipped = model.pass(x, X, y, now, nullptr, &sum);
            CHECK(clipped == (plainDiffNorms.array() > sum.bound).count());
            CHECK(clipped > n / 3);
            CHECK((norms - plainDiffNorms).cwiseAbs().maxCoeff() <=
                  1e-13 * plainDiffNorms.maxCoeff());
            const Eigen::VectorXd plainCoef =
                weight.array() * (sum.bound / plainDiffNorms.array()).min(1.0);
            CHECK((coef - plainCoef).cwiseAbs().maxCoeff() <= 1e-13);
            const Eigen::VectorXd plainDiffSum = difference.transpose() * plainCoef;
            CHECK((agg - plainDiffSum).cwiseAbs().maxCoeff() <=
                  1e-13 * plainDiffSum.cwiseAbs().maxCoeff());
            CHECK(plainDiffSum.norm() > 1e-3);  // the two iterates differ

            // The factors a pass keeps do not depend on whether it also sums.
            diff2::RecordFactors alone;
            model.reserve(alone, n);
            model.pass(x, X, y, alone, nullptr);
            CHECK(alone.scoreGradient == now.scoreGradient);
            CHECK(alone.hidden == now.hidden);
            CHECK(alone.delta == now.delta);
        }
    }
}

TEST_CASE("The network's pass gives the same bits with the baseline instructions as with AVX2",
          "[diff2][dp-gd]") {
    // Each of the network's sums has a fixed order (features and units in order, rows in four
    // running sums), so the instruction set changes no bit: norms, coefficients, the clipped sum
    // of differences, the factors and the scores.
    const int n = 203, d = 8;
    RandomStream random(17, 4);
    RowMatrix X(n, d);
    Eigen::VectorXd y(n), weight(n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < d; ++j) X(i, j) = random.normal();
        y(i) = random.normal();
        weight(i) = 1.0 / n;
    }
    const Eigen::VectorXd inputs = diff2::inputNormsSquared(X);
    diff2::GradientModel model(diff2::ModelKind::Mlp, diff2::LossKind::Squared, d);
    model.reserve(n);
    const Eigen::VectorXd x = model.initial(3);
    Eigen::VectorXd xPrev = x;
    for (Eigen::Index k = 0; k < xPrev.size(); ++k) xPrev(k) += 0.1 * random.normal();
    struct Outcome {
        diff2::RecordFactors factors;
        Eigen::VectorXd norms, coef, agg, scores;
        long clipped = 0;
    };
    // A bound about half of the records' gradient differences exceed.
    double bound = 0.0;
    {
        diff2::RecordFactors now, before;
        model.reserve(now, n);
        model.reserve(before, n);
        model.pass(xPrev, X, y, before, nullptr);
        Eigen::VectorXd norms(n), coef(n), agg(model.parameters());
        const diff2::ClippedSum sum(&before, inputs, std::numeric_limits<double>::infinity(),
                                    weight, norms, coef, agg);
        model.pass(x, X, y, now, nullptr, &sum);
        std::sort(norms.begin(), norms.end());
        bound = norms(n / 2);
    }
    auto run = [&](bool baseline) {
        useBaselineInstructionsOnly(baseline);
        Outcome out;
        diff2::RecordFactors before;
        model.reserve(before, n);
        model.reserve(out.factors, n);
        model.pass(xPrev, X, y, before, nullptr);
        out.norms.resize(n);
        out.coef.resize(n);
        out.agg.resize(model.parameters());
        out.scores.resize(n);
        const diff2::ClippedSum sum(&before, inputs, bound, weight, out.norms, out.coef, out.agg);
        out.clipped = model.pass(x, X, y, out.factors, nullptr, &sum);
        model.scores(x, X, out.scores);
        useBaselineInstructionsOnly(false);
        return out;
    };
    const Outcome fast = run(false), baseline = run(true);
    CHECK(fast.clipped == baseline.clipped);
    CHECK(fast.clipped > 0);
    CHECK(fast.clipped < n);
    CHECK(fast.norms == baseline.norms);
    CHECK(fast.coef == baseline.coef);
    CHECK(fast.agg == baseline.agg);
    CHECK(fast.scores == baseline.scores);
    CHECK(fast.factors.scoreGradient == baseline.factors.scoreGradient);
    CHECK(fast.factors.hidden == baseline.factors.hidden);
    CHECK(fast.factors.delta == baseline.factors.delta);
}

TEST_CASE("The vectorised softplus and sigmoid agree with the scalar functions", "[diff2]") {
    // The MLP's hidden layer and the logistic loss go through one exp(−|a|) per entry in SIMD;
    // the scalar softplus/sigmoid (std::log1p, std::exp) are the reference, over the range a
    // network meets and beyond (overflow-free at ±700).
    const int n = 2001;
    RowMatrix X(n, 1);
    Eigen::VectorXd y = Eigen::VectorXd::Zero(n);
    for (int i = 0; i < n; ++i) X(i, 0) = -700.0 + 1400.0 * i / (n - 1);
    X(n / 2, 0) = 0.0;
    X(n / 2 + 1, 0) = 1e-300;
    diff2::GradientModel model(diff2::ModelKind::Linear, diff2::LossKind::Logistic, 1);
    model.reserve(n);
    diff2::RecordFactors f;
    model.reserve(f, n);
    Eigen::VectorXd loss(n);
    Eigen::VectorXd x(2);
    x << 1.0, 0.0;
    model.pass(x, X, y, f, &loss);
    double worstLoss = 0.0, worstSigmoid = 0.0;
    for (int i = 0; i < n; ++i) {
        const double a = X(i, 0);
        const double refLoss = softplus(a), refSigmoid = sigmoid(a);
        worstLoss = std::max(worstLoss, std::abs(loss(i) - refLoss) / std::max(refLoss, 1e-300));
        worstSigmoid = std::max(
            worstSigmoid, std::abs(f.scoreGradient(i) - refSigmoid) / std::max(refSigmoid, 1e-300));
    }
    CHECK(worstLoss < 1e-14);
    CHECK(worstSigmoid < 1e-14);
}

TEST_CASE("DIFF2 refuses what it cannot certify or fit", "[diff2]") {
    const DataSplit data = smoothRegression(800, 3);
    TrainConfig longPeriod = gdConfig("diff2", 1.0, 50);
    longPeriod.extra["restart-period"] = "60";
    CHECK_THROWS_WITH(test::runQuietly(longPeriod, data), Catch::Contains("restart-period = 60"));
    // The automatic restart period is 0.01·R.
    TrainConfig automatic = gdConfig("diff2", 1.0, 500);
    automatic.extra["gd-step"] = "0.01";
    const RunResult result = test::runQuietly(automatic, data);
    CHECK(result.config.extra.at("restart-period") == "5");
}

TEST_CASE("Theory overlay: the gradient-norm rates of diff2 and dp-gd, constants unknown",
          "[diff2][dp-gd]") {
    RunResult run;
    run.theoryInputs = {{"parameters", 101.0}, {"records_per_silo_min", 1600.0}, {"silos", 10.0}};
    for (const char* algorithm : {"diff2", "dp-gd"}) {
        INFO(algorithm);
        run.config.algorithm = algorithm;
        const std::optional<RateShape> rate = theoryRate(rateInputsOf(run, 16000.0));
        REQUIRE(rate);
        CHECK_THAT(rate->label, Catch::Contains("constants unknown"));
        // It bounds the squared gradient norm, not the test error: views fit it to that column.
        CHECK(rate->metric == "gradient_norm_squared");
        const bool diff2 = std::string(algorithm) == "diff2";
        // d^(2/3)/(N ε)^(4/3) and √d/(N ε), N = nmin·P = 16000.
        const double atOne = diff2 ? std::cbrt(101.0 * 101.0) / std::pow(16000.0, 4.0 / 3.0)
                                   : std::sqrt(101.0) / 16000.0;
        CHECK(rate->f(1.0) == Approx(atOne).epsilon(1e-12));
        CHECK(rate->f(8.0) / rate->f(1.0) == Approx(diff2 ? 1.0 / 16.0 : 1.0 / 8.0).epsilon(1e-12));
        CHECK(rate->f(INFINITY) == 0.0);
    }
    // Without the sizes a run records, no rate.
    run.theoryInputs.clear();
    CHECK_FALSE(theoryRate(rateInputsOf(run, 16000.0)));
}

TEST_CASE("The synthetic-teacher data: 20,000 rows, 8 features, targets scaled to max |y| = 1",
          "[diff2][data]") {
    const TabularData data = loadBuiltinDataset([] {
        DatasetRequest request;
        request.name = "synthetic-teacher";
        return request;
    }());
    REQUIRE(data.target.size() == 20000);
    CHECK(data.features.size() == 8);
    double largest = 0.0, sum = 0.0, squares = 0.0;
    for (double y : data.target) {
        largest = std::max(largest, std::abs(y));
        sum += y;
        squares += y * y;
    }
    CHECK(largest == 1.0);
    // Not a constant: the teacher's signal and the noise spread the targets.
    const double variance = squares / 20000 - (sum / 20000) * (sum / 20000);
    CHECK(variance > 0.01);
    // Reproducible, and another generator seed gives other data.
    CHECK(generateTeacher().target == data.target);
    TeacherOptions other;
    other.seed = 1;
    CHECK(generateTeacher(other).target != data.target);
    CHECK_THROWS_WITH(generateTeacher(TeacherOptions{50, 8, 1}), Catch::Contains("rows = 50"));
    const std::vector<std::string> names = builtinDatasetNames();
    CHECK(std::find(names.begin(), names.end(), "synthetic-teacher") != names.end());
}

}  // namespace core_diff2_test
