// isrl-dp-sgd: noise calibrated per trust model (statistically and in the statement), ε equal
// to an independent evaluation of the zCDP calibration, trust ordering of the noise, refusals,
// per-silo metrics, and the trust-model table with what it shows distrust costs ([trust-table]).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/algorithms/registry.h"
#include "core/algorithms/silo/silo_round_run.h"
#include "core/algorithms/silo/silo_rounds.h"
#include "core/data/units.h"
#include "core/privacy/accounting_inputs.h"
#include "core/util/error.h"
#include "silo_test_data.h"

namespace core_isrl_dp_sgd_test {

using namespace pfa;

namespace {

TrainConfig isrlConfig(double epsilon, const std::string& trust) {
    TrainConfig c;
    c.algorithm = "isrl-dp-sgd";
    c.epsilon = epsilon;
    c.seed = 1;
    c.lambda = 0.0;
    c.extra["trust"] = trust;
    return c;
}

double zcdpRho(double epsilon, double delta) {
    const double l = std::log(1.0 / delta);
    return std::pow(std::sqrt(l + epsilon) - std::sqrt(l), 2.0);
}

/// Runs one round at step size 1 on zero-feature silos and returns Σ θ_j² over the feature
/// weights of `seeds` runs (each θ_j is minus the noise on the server's average) and the count.
struct NoiseSample {
    double sumSquares = 0.0;
    double count = 0.0;
    double reportedSigma = 0.0;
};

NoiseSample noiseOnAverage(const std::string& trust, const DataSplit& data, int seeds) {
    NoiseSample sample;
    for (int seed = 1; seed <= seeds; ++seed) {
        TrainConfig c = isrlConfig(1.0, trust);
        c.seed = static_cast<std::uint64_t>(seed);
        c.extra["rounds"] = "1";
        c.extra["local-batch"] = "10";
        c.extra["step-size"] = "1";
        c.extra["reported-iterate"] = "last";
        const RunResult r = test::runQuietly(c, data);
        REQUIRE(r.status == RunStatus::Completed);
        sample.reportedSigma = r.privacy.sigmaTheta;
        for (Eigen::Index j = 0; j < data.train.features(); ++j) {
            sample.sumSquares += r.theta(0, j) * r.theta(0, j);
            sample.count += 1.0;
        }
    }
    return sample;
}

}  // namespace

TEST_CASE("isrl-dp-sgd: the noise on the server's average has the variance of each trust model",
          "[isrl-dp-sgd][noise]") {
    // 4 silos × 50 records, K = 10, one round: u = 1 release per record; δ = 1/200².
    const int silos = 4, rows = 50, features = 20;
    const DataSplit data = test::zeroFeatureSilos(silos, rows, features);
    const double delta = 1.0 / ((silos * rows) * (silos * rows)), k = 10, m = silos, clip = 1;
    const double root = std::sqrt(1.0 / (2.0 * zcdpRho(1.0, delta)));  // √(u/(2ρ))
    struct Case {
        std::string trust;
        double sigma;  // std per coordinate on the server's average
    };
    const Case cases[] = {
        {"isrl", (2 * clip / k) * root / std::sqrt(m)},  // σ_i on each silo mean, averaged over M
        {"local",
         2 * clip * root / std::sqrt(k) / std::sqrt(m)},  // σ_record, averaged over K and M
        {"central", (2 * clip / (m * k)) * root},         // σ_c on the average
        {"shuffle", (2 * clip / (m * k)) * root},
    };
    for (const Case& c : cases) {
        INFO(c.trust);
        const NoiseSample sample = noiseOnAverage(c.trust, data, 100);
        CHECK(sample.reportedSigma == Approx(c.sigma).epsilon(1e-12));
        // Σ θ_j²/σ² ~ χ²_n with n = 2000: two-sided bounds at z = ±5 (p ≈ 6e−7).
        const double statistic = sample.sumSquares / (c.sigma * c.sigma);
        CHECK(statistic > test::chiSquareQuantile(sample.count, -5.0));
        CHECK(statistic < test::chiSquareQuantile(sample.count, 5.0));
    }
}

TEST_CASE("isrl-dp-sgd: noise shrinks by √K from local to ISRL and by √M from ISRL to central",
          "[isrl-dp-sgd][trust]") {
    const DataSplit data = test::syntheticSilos(2000, 10);
    auto sigmaOf = [&](const std::string& trust, const std::string& m) {
        TrainConfig c = isrlConfig(2.0, trust);
        c.extra["rounds"] = "5";
        c.extra["local-batch"] = "16";
        c.extra["silos-per-round"] = m;
        c.extra["noise-calibration"] = "zcdp-epoch";
        return test::runQuietly(c, data).privacy;
    };
    // Equal silo sizes (±1 record) do not change u here: ⌊150/16⌋ = ⌊151/16⌋ = 9 ≥ 5 rounds.
    for (const std::string m : {"10", "4"}) {
        INFO("M = " << m);
        const privacy::PrivacyReport local = sigmaOf("local", m), isrl = sigmaOf("isrl", m),
                                     central = sigmaOf("central", m),
                                     shuffle = sigmaOf("shuffle", m);
        CHECK(local.sigmaTheta / isrl.sigmaTheta == Approx(std::sqrt(16.0)).epsilon(1e-12));
        CHECK(isrl.sigmaTheta / central.sigmaTheta ==
              Approx(std::sqrt(std::stod(m))).epsilon(1e-12));
        CHECK(shuffle.sigmaTheta == central.sigmaTheta);
        // Same per-record guarantee under every trust model.
        CHECK(local.epsilonSpent == Approx(isrl.epsilonSpent).epsilon(1e-12));
        CHECK(central.epsilonSpent == Approx(isrl.epsilonSpent).epsilon(1e-12));
        CHECK(isrl.trustModel.find("no one") == 0);
        CHECK(central.trustModel.find("a trusted server") == 0);
        CHECK(shuffle.statement.find("shuffle model (rate-level simulation)") != std::string::npos);
    }
}

TEST_CASE("isrl-dp-sgd: ε is the accountant's for the zCDP calibration, at most the target",
          "[isrl-dp-sgd][accounting]") {
    const DataSplit data = test::syntheticSilos(3000, 12);
    const long nMin = data.train.silos->minRowsPerUnit();
    for (const std::string trust : {"isrl", "local", "central"}) {
        for (const double epsilon : {0.5, 2.0}) {
            INFO(trust << " at ε = " << epsilon);
            TrainConfig c = isrlConfig(epsilon, trust);
            c.extra["rounds"] = "40";
            const RunResult r = test::runQuietly(c, data);
            REQUIRE(r.status == RunStatus::Completed);
            const privacy::PrivacyReport& p = r.privacy;
            // δ = 1/n² over all training records (the app's automatic δ).
            const double n = static_cast<double>(data.train.rows());
            CHECK(p.delta == 1.0 / (n * n));
            const long k = std::stol(r.config.extra.at("local-batch"));
            CHECK(k == static_cast<long>(
                           std::ceil(nMin * std::sqrt(epsilon) / (2.0 * std::sqrt(40.0)))));
            // u = ⌈R/⌊n/K⌋⌉ releases per record of the smallest silo, z = √(u/(2ρ)).
            const long u = (40 + nMin / k - 1) / (nMin / k);
            CHECK(p.accounting.kind == privacy::ReleaseKind::Gaussian);
            CHECK(p.accounting.releases() == u);
            const double rho = zcdpRho(epsilon, p.delta);
            CHECK(p.accounting.noiseMultiplier ==
                  Approx(std::sqrt(u / (2.0 * rho))).epsilon(1e-12));
            // zCDP: ρ_run = u·Δ²/(2σ²) gives back the target exactly ...
            const double rhoRun =
                u / (2.0 * p.accounting.noiseMultiplier * p.accounting.noiseMultiplier);
            CHECK(rhoRun + 2.0 * std::sqrt(rhoRun * std::log(1.0 / p.delta)) ==
                  Approx(epsilon).epsilon(1e-12));
            // ... and the RDP conversion of the same curve, computed here, is the ε stated.
            CHECK(p.epsilonSpent ==
                  Approx(test::gaussianEpsilonOnStandardGrid(rhoRun, p.delta)).epsilon(1e-12));
            CHECK(privacy::certifiedEpsilon(p.accounting).epsilon == p.epsilonSpent);
            CHECK(p.epsilonSpent <= epsilon);
            CHECK(p.neighbouring.starts_with("one record of one silo replaced"));
            CHECK(p.unit == "record");
            // The live ε curve ends at the stated ε and never exceeds it.
            REQUIRE_FALSE(r.history.empty());
            CHECK(r.history.back().epsilonSpent == p.epsilonSpent);
            for (const EpochMetrics& m : r.history) CHECK(m.epsilonSpent <= p.epsilonSpent);
        }
    }
}

TEST_CASE("isrl-dp-sgd: Poisson calibration is certified at most the target",
          "[isrl-dp-sgd][accounting]") {
    const DataSplit data = test::syntheticSilos(2000, 5);
    TrainConfig c = isrlConfig(1.0, "isrl");
    c.extra["rounds"] = "20";
    c.extra["noise-calibration"] = "rdp-poisson";
    const RunResult r = test::runQuietly(c, data);
    REQUIRE(r.status == RunStatus::Completed);
    CHECK(r.privacy.accounting.kind == privacy::ReleaseKind::PoissonReplace);
    CHECK(r.privacy.epsilonSpent <= 1.0);
    CHECK(r.privacy.epsilonSpent > 0.99);  // the solver's tolerance is 0.01
    CHECK(privacy::certifiedEpsilon(r.privacy.accounting).epsilon == r.privacy.epsilonSpent);
}

TEST_CASE("isrl-dp-sgd: the thesis experiment formula states its nominal ε and the certified one",
          "[isrl-dp-sgd][accounting]") {
    const int silos = 4, rows = 50;
    const DataSplit data = test::zeroFeatureSilos(silos, rows, 3);
    TrainConfig c = isrlConfig(1.0, "isrl");
    c.extra["noise-calibration"] = "thesis-experiment";
    c.extra["rounds"] = "20";
    c.extra["local-batch"] = "10";
    const RunResult r = test::runQuietly(c, data);
    REQUIRE(r.status == RunStatus::Completed);
    const privacy::PrivacyReport& p = r.privacy;
    const double n = rows, delta = p.delta;
    const double sigma = std::sqrt(8.0 * std::log(1.0 / delta) * 20.0 / (n * n));  // C = 1, ε = 1
    CHECK(p.sigmaTheta == Approx(sigma / std::sqrt(double(silos))).epsilon(1e-12));
    CHECK(p.accounting.kind == privacy::ReleaseKind::PoissonReplace);
    CHECK(p.accounting.samplingRate == Approx(10.0 / n).epsilon(1e-15));
    CHECK(p.accounting.noiseMultiplier == Approx(sigma * 10.0).epsilon(1e-12));
    CHECK(privacy::certifiedEpsilon(p.accounting).epsilon == p.epsilonSpent);
    CHECK(p.knownGaps);
    CHECK(p.statement.find("Target ε of the published closed-form calibration: 1") !=
          std::string::npos);
    // Only for noise added by the silos.
    c.extra["trust"] = "central";
    CHECK_THROWS_AS(test::runQuietly(c, data), InputError);
}

TEST_CASE(
    "isrl-dp-sgd: non-private runs are reproducible, and one silo makes ISRL and central noise "
    "equal",
    "[isrl-dp-sgd][sanity]") {
    const DataSplit data = test::syntheticSilos(1200, 6);
    TrainConfig c = isrlConfig(INFINITY, "isrl");
    const RunResult a = test::runQuietly(c, data), b = test::runQuietly(c, data);
    CHECK(a.theta == b.theta);
    CHECK(std::isinf(a.privacy.epsilonSpent));
    CHECK(a.test.error < 0.3);  // the synthetic task is learnable

    DataSplit one = test::syntheticSilos(1200, 1);
    const privacy::PrivacyReport isrl = test::runQuietly(isrlConfig(1.0, "isrl"), one).privacy;
    const privacy::PrivacyReport central =
        test::runQuietly(isrlConfig(1.0, "central"), one).privacy;
    CHECK(isrl.sigmaTheta == Approx(central.sigmaTheta).epsilon(1e-12));
}

TEST_CASE("isrl-dp-sgd: per-silo test metrics, error spread and heterogeneity are reported",
          "[isrl-dp-sgd][units]") {
    const DataSplit data = test::syntheticSilos(2000, 8);
    TrainConfig c = isrlConfig(4.0, "isrl");
    c.extra["silos-per-round"] = "3";
    const RunResult r = test::runQuietly(c, data);
    REQUIRE(r.status == RunStatus::Completed);
    CHECK(r.unitKind == "silo");
    REQUIRE(r.units.size() == 8);
    double lo = 1, hi = 0;
    long testRows = 0;
    for (const UnitMetrics& u : r.units) {
        CHECK(u.trainRows > 0);
        testRows += u.testRows;
        lo = std::min(lo, u.testError);
        hi = std::max(hi, u.testError);
    }
    CHECK(testRows == data.test.rows());
    CHECK(r.history.back().unitErrorSpread == Approx(hi - lo));
    CHECK(r.history.size() == 35);
    CHECK(r.privacy.statement.find("heterogeneity υ*²") != std::string::npos);
    CHECK(r.privacy.statement.find("Not protected — diagnostics") != std::string::npos);
}

TEST_CASE("Silo heterogeneity: the pooled optimum is solved once per rows, the silos read anew",
          "[isrl-dp-sgd][units]") {
    const DataSplit data = test::syntheticSilos(1500, 6);
    const double first = siloHeterogeneity(data.train);
    REQUIRE(std::isfinite(first));
    CHECK(first > 0.0);
    CHECK(siloHeterogeneity(data.train) == first);
    // The same rows in other silos: the same optimum, another heterogeneity.
    DataSplit regrouped = data;
    std::vector<int> ids(static_cast<std::size_t>(data.train.rows()));
    for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int>(i % 2);
    regrouped.train.silos = UnitIndex(std::span<const int>(ids));
    const double twoSilos = siloHeterogeneity(regrouped.train);
    CHECK(std::isfinite(twoSilos));
    CHECK(twoSilos != first);
    // Other rows: another optimum.
    DataSplit changed = data;
    changed.train.y(0) = 1 - changed.train.y(0);
    CHECK(siloHeterogeneity(changed.train) != first);
}

TEST_CASE("isrl-dp-sgd refuses data without silos and a δ of 0.1 or more",
          "[isrl-dp-sgd][refusals]") {
    const DataSplit plain = test::syntheticSplit(800);
    try {
        test::runQuietly(isrlConfig(1.0, "isrl"), plain);
        FAIL("ran without silos");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()).find("--silos N") != std::string::npos);
        // The window's own control is named too, not only the command line's flags.
        CHECK(std::string(e.what()).find("in the window: Advanced, Users and silos, Silo split") !=
              std::string::npos);
    }
    // A local batch larger than the smallest silo, and a δ that promises nothing.
    const DataSplit small = test::zeroFeatureSilos(10, 8, 3);
    TrainConfig big = isrlConfig(1.0, "isrl");
    big.extra["local-batch"] = "9";
    CHECK_THROWS_AS(test::runQuietly(big, small), InputError);
    big.extra["local-batch"] = "8";
    CHECK(test::runQuietly(big, small).status == RunStatus::Completed);
    big.delta = 0.2;
    CHECK_THROWS_AS(test::runQuietly(big, small), InputError);
    TrainConfig c = isrlConfig(1.0, "local");
    c.extra["noise-calibration"] = "rdp-poisson";
    CHECK_THROWS_AS(test::runQuietly(c, test::syntheticSilos(800, 4)), InputError);
}

// The trust-model table (the comparison of the silos-trust-models preset, with seeds 1–5 where
// the preset has 0–4): test error (mean ± sd over 5 seeds) per trust model and ε on the
// synthetic data with 25 silos (10000 rows), then the noise std per coordinate on the server's
// average (σ_θ of the statements; local SGD: σ_loc of one local step). Printed (about 4 s), and
// what the preset and the README say distrust costs is checked. Print it alone:
// bin/pfa_core_tests "[trust-table]"
TEST_CASE("isrl-dp-sgd: what distrust costs, per trust model and ε (table printed)",
          "[isrl-dp-sgd][trust-table][slow]") {
    SyntheticOptions options;
    options.rows = 10000;
    options.silos = 25;
    const DataSplit data = splitAndEncode(generateSynthetic(options));
    REQUIRE(data.train.silos);
    std::printf(
        "synthetic 10000 rows, 25 silos (min %ld training records), R = 35, K auto, M = N, C = 1\n",
        data.train.silos->minRowsPerUnit());
    const std::vector<std::string> trusts{"central", "shuffle", "isrl", "local", "local-sgd"};
    const std::vector<double> epsilons{0.5, 1.0, 2.0,
                                       4.0, 8.0, double(INFINITY)};  // ∞: non-private
    std::map<std::pair<std::string, double>, double> error, sigmaOf;
    std::string sigmas;
    std::printf("%-6s %-18s %-18s %-18s %-18s %-18s\n", "eps", "central", "shuffle(sim)", "isrl",
                "local", "isrl-local-sgd");
    for (const double epsilon : epsilons) {
        std::printf("%-6g", epsilon);
        char line[256];
        std::snprintf(line, sizeof line, "%-6g", epsilon);
        sigmas += line;
        for (const std::string& trust : trusts) {
            double sum = 0, sumSquares = 0, sigma = 0;
            for (int seed = 1; seed <= 5; ++seed) {
                TrainConfig c = isrlConfig(epsilon, trust == "local-sgd" ? "isrl" : trust);
                if (trust == "local-sgd") {
                    c.algorithm = "isrl-local-sgd";
                    c.extra.erase("trust");
                }
                c.seed = static_cast<std::uint64_t>(seed);
                const RunResult r = test::runQuietly(c, data);
                REQUIRE(r.privacy.epsilonSpent <= epsilon);
                sum += r.test.error;
                sumSquares += r.test.error * r.test.error;
                sigma = r.privacy.sigmaTheta;  // the same for every seed
            }
            const double mean = sum / 5,
                         sd = std::sqrt(std::max(0.0, (sumSquares - 5 * mean * mean) / 4));
            error[{trust, epsilon}] = mean;
            sigmaOf[{trust, epsilon}] = sigma;
            std::printf(" %.4f ± %.4f   ", mean, sd);
            std::snprintf(line, sizeof line, " %-18.4g", sigma);
            sigmas += line;
        }
        std::printf("\n");
        sigmas += "\n";
        std::fflush(stdout);
    }
    std::printf(
        "noise std per coordinate on the server's average (isrl-local-sgd: per local step)\n%s",
        sigmas.c_str());

    for (const double epsilon : epsilons) {
        INFO("epsilon " << epsilon);
        const auto e = [&](const char* trust) { return error.at({trust, epsilon}); };
        const auto sigma = [&](const char* trust) { return sigmaOf.at({trust, epsilon}); };
        if (std::isinf(epsilon)) {
            // Without privacy the trust model changes nothing but where no noise is added.
            for (const char* trust : {"central", "shuffle", "isrl", "local"}) {
                CHECK(sigma(trust) == 0.0);
                CHECK(std::abs(e(trust) - e("central")) < 0.002);
            }
            continue;
        }
        // Distrust costs noise: the simulated shuffler adds the server's, each silo more,
        // each record most.
        CHECK(sigma("shuffle") == Approx(sigma("central")));
        CHECK(sigma("central") < sigma("isrl"));
        CHECK(sigma("isrl") < sigma("local"));
        // … and accuracy: local DP is clearly worse up to ε = 2 (README: 0.369, 0.377, 0.275
        // against 0.215, 0.209, 0.211 with a trusted server); ISRL-DP costs little from ε = 1.
        const double nonPrivate = error.at({"central", double(INFINITY)});
        if (epsilon <= 1.0) CHECK(e("local") > e("central") + 0.1);
        if (epsilon <= 2.0) CHECK(e("local") > e("central"));
        if (epsilon >= 1.0) CHECK(std::abs(e("isrl") - e("central")) < 0.01);
        if (epsilon >= 4.0) {
            for (const char* trust : {"central", "shuffle", "isrl"})
                CHECK(std::abs(e(trust) - nonPrivate) < 0.005);
        }
    }
}

TEST_CASE("Silo rounds: a record's clipped gradient and a batch's clipped sum are the plain ones",
          "[isrl-dp-sgd][clipping]") {
    // The silo loops clip a record's gradient r·x̃ by the scalar |r|·‖x̃‖ and sum c·x̃ without a
    // gradient vector per record: the same values, up to rounding, as the plain gradient
    // (σ(x̃·w) − y)·x̃ clipped to C by its own norm.
    const DataSplit data = test::syntheticSilos(2000, 5);
    const TrainConfig config = isrlConfig(1.0, "isrl");
    SiloRoundSettings s;
    s.localBatch = 20;
    s.silosPerRound = 5;
    TrainingObserver observer;
    CancelToken cancel;
    const Eigen::Index size = data.train.features() + 1;
    Eigen::VectorXd w(size);
    for (Eigen::Index j = 0; j < size; ++j)
        w(j) = 0.7 * std::sin(1.3 * static_cast<double>(j) + 0.4);
    const auto plain = [&](long row, double clip) {
        Eigen::VectorXd x(size);
        x.head(size - 1) = data.train.X.row(row).transpose();
        x(size - 1) = 1.0;
        const double residual = 1.0 / (1.0 + std::exp(-x.dot(w))) - data.train.y(row);
        Eigen::VectorXd g = residual * x;
        if (g.norm() > clip) g *= clip / g.norm();
        return g;
    };
    std::vector<long> rows;
    for (const long row : data.train.silos->rowsOf(2)) rows.push_back(row);
    // The records' gradient norms, to put C between the smallest and the largest.
    std::vector<double> norms;
    for (const long row : rows) norms.push_back(plain(row, INFINITY).norm());
    std::sort(norms.begin(), norms.end());
    for (const double clip : {norms[norms.size() / 2], norms.front() / 2, norms.back() * 2}) {
        INFO("C = " << clip);
        s.clip = clip;
        SiloRoundRun run(s, config, data, observer, cancel);
        Eigen::VectorXd expected = Eigen::VectorXd::Zero(size), g(size);
        long clippedRows = 0;
        for (const long row : rows) {
            const Eigen::VectorXd p = plain(row, clip);
            expected += p;
            clippedRows += plain(row, INFINITY).norm() > clip;
            run.clippedGradient(row, w, g);
            CHECK((g - p).norm() <= 1e-14 * (1.0 + p.norm()));
        }
        Eigen::VectorXd sum = Eigen::VectorXd::Ones(size);  // added to, not overwritten
        CHECK(run.addClippedSum(rows, w, sum) == static_cast<long>(rows.size()));
        CHECK((sum - Eigen::VectorXd::Ones(size) - expected).norm() <=
              1e-13 * (1.0 + expected.norm()));
        if (clip == norms.front() / 2) CHECK(clippedRows == static_cast<long>(rows.size()));
        if (clip == norms.back() * 2) CHECK(clippedRows == 0);
    }
}

TEST_CASE("Silo noise is shared by the runs that ask for the same, and answers as a fresh one",
          "[isrl-dp-sgd][accounting]") {
    const DataSplit data = test::syntheticSilos(2000, 5);
    const UnitIndex& silos = *data.train.silos;
    SiloRoundSettings s;
    s.localBatch = 16;
    s.rounds = 30;
    const std::string bound = "2C/K";
    const auto shared = sharedSiloNoise(s, silos, 1.0, 1e-5, bound, false);
    CHECK(sharedSiloNoise(s, silos, 1.0, 1e-5, bound, false) == shared);
    // Anything the calibration reads makes another one.
    CHECK(sharedSiloNoise(s, silos, 2.0, 1e-5, bound, false) != shared);
    CHECK(sharedSiloNoise(s, silos, 1.0, 1e-6, bound, false) != shared);
    CHECK(sharedSiloNoise(s, silos, 1.0, 1e-5, "C", false) != shared);
    CHECK(sharedSiloNoise(s, silos, 1.0, 1e-5, bound, true) != shared);
    SiloRoundSettings longer = s;
    longer.rounds = 31;
    CHECK(sharedSiloNoise(longer, silos, 1.0, 1e-5, bound, false) != shared);
    // Its accountants remember every answer: asked in any order, again, and by a fresh
    // accountant each time, the same ε.
    for (const long rounds : {30L, 3L, 7L, 3L, 30L, 1L, 12L, 7L}) {
        INFO("after " << rounds << " rounds");
        const SiloNoise fresh(s, silos, 1.0, 1e-5, bound, false);
        CHECK(shared->epsilonAfter(rounds) == fresh.epsilonAfter(rounds));
        CHECK(shared->worstAfter(rounds).inputs().noiseMultiplier ==
              fresh.worstAfter(rounds).inputs().noiseMultiplier);
    }
    CHECK(shared->epsilonAfter(30) > shared->epsilonAfter(3));
}

}  // namespace core_isrl_dp_sgd_test
