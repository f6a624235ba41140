// Worked examples A and D of dp-fermi.md §11 and properties of ERMI (§4).
#include "core/fairness/ermi.h"

#include <Eigen/SVD>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "core/fairness/ermi_penalty.h"
#include "core/fairness/fairness_metrics.h"
#include "core/fairness/penalty_layout.h"
#include "core/util/random.h"

namespace core_ermi_test {

using namespace pfa;
using Catch::Matchers::WithinAbs;

namespace {

constexpr double kTol = 1e-9;

// Example A: six rows, k = 2 groups, l = 2 classes.
struct ExampleA {
    RowMatrix F{6, 2};
    Eigen::VectorXi s{6}, y{6}, predicted{6};
    std::vector<std::string> groups{"g0", "g1"};
    ExampleA() {
        const double p[] = {0.9, 0.6, 0.7, 0.2, 0.8, 0.3};
        s << 0, 0, 0, 0, 1, 1;
        y << 1, 0, 1, 0, 1, 0;
        predicted << 1, 1, 1, 0, 1, 0;
        for (int i = 0; i < 6; ++i) {
            F(i, 0) = 1.0 - p[i];
            F(i, 1) = p[i];
        }
    }
};

Eigen::MatrixXd matrix2(double a, double b, double c, double d) {
    Eigen::MatrixXd m(2, 2);
    m << a, b, c, d;
    return m;
}

void requireMatrixNear(const Eigen::MatrixXd& actual, const Eigen::MatrixXd& expected, double tol) {
    REQUIRE(actual.rows() == expected.rows());
    REQUIRE(actual.cols() == expected.cols());
    for (Eigen::Index i = 0; i < actual.rows(); ++i) {
        for (Eigen::Index j = 0; j < actual.cols(); ++j) {
            INFO("entry (" << i << ", " << j << ")");
            CHECK_THAT(actual(i, j), WithinAbs(expected(i, j), tol));
        }
    }
}

// ψ_i for every row of Example A at W with the given shares, through ErmiPenalty.
Eigen::VectorXd psiValues(const ExampleA& a, const Eigen::MatrixXd& W,
                          const Eigen::VectorXd& shares) {
    PenaltyLayout layout(FairnessNotion::DemographicParity, 2, 2, 1);
    ErmiPenalty penalty(layout, shares);
    penalty.setW(W);
    Eigen::VectorXd psi(6);
    Eigen::RowVectorXd c(2);
    for (int i = 0; i < 6; ++i) {
        penalty.classWeights(a.s(i), c);
        psi(i) = a.F.row(i).dot(c) - 1.0;
    }
    return psi;
}

Eigen::MatrixXd meanWGradient(const ExampleA& a, const Eigen::MatrixXd& W,
                              const Eigen::VectorXd& shares, int onlyRow = -1) {
    PenaltyLayout layout(FairnessNotion::DemographicParity, 2, 2, 1);
    ErmiPenalty penalty(layout, shares);
    penalty.setW(W);
    penalty.beginAccumulation();
    for (int i = 0; i < 6; ++i) {
        if (onlyRow >= 0 && i != onlyRow) continue;
        penalty.accumulate(a.s(i), a.F.row(i), 1.0);
    }
    Eigen::MatrixXd gradient(2, 2);
    penalty.finishAccumulation(gradient);
    return onlyRow >= 0 ? gradient : Eigen::MatrixXd(gradient / 6.0);
}

}  // namespace

TEST_CASE("Example A: soft and hard ERMI", "[ermi][spec]") {
    ExampleA a;
    CHECK_THAT(Ermi::soft(a.F, a.s, 2), WithinAbs(2.0 / 875.0, kTol));
    CHECK_THAT(Ermi::hard(a.predicted, a.s, 2, 2), WithinAbs(1.0 / 16.0, kTol));
}

TEST_CASE("Example A: closed-form maximiser W* and its value", "[ermi][spec]") {
    ExampleA a;
    const Eigen::MatrixXd Wstar = Ermi::maximiser(a.F, a.s, a.y, 2);
    requireMatrixNear(Wstar, matrix2(0.7838367177, 0.8398250547, 0.6235382907, 0.5443588252), 1e-9);
    Eigen::VectorXd shares(2);
    shares << 2.0 / 3.0, 1.0 / 3.0;
    CHECK_THAT(psiValues(a, Wstar, shares).mean(), WithinAbs(2.0 / 875.0, kTol));
}

TEST_CASE("Example A: class weights, psi and W-gradients at a given W", "[ermi][spec]") {
    ExampleA a;
    const Eigen::MatrixXd W = matrix2(0.5, -0.2, 0.1, 0.3);
    Eigen::VectorXd shares(2);
    shares << 2.0 / 3.0, 1.0 / 3.0;
    PenaltyLayout layout(FairnessNotion::DemographicParity, 2, 2, 1);
    ErmiPenalty penalty(layout, shares);
    penalty.setW(W);
    Eigen::RowVectorXd c(2);
    penalty.classWeights(0, c);
    CHECK_THAT(c(0), WithinAbs(0.9647448714, 1e-9));
    CHECK_THAT(c(1), WithinAbs(-0.6198979486, 1e-9));
    penalty.classWeights(1, c);
    CHECK_THAT(c(0), WithinAbs(0.0864101615, 1e-9));
    CHECK_THAT(c(1), WithinAbs(0.9092304845, 1e-9));

    const Eigen::VectorXd psi = psiValues(a, W, shares);
    const double expected[] = {-1.4614336666, -0.9860408206, -1.1445051026,
                               -0.3521836926, -0.2553335801, -0.6667437416};
    for (int i = 0; i < 6; ++i) CHECK_THAT(psi(i), WithinAbs(expected[i], 1e-9));
    CHECK_THAT(psi.mean(), WithinAbs(-0.8110401007, 1e-9));

    requireMatrixNear(meanWGradient(a, W, shares, 0),
                      matrix2(0.1449489743, 2.5645407685, -0.02, -0.54), 1e-9);
    requireMatrixNear(meanWGradient(a, W, shares, 4),
                      matrix2(-0.2, 0.32, 0.6528203230, 2.2912812921), 1e-9);
    requireMatrixNear(meanWGradient(a, W, shares),
                      matrix2(0.2365305981, 1.2131292304, 0.4362819089, 0.2850852961), 1e-9);
}

TEST_CASE("Example A: W-gradient norm matches the explicit gradient", "[ermi]") {
    ExampleA a;
    const Eigen::MatrixXd W = matrix2(0.5, -0.2, 0.1, 0.3);
    Eigen::VectorXd shares(2);
    shares << 2.0 / 3.0, 1.0 / 3.0;
    PenaltyLayout layout(FairnessNotion::DemographicParity, 2, 2, 1);
    ErmiPenalty penalty(layout, shares);
    penalty.setW(W);
    for (int i = 0; i < 6; ++i) {
        const double explicitNorm = meanWGradient(a, W, shares, i).squaredNorm();
        CHECK_THAT(penalty.wGradientNormSquared(a.s(i), a.F.row(i)),
                   WithinAbs(explicitNorm, 1e-12));
    }
}

TEST_CASE("Example A: hard metrics", "[metrics][spec]") {
    ExampleA a;
    const FairnessMetrics m = evaluateFairness(a.predicted, a.F, a.y, a.s, a.groups, 2, 1);
    CHECK_THAT(m.error, WithinAbs(1.0 / 6.0, kTol));
    CHECK_THAT(m.dpGap, WithinAbs(0.25, kTol));
    CHECK_THAT(m.dpGapVsMarginal, WithinAbs(1.0 / 6.0, kTol));
    CHECK_THAT(m.eoGap, WithinAbs(0.5, kTol));
    CHECK_THAT(m.eoppGap, WithinAbs(0.0, kTol));
    CHECK_THAT(m.ermiDpSoft, WithinAbs(2.0 / 875.0, kTol));
    CHECK_THAT(m.ermiDpHard, WithinAbs(1.0 / 16.0, kTol));
    CHECK_THAT(m.ermiEoSoft, WithinAbs(1.0 / 209.0, kTol));
    CHECK_THAT(m.ermiEoHard, WithinAbs(1.0 / 8.0, kTol));
    CHECK_THAT(m.ermiEoppSoft, WithinAbs(0.0, kTol));
    CHECK_THAT(m.ermiEoppHard, WithinAbs(0.0, kTol));
    REQUIRE(m.groups.size() == 2);
    CHECK(m.groups[0].n == 4);
    CHECK_THAT(m.groups[0].baseRate, WithinAbs(0.5, kTol));
    CHECK_THAT(m.groups[0].selectionRate, WithinAbs(0.75, kTol));
    CHECK_THAT(m.groups[0].truePositiveRate, WithinAbs(1.0, kTol));
    CHECK_THAT(m.groups[0].falsePositiveRate, WithinAbs(0.5, kTol));
    CHECK_THAT(m.groups[0].accuracy, WithinAbs(0.75, kTol));
    CHECK_THAT(m.groups[1].selectionRate, WithinAbs(0.5, kTol));
    CHECK_THAT(m.groups[1].falsePositiveRate, WithinAbs(0.0, kTol));
}

TEST_CASE("Example A: equalized-odds blocks and their maximisers", "[ermi][spec]") {
    ExampleA a;
    requireMatrixNear(Ermi::maximiser(a.F, a.s, a.y, 2, 0),
                      matrix2(0.7735230767, 0.8907235428, 0.6381239817, 0.4723774930), 1e-9);
    requireMatrixNear(Ermi::maximiser(a.F, a.s, a.y, 2, 1),
                      matrix2(0.8164965809, 0.8164965809, 0.5773502692, 0.5773502692), 1e-9);

    // (1/6) Σ ψ_i^EO at the block maximisers equals ERMI_EO = 1/209.
    PenaltyLayout layout(FairnessNotion::EqualizedOdds, 2, 2, 1);
    const Eigen::VectorXd shares = layout.sharesFromCounts(layout.cellCounts(a.y, a.s));
    CHECK_THAT(shares(0), WithinAbs(2.0 / 3.0, kTol));  // label 0, group 0
    CHECK_THAT(shares(3), WithinAbs(1.0 / 3.0, kTol));  // label 1, group 1
    Eigen::MatrixXd W(4, 2);
    W.topRows(2) = Ermi::maximiser(a.F, a.s, a.y, 2, 0);
    W.bottomRows(2) = Ermi::maximiser(a.F, a.s, a.y, 2, 1);
    ErmiPenalty penalty(layout, shares);
    penalty.setW(W);
    double sum = 0;
    Eigen::RowVectorXd c(2);
    for (int i = 0; i < 6; ++i) {
        penalty.classWeights(layout.cellOf(a.y(i), a.s(i)), c);
        sum += a.F.row(i).dot(c) - 1.0;
    }
    CHECK_THAT(sum / 6.0, WithinAbs(1.0 / 209.0, kTol));
}

TEST_CASE("Example D: hard metrics with three classes and three groups", "[metrics][spec]") {
    Eigen::VectorXi s(6), predicted(6), y(6);
    s << 0, 0, 1, 1, 2, 2;
    predicted << 0, 1, 0, 2, 1, 2;
    y << 0, 1, 1, 2, 1, 0;
    const RowMatrix noSoft(0, 3);
    const FairnessMetrics m = evaluateFairness(predicted, noSoft, y, s, {"a", "b", "c"}, 3, 1);
    CHECK_THAT(m.ermiDpHard, WithinAbs(0.5, kTol));
    CHECK_THAT(m.dpGap, WithinAbs(0.5, kTol));
    CHECK_THAT(m.dpGapVsMarginal, WithinAbs(1.0 / 3.0, kTol));
    CHECK_THAT(m.eoGap, WithinAbs(1.0, kTol));
    CHECK_THAT(m.error, WithinAbs(1.0 / 3.0, kTol));
}

TEST_CASE("ERMI properties on random instances", "[ermi]") {
    RandomStream random(7, 1);
    for (int trial = 0; trial < 50; ++trial) {
        const int n = 40, k = 2 + trial % 3, l = 2 + (trial / 3) % 3;
        RowMatrix F(n, l);
        Eigen::VectorXi s(n), y(n);
        for (int i = 0; i < n; ++i) {
            double total = 0;
            for (int j = 0; j < l; ++j) total += F(i, j) = random.uniformOpen();
            F.row(i) /= total;
            s(i) = i % k;  // every group present
            y(i) = static_cast<int>(random.uniformIndex(l));
        }
        const double ermi = Ermi::soft(F, s, k);
        CHECK(ermi >= 0.0);
        // ERMI = σ₂² of the normalised joint when min(k, l) = 2 (§4.1 "facts").
        if (std::min(k, l) == 2) {
            Eigen::MatrixXd normalised(l, k);
            const Eigen::VectorXd q = F.colwise().mean().transpose();
            for (int j = 0; j < l; ++j) {
                for (int r = 0; r < k; ++r) {
                    double J = 0;
                    for (int i = 0; i < n; ++i) J += s(i) == r ? F(i, j) : 0.0;
                    J /= n;
                    const double pi = static_cast<double>((s.array() == r).count()) / n;
                    normalised(j, r) = J / std::sqrt(q(j) * pi);
                }
            }
            const Eigen::VectorXd singular =
                Eigen::JacobiSVD<Eigen::MatrixXd>(normalised).singularValues();
            CHECK_THAT(singular(0), WithinAbs(1.0, 1e-9));
            CHECK_THAT(ermi, WithinAbs(singular(1) * singular(1), 1e-9));
        }
        // max_W (1/n) Σ ψ_i = ERMI at W* (§5.1 key identity).
        PenaltyLayout layout(FairnessNotion::DemographicParity, k, l, 1);
        const Eigen::VectorXd shares = layout.sharesFromCounts(layout.cellCounts(y, s));
        ErmiPenalty penalty(layout, shares);
        penalty.setW(Ermi::maximiser(F, s, y, k));
        double mean = 0;
        Eigen::RowVectorXd c(l);
        for (int i = 0; i < n; ++i) {
            penalty.classWeights(s(i), c);
            mean += (F.row(i).dot(c) - 1.0) / n;
        }
        CHECK_THAT(mean, WithinAbs(ermi, 1e-9));
    }
}

TEST_CASE("ERMI is zero for predictions independent of the group", "[ermi]") {
    RowMatrix F(4, 2);
    F << 0.3, 0.7, 0.6, 0.4, 0.3, 0.7, 0.6, 0.4;
    Eigen::VectorXi s(4);
    s << 0, 0, 1, 1;
    CHECK_THAT(Ermi::soft(F, s, 2), WithinAbs(0.0, 1e-15));
}

TEST_CASE("ERMI of every notion in one pass equals the six separate calls, bit for bit", "[ermi]") {
    RandomStream random(77, 3);
    for (const int classes : {2, 3}) {
        const int groups = 3;
        const Eigen::Index n = 500;
        Eigen::VectorXi predicted(n), s(n), y(n);
        RowMatrix F(n, classes);
        for (Eigen::Index i = 0; i < n; ++i) {
            predicted(i) = static_cast<int>(random.uniformIndex(classes));
            s(i) = static_cast<int>(random.uniformIndex(groups));
            y(i) = static_cast<int>(random.uniformIndex(classes));
            double total = 0.0;
            for (int j = 0; j < classes; ++j) total += (F(i, j) = random.uniformOpen());
            F.row(i) /= total;
        }
        for (const int advantaged : {0, 1}) {
            CAPTURE(classes, advantaged);
            const Ermi::AllNotions all = Ermi::all(predicted, F, s, y, groups, classes, advantaged);
            using N = FairnessNotion;
            CHECK(all.dpHard ==
                  Ermi::hard(N::DemographicParity, predicted, s, y, groups, classes, advantaged));
            CHECK(all.eoHard ==
                  Ermi::hard(N::EqualizedOdds, predicted, s, y, groups, classes, advantaged));
            CHECK(all.eoppHard ==
                  Ermi::hard(N::EqualOpportunity, predicted, s, y, groups, classes, advantaged));
            CHECK(all.dpSoft == Ermi::soft(N::DemographicParity, F, s, y, groups, advantaged));
            CHECK(all.eoSoft == Ermi::soft(N::EqualizedOdds, F, s, y, groups, advantaged));
            CHECK(all.eoppSoft == Ermi::soft(N::EqualOpportunity, F, s, y, groups, advantaged));
            CHECK(all.eoHard > 0.0);
        }
        // A prediction and a label outside the classes (read joint by joint): still the six
        // calls' numbers.
        Eigen::VectorXi oddPredicted = predicted, oddLabels = y;
        oddPredicted(3) = classes;
        oddLabels(5) = -1;
        const Ermi::AllNotions odd = Ermi::all(oddPredicted, F, s, oddLabels, groups, classes, 1);
        using N = FairnessNotion;
        CHECK(odd.dpHard ==
              Ermi::hard(N::DemographicParity, oddPredicted, s, oddLabels, groups, classes, 1));
        CHECK(odd.eoHard ==
              Ermi::hard(N::EqualizedOdds, oddPredicted, s, oddLabels, groups, classes, 1));
        CHECK(odd.eoSoft == Ermi::soft(N::EqualizedOdds, F, s, oddLabels, groups, 1));
        // Without probabilities for these rows: the soft values are not known.
        const Ermi::AllNotions hardOnly =
            Ermi::all(predicted, RowMatrix(0, classes), s, y, groups, classes, 1);
        CHECK(std::isnan(hardOnly.dpSoft));
        CHECK(hardOnly.dpHard ==
              Ermi::hard(FairnessNotion::DemographicParity, predicted, s, y, groups, classes, 1));
    }
}

namespace {

/// The error, gaps and per-group rows of two FairnessMetrics, compared bit for bit.
void checkSameRates(const FairnessMetrics& a, const FairnessMetrics& b) {
    CHECK(a.rows == b.rows);
    CHECK(a.error == b.error);
    CHECK(a.dpGap == b.dpGap);
    CHECK(a.dpGapVsMarginal == b.dpGapVsMarginal);
    CHECK(a.eoGap == b.eoGap);
    CHECK(a.eoppGap == b.eoppGap);
    REQUIRE(a.groups.size() == b.groups.size());
    for (std::size_t g = 0; g < a.groups.size(); ++g) {
        CHECK(a.groups[g].n == b.groups[g].n);
        CHECK(a.groups[g].baseRate == b.groups[g].baseRate);
        CHECK(a.groups[g].selectionRate == b.groups[g].selectionRate);
        CHECK(a.groups[g].truePositiveRate == b.groups[g].truePositiveRate);
        CHECK(a.groups[g].falsePositiveRate == b.groups[g].falsePositiveRate);
        CHECK(a.groups[g].accuracy == b.groups[g].accuracy);
    }
}

/// Every number of two FairnessMetrics, compared bit for bit.
void checkSameMetrics(const FairnessMetrics& a, const FairnessMetrics& b) {
    checkSameRates(a, b);
    CHECK(a.ermiDpHard == b.ermiDpHard);
    CHECK(a.ermiEoHard == b.ermiEoHard);
    CHECK(a.ermiEoppHard == b.ermiEoppHard);
    CHECK(a.ermiDpSoft == b.ermiDpSoft);
    CHECK(a.ermiEoSoft == b.ermiEoSoft);
    CHECK(a.ermiEoppSoft == b.ermiEoppSoft);
}

}  // namespace

TEST_CASE("Hard predictions' rates, counted, equal their masses added row by row, bit for bit",
          "[metrics]") {
    // evaluateFairnessInExpectation adds each row's probabilities one by one; with probabilities
    // 0 and 1 its masses are the hard predictions', so every rate and gap must be the same bits.
    RandomStream random(91, 5);
    const std::vector<std::string> names = {"a", "b", "c"};
    const Eigen::Index n = 5003;
    Eigen::VectorXi predicted(n), s(n), y(n);
    Eigen::VectorXd probOne(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        s(i) = static_cast<int>(random.uniformIndex(3));
        y(i) = static_cast<int>(random.uniformIndex(2));
        // Predictions that depend on the group and the label, so that every gap is nonzero.
        predicted(i) = random.uniformOpen() < 0.2 + 0.2 * s(i) + 0.3 * y(i) ? 1 : 0;
        probOne(i) = predicted(i);
    }
    RowMatrix F(n, 2);
    F.col(0) = (1.0 - probOne.array()).matrix();
    F.col(1) = probOne;
    for (const int advantaged : {0, 1}) {
        CAPTURE(advantaged);
        const FairnessMetrics counted = evaluateFairness(predicted, F, y, s, names, 2, advantaged);
        const FairnessMetrics added =
            evaluateFairnessInExpectation(probOne, y, s, names, advantaged);
        checkSameRates(counted, added);
        CHECK(counted.dpGap > 0.1);
    }
}

TEST_CASE("Fairness metrics in one pass over the rows equal the rows read one by one, bit for bit",
          "[metrics][ermi]") {
    // evaluateFairness counts the cells its rates and ERMI share in one pass, and
    // evaluateBinaryFairness does so from P(ŷ = 1) alone, in registers for up to four groups:
    // the same numbers as the separate ERMI
    // calls and the masses added row by row. Probabilities include exactly ½ (predicted 1) and
    // the value a rounding below it (predicted 0).
    // One to four groups take the registers' path, five the rows' cells one by one.
    for (const int groups : {1, 2, 3, 4, 5}) {
        RandomStream random(4242, 9);
        std::vector<std::string> names;
        for (int g = 0; g < groups; ++g) names.push_back("g" + std::to_string(g));
        const Eigen::Index n = 3001;
        Eigen::VectorXi s(n), y(n);
        Eigen::VectorXd probOne(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            s(i) = static_cast<int>(random.uniformIndex(static_cast<std::uint64_t>(groups)));
            y(i) = static_cast<int>(random.uniformIndex(2));
            const double u = random.uniformOpen();
            probOne(i) = i % 97 == 0   ? 0.5
                         : i % 89 == 0 ? std::nextafter(0.5, 0.0)
                                       : std::clamp(u + 0.15 * s(i) - 0.1 * y(i), 0.0, 1.0);
        }
        RowMatrix F(n, 2);
        F.col(1) = probOne;
        F.col(0).array() = 1.0 - probOne.array();
        const Eigen::VectorXi predicted = (probOne.array() >= 0.5).cast<int>().matrix();
        CHECK(predicted(0) == 1);
        CHECK(predicted(89) == 0);
        for (const int advantaged : {0, 1}) {
            CAPTURE(groups, advantaged);
            const FairnessMetrics onePass =
                evaluateFairness(predicted, F, y, s, names, 2, advantaged);
            const FairnessMetrics binary = evaluateBinaryFairness(probOne, y, s, names, advantaged);
            checkSameMetrics(onePass, binary);
            if (groups > 1) {
                CHECK(onePass.dpGap > 0.05);
                CHECK(onePass.ermiEoSoft > 0.0);
            }
            // Against the separate ERMI calls and hard predictions' masses added row by row.
            using N = FairnessNotion;
            CHECK(onePass.ermiDpHard ==
                  Ermi::hard(N::DemographicParity, predicted, s, y, groups, 2, advantaged));
            CHECK(onePass.ermiEoHard ==
                  Ermi::hard(N::EqualizedOdds, predicted, s, y, groups, 2, advantaged));
            CHECK(onePass.ermiEoppSoft ==
                  Ermi::soft(N::EqualOpportunity, F, s, y, groups, advantaged));
            CHECK(onePass.ermiEoSoft == Ermi::soft(N::EqualizedOdds, F, s, y, groups, advantaged));
            CHECK(onePass.ermiDpSoft ==
                  Ermi::soft(N::DemographicParity, F, s, y, groups, advantaged));
            const FairnessMetrics added =
                evaluateFairnessInExpectation(predicted.cast<double>(), y, s, names, advantaged);
            CHECK(onePass.error == added.error);
            CHECK(onePass.eoGap == added.eoGap);
            CHECK(onePass.groups.back().truePositiveRate == added.groups.back().truePositiveRate);
            // Without probabilities: the soft values are not known, the rest unchanged.
            const FairnessMetrics hardOnly =
                evaluateFairness(predicted, RowMatrix(0, 2), y, s, names, 2, advantaged);
            CHECK(std::isnan(hardOnly.ermiDpSoft));
            CHECK(hardOnly.ermiEoHard == onePass.ermiEoHard);
            CHECK(hardOnly.eoppGap == onePass.eoppGap);
        }
    }
}

TEST_CASE("Fairness metrics reject a group, label or prediction out of range with a clear error",
          "[metrics]") {
    // Before, the rates indexed their count matrices out of range for such rows.
    const std::vector<std::string> groups{"a", "b"};
    const Eigen::VectorXi y = (Eigen::VectorXi(4) << 0, 1, 1, 0).finished();
    const Eigen::VectorXi s = (Eigen::VectorXi(4) << 0, 0, 1, 1).finished();
    const Eigen::VectorXi predicted = (Eigen::VectorXi(4) << 0, 1, 0, 0).finished();
    const Eigen::VectorXd probOne = (Eigen::VectorXd(4) << 0.2, 0.7, 0.4, 0.1).finished();
    const RowMatrix none(0, 2);
    // In range: the metrics (one row of four wrong).
    REQUIRE(evaluateFairness(predicted, none, y, s, groups, 2, 1).error == 0.25);
    REQUIRE(evaluateBinaryFairness(probOne, y, s, groups, 1).error == 0.25);

    const auto message = [](const auto& evaluate) {
        try {
            evaluate();
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    Eigen::VectorXi badGroup = s;
    badGroup(2) = 2;
    Eigen::VectorXi badLabel = y;
    badLabel(1) = -1;
    Eigen::VectorXi badPrediction = predicted;
    badPrediction(3) = 5;
    CHECK(message([&] { evaluateFairness(predicted, none, y, badGroup, groups, 2, 1); }) ==
          "fairness metrics: row 2's group 2 is not one of the 2 groups");
    CHECK(message([&] { evaluateFairness(predicted, none, badLabel, s, groups, 2, 1); }) ==
          "fairness metrics: row 1's label -1 is not one of the 2 classes");
    CHECK(message([&] { evaluateFairness(badPrediction, none, y, s, groups, 2, 1); }) ==
          "fairness metrics: row 3's prediction 5 is not one of the 2 classes");
    CHECK(message([&] { evaluateFairness(predicted, none, y, s, groups, 2, 2); }) ==
          "fairness metrics: the advantaged class 2 is not one of the 2 classes");
    CHECK(message([&] { evaluateFairness(predicted, none, y, s.head(3), groups, 2, 1); }) ==
          "fairness metrics: 4 labels but 3 groups");
    CHECK(message([&] { evaluateFairness(predicted.head(3), none, y, s, groups, 2, 1); }) ==
          "fairness metrics: 3 predictions for 4 rows");
    CHECK(message([&] { evaluateBinaryFairness(probOne, y, badGroup, groups, 1); }) ==
          "fairness metrics: row 2's group 2 is not one of the 2 groups");
    CHECK(message([&] { evaluateBinaryFairness(probOne, badLabel, s, groups, 1); }) ==
          "fairness metrics: row 1's label -1 is not one of the 2 classes");
    CHECK(message([&] { evaluateFairnessInExpectation(probOne, y, badGroup, groups, 1); }) ==
          "fairness metrics: row 2's group 2 is not one of the 2 groups");
    CHECK(message([&] { evaluateFairnessInExpectation(probOne.head(3), y, s, groups, 1); }) ==
          "fairness metrics: 3 probabilities for 4 rows");
}

}  // namespace core_ermi_test
