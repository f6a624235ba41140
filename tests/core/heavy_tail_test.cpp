// The exact excess risk of regression runs (the least-squares optimum of the training rows and
// its test MSE), the shared heavy-tail pieces (bias bound of a noisy clipped mean, §10.5 of the
// heavy-tail design), the generator's tail knob (Gaussian ν = ∞, infinite variance ν ≤ 2) and
// the data-set key; plus the measurements behind the README's figures, printed as tables and
// checked against its claims ([heavy-tail-table]).
#include <Eigen/Dense>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <string>

#include "core/algorithms/heavy_tail/heavy_tail_steps.h"
#include "core/algorithms/registry.h"
#include "core/config/parameters.h"
#include "core/data/heavy_tailed.h"
#include "core/data/preprocessing.h"
#include "core/engine/evaluator.h"
#include "core/sweep/prepared_dataset.h"
#include "core/sweep/run_record.h"
#include "core/sweep/theory_rates.h"
#include "core/util/format.h"
#include "core/util/json_value.h"
#include "core/util/random.h"
#include "test_data.h"

namespace core_heavy_tail_test {

using namespace pfa;

namespace {

DataSplit heavy(int rows, double featureTail = 3.0, int features = 5, double outlierShare = 0.01) {
    HeavyTailedOptions o;
    o.outlierShare = outlierShare;
    o.rows = rows;
    o.features = features;
    o.featureTail = featureTail;
    return splitAndEncode(generateHeavyTailed(o));
}

/// (X̃ᵀX̃/n + (µ/2)I)⁻¹X̃ᵀy/n by LDLT of the normal equations (independent of the solver under test).
Eigen::VectorXd normalEquations(const Dataset& train, double mu) {
    const Eigen::Index n = train.rows(), d = train.features();
    Eigen::MatrixXd X(n, d + 1);
    X << train.X, Eigen::VectorXd::Ones(n);
    const Eigen::MatrixXd A =
        X.transpose() * X / n + 0.5 * mu * Eigen::MatrixXd::Identity(d + 1, d + 1);
    return A.ldlt().solve(X.transpose() * train.target / n);
}

/// ∇ of (1/n)Σ(⟨w, x̃⟩ − y)² + (µ/2)‖w‖².
Eigen::VectorXd objectiveGradient(const Dataset& train, double mu, const Eigen::VectorXd& w) {
    const Eigen::Index n = train.rows(), d = train.features();
    Eigen::MatrixXd X(n, d + 1);
    X << train.X, Eigen::VectorXd::Ones(n);
    return 2.0 * X.transpose() * (X * w - train.target) / n + mu * w;
}

TrainConfig heavyConfig(const std::string& algorithm, double epsilon, std::uint64_t seed) {
    TrainConfig c;
    c.algorithm = algorithm;
    c.epsilon = epsilon;
    c.delta = 1e-5;
    c.seed = seed;
    c.lambda = 0.0;
    return c;
}

}  // namespace

TEST_CASE("The exact least-squares optimum: zero gradient of the training objective",
          "[excess-risk]") {
    const DataSplit data = heavy(6000);  // outliers ×100: a badly conditioned X̃ᵀX̃
    for (double mu : {0.0, 0.1, 2.0}) {
        INFO("ridge " << mu);
        const Eigen::VectorXd w = leastSquaresOptimum(data.train, mu);
        REQUIRE(w.size() == data.train.features() + 1);
        const Eigen::VectorXd reference = normalEquations(data.train, mu);
        // The objective's gradient at the optimum vanishes (relative to its size at w = 0).
        const double scale =
            objectiveGradient(data.train, mu, Eigen::VectorXd::Zero(w.size())).norm();
        CHECK(objectiveGradient(data.train, mu, w).norm() <= 1e-10 * scale);
        CHECK((w - reference).norm() <= 1e-8 * (1 + reference.norm()));
        // Any other point has a larger objective (a convexity check that a wrong solve fails).
        Eigen::VectorXd other = w;
        other(0) += 1e-3;
        auto objective = [&](const Eigen::VectorXd& v) {
            return evaluateRegression(data.train, v).testMse + 0.5 * mu * v.squaredNorm();
        };
        CHECK(objective(other) > objective(w));
    }
    // Rows that do not determine w (a duplicated column, no ridge): the minimum-norm solution.
    DataSplit twin = data;
    twin.train.X.col(1) = twin.train.X.col(0);
    const Eigen::VectorXd w = leastSquaresOptimum(twin.train, 0.0);
    REQUIRE(w.allFinite());
    CHECK(w(0) == Approx(w(1)).epsilon(1e-8));
    CHECK(objectiveGradient(twin.train, 0.0, w).norm() <=
          1e-9 * objectiveGradient(twin.train, 0.0, 0 * w).norm());
}

TEST_CASE(
    "Heavy-tail runs report the excess risk over the exact optimum, per evaluation and at the end",
    "[excess-risk]") {
    const DataSplit data = heavy(8000);
    for (const char* algorithm :
         {"noisy-clipped-gd", "accelerated-clipped-gd", "proximal-clipped-gd"}) {
        INFO(algorithm);
        const RunResult r = test::runQuietly(heavyConfig(algorithm, 1.0, 2), data);
        REQUIRE(r.status == RunStatus::Completed);
        const bool ridge = std::string(algorithm) != "accelerated-clipped-gd";
        const Eigen::VectorXd optimum = normalEquations(data.train, ridge ? 0.1 : 0.0);
        const double optimumMse = evaluateRegression(data.test, optimum).testMse;
        CHECK(r.regression.optimumMse == Approx(optimumMse).epsilon(1e-9));
        CHECK(r.regression.excessRisk == Approx(r.regression.testMse - optimumMse).epsilon(1e-9));
        REQUIRE(r.history.size() > 2);
        for (const EpochMetrics& m : r.history)
            CHECK(m.excessRisk == Approx(m.testError - optimumMse).epsilon(1e-9));
        // The record keeps both, and the per-evaluation column.
        const RunResult back = runResultFromJson(parseJson(runRecordJson(r, RunContext{})));
        CHECK(back.regression.excessRisk == Approx(r.regression.excessRisk).epsilon(1e-15));
        CHECK(back.regression.optimumMse == Approx(r.regression.optimumMse).epsilon(1e-15));
        // (the per-evaluation columns are written with 7 significant digits)
        CHECK(back.history.back().excessRisk == Approx(r.history.back().excessRisk).epsilon(1e-6));
    }
}

TEST_CASE("The excess-risk reference is solved once per data and ridge, and again for other data",
          "[excess-risk]") {
    const DataSplit data = heavy(3000);
    const ExcessRiskReference first = excessRiskReference(data.train, data.test, 0.1);
    const ExcessRiskReference again = excessRiskReference(data.train, data.test, 0.1);
    REQUIRE(first.optimum.size() == data.train.features() + 1);
    CHECK(again.optimum == first.optimum);
    CHECK(first.optimum == leastSquaresOptimum(data.train, 0.1));
    CHECK(first.optimumMse == evaluateRegression(data.test, first.optimum).testMse);
    // Another ridge, other rows, another test set: each its own reference.
    CHECK(excessRiskReference(data.train, data.test, 0.0).optimum ==
          leastSquaresOptimum(data.train, 0.0));
    DataSplit changed = data;
    changed.train.target(0) += 5.0;
    CHECK(excessRiskReference(changed.train, changed.test, 0.1).optimum ==
          leastSquaresOptimum(changed.train, 0.1));
    CHECK(excessRiskReference(changed.train, changed.test, 0.1).optimum != first.optimum);
    changed = data;
    changed.test.target(0) += 5.0;
    CHECK(excessRiskReference(changed.train, changed.test, 0.1).optimumMse ==
          evaluateRegression(changed.test, first.optimum).testMse);
    CHECK(excessRiskReference(changed.train, changed.test, 0.1).optimumMse != first.optimumMse);
}

TEST_CASE("Noisy clipped mean of Pareto(3) samples: bias below r_k^k/((k−1)C^{k−1}) at k = 2.5",
          "[excess-risk][accelerated-clipped-gd]") {
    // Pareto shape 3, scale 1: E X = 1.5, E X^2.5 = 3/(3 − 2.5) = 6 = r_k^k. Means of s = 100
    // clipped samples plus N(0, σ²) noise; the bias is measured over 4000 such means.
    RandomStream random(11, 12);
    const int means = 4000, s = 100;
    const double rk = std::pow(6.0, 1 / 2.5);
    for (double C : {1.2, 2.0, 5.0}) {
        const double sigma = heavyTailSigma(C, s, 0.5);  // 2C/(s√(2ρ)), ρ = 0.5
        CHECK(sigma == Approx(2 * C / (s * 1.0)).epsilon(1e-15));
        double sum = 0.0;
        for (int m = 0; m < means; ++m) {
            double clipped = 0.0;
            for (int i = 0; i < s; ++i)
                clipped += std::min(std::pow(random.uniformOpen(), -1.0 / 3.0), C);
            sum += clipped / s + sigma * random.normal();
        }
        const double bias = 1.5 - sum / means;
        const double bound = clippedMeanBiasBound(rk, 2.5, C);
        // The tail bound, or r_k = E‖g‖'s bound where that is smaller (C = 1.2: 3.04 > 2.05).
        CHECK(bound == Approx(std::min(rk, 6.0 / (1.5 * std::pow(C, 1.5)))).epsilon(1e-12));
        INFO("C = " << C << ": bias " << bias << " (exact 1/(2C²) = " << 1 / (2 * C * C)
                    << "), bound " << bound);
        CHECK(bias < bound);
        CHECK(bias == Approx(1 / (2 * C * C)).margin(0.02));
    }
}

TEST_CASE("The heavy-tailed generator's tail knob: Gaussian at ν = ∞, infinite variance allowed",
          "[excess-risk]") {
    HeavyTailedOptions o;
    o.rows = 20000;
    o.features = 2;
    o.outlierShare = 0.0;
    auto kurtosis = [](const TabularData& t) {
        const std::vector<double>& x = t.features[0].numeric;
        double m2 = 0, m4 = 0;
        for (double v : x) {
            m2 += v * v;
            m4 += v * v * v * v;
        }
        m2 /= x.size();
        m4 /= x.size();
        return m4 / (m2 * m2);
    };
    o.featureTail = INFINITY;
    const double gaussian = kurtosis(generateHeavyTailed(o));
    CHECK(gaussian == Approx(3.0).margin(0.15));
    o.featureTail =
        5.0;  // kurtosis of t_5: 3 + 6/(5 − 4) = 9 (the sample's is noisy, but far above 3)
    CHECK(kurtosis(generateHeavyTailed(o)) > 5.0);
    o.featureTail = 1.5;  // no finite variance: generated, raw t
    const TabularData wild = generateHeavyTailed(o);
    CHECK(heavyTailedFeatureScale(1.5) == 1.0);
    CHECK(kurtosis(wild) > 50.0);
    o.featureTail = 0.0;
    CHECK_THROWS_WITH(generateHeavyTailed(o), Catch::Contains("feature tail"));
    CHECK(admissibleTailIndex(3.0) == 2.5);
    CHECK(std::isinf(admissibleTailIndex(INFINITY)));

    // Differing knobs never share a data-set key.
    DatasetRequest a;
    a.name = "synthetic-heavy-tailed";
    DatasetRequest b = a;
    b.knobs<HeavyTailedOptions>().featureTail = INFINITY;
    DatasetRequest c = a;
    c.knobs<HeavyTailedOptions>().outlierScale = 50;
    CHECK(datasetKey(a) != datasetKey(b));
    CHECK(datasetKey(a) != datasetKey(c));
    CHECK(datasetKey(b).find("nu=inf") != std::string::npos);
}

TEST_CASE("The worst-case Lipschitz clip rule: C from the rows, named as not protected",
          "[excess-risk][privacy]") {
    const DataSplit data = heavy(2000);
    // C = max_i 2(|y_i| + D‖x̃_i‖)‖x̃_i‖ over the training rows, written out here.
    const auto expectedClip = [&](double radius) {
        double largest = 0.0;
        for (Eigen::Index i = 0; i < data.train.rows(); ++i) {
            const double norm = std::sqrt(data.train.X.row(i).squaredNorm() + 1.0);
            largest =
                std::max(largest, 2.0 * (std::abs(data.train.target(i)) + radius * norm) * norm);
        }
        return largest;
    };
    for (const char* algorithm :
         {"noisy-clipped-gd", "accelerated-clipped-gd", "proximal-clipped-gd"}) {
        INFO(algorithm);
        for (double radius : {std::numeric_limits<double>::infinity(), 3.0}) {
            TrainConfig c = heavyConfig(algorithm, 1.0, 0);
            c.extra["clip-rule"] = "worst-case";
            c.extra["domain-radius"] = realText(radius);
            const PreparedConfig prepared = prepareRun(findAlgorithm(algorithm), c, data);
            // D = 10 stands in for an unbounded domain.
            const double clip = expectedClip(std::isinf(radius) ? 10.0 : radius);
            CHECK(ownNumber(prepared.config(), "clip-norm") == Approx(clip).epsilon(1e-12));
            // The bound holds on the domain the iterates are projected onto.
            CHECK(ownNumber(prepared.config(), "domain-radius") ==
                  (std::isinf(radius) ? 10.0 : radius));
            REQUIRE(prepared.config().readFromData.size() >= 1);
            CHECK(prepared.config().readFromData.front().name == "clip-norm");
            CHECK(prepared.config().readFromData.front().readsContent);
        }
        // The run: C disclosed as not protected, and nothing certified (C depends on the
        // rows), with the value for a public C kept as a heuristic.
        TrainConfig c = heavyConfig(algorithm, 1.0, 0);
        c.extra["clip-rule"] = "worst-case";
        const RunResult result = test::runQuietly(c, data);
        REQUIRE(result.status == RunStatus::Completed);
        CHECK_FALSE(result.privacy.certified);
        CHECK(std::isinf(result.privacy.epsilonSpent));
        CHECK(result.privacy.epsilonHeuristic > 0.0);
        CHECK(result.privacy.epsilonHeuristic <= 1.0 + 1e-9);
        bool disclosed = false;
        for (const privacy::Disclosure& d : result.privacy.disclosures) {
            for (const std::string& field : d.fields)
                disclosed = disclosed || field == "settings.clip-norm";
        }
        CHECK(disclosed);
        // The tail-calibrated rule reads nothing from the rows' values.
        TrainConfig tail = heavyConfig(algorithm, 1.0, 0);
        const PreparedConfig calibrated = prepareRun(findAlgorithm(algorithm), tail, data);
        for (const DataDerivedSetting& s : calibrated.config().readFromData)
            CHECK_FALSE(s.readsContent);
        CHECK(test::runQuietly(tail, data).privacy.certified);
    }
}

TEST_CASE("Heavy-tail theory rates use the run's k, d and n", "[excess-risk]") {
    RateInputs in;
    in.n = 10000;
    in.d = 20;
    in.delta = 1e-5;
    in.settings["tail-index"] = "2.5";
    in.settings["domain-radius"] = "inf";
    in.settings["smoothness"] = "2";
    in.settings["moment-bound"] = "1";
    in.settings["ridge"] = "0.1";
    in.algorithm = "accelerated-clipped-gd";
    const auto accelerated = theoryRate(in);
    REQUIRE(accelerated);
    // 1/√n + max{((βD/r_k)^{1/4} √d/(εn))^{4(k−1)/(5k−1)}, (√d/(εn))^{(k−1)/k}} with D = 10.
    const double eps = 1.0, k = 2.5, a = std::pow(20.0, 0.25) * std::sqrt(20.0) / 1e4,
                 b = std::sqrt(20.0) / 1e4;
    CHECK(accelerated->f(eps) ==
          Approx(0.01 + std::max(std::pow(a, 4 * (k - 1) / (5 * k - 1)), std::pow(b, (k - 1) / k)))
              .epsilon(1e-12));
    for (const char* name : {"noisy-clipped-gd", "proximal-clipped-gd"}) {
        in.algorithm = name;
        const auto rate = theoryRate(in);
        REQUIRE(rate);
        // 1/n + (√d/(εn))^{(2k−2)/k}: the strongly convex rate at the run's k (2.5, not 2).
        const double expected = 1e-4 + std::pow(std::sqrt(20.0) / 1e4, (2 * k - 2) / k);
        CHECK(rate->f(eps) == Approx(expected).epsilon(1e-12));
        CHECK(rate->f(4.0) < rate->f(1.0));
    }
}

// ---------------------------------------------------------------------------------------------
// The measurements behind the README's heavy-tail paragraph ("What we measured"): excess risk at
// ε = 1, 5 seeds, mean ± sd, for the three clipped methods (tail-calibrated C) and the naive-clip
// baseline (C = 1), against the feature tail ν and n, without outliers, and over a clip-norm
// sweep. Printed as tables (about 6 s); the claims the README draws from them are checked.
// Print them alone: build/bin/pfa_core_tests "[heavy-tail-table]"

namespace {

struct Variant {
    const char* label;
    const char* algorithm;
    const char* rule;
};

const Variant kVariants[] = {
    {"noisy-clipped-gd (tail C)", "noisy-clipped-gd", "tail-calibrated"},
    {"accelerated-clipped-gd (tail C)", "accelerated-clipped-gd", "tail-calibrated"},
    {"proximal-clipped-gd (tail C)", "proximal-clipped-gd", "tail-calibrated"},
    {"naive clip C=1 (noisy-clipped-gd)", "noisy-clipped-gd", "naive"},
    {"naive clip C=1 (accelerated)", "accelerated-clipped-gd", "naive"},
};

/// Mean excess risk of each variant (by label) over 5 seeds; prints one table row each.
std::map<std::string, double> printRow(const DataSplit& data, const std::string& what,
                                       double momentBound, double clipNorm = 0.0,
                                       const char* only = nullptr) {
    std::map<std::string, double> means;
    for (const Variant& v : kVariants) {
        if (only && std::string(v.label) != only) continue;
        double sum = 0, sum2 = 0, clip = 0;
        int diverged = 0;
        const int seeds = 5;
        for (int seed = 0; seed < seeds; ++seed) {
            TrainConfig c = heavyConfig(v.algorithm, 1.0, static_cast<std::uint64_t>(seed));
            c.extra["clip-rule"] = v.rule;
            c.extra["moment-bound"] = realText(momentBound);
            if (clipNorm > 0) c.extra["clip-norm"] = realText(clipNorm);
            const RunResult r = test::runQuietly(c, data);
            if (r.status != RunStatus::Completed) {
                ++diverged;
                continue;
            }
            sum += r.regression.excessRisk;
            sum2 += r.regression.excessRisk * r.regression.excessRisk;
            clip = r.privacy.clipTheta;
        }
        const int ok = seeds - diverged;
        const double mean = ok ? sum / ok : NAN;
        const double sd =
            ok > 1 ? std::sqrt(std::max(0.0, (sum2 - ok * mean * mean) / (ok - 1))) : NAN;
        std::printf("| %s | %s | %.4g ± %.2g | %.3g | %d/%d |\n", what.c_str(), v.label, mean, sd,
                    clip, ok, seeds);
        CHECK(ok == seeds);  // every run completes: a diverged one would leave its mean out
        means[v.label] = mean;
    }
    return means;
}

std::string nuText(double nu) { return std::isinf(nu) ? std::string("inf") : formatNumber(nu); }

}  // namespace

TEST_CASE("Heavy tails at ε = 1: the README's measured claims hold (tables printed)",
          "[heavy-tails][heavy-tail-table][slow]") {
    const double momentBound = 10.0;  // a public guess of (E‖∇f‖^k)^{1/k} for these data
    const double infinity = std::numeric_limits<double>::infinity();
    const char* accelerated = "accelerated-clipped-gd (tail C)";
    const char* naiveAccelerated = "naive clip C=1 (accelerated)";
    const char* noisy = "noisy-clipped-gd (tail C)";
    const char* naiveNoisy = "naive clip C=1 (noisy-clipped-gd)";
    const char* proximal = "proximal-clipped-gd (tail C)";

    // The clip sweep first: at C = 0.01 the model barely leaves w = 0, so its excess risk is
    // that of predicting 0 (≈ 100 on the default data).
    std::printf("clip-norm sweep at eps = 1, nu = 3 (default data): bias vs noise\n");
    std::printf(
        "| C | method | excess risk (mean ± sd) | C | completed |\n|---|---|---|---|---|\n");
    const DataSplit data = heavy(20000, 3.0, 20);
    std::map<double, double> noisyByClip;
    double predictingZero = 0.0;
    for (double clip : {0.01, 0.1, 1.0, 10.0, 100.0}) {
        noisyByClip[clip] =
            printRow(data, "C = " + formatNumber(clip), momentBound, clip, noisy).at(noisy);
        const double acc =
            printRow(data, "C = " + formatNumber(clip), momentBound, clip, accelerated)
                .at(accelerated);
        if (clip == 0.01) predictingZero = acc;
    }
    // "The clip sweep shows the U: small C, bias; large C, noise" (lowest at C = 10).
    CHECK(noisyByClip.at(1.0) < noisyByClip.at(0.01));
    CHECK(noisyByClip.at(10.0) < noisyByClip.at(1.0));
    CHECK(noisyByClip.at(10.0) < noisyByClip.at(100.0));

    std::printf(
        "\nexcess risk at eps = 1 (test MSE - test MSE of the exact optimum), 5 seeds, r_k = %g\n",
        momentBound);
    std::printf(
        "| data | method | excess risk (mean ± sd) | C | completed |\n|---|---|---|---|---|\n");
    for (double nu : {1.5, 2.5, 3.0, 4.0, 8.0, infinity}) {
        INFO("default data, nu = " << nu);
        const auto m =
            printRow(heavy(20000, nu, 20), "nu = " + nuText(nu) + ", n = 15000", momentBound);
        // "only accelerated-clipped-gd with the tail-calibrated clip clearly improves on
        // predicting 0 (… ≈ 100 for w = 0 at n = 15,000; 37 ± 3 with ν = 8)"
        if (nu >= 2.5) CHECK(m.at(accelerated) < m.at(naiveAccelerated));
        if (nu >= 3.0) CHECK(m.at(accelerated) < predictingZero);
        if (nu >= 8.0) CHECK(m.at(accelerated) < 0.5 * predictingZero);
    }
    for (int rows : {2000, 8000, 32000, 128000}) {
        printRow(heavy(rows, 3.0, 20), "nu = 3, n = " + std::to_string(rows * 3 / 4), momentBound);
    }
    std::printf("\nwithout outliers (p_out = 0): the tail index alone\n");
    std::printf(
        "| data | method | excess risk (mean ± sd) | C | completed |\n|---|---|---|---|---|\n");
    for (double nu : {1.5, 2.5, 3.0, 4.0, 8.0, infinity}) {
        INFO("no outliers, nu = " << nu);
        const auto m =
            printRow(heavy(20000, nu, 20, 0.0), "nu = " + nuText(nu) + ", p_out = 0", momentBound);
        if (nu < 2.5) continue;
        // "Without outliers it reaches 0.20 ± 0.05 from ν = 2.5 to Gaussian, against 0.77–0.89
        // with C = 1, where its step rule keeps it near 0."
        CHECK(m.at(accelerated) < 0.5);
        CHECK(m.at(naiveAccelerated) > 3 * m.at(accelerated));  // C = 1: 0.77–0.89
        // "With the loss's own curvature in κ (about 31–41 steps of a few hundred rows), the
        // strongly convex loop's tail-calibrated clip beats C = 1 too (0.33–0.53 against
        // 0.56–0.59)" — before that fix T was 770 steps of 19 rows and the tail clip lost
        // (excess 45–75 against 0.25–0.3).
        CHECK(m.at(noisy) < m.at(naiveNoisy));
        CHECK(m.at(noisy) < 1.0);
        // "proximal-clipped-gd with the same T and a constant step releases a noisier last
        // iterate (3.7–5.8)"
        CHECK(m.at(proximal) > 5 * m.at(noisy));
        CHECK(m.at(proximal) < 10);
    }
}

}  // namespace core_heavy_tail_test
