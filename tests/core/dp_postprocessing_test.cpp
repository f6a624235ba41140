// DP post-processing for equalized odds (dp-postprocessing, core/fairness/eo_postprocessing.h):
// the worked example of the linear program, the GLPK optimum against vertex enumeration and a
// brute-force grid, the Laplace noise of the table, the accounting and the evaluation modes.
#include <Eigen/LU>
#include <catch2/catch.hpp>
#include <charconv>
#include <cmath>
#include <limits>

#include "core/algorithms/registry.h"
#include "core/engine/design_matrix.h"
#include "core/fairness/eo_postprocessing.h"
#include "core/model/model.h"
#include "core/privacy/accounting_inputs.h"
#include "core/privacy/accounting_json.h"
#include "core/sweep/run_record.h"
#include "core/util/error.h"
#include "core/util/json_value.h"
#include "test_data.h"

namespace core_dp_postprocessing_test {

using namespace pfa;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// The worked example's exact counts (m = 1000).
eo::CellTable exampleCounts() {
    eo::CellTable t;
    t.at(1, 0, 1) = 135;
    t.at(0, 0, 1) = 45;
    t.at(1, 0, 0) = 63;
    t.at(0, 0, 0) = 357;
    t.at(1, 1, 1) = 40;
    t.at(0, 1, 1) = 40;
    t.at(1, 1, 0) = 16;
    t.at(0, 1, 0) = 304;
    return t;
}

/// Every row of the program (its constraint rows and the 8 box rows) holds at x within tol.
bool feasible(const eo::FlipProgram& program, const eo::FlipProbabilities& x, double tol) {
    for (int r = 0; r < program.rowCount; ++r) {
        if (eo::rowValue(program, r, x) > program.bound[static_cast<std::size_t>(r)] + tol)
            return false;
    }
    for (double v : x) {
        if (v < -tol || v > 1.0 + tol) return false;
    }
    return true;
}

double objective(const eo::FlipProgram& program, const eo::FlipProbabilities& x) {
    double value = program.constant;
    for (std::size_t j = 0; j < 4; ++j) value += program.cost[j] * x[j];
    return value;
}

/// The oracle: every vertex of the polytope, from each 4-subset of its rows (constraint rows
/// then x_j ≤ 1 and −x_j ≤ 0) held tight; returns the objective of each feasible vertex.
std::vector<double> vertexObjectives(const eo::FlipProgram& program) {
    std::vector<Eigen::Vector4d> rows;
    std::vector<double> bounds;
    for (int r = 0; r < program.rowCount; ++r) {
        const auto& a = program.rows[static_cast<std::size_t>(r)];
        rows.emplace_back(a[0], a[1], a[2], a[3]);
        bounds.push_back(program.bound[static_cast<std::size_t>(r)]);
    }
    for (int j = 0; j < 4; ++j) {
        Eigen::Vector4d e = Eigen::Vector4d::Zero();
        e(j) = 1.0;
        rows.push_back(e);
        bounds.push_back(1.0);
        rows.push_back(-e);
        bounds.push_back(0.0);
    }
    std::vector<double> values;
    const int n = static_cast<int>(rows.size());
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b)
            for (int c = b + 1; c < n; ++c)
                for (int d = c + 1; d < n; ++d) {
                    Eigen::Matrix4d M;
                    Eigen::Vector4d rhs;
                    const int pick[4] = {a, b, c, d};
                    for (int k = 0; k < 4; ++k) {
                        M.row(k) = rows[static_cast<std::size_t>(pick[k])].transpose();
                        rhs(k) = bounds[static_cast<std::size_t>(pick[k])];
                    }
                    if (std::abs(M.determinant()) < 1e-12) continue;
                    const Eigen::Vector4d x = M.partialPivLu().solve(rhs);
                    const eo::FlipProbabilities p{x(0), x(1), x(2), x(3)};
                    if (feasible(program, p, 1e-9)) values.push_back(objective(program, p));
                }
    return values;
}

/// The best objective over the grid {0, 0.01, …, 1}⁴ of feasible points. For fixed
/// (p₀₀, p₀₁, p₁₀) the feasible p₁₁ form an interval; the linear objective is smallest at one
/// of its extreme grid values.
double gridOptimum(const eo::FlipProgram& program) {
    double best = kInf;
    for (int i = 0; i <= 100; ++i)
        for (int j = 0; j <= 100; ++j)
            for (int k = 0; k <= 100; ++k) {
                const double x0 = i / 100.0, x1 = j / 100.0, x2 = k / 100.0;
                double lo = 0.0, hi = 1.0;
                for (int r = 0; r < program.rowCount; ++r) {
                    const auto& a = program.rows[static_cast<std::size_t>(r)];
                    const double rest = a[0] * x0 + a[1] * x1 + a[2] * x2;
                    const double room = program.bound[static_cast<std::size_t>(r)] - rest;
                    if (a[3] > 0)
                        hi = std::min(hi, room / a[3]);
                    else if (a[3] < 0)
                        lo = std::max(lo, room / a[3]);
                    else if (room < 0)
                        hi = -1.0;
                }
                const int first = static_cast<int>(std::ceil(lo * 100.0 - 1e-9));
                const int last = static_cast<int>(std::floor(hi * 100.0 + 1e-9));
                if (first > last) continue;
                for (int l : {first, last}) {
                    const eo::FlipProbabilities p{x0, x1, x2, l / 100.0};
                    if (feasible(program, p, 1e-12)) best = std::min(best, objective(program, p));
                }
            }
    return best;
}

TrainConfig postprocessingConfig(double epsilon) {
    TrainConfig config = test::quickConfig("dp-postprocessing", epsilon, 0.0);
    config.fairness = FairnessNotion::EqualizedOdds;
    config.scope = ProtectionScope::SensitiveOnly;
    config.epochs = 5;
    config.seed = 4;
    return config;
}

/// Hard predictions of a run's base model on `rows`.
Eigen::VectorXi basePredictions(const RunResult& result, const Dataset& rows) {
    const auto model = makeModelForClasses(2);
    const DesignMatrix design = makeDesignMatrix(rows.X, result.featureBound);
    const RowMatrix Z = design.X() * result.theta.transpose();
    RowMatrix F(rows.rows(), 2);
    model->probabilities(Z, F);
    Eigen::VectorXi predicted(rows.rows());
    Model::predict(F, predicted);
    return predicted;
}

}  // namespace

TEST_CASE("EO post-processing: the worked example's optima, exact counts, to 1e-9",
          "[dp-postprocessing][lp]") {
    const eo::NoisyRates rates = eo::noisyRates(exampleCounts(), 1000, kInf, 0.05);
    CHECK(rates.fpr[0] == Approx(0.15).margin(1e-15));
    CHECK(rates.fpr[1] == Approx(0.05).margin(1e-15));
    CHECK(rates.tpr[0] == Approx(0.75).margin(1e-15));
    CHECK(rates.tpr[1] == Approx(0.5).margin(1e-15));
    CHECK(rates.slackFpr == 0.0);
    CHECK(rates.slackTpr == 0.0);
    CHECK(eo::evaluateOnTable(exampleCounts(), eo::kIdentityFlips).error ==
          Approx(0.164).margin(1e-12));

    struct Case {
        double gamma;
        eo::FlipProbabilities x;
        double error;
    };
    const Case cases[] = {
        {1.0, {0, 0, 1, 1}, 0.164},
        {0.1, {0, 0, 0.8, 1}, 0.1784},
        {0.02, {0, 0.04, 0.72, 1}, 0.19472},
        {0.0, {0, 1.0 / 17, 12.0 / 17, 1}, 853.0 / 4250},
    };
    for (const Case& c : cases) {
        INFO("gamma = " << c.gamma);
        const eo::FlipProgram program = eo::buildFlipProgram(rates, c.gamma, false);
        const eo::FlipSolution solution = eo::solveFlipProgram(program);
        for (std::size_t j = 0; j < 4; ++j) CHECK(solution.p[j] == Approx(c.x[j]).margin(1e-9));
        CHECK(solution.objective == Approx(c.error).margin(1e-9));
        CHECK(feasible(program, solution.p, 1e-9));
        // The expected error on the (exact) table is the program's objective.
        CHECK(eo::evaluateOnTable(exampleCounts(), solution.p).error ==
              Approx(c.error).margin(1e-9));
    }
}

TEST_CASE("EO post-processing: the worked example with the slacks of ε = 1, β = 0.05",
          "[dp-postprocessing][lp]") {
    const eo::NoisyRates rates = eo::noisyRates(exampleCounts(), 1000, 1.0, 0.05);
    CHECK(rates.slackFpr == Approx(0.0634396727).margin(1e-9));
    CHECK(rates.slackTpr == Approx(0.2537586908).margin(1e-9));
    const eo::FlipProgram program = eo::buildFlipProgram(rates, 0.02, false);
    const eo::FlipSolution solution = eo::solveFlipProgram(program);
    const eo::FlipProbabilities x{0, 0.0174319235, 1, 1};
    for (std::size_t j = 0; j < 4; ++j) CHECK(solution.p[j] == Approx(x[j]).margin(1e-9));
    CHECK(solution.objective == Approx(0.1686020278).margin(1e-9));
    CHECK(feasible(program, solution.p, 1e-9));
}

TEST_CASE("EO post-processing: the FPR-only variant drops the TPR rows",
          "[dp-postprocessing][lp]") {
    const eo::NoisyRates rates = eo::noisyRates(exampleCounts(), 1000, kInf, 0.05);
    const eo::FlipProgram program = eo::buildFlipProgram(rates, 0.0, true);
    REQUIRE(program.rowCount == 2);
    const eo::FlipSolution solution = eo::solveFlipProgram(program);
    CHECK(feasible(program, solution.p, 1e-9));
    const eo::TableMetrics metrics = eo::evaluateOnTable(exampleCounts(), solution.p);
    CHECK(std::abs(metrics.fpr[1] - metrics.fpr[0]) == Approx(0.0).margin(1e-9));
    // Equal FPRs alone cost less than equal FPRs and TPRs.
    CHECK(solution.objective < 853.0 / 4250 - 1e-6);
    const std::vector<double> vertices = vertexObjectives(program);
    REQUIRE_FALSE(vertices.empty());
    for (double v : vertices) CHECK(solution.objective <= v + 1e-9);  // oracle tolerance, see below
}

TEST_CASE("EO post-processing: GLPK's optimum is feasible, beats every vertex and the 0.01 grid",
          "[dp-postprocessing][lp][property][slow]") {
    RandomStream random(20261126, 1);
    int checked = 0;
    for (int trial = 0; trial < 60; ++trial) {
        INFO("trial " << trial);
        eo::CellTable counts;
        for (double& c : counts.count) c = std::floor(1.0 + random.uniformOpen() * 400.0);
        double rows = 0;
        for (double c : counts.count) rows += c;
        const bool withSlack = trial % 3 == 0;
        const bool fprOnly = trial % 4 == 1;
        // γ ≥ 0.05 leaves the feasible set room for grid points near the optimum (below).
        const double gamma = 0.05 + 0.3 * random.uniformOpen();
        const eo::NoisyRates rates =
            eo::noisyRates(counts, static_cast<long>(rows), withSlack ? 2.0 : kInf, 0.05);
        const eo::FlipProgram program = eo::buildFlipProgram(rates, gamma, fprOnly);
        const eo::FlipSolution solution = eo::solveFlipProgram(program);
        CHECK(feasible(program, solution.p, 1e-9));
        CHECK(solution.objective == Approx(objective(program, solution.p)).margin(1e-15));

        // The oracle keeps vertices that satisfy every row within 1e-9 (rounding of the 4×4
        // solves), so a kept vertex can sit up to 1e-9 outside a row and undercut the exact
        // optimum by that order (measured: ≤ 4e-12): compare to 1e-9.
        const std::vector<double> vertices = vertexObjectives(program);
        REQUIRE_FALSE(vertices.empty());
        double bestVertex = kInf;
        for (double v : vertices) {
            INFO("vertex " << v << " below the optimum by " << solution.objective - v);
            CHECK(solution.objective <= v + 1e-9);
            bestVertex = std::min(bestVertex, v);
        }
        CHECK(solution.objective == Approx(bestVertex).margin(1e-9));

        // Every feasible grid point is in the polytope, so the grid cannot beat the optimum.
        // Conversely, x' = (1 − t)x* (t = 0.01/γ; 0 is feasible with slack γ) has slack ≥ 0.01
        // in every row, and rounding it to the grid moves each row by ≤ 2·0.005 (rows have
        // ℓ1 norm 2), so a grid point within Σ|c_j|·(t + 0.005) of the optimum is feasible.
        const double grid = gridOptimum(program);
        double costNorm = 0.0;
        for (double c : program.cost) costNorm += std::abs(c);
        CHECK(grid >= solution.objective - 1e-12);
        CHECK(grid <= solution.objective + costNorm * (0.01 / gamma + 0.005) + 1e-12);
        ++checked;
    }
    CHECK(checked >= 50);
}

TEST_CASE("EO post-processing: clear errors for an empty cell and bad inputs",
          "[dp-postprocessing][lp]") {
    eo::CellTable counts = exampleCounts();
    counts.at(1, 1, 1) = -3.0;  // noise drove both cells of (a = 1, y = 1) to ≤ 0
    counts.at(0, 1, 1) = -0.5;
    CHECK_THROWS_WITH(eo::noisyRates(counts, 1000, 1.0, 0.05),
                      "a group/label cell is empty after noise; raise ε or merge groups");
    Eigen::VectorXi predicted(2), group(2), label(2);
    predicted << 0, 1;
    group << 0, 2;
    label << 1, 0;
    CHECK_THROWS_AS(eo::countCells(predicted, group, label), InputError);
    eo::FlipProgram program =
        eo::buildFlipProgram(eo::noisyRates(exampleCounts(), 1000, kInf, 0.05), 0.1, false);
    program.cost[2] = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_AS(eo::solveFlipProgram(program), InputError);
}

TEST_CASE("EO post-processing: the table's noise is Laplace with scale 2/ε",
          "[dp-postprocessing][noise]") {
    // Independent of the code: Laplace(b) has E|X| = b and E X = 0; for ε = 0.5, b = 2/0.5 = 4.
    const double epsilon = 0.5;
    const double b = 2.0 / epsilon;
    const eo::CellTable counts = exampleCounts();
    RandomStream random(77, 3);
    const int draws = 20000;
    double absSum = 0.0, sum = 0.0;
    for (int t = 0; t < draws; ++t) {
        const eo::CellTable noisy = eo::addLaplaceNoise(counts, epsilon, random);
        for (std::size_t c = 0; c < 8; ++c) {
            const double e = noisy.count[c] - counts.count[c];
            absSum += std::abs(e);
            sum += e;
        }
    }
    const double n = 8.0 * draws;
    // |X| is exponential with mean b and standard deviation b: the mean over n draws has
    // standard error b/√n = b/400; 6 standard errors. Scale 1/ε (b/2) would be 200 away.
    CHECK(std::abs(absSum / n - b) < 6.0 * b / std::sqrt(n));
    // X has standard deviation √2·b.
    CHECK(std::abs(sum / n) < 6.0 * std::sqrt(2.0) * b / std::sqrt(n));
    // ε = ∞ adds nothing.
    const eo::CellTable exact = eo::addLaplaceNoise(counts, kInf, random);
    CHECK(exact.count == counts.count);
}

TEST_CASE("dp-postprocessing: ε recomputed from the record is the target, δ = 0, one curve",
          "[dp-postprocessing][privacy]") {
    const DataSplit data = test::syntheticSplit(3000);
    const TrainConfig config = postprocessingConfig(1.0);
    const RunResult result = test::runQuietly(config, data);
    REQUIRE(result.status == RunStatus::Completed);
    CHECK(result.privacy.epsilonSpent == 1.0);
    CHECK(result.privacy.delta == 0.0);
    const std::string line = runRecordJson(result, RunContext{});
    const privacy::AccountingInputs back =
        privacy::accountingFromJson(parseJson(line).at("privacy").at("accounting"));
    CHECK(back.kind == privacy::ReleaseKind::NoRelease);
    REQUIRE(back.pureReleases.size() == 1);
    CHECK(privacy::certifiedEpsilon(back).epsilon == 1.0);
    // The reference grid, 9 + 9 + 5 + 51 values of which 0.01 and 0.2 appear twice (72
    // distinct γ), plus the base classifier: all from one table.
    CHECK(result.curve.size() == 73);
    CHECK(std::isinf(result.curve.back().value));
    // Every γ reads as typed in tables, legends and records: 0.0214, never the grid formula's
    // 0.021400000000000002 (shortest round trip of at most 6 significant digits).
    bool sawExample = false;
    for (const CurvePoint& point : result.curve) {
        if (!std::isfinite(point.value)) continue;
        char buffer[64];  // the shortest text that reads back as the same double
        const auto written = std::to_chars(buffer, buffer + sizeof buffer, point.value);
        const std::string shown(buffer, written.ptr);
        INFO("γ = " << shown);
        CHECK(shown.size() <= 8);
        sawExample = sawExample || shown == "0.0214";
    }
    CHECK(sawExample);
    const std::string& statement = result.privacy.statement;
    CHECK(statement.find("uses the sensitive attribute at decision time") != std::string::npos);
    CHECK(statement.find("only the sensitive attribute") != std::string::npos);
    CHECK(statement.find("Test rows used for the displayed metrics are not protected") !=
          std::string::npos);
    CHECK(statement.find("one ε") != std::string::npos);
}

TEST_CASE("dp-postprocessing: refuses whole-record scope, other notions and more than two groups",
          "[dp-postprocessing][privacy]") {
    const DataSplit data = test::syntheticSplit(800);
    TrainConfig config = postprocessingConfig(1.0);
    config.scope = ProtectionScope::AllFeatures;
    CHECK_THROWS_WITH(
        test::runQuietly(config, data),
        Catch::Contains("sensitive-only") && Catch::Contains("private run of its own"));
    config = postprocessingConfig(1.0);
    config.fairness = FairnessNotion::DemographicParity;
    CHECK_THROWS_WITH(test::runQuietly(config, data), Catch::Contains("equalized odds only"));
}

TEST_CASE("dp-postprocessing at ε = ∞ equals the exact-count linear program",
          "[dp-postprocessing][lp]") {
    const DataSplit data = test::syntheticSplit(3000);
    TrainConfig config = postprocessingConfig(kInf);
    config.extra["gamma"] = "0.01";
    const RunResult result = test::runQuietly(config, data);
    REQUIRE(result.status == RunStatus::Completed);
    CHECK(std::isinf(result.privacy.epsilonSpent));
    // The same program from exact counts of the base model's predictions, solved here.
    const eo::CellTable train =
        eo::countCells(basePredictions(result, data.train), data.train.s, data.train.y);
    const eo::NoisyRates rates =
        eo::noisyRates(train, static_cast<long>(data.train.rows()), kInf, 0.05);
    CHECK(rates.slackFpr == 0.0);
    const eo::FlipSolution solution =
        eo::solveFlipProgram(eo::buildFlipProgram(rates, 0.01, false));
    const eo::CellTable test =
        eo::countCells(basePredictions(result, data.test), data.test.s, data.test.y);
    const eo::TableMetrics expected = eo::evaluateOnTable(test, solution.p);
    CHECK(result.test.error == Approx(expected.error).margin(1e-12));
    CHECK(result.test.eoGap == Approx(expected.eoGap).margin(1e-12));
    CHECK(result.test.dpGap == Approx(expected.dpGap).margin(1e-12));
}

TEST_CASE("dp-postprocessing: sampled evaluation agrees with the expectation statistically",
          "[dp-postprocessing][evaluation][statistical]") {
    const DataSplit data = test::syntheticSplit(8000);
    TrainConfig config = postprocessingConfig(kInf);
    config.extra["gamma"] = "0";  // equal rates need randomised flips
    config.extra["gamma-grid"] = "none";
    const RunResult expectation = test::runQuietly(config, data);
    config.extra["evaluation"] = "sampled";
    const RunResult sampled = test::runQuietly(config, data);
    REQUIRE(sampled.status == RunStatus::Completed);
    // Same base model (it does not depend on the evaluation), so the same flips.
    REQUIRE(sampled.theta == expectation.theta);
    const double n = static_cast<double>(data.test.rows());
    // The sampled error is a mean of n independent Bernoulli indicators: standard deviation
    // ≤ 0.5/√n. 5 standard deviations.
    CHECK(std::abs(sampled.test.error - expectation.test.error) < 5.0 * 0.5 / std::sqrt(n));
    // The flips are really random (some row has 0 < P(ỹ = 1) < 1), so the draw differs.
    CHECK(sampled.test.error != expectation.test.error);
}

}  // namespace core_dp_postprocessing_test
