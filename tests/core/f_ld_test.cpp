// Tests of f-ld (non-private Lagrangian-dual fair training, core/algorithms/lagrangian/f_ld.cpp)
// and of the dual step and violations shared with pf-ld
// (core/algorithms/lagrangian/lagrangian_dual.h).
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/algorithms/lagrangian/lagrangian_dual.h"
#include "core/algorithms/registry.h"
#include "test_data.h"

namespace core_f_ld_test {

using namespace pfa;
using Catch::Matchers::Contains;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TrainConfig fLdConfig(const char* dualStep) {
    TrainConfig c = test::quickConfig("f-ld", kInf, 0.0);
    c.epochs = 30;
    c.batchSize = 128;
    c.seed = 2;
    c.extra["adam-lr"] = "0.01";
    c.extra["dual-step"] = dualStep;
    return c;
}

}  // namespace

TEST_CASE("ld violations are group mean minus parent mean", "[f-ld][ld]") {
    // Example A rows (s, y) = (0,1), (0,0), (0,1), (0,0), (1,1), (1,0) with values f.
    const Eigen::VectorXi s = (Eigen::VectorXi(6) << 0, 0, 0, 0, 1, 1).finished();
    const Eigen::VectorXi y = (Eigen::VectorXi(6) << 1, 0, 1, 0, 1, 0).finished();
    const double f[6] = {0.9, 0.2, 0.7, 0.4, 0.5, 0.1};
    const ld::Cells dp(FairnessNotion::DemographicParity, ld::Constraint::Rates, 2, 1);
    const ld::Cells eo(FairnessNotion::EqualizedOdds, ld::Constraint::Rates, 2, 1);
    for (const ld::Cells* cells : {&dp, &eo}) {
        Eigen::VectorXd sums = Eigen::VectorXd::Zero(cells->count());
        for (int i = 0; i < 6; ++i) sums(cells->cellOf(y(i), s(i))) += f[i];
        Eigen::VectorXd v(cells->count());
        cells->violations(sums, cells->counts(y, s), v);
        if (cells == &dp) {
            const double all = (0.9 + 0.2 + 0.7 + 0.4 + 0.5 + 0.1) / 6.0;
            CHECK(v(0) == Approx(0.55 - all));
            CHECK(v(1) == Approx(0.3 - all));
        } else {
            // Cells y·k + s; parents: the rows with that label.
            const double negatives = (0.2 + 0.4 + 0.1) / 3.0, positives = (0.9 + 0.7 + 0.5) / 3.0;
            CHECK(v(0) == Approx(0.3 - negatives));  // (y = 0, s = 0)
            CHECK(v(1) == Approx(0.1 - negatives));  // (y = 0, s = 1)
            CHECK(v(2) == Approx(0.8 - positives));  // (y = 1, s = 0)
            CHECK(v(3) == Approx(0.5 - positives));  // (y = 1, s = 1)
        }
    }
    // Equal opportunity: only the rows with y = y* = 1 are in cells.
    const ld::Cells eopp(FairnessNotion::EqualOpportunity, ld::Constraint::Rates, 2, 1);
    CHECK(eopp.cellOf(0, 0) == -1);
    CHECK(eopp.cellOf(1, 1) == 1);
    // Accuracy parity uses the cells of demographic parity whatever the notion.
    const ld::Cells ap(FairnessNotion::EqualizedOdds, ld::Constraint::AccuracyParity, 2, 1);
    CHECK(ap.count() == 2);
    CHECK(ap.cellOf(0, 1) == 1);
}

TEST_CASE("ld dual step moves lambda toward the violated constraint", "[f-ld][ld]") {
    Eigen::VectorXd lambda = Eigen::VectorXd::Zero(4), signs(4);
    const Eigen::VectorXd v = (Eigen::VectorXd(4) << 0.3, -0.1, 0.05, -0.25).finished();
    ld::dualStep(v, 0.2, 0.1, lambda, signs);
    CHECK(lambda(0) == Approx(0.2 * 0.2));   // violated (|v| > τ): grows by s(|v| − τ)
    CHECK(lambda(1) == 0.0);                 // |v| = τ: stays 0
    CHECK(lambda(2) == 0.0);                 // |v| < τ: stays 0
    CHECK(lambda(3) == Approx(0.2 * 0.15));  // violated in the other direction: grows too
    CHECK(signs(0) == 1.0);
    CHECK(signs(1) == -1.0);
    CHECK(signs(3) == -1.0);
    // A satisfied constraint gives back its multiplier, never below 0.
    const Eigen::VectorXd satisfied = Eigen::VectorXd::Constant(4, 0.02);
    ld::dualStep(satisfied, 0.2, 0.1, lambda, signs);
    CHECK(lambda(0) == Approx(0.04 - 0.2 * 0.08));
    CHECK(lambda(3) == Approx(0.03 - 0.2 * 0.08));
    CHECK(lambda(1) == 0.0);  // never below 0
    CHECK(lambda(2) == 0.0);
}

TEST_CASE("f-ld with a dual step narrows the gap of its notion", "[f-ld][ld]") {
    // Biased synthetic data: the unconstrained model (dual-step 0) has a clear gap; the
    // multipliers grow while the constraint is violated and pull the gap down.
    const DataSplit data = test::syntheticSplit(3000, 5, 2.0);
    for (const FairnessNotion notion :
         {FairnessNotion::DemographicParity, FairnessNotion::EqualizedOdds}) {
        INFO(fairnessCode(notion));
        TrainConfig plain = fLdConfig("0");
        plain.fairness = notion;
        TrainConfig fair = fLdConfig("1");
        fair.fairness = notion;
        const RunResult a = test::runQuietly(plain, data);
        const RunResult b = test::runQuietly(fair, data);
        REQUIRE(a.status == RunStatus::Completed);
        REQUIRE(b.status == RunStatus::Completed);
        INFO("gap " << a.test.violation(notion) << " -> " << b.test.violation(notion));
        CHECK(a.test.violation(notion) > 0.05);
        CHECK(b.test.violation(notion) < 0.6 * a.test.violation(notion));
        CHECK(std::isinf(b.privacy.epsilonSpent));
        CHECK_FALSE(b.privacy.isPrivate);
        REQUIRE(b.history.size() == 30);
        // The training objective (loss + Σ λ_j |v_j|) is recorded as a diagnostic.
        CHECK(b.history.back().trainObjective >= b.history.back().trainLoss);
    }
}

TEST_CASE("f-ld refuses privacy, lambda and data it cannot constrain", "[f-ld][ld]") {
    const DataSplit data = test::syntheticSplit(400, 3);
    TrainConfig priv = fLdConfig("0.2");
    priv.epsilon = 1.0;
    CHECK_THROWS_WITH(test::runQuietly(priv, data), Contains("not differentially private"));
    TrainConfig lambda = fLdConfig("0.2");
    lambda.lambda = 1.0;
    CHECK_THROWS_WITH(test::runQuietly(lambda, data), Contains("no fairness term"));
    DataSplit three = data;
    three.train.classNames.push_back("third");
    three.test.classNames.push_back("third");
    for (Eigen::Index i = 0; i < three.train.rows(); i += 3) three.train.y(i) = 2;
    CHECK_THROWS_WITH(test::runQuietly(fLdConfig("0.2"), three), Contains("binary classifier"));
}

TEST_CASE("f-ld and pf-ld trace their curves over the dual step, not lambda", "[f-ld][ld]") {
    for (const char* name : {"f-ld", "pf-ld"}) {
        INFO(name);
        const Algorithm& algorithm = findAlgorithm(name);
        CHECK(algorithm.capabilities().curveSetting == "dual-step");
        CHECK_FALSE(algorithm.usesFairness());  // no λ control: the multipliers replace it
        bool declared = false;
        for (const ParamSpec& spec : algorithm.parameters())
            declared = declared || spec.name == "dual-step";
        CHECK(declared);
    }
    CHECK(findAlgorithm("pf-ld").supportsPrivacy());
    CHECK_FALSE(findAlgorithm("f-ld").supportsPrivacy());
}

}  // namespace core_f_ld_test
