// user-level-dp-sgd (other-algorithms.md §4): the noise of each mode against its formula and
// against the accountant, a statistical check of the noise actually drawn, the outlier filter
// on concentrated and on 40%-flipped users (§5.5), the ε = ∞ run against projected gradient
// descent written out here (§5.6), and the user-level privacy report.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "core/algorithms/registry.h"
#include "core/config/algorithm.h"
#include "core/data/catalog.h"
#include "core/engine/design_matrix.h"
#include "core/privacy/accounting_inputs.h"
#include "core/util/error.h"
#include "test_data.h"

namespace pfa {
// Defined in core/algorithms/user_level/user_level_dp_sgd.cpp (not in a header: used by its test
// only).
double userLevelFilter(const RowMatrix& Q, double tau, Eigen::MatrixXd& gram,
                       Eigen::VectorXd& squared, Eigen::VectorXd& keepProbability);
}  // namespace pfa

namespace core_user_level_dp_sgd_test {

using namespace pfa;

namespace {

TrainConfig userConfig(double epsilon, const std::string& noise, long rounds) {
    TrainConfig c;
    c.algorithm = "user-level-dp-sgd";
    c.epsilon = epsilon;
    c.lambda = 0.0;
    c.delta = 1e-5;
    c.extra["user-noise"] = noise;
    c.extra["user-rounds"] = std::to_string(rounds);
    return c;
}

/// Synthetic data with `users` users of `rowsPerUser` rows each (before the 75/25 split).
DataSplit syntheticUsers(int users, int rowsPerUser, double atypical = 0.0, int features = 8) {
    SyntheticOptions options;
    options.rows = users * rowsPerUser;
    options.features = features;
    options.users = users;
    options.atypicalUserShare = atypical;
    return splitAndEncode(generateSynthetic(options));
}

/// Gives rows i of `part` the user i / k (the first users·k rows are kept).
void assignUsers(Dataset& part, int users, int k) {
    const Eigen::Index rows = static_cast<Eigen::Index>(users) * k;
    REQUIRE(part.rows() >= rows);
    part.X.conservativeResize(rows, Eigen::NoChange);
    part.y.conservativeResize(rows);
    part.s.conservativeResize(rows);
    part.userId.resize(rows);
    for (Eigen::Index i = 0; i < rows; ++i) part.userId(i) = static_cast<int>(i / k);
    part.users = UnitIndex(part.userId);
    part.personColumn = "user";
}

/// ρ(ε, δ) of zCDP, written out from other-algorithms.md §1.1.
double rhoOf(double epsilon, double delta) {
    const double l = std::log(1.0 / delta);
    return std::pow(std::sqrt(l + epsilon) - std::sqrt(l), 2.0);
}

/// ε of T unsampled Gaussian releases with multiplier z, on the standard order grid with the
/// tightened conversion (privacy-accounting.md §2.1, §4.1, §4.3), written out independently.
double gaussianEpsilon(double z, long T, double delta) {
    std::vector<double> grid;
    for (int k = 11; k <= 109; ++k) grid.push_back(k / 10.0);
    for (int a = 11; a <= 63; ++a) grid.push_back(a);
    for (double a : {128.0, 256.0, 512.0, 1024.0}) grid.push_back(a);
    double best = INFINITY;
    for (double a : grid) {
        const double rho = static_cast<double>(T) * a / (2.0 * z * z);
        best = std::min(best,
                        rho + std::log1p(-1.0 / a) - (std::log(delta) + std::log(a)) / (a - 1.0));
    }
    return std::max(0.0, best);
}

/// The paper's s_G (other-algorithms.md §4.5), written out from the spec.
double paperSigma(double tau, double n, double m, double d, double T, double epsilon,
                  double delta) {
    const double dp = delta / (2.0 * T * m * n * d);
    return std::sqrt(8.0 * tau * tau * T * std::log(std::exp(epsilon) * T / dp) *
                     std::log(std::exp(epsilon / 2) / dp) / (n * n * epsilon * epsilon));
}

bool halted(const RunResult& result) {
    return result.message.find("halted at round") != std::string::npos;
}

}  // namespace

TEST_CASE("user-level-dp-sgd refuses data without users, and sampling users outside the naive mode",
          "[user-level]") {
    const DataSplit rows = test::syntheticSplit(800);
    const Algorithm& algorithm = findAlgorithm("user-level-dp-sgd");
    CHECK(algorithm.capabilities().unit == PrivacyUnit::User);
    REQUIRE_THROWS_AS(prepareRun(algorithm, userConfig(1.0, "practical", 10), rows), InputError);
    try {
        prepareRun(algorithm, userConfig(1.0, "practical", 10), rows);
    } catch (const InputError& error) {
        CHECK(std::string(error.what()).find("needs data with users") != std::string::npos);
    }
    const DataSplit users = syntheticUsers(100, 8);
    TrainConfig sampled = userConfig(1.0, "practical", 10);
    sampled.extra["users-per-round"] = "10";
    CHECK_THROWS_AS(prepareRun(algorithm, sampled, users), InputError);
    sampled.extra["user-noise"] = "naive";
    CHECK_NOTHROW(prepareRun(algorithm, sampled, users));
    // A user with fewer rows than m is not refused (a refusal would tell about that user's
    // rows): m of the user's rows are drawn with replacement.
    TrainConfig tooMany = userConfig(1.0, "naive", 10);
    tooMany.extra["rows-per-user"] = std::to_string(users.train.users->minRowsPerUnit() + 1);
    CHECK_NOTHROW(prepareRun(algorithm, tooMany, users));
    CHECK(test::runQuietly(tooMany, users).status == RunStatus::Completed);
}

TEST_CASE("user-level-dp-sgd: each mode's noise follows its formula and its ε the accountant",
          "[user-level][privacy]") {
    // The spec's worked number for the paper calibration: n = 1000, m = 100, d = 10, T = 1000,
    // ε = 1, δ = 1e−5, τ = 3.32·G gives s_G = 11.0·G.
    CHECK(paperSigma(3.32, 1000, 100, 10, 1000, 1.0, 1e-5) == Approx(11.0).epsilon(0.005));

    const DataSplit data = syntheticUsers(300, 10);
    const double n = static_cast<double>(data.train.users->units());
    const long T = 40;
    const double epsilon = 2.0, delta = 1e-5;

    SECTION("naive: s_G = (2C_u/n)·√(T/(2ρ(ε, δ))), T Gaussian releases, replace-one users") {
        TrainConfig config = userConfig(epsilon, "naive", T);
        config.extra["user-clip"] = "0.75";
        const RunResult result = test::runQuietly(config, data);
        REQUIRE(result.status == RunStatus::Completed);
        const privacy::PrivacyReport& report = result.privacy;
        const double sigma = 2.0 * 0.75 / n * std::sqrt(T / (2.0 * rhoOf(epsilon, delta)));
        CHECK(report.sigmaTheta == Approx(sigma).epsilon(1e-12));
        CHECK(report.accounting.kind == privacy::ReleaseKind::Gaussian);
        CHECK(report.accounting.adjacency == privacy::Adjacency::Replace);
        CHECK(report.accounting.unit == "user");
        CHECK(report.accounting.pureReleases.empty());
        const double z = sigma / (2.0 * 0.75 / n);
        CHECK(report.epsilonSpent == Approx(gaussianEpsilon(z, T, delta)).epsilon(1e-9));
        CHECK(privacy::certifiedEpsilon(report.accounting).epsilon ==
              Approx(report.epsilonSpent).epsilon(1e-12));
        // The zCDP calibration is looser than the tightened RDP conversion: certified ≤ target.
        CHECK(report.epsilonSpent <= epsilon);
        CHECK(report.epsilonSpent > 0.8 * epsilon);
        CHECK(report.epsilonPerPerson == report.epsilonSpent);
    }
    SECTION(
        "practical: gate ε/2 by basic composition plus T Gaussian releases at sensitivity κτ/n") {
        const RunResult result = test::runQuietly(userConfig(epsilon, "practical", T), data);
        REQUIRE(result.steps > 0);
        const privacy::PrivacyReport& report = result.privacy;
        const double m = std::stod(result.config.extra.at("rows-per-user"));
        const double tau = 2.0 * 5.0 / std::sqrt(m);  // c_τ = 2, G = B = 5
        const double assumed = 15.0 * tau / n;
        const double sigma = assumed * std::sqrt(T / (2.0 * rhoOf(epsilon / 2.0, delta)));
        CHECK(report.sigmaTheta == Approx(sigma).epsilon(1e-12));
        // A heuristic, never a guarantee: nothing certified (ε = ∞, also in the ledger), the
        // heuristic value kept beside with the inputs it comes from.
        CHECK_FALSE(report.certified);
        CHECK(std::isinf(report.epsilonSpent));
        CHECK(std::isinf(privacy::certifiedEpsilon(report.accounting).epsilon));
        REQUIRE(report.heuristicAccounting.pureReleases.size() == 1);
        CHECK(report.heuristicAccounting.pureReleases[0].epsilon == epsilon / 2.0);
        CHECK(report.epsilonHeuristic ==
              Approx(epsilon / 2.0 + gaussianEpsilon(sigma / assumed, result.steps, delta))
                  .epsilon(1e-9));
        CHECK(privacy::certifiedEpsilon(report.heuristicAccounting).epsilon ==
              Approx(report.epsilonHeuristic).epsilon(1e-12));
        CHECK(report.epsilonHeuristic <= epsilon);
        CHECK(report.statement.find("Guarantee: none.") != std::string::npos);
        CHECK(report.statement.find("is a heuristic, not a guarantee") != std::string::npos);
        for (const EpochMetrics& e : result.history) CHECK(std::isinf(e.epsilonSpent));
        CHECK(report.calibration.find("heuristic — the paper's proof does not cover this mode") !=
              std::string::npos);
        CHECK(report.statement.find("heuristic — the paper's proof does not cover this mode") !=
              std::string::npos);
    }
    SECTION("paper: the closed form, with both the claimed and the accountant's ε stated") {
        const RunResult result = test::runQuietly(userConfig(epsilon, "paper", T), data);
        REQUIRE(result.steps > 0);
        const privacy::PrivacyReport& report = result.privacy;
        const double m = std::stod(result.config.extra.at("rows-per-user"));
        const double tau = 2.0 * 5.0 / std::sqrt(m);
        const double sigma = paperSigma(tau, n, m, 9.0, T, epsilon, delta);
        CHECK(report.sigmaTheta == Approx(sigma).epsilon(1e-12));
        const double assumed = 15.0 * tau / n;
        CHECK_FALSE(report.certified);
        CHECK(std::isinf(report.epsilonSpent));
        CHECK(report.epsilonHeuristic ==
              Approx(epsilon / 2.0 + gaussianEpsilon(sigma / assumed, result.steps, delta))
                  .epsilon(1e-9));
        CHECK(privacy::certifiedEpsilon(report.heuristicAccounting).epsilon ==
              Approx(report.epsilonHeuristic).epsilon(1e-12));
        CHECK(report.knownGaps);
        CHECK(report.epsilonNominal == epsilon);
        CHECK(report.statement.find("unstated absolute constant") != std::string::npos);
    }
    SECTION(
        "naive with Poisson user sampling: the subsampled Gaussian at q, group-of-two for "
        "replace-one") {
        TrainConfig config = userConfig(epsilon, "naive", T);
        config.extra["users-per-round"] = "30";
        const RunResult result = test::runQuietly(config, data);
        REQUIRE(result.status == RunStatus::Completed);
        const privacy::PrivacyReport& report = result.privacy;
        CHECK(report.accounting.kind == privacy::ReleaseKind::PoissonReplace);
        CHECK(report.accounting.samplingRate == Approx(30.0 / n).epsilon(1e-15));
        CHECK(privacy::certifiedEpsilon(report.accounting).epsilon ==
              Approx(report.epsilonSpent).epsilon(1e-12));
        CHECK(report.epsilonSpent <= epsilon);
        CHECK(report.epsilonSpent >= epsilon - 0.02);  // the solver's tolerance
        // Noise std on the sum z·C_u, normalised by the expected number of users qn.
        CHECK(report.sigmaTheta == Approx(report.noiseMultiplier * 5.0 / 30.0).epsilon(1e-12));
        // Subsampling buys less noise than everyone-every-round at the same ε per step count.
        CHECK(report.noiseMultiplier < 2.0 * std::sqrt(T / (2.0 * rhoOf(epsilon, delta))));
    }
}

TEST_CASE("user-level-dp-sgd: the noise drawn has the stated variance in every mode",
          "[user-level][noise][slow]") {
    // All features zero: the weights of the features get no gradient, so after one round each
    // equals −η·s_G·ξ with ξ ~ N(0, 1). Labels alternate within each user, so every user's
    // gradient is the same (zero) and the filter keeps everyone.
    const int features = 50, users = 200, k = 4;
    DataSplit data = test::zeroFeatureData(users * k, features);
    assignUsers(data.train, users, k);
    assignUsers(data.test, users, k);
    struct Mode {
        const char* noise;
        const char* perRound;
    };
    for (const Mode mode : {Mode{"naive", "auto"}, Mode{"naive", "50"}, Mode{"practical", "auto"},
                            Mode{"paper", "auto"}}) {
        INFO(mode.noise << " users per round " << mode.perRound);
        double sum = 0.0, squares = 0.0, sigma = 0.0;
        long count = 0;
        for (int seed = 1; seed <= 60; ++seed) {
            TrainConfig config = userConfig(4.0, mode.noise, 1);
            config.extra["users-per-round"] =
                mode.perRound == std::string("auto") ? "0" : mode.perRound;
            config.extra["smoothing-radius"] = "0";
            config.extra["user-step-size"] = "1";
            config.extra["diameter"] = "1e12";
            config.seed = static_cast<std::uint64_t>(seed);
            const RunResult result = test::runQuietly(config, data);
            REQUIRE_FALSE(halted(result));
            REQUIRE(result.steps == 1);
            sigma = result.privacy.sigmaTheta;
            REQUIRE(sigma > 0);
            for (int j = 0; j < features; ++j) {
                const double x = -result.theta(0, j) / sigma;
                sum += x;
                squares += x * x;
                ++count;
            }
        }
        const double mean = sum / static_cast<double>(count);
        const double variance = squares / static_cast<double>(count) - mean * mean;
        // 3000 draws: the standard error of the variance is √(2/3000) ≈ 2.6%.
        CHECK(variance == Approx(1.0).epsilon(0.1));
        CHECK(std::abs(mean) < 0.1);
    }
}

TEST_CASE("user-level-dp-sgd on concentrated users keeps almost everyone and never halts (§5.5)",
          "[user-level]") {
    const DataSplit data = syntheticUsers(500, 40);
    REQUIRE(data.train.users->minRowsPerUnit() >= 16);
    for (const char* noise : {"practical", "paper"}) {
        INFO(noise);
        TrainConfig config = userConfig(2.0, noise, 200);
        config.extra["rows-per-user"] = "16";
        config.extra["tau-factor"] = "2";
        const RunResult result = test::runQuietly(config, data);
        CHECK_FALSE(halted(result));
        CHECK(result.steps == 200);
        REQUIRE_FALSE(result.history.empty());
        double removed = 0.0;
        for (const EpochMetrics& m : result.history) {
            REQUIRE(std::isfinite(m.removedFraction));
            removed += m.removedFraction;
            CHECK(m.gateMargin > 0.0);
        }
        CHECK(removed / static_cast<double>(result.history.size()) < 0.01);
    }
}

TEST_CASE(
    "user-level-dp-sgd: 40% label-flipped users with a small τ are removed, and the gate halts "
    "(§5.5)",
    "[user-level]") {
    // Users 0, 1 mod 5 have every label flipped (40%); the filter sees the users' mean
    // gradients at θ₀ = 0.
    DataSplit data = syntheticUsers(400, 80);
    const UnitIndex& users = *data.train.users;
    auto flipped = [&](long u) { return users.id(u) % 5 < 2; };
    for (long u = 0; u < users.units(); ++u) {
        if (!flipped(u)) continue;
        for (const long row : users.rowsOf(u)) data.train.y(row) = 1 - data.train.y(row);
    }
    const long n = users.units(), m = 48;
    REQUIRE(users.minRowsPerUnit() >= m);
    const DesignMatrix design = makeDesignMatrix(data.train.X, 5.0);
    RowMatrix Q = RowMatrix::Zero(n, design.X().cols());
    for (long u = 0; u < n; ++u) {
        const auto rows = users.rowsOf(u);
        for (long j = 0; j < m; ++j) {
            const long row = rows[static_cast<std::size_t>(j)];
            Q.row(u) += (0.5 - data.train.y(row)) * design.X().row(row) / static_cast<double>(m);
        }
    }
    const double tau = 0.5 * 5.0 / std::sqrt(static_cast<double>(m));  // c_τ = 0.5
    Eigen::MatrixXd gram(n, n);
    Eigen::VectorXd squared(n), keep(n);
    const double score = userLevelFilter(Q, tau, gram, squared, keep);
    double removedFlipped = 0.0, removedTypical = 0.0, flippedCount = 0.0;
    for (long u = 0; u < n; ++u) {
        (flipped(u) ? removedFlipped : removedTypical) += 1.0 - keep(u);
        flippedCount += flipped(u) ? 1.0 : 0.0;
    }
    removedFlipped /= flippedCount;
    removedTypical /= static_cast<double>(n) - flippedCount;
    CHECK(removedFlipped > 0.9);
    CHECK(removedTypical < removedFlipped - 0.3);
    // Far from concentrated: s/2 lies below the gate's threshold 2n/5.
    CHECK(score / 2.0 < 0.4 * static_cast<double>(n));

    // The run itself: the gate halts in the first round and θ₀ = 0 is returned.
    TrainConfig config = userConfig(8.0, "practical", 50);
    config.extra["rows-per-user"] = std::to_string(m);
    config.extra["tau-factor"] = "0.5";
    config.extra["smoothing-radius"] = "0";
    const RunResult result = test::runQuietly(config, data);
    CHECK(result.message.find("halted at round 1") != std::string::npos);
    CHECK(result.steps == 0);
    CHECK(result.theta.isZero(0.0));
    CHECK(result.privacy.statement.find("halted at round 1") != std::string::npos);
    // The gate's ε/2 is spent whatever happens; no Gaussian release was made (a heuristic
    // mode: the value is kept beside an uncertified ε).
    CHECK(std::isinf(result.privacy.epsilonSpent));
    CHECK(result.privacy.epsilonHeuristic == Approx(4.0).epsilon(1e-12));
}

TEST_CASE(
    "user-level-dp-sgd at ε = ∞ is projected gradient descent on the users' mean gradients (§5.6)",
    "[user-level]") {
    DataSplit data = test::syntheticSplit(2000);
    const int users = 50, k = 20;
    assignUsers(data.train, users, k);
    assignUsers(data.test, 20, 10);
    const long T = 6;
    const double eta = 0.7, R = 1.0;
    // The same steps written out: rows rescaled to norm ≤ B, every user's mean gradient, their
    // mean, a step and the projection onto the ball of radius R/2; the output is the average.
    const DesignMatrix design = makeDesignMatrix(data.train.X, 5.0);
    Eigen::VectorXd theta = Eigen::VectorXd::Zero(design.X().cols()), average = theta;
    for (long t = 0; t < T; ++t) {
        Eigen::VectorXd g = Eigen::VectorXd::Zero(theta.size());
        for (int u = 0; u < users; ++u) {
            Eigen::VectorXd q = Eigen::VectorXd::Zero(theta.size());
            for (int j = 0; j < k; ++j) {
                const Eigen::Index row = u * k + j;
                const double p = 1.0 / (1.0 + std::exp(-design.X().row(row).dot(theta)));
                q += (p - data.train.y(row)) * design.X().row(row).transpose();
            }
            g += q / k;
        }
        theta -= eta * g / users;
        if (theta.norm() > R / 2) theta *= (R / 2) / theta.norm();
        average += theta;
    }
    average /= static_cast<double>(T);
    REQUIRE(theta.norm() == Approx(R / 2));  // the projection was active

    for (const char* noise : {"naive", "practical", "paper"}) {
        INFO(noise);
        TrainConfig config = userConfig(INFINITY, noise, T);
        config.extra["smoothing-radius"] = "0";
        config.extra["user-step-size"] = "0.7";
        config.extra["diameter"] = "1";
        config.extra["tau-factor"] = "10";  // every user within τ of every other: all kept
        const RunResult result = test::runQuietly(config, data);
        REQUIRE(result.steps == T);
        CHECK(std::isinf(result.privacy.epsilonSpent));
        for (Eigen::Index j = 0; j < average.size(); ++j)
            CHECK(result.theta(0, j) == Approx(average(j)).margin(1e-12));
    }
}

TEST_CASE("user-level-dp-sgd reports per user: the statement, test users and their spread",
          "[user-level]") {
    const DataSplit data = syntheticUsers(200, 12);
    const RunResult result = test::runQuietly(userConfig(2.0, "naive", 30), data);
    REQUIRE(result.status == RunStatus::Completed);
    const privacy::PrivacyReport& report = result.privacy;
    CHECK(report.unit == "user");
    CHECK(report.adjacency == "replace-one");
    CHECK(report.neighbouring.find("all rows of one user replaced") == 0);
    CHECK(report.trustModel.find("trusted curator") != std::string::npos);
    CHECK(report.statement.find("per user under replace-one adjacency") != std::string::npos);
    CHECK(report.statement.find("Neighbouring data sets: all rows of one user replaced") !=
          std::string::npos);
    CHECK(report.statement.find("group-privacy") == std::string::npos);  // the unit is the person
    CHECK(report.persons == data.train.users->units());
    CHECK(result.unitKind == "user");
    REQUIRE(static_cast<long>(result.units.size()) == data.test.users->units());
    double lo = 1.0, hi = 0.0;
    for (std::size_t u = 0; u < result.units.size(); ++u) {
        const UnitMetrics& unit = result.units[u];
        CHECK(unit.name == data.test.users->name(static_cast<long>(u)));
        CHECK(unit.testRows == data.test.users->rowCount(static_cast<long>(u)));
        const auto position = data.train.users->find(data.test.users->id(static_cast<long>(u)));
        CHECK(unit.trainRows == (position ? data.train.users->rowCount(*position) : 0));
        REQUIRE(std::isfinite(unit.testError));
        lo = std::min(lo, unit.testError);
        hi = std::max(hi, unit.testError);
    }
    CHECK(result.history.back().unitErrorSpread == Approx(hi - lo).margin(1e-15));
}

TEST_CASE(
    "Parkinsons by subject: record-level dp-sgd states the person-level ε, user-level certifies it",
    "[user-level][parkinsons][needs-data]") {
    const std::string directory = test::sharedDatasetPath("parkinsons-telemonitoring");
    if (directory.empty()) PFA_SKIP_TEST(test::missingDatasetReason("parkinsons-telemonitoring"));
    const DataSplit data = splitAndEncode(findCatalogEntry("parkinsons").load(directory));
    REQUIRE(data.train.users);
    CHECK(data.train.users->units() == 42);
    TrainConfig record = test::quickConfig("dp-sgd", 2.0, 0.0);
    record.epochs = 5;
    const RunResult rowLevel = test::runQuietly(record, data);
    CHECK(rowLevel.privacy.persons == 42);
    CHECK(rowLevel.privacy.maxRowsPerPerson == data.train.users->maxRowsPerUnit());
    // Group privacy over ~100 recordings per person: far above the per-recording ε.
    CHECK(rowLevel.privacy.epsilonPerPerson > 10.0 * rowLevel.privacy.epsilonSpent);
    CHECK(rowLevel.privacy.statement.find("User-level privacy needs a user-level algorithm") !=
          std::string::npos);

    const RunResult userLevel = test::runQuietly(userConfig(2.0, "naive", 200), data);
    REQUIRE(userLevel.status == RunStatus::Completed);
    CHECK(userLevel.privacy.epsilonPerPerson == userLevel.privacy.epsilonSpent);
    CHECK(userLevel.privacy.epsilonSpent <= 2.0);
    CHECK(static_cast<long>(userLevel.units.size()) == data.test.users->units());
}

// The measurement behind the user-level comparison on Parkinsons by subject (42 users): test
// error against ε for record-level dp-sgd (and the person-level ε it actually gives, by group
// privacy), user-level naive per-user clipping, and the outlier-removal modes. Printed (about
// 15 s), and the README's claims drawn from it are checked. Print it alone:
// build/bin/pfa_core_tests "[user-level-table]".
TEST_CASE("Parkinsons by subject: test error against ε, record level vs user level (table printed)",
          "[user-level][parkinsons][user-level-table][needs-data][slow]") {
    const std::string directory = test::sharedDatasetPath("parkinsons-telemonitoring");
    if (directory.empty()) PFA_SKIP_TEST(test::missingDatasetReason("parkinsons-telemonitoring"));
    const DataSplit data = splitAndEncode(findCatalogEntry("parkinsons").load(directory));
    const int seeds = 5;
    struct Variant {
        const char* label;
        const char* algorithm;
        const char* noise;
        const char* tauFactor;
        const char* perRound = "0";
    };
    const Variant variants[] = {
        {"record-level dp-sgd", "dp-sgd", "", ""},
        {"user-level naive (C_u = 1)", "user-level-dp-sgd", "naive", "2"},
        {"user-level naive, 21 users/round", "user-level-dp-sgd", "naive", "2", "21"},
        {"user-level practical c_tau = 2", "user-level-dp-sgd", "practical", "2"},
        {"user-level practical c_tau = 10", "user-level-dp-sgd", "practical", "10"},
        {"user-level paper c_tau = 2", "user-level-dp-sgd", "paper", "2"},
    };
    std::map<std::string, std::map<double, double>> naiveError;  // mean test error
    std::printf(
        "Parkinsons telemonitoring by subject: %ld training users, %ld training rows, %d seeds\n",
        data.train.users->units(), static_cast<long>(data.train.rows()), seeds);
    std::printf("%-32s %6s %16s %12s %14s %7s %10s\n", "variant", "eps", "test error", "eps stated",
                "eps per person", "halted", "rounds run");
    for (const Variant& variant : variants) {
        for (const double epsilon : {1.0, 2.0, 4.0, 8.0, double(INFINITY)}) {
            double sum = 0.0, squares = 0.0, stated = 0.0, person = 0.0, rounds = 0.0;
            int halts = 0;
            for (int seed = 0; seed < seeds; ++seed) {
                TrainConfig config;
                if (std::string(variant.algorithm) == "dp-sgd") {
                    config = test::quickConfig("dp-sgd", epsilon, 0.0);
                    config.epochs = 20;
                } else {
                    config = userConfig(epsilon, variant.noise, 200);
                    config.delta = 0.0;  // automatic, as for dp-sgd: 1/n², n = training rows
                    config.extra["user-clip"] = "1";
                    config.extra["tau-factor"] = variant.tauFactor;
                    config.extra["users-per-round"] = variant.perRound;
                }
                config.seed = static_cast<std::uint64_t>(seed);
                const RunResult result = test::runQuietly(config, data);
                REQUIRE(result.status == RunStatus::Completed);
                sum += result.test.error;
                squares += result.test.error * result.test.error;
                stated += result.privacy.epsilonSpent / seeds;
                person += (result.privacy.epsilonPerPerson > 0 ? result.privacy.epsilonPerPerson
                                                               : result.privacy.epsilonSpent) /
                          seeds;
                rounds += static_cast<double>(result.steps) / seeds;
                halts += halted(result) ? 1 : 0;
            }
            const double mean = sum / seeds;
            const double sd =
                std::sqrt(std::max(0.0, (squares - seeds * mean * mean) / (seeds - 1)));
            std::printf("%-32s %6g %8.3f ± %5.3f %12.4g %14.4g %4d/%d %10.0f\n", variant.label,
                        epsilon, mean, sd, stated, person, halts, seeds, rounds);
            INFO(variant.label << ", epsilon " << epsilon);
            const std::string label = variant.label;
            if (label == "record-level dp-sgd" && epsilon <= 2.0) {
                // "dp-sgd at a record-level ε of 1 or 2 gives person-level bounds in the
                // thousands or beyond"
                CHECK(person > 1000.0);
            }
            if (label.rfind("user-level naive", 0) == 0) {
                // The naive mode is the one that trains, and certifies ε per person.
                CHECK(halts == 0);
                CHECK(stated <= epsilon);
                if (std::isfinite(epsilon)) CHECK(person == Approx(stated));
                naiveError[label][epsilon] = mean;
            }
            if ((label == "user-level practical c_tau = 2" ||
                 label.rfind("user-level paper", 0) == 0) &&
                std::isfinite(epsilon)) {
                // "with a few dozen users (Parkinsons has 42) it [the gate] halts"
                CHECK(halts == seeds);
            }
        }
    }
    for (const auto& [label, byEpsilon] : naiveError) {
        INFO(label);
        CHECK(byEpsilon.at(8.0) < byEpsilon.at(1.0));  // more budget, a better model
    }
}

}  // namespace core_user_level_dp_sgd_test
