// Finite-difference checks of every analytic gradient (dp-fermi.md §12) and worked examples
// B (one full-batch FERMI step) and C (one softmax row).
#include <catch2/catch.hpp>

#include "core/algorithms/saddle/saddle_point_trainer.h"
#include "core/engine/batch_sampler.h"
#include "core/fairness/ermi.h"
#include "core/fairness/ermi_penalty.h"
#include "core/fairness/penalty_layout.h"
#include "core/model/logistic_regression.h"
#include "core/model/softmax_regression.h"
#include "core/util/random.h"

namespace core_gradient_test {

using namespace pfa;
using Catch::Matchers::WithinAbs;

namespace {

constexpr double kStep = 1e-6;
constexpr double kTolerance = 1e-6;

/// Everything a per-row objective needs: one row x̃, its label, group cell and penalty.
struct Row {
    Eigen::RowVectorXd x;
    int y = 0;
    int cell = 0;
};

/// Mean loss + λ mean ψ over rows at (Θ, W), through the model and penalty classes.
double objective(const Model& model, const std::vector<Row>& rows, const RowMatrix& theta,
                 const Eigen::MatrixXd& W, const Eigen::VectorXd& shares,
                 const PenaltyLayout& layout, double lambda, double* psiOnly = nullptr) {
    ErmiPenalty penalty(layout, shares);
    penalty.setW(W);
    const int p = model.scoreDimension(), l = model.classes();
    double lossSum = 0, psiSum = 0;
    for (const Row& row : rows) {
        RowMatrix z(1, p), F(1, l), r(1, p);
        for (int a = 0; a < p; ++a) z(0, a) = row.x.dot(theta.row(a));
        model.probabilities(z, F);
        Eigen::VectorXd loss(1);
        const Eigen::VectorXi y = Eigen::VectorXi::Constant(1, row.y);
        model.lossAndScoreGradient(z, F, y, loss, r);
        Eigen::RowVectorXd c(l);
        penalty.classWeights(row.cell, c);
        lossSum += loss(0);
        psiSum += F.row(0).dot(c) - 1.0;
    }
    const double n = static_cast<double>(rows.size());
    if (psiOnly) *psiOnly = psiSum / n;
    return lossSum / n + lambda * psiSum / n;
}

/// Analytic gradients: (∇_Θ of mean loss + λ mean ψ, ∇_W of mean ψ).
std::pair<RowMatrix, Eigen::MatrixXd> analytic(const Model& model, const std::vector<Row>& rows,
                                               const RowMatrix& theta, const Eigen::MatrixXd& W,
                                               const Eigen::VectorXd& shares,
                                               const PenaltyLayout& layout, double lambda) {
    ErmiPenalty penalty(layout, shares);
    penalty.setW(W);
    penalty.beginAccumulation();
    const int p = model.scoreDimension(), l = model.classes();
    RowMatrix gradTheta = RowMatrix::Zero(theta.rows(), theta.cols());
    for (const Row& row : rows) {
        RowMatrix z(1, p), F(1, l), r(1, p), C(1, l), rPsi(1, p);
        for (int a = 0; a < p; ++a) z(0, a) = row.x.dot(theta.row(a));
        model.probabilities(z, F);
        Eigen::VectorXd loss(1);
        const Eigen::VectorXi y = Eigen::VectorXi::Constant(1, row.y);
        model.lossAndScoreGradient(z, F, y, loss, r);
        penalty.classWeights(row.cell, C.row(0));
        model.weightedProbabilityScoreGradient(F, C, rPsi);
        r += lambda * rPsi;
        for (int a = 0; a < p; ++a) gradTheta.row(a) += r(0, a) * row.x;
        penalty.accumulate(row.cell, F.row(0), 1.0);
    }
    Eigen::MatrixXd gradW(W.rows(), W.cols());
    penalty.finishAccumulation(gradW);
    const double n = static_cast<double>(rows.size());
    return {gradTheta / n, gradW / n};
}

void checkFiniteDifferences(const Model& model, FairnessNotion notion, unsigned seed) {
    RandomStream random(seed, 99);
    const int k = 3, l = model.classes(), d = 4, n = 12;
    const PenaltyLayout layout(notion, k, l, 1);
    std::vector<Row> rows(n);
    Eigen::VectorXi ys(n), ss(n);
    for (int i = 0; i < n; ++i) {
        rows[i].x = Eigen::RowVectorXd(d + 1);
        for (int j = 0; j < d; ++j) rows[i].x(j) = random.normal();
        rows[i].x(d) = 1.0;
        rows[i].y = i % l;
        ys(i) = rows[i].y;
        ss(i) = (i / l) % k;
    }
    const Eigen::VectorXd shares = layout.sharesFromCounts(layout.cellCounts(ys, ss));
    for (int i = 0; i < n; ++i) {
        rows[i].cell = layout.cellOf(rows[i].y, ss(i));
        if (rows[i].cell < 0) rows[i].cell = 0;  // EOpp inactive rows: treat as cell 0 here
    }
    RowMatrix theta(model.scoreDimension(), d + 1);
    for (Eigen::Index i = 0; i < theta.size(); ++i) theta.data()[i] = 0.5 * random.normal();
    Eigen::MatrixXd W(layout.cells(), l);
    for (Eigen::Index i = 0; i < W.size(); ++i) W.data()[i] = 0.5 * random.normal();
    const double lambda = 0.7;

    const auto [gradTheta, gradW] = analytic(model, rows, theta, W, shares, layout, lambda);
    for (Eigen::Index i = 0; i < theta.size(); ++i) {
        RowMatrix plus = theta, minus = theta;
        plus.data()[i] += kStep;
        minus.data()[i] -= kStep;
        const double numeric = (objective(model, rows, plus, W, shares, layout, lambda) -
                                objective(model, rows, minus, W, shares, layout, lambda)) /
                               (2 * kStep);
        INFO("theta entry " << i);
        CHECK_THAT(gradTheta.data()[i], WithinAbs(numeric, kTolerance));
    }
    for (Eigen::Index i = 0; i < W.size(); ++i) {
        Eigen::MatrixXd plus = W, minus = W;
        plus.data()[i] += kStep;
        minus.data()[i] -= kStep;
        double psiPlus = 0, psiMinus = 0;
        objective(model, rows, theta, plus, shares, layout, lambda, &psiPlus);
        objective(model, rows, theta, minus, shares, layout, lambda, &psiMinus);
        INFO("W entry " << i);
        CHECK_THAT(gradW.data()[i], WithinAbs((psiPlus - psiMinus) / (2 * kStep), kTolerance));
    }
}

}  // namespace

TEST_CASE("Finite differences: logistic loss and psi gradients", "[gradient]") {
    LogisticRegression model;
    for (unsigned seed = 1; seed <= 3; ++seed) {
        checkFiniteDifferences(model, FairnessNotion::DemographicParity, seed);
        checkFiniteDifferences(model, FairnessNotion::EqualizedOdds, seed + 10);
    }
}

TEST_CASE("Finite differences: softmax loss and psi gradients", "[gradient]") {
    SoftmaxRegression model(3);
    for (unsigned seed = 1; seed <= 3; ++seed) {
        checkFiniteDifferences(model, FairnessNotion::DemographicParity, seed);
        checkFiniteDifferences(model, FairnessNotion::EqualizedOdds, seed + 20);
    }
    SoftmaxRegression four(4);
    checkFiniteDifferences(four, FairnessNotion::DemographicParity, 42);
}

TEST_CASE("Example C: one softmax row", "[gradient][spec]") {
    SoftmaxRegression model(3);
    RowMatrix theta(3, 3);
    theta << 0.2, -0.1, 0.0, 0.5, 0.3, -0.2, -0.4, 0.1, 0.1;
    Eigen::RowVectorXd x(3);
    x << 1, 2, 1;
    Eigen::VectorXd shares(2);
    shares << 0.6, 0.4;
    Eigen::MatrixXd W(2, 3);
    W << 0.3, -0.1, 0.2, 0.0, 0.4, -0.3;
    const PenaltyLayout layout(FairnessNotion::DemographicParity, 2, 3, 1);
    ErmiPenalty penalty(layout, shares);
    penalty.setW(W);

    RowMatrix z(1, 3), F(1, 3), C(1, 3), g(1, 3);
    for (int a = 0; a < 3; ++a) z(0, a) = x.dot(theta.row(a));
    model.probabilities(z, F);
    CHECK_THAT(F(0, 0), WithinAbs(0.2291244418, 1e-9));
    CHECK_THAT(F(0, 1), WithinAbs(0.5635551899, 1e-9));
    CHECK_THAT(F(0, 2), WithinAbs(0.2073203683, 1e-9));
    penalty.classWeights(1, C.row(0));
    CHECK_THAT(C(0, 0), WithinAbs(-0.09, 1e-9));
    CHECK_THAT(C(0, 1), WithinAbs(1.0949110641, 1e-9));
    CHECK_THAT(C(0, 2), WithinAbs(-1.0786832981, 1e-9));
    CHECK_THAT(F.row(0).dot(C.row(0)) - 1.0, WithinAbs(-0.6272114058, 1e-9));

    model.weightedProbabilityScoreGradient(F, C, g);
    const double expectedTheta[3][3] = {{-0.1060361783, -0.2120723566, -0.1060361783},
                                        {0.4069558656, 0.8139117313, 0.4069558656},
                                        {-0.3009196873, -0.6018393746, -0.3009196873}};
    for (int a = 0; a < 3; ++a) {
        for (int j = 0; j < 3; ++j)
            CHECK_THAT(g(0, a) * x(j), WithinAbs(expectedTheta[a][j], 1e-9));
    }
    penalty.beginAccumulation();
    penalty.accumulate(1, F.row(0), 1.0);
    Eigen::MatrixXd gradW(2, 3);
    penalty.finishAccumulation(gradW);
    const double expectedW[2][3] = {{-0.1374746651, 0.1127110380, -0.0829281473},
                                    {0.7245551037, 1.3312738353, 0.7799967902}};
    for (int r = 0; r < 2; ++r) {
        for (int j = 0; j < 3; ++j) CHECK_THAT(gradW(r, j), WithinAbs(expectedW[r][j], 1e-9));
    }
}

TEST_CASE("Example B: one noise-free full-batch FERMI step", "[trainer][spec]") {
    DataSplit data;
    Dataset& train = data.train;
    train.name = "example-b";
    train.X.resize(6, 2);
    train.X << 1.0, 0.5, 0.2, 1.0, 0.8, -0.3, -1.0, 0.4, 0.5, 0.9, -0.6, -0.8;
    train.y.resize(6);
    train.y << 1, 0, 1, 0, 1, 0;
    train.s.resize(6);
    train.s << 0, 0, 0, 0, 1, 1;
    train.classNames = {"0", "1"};
    train.groupNames = {"g0", "g1"};
    data.test = train;

    TrainConfig config;
    config.algorithm = "fermi";
    config.epsilon = INFINITY;
    config.lambda = 1.0;
    config.epochs = 1;
    config.batchSize = 6;
    config.lrTheta = 0.1;
    config.lrW = 0.1;
    config.sampling = Sampling::Shuffle;

    TrainerPlan plan;
    plan.penalty = true;
    plan.lambda = 1.0;
    plan.shares = Eigen::Vector2d(2.0 / 3.0, 1.0 / 3.0);
    plan.sampler = rowSampler(config, data.train);
    plan.radius = 100.0;  // inactive
    plan.initialTheta = RowMatrix(1, 3);
    *plan.initialTheta << 0.8, -0.5, 0.1;
    plan.initialW = Eigen::MatrixXd(2, 2);
    *plan.initialW << 0.5, -0.2, 0.1, 0.3;

    TrainingObserver observer;
    CancelToken cancel;
    const RunResult result = runSaddlePointTrainer(config, plan, data, observer, cancel);
    REQUIRE(result.steps == 1);
    CHECK_THAT(result.theta(0, 0), WithinAbs(0.8285901514, 1e-9));
    CHECK_THAT(result.theta(0, 1), WithinAbs(-0.4841375375, 1e-9));
    CHECK_THAT(result.theta(0, 2), WithinAbs(0.1146044899, 1e-9));
    CHECK_THAT(result.W(0, 0), WithinAbs(0.5296405160, 1e-9));
    CHECK_THAT(result.W(0, 1), WithinAbs(-0.0937107232, 1e-9));
    CHECK_THAT(result.W(1, 0), WithinAbs(0.1471006063, 1e-9));
    CHECK_THAT(result.W(1, 1), WithinAbs(0.3276178828, 1e-9));

    // Quantities at θ_0: σ_i, mean BCE, soft ERMI, and the feature bound of §7.3.
    LogisticRegression model;
    RowMatrix z(6, 1), F(6, 2), r(6, 1);
    Eigen::VectorXd loss(6);
    for (int i = 0; i < 6; ++i) {
        z(i, 0) = train.X(i, 0) * 0.8 + train.X(i, 1) * -0.5 + 0.1;
    }
    model.probabilities(z, F);
    model.lossAndScoreGradient(z, F, train.y, loss, r);
    const double sigmas[] = {0.6570104627, 0.4402863507, 0.7088901726,
                             0.2890504974, 0.5124973965, 0.5049998333};
    for (int i = 0; i < 6; ++i) CHECK_THAT(F(i, 1), WithinAbs(sigmas[i], 1e-9));
    CHECK_THAT(loss.mean(), WithinAbs(0.5095417790, 1e-9));
    CHECK_THAT(Ermi::soft(F, train.s, 2), WithinAbs(0.0002019086, 1e-9));
    const Eigen::VectorXd meanLossGradient = (train.X.transpose() * r).col(0) / 6.0;
    CHECK_THAT(meanLossGradient(0), WithinAbs(-0.2206036380, 1e-9));
    CHECK_THAT(meanLossGradient(1), WithinAbs(-0.0618345801, 1e-9));
    CHECK_THAT(r.mean(), WithinAbs(0.0187891189, 1e-9));
}

}  // namespace core_gradient_test
