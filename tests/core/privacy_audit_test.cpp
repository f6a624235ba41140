// The empirical privacy audit: Clopper–Pearson bounds, the ε lower bound, the attack's
// threshold choice, and audits of DP-SGD (correct and deliberately broken) on synthetic data.
#include "core/audit/privacy_audit.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "audit_test_options.h"
#include "core/audit/clopper_pearson.h"
#include "core/util/error.h"
#include "test_data.h"

namespace core_privacy_audit_test {

using namespace pfa;
using namespace pfa::audit;

namespace {

/// P(X ≤ x) for X ~ Binomial(n, p), summed term by term (independent of Boost).
double binomialCdf(long x, long n, double p) {
    double total = 0.0;
    for (long k = 0; k <= x; ++k) {
        const double logTerm = std::lgamma(n + 1.0) - std::lgamma(k + 1.0) -
                               std::lgamma(n - k + 1.0) + k * std::log(p) +
                               (n - k) * std::log1p(-p);
        total += std::exp(logTerm);
    }
    return total;
}

/// Solves f(p) = target for a function decreasing in p on (0, 1) by bisection.
template <typename F>
double bisect(F f, double target) {
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        (f(mid) > target ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

/// The tests' DP-SGD audit (auditTestOptions) with `models` models per world.
AuditOptions testOptions(std::vector<double> epsilons, int models) {
    AuditOptions options = test::auditTestOptions(std::move(epsilons));
    options.modelsPerWorld = models;
    return options;
}

}  // namespace

TEST_CASE("Clopper–Pearson bounds match their closed forms at 0 and n successes",
          "[audit][clopper-pearson]") {
    for (long n : {1L, 10L, 50L, 500L}) {
        for (double alpha : {0.025, 0.05, 0.1}) {
            CHECK(clopperPearsonUpper(0, n, alpha) ==
                  Approx(1.0 - std::pow(alpha, 1.0 / n)).epsilon(1e-12));
            CHECK(clopperPearsonLower(n, n, alpha) ==
                  Approx(std::pow(alpha, 1.0 / n)).epsilon(1e-12));
            CHECK(clopperPearsonLower(0, n, alpha) == 0.0);
            CHECK(clopperPearsonUpper(n, n, alpha) == 1.0);
        }
    }
}

TEST_CASE("Clopper–Pearson bounds solve the binomial tail equations", "[audit][clopper-pearson]") {
    // Textbook value: 5 of 10, two-sided 95 % interval [0.187086, 0.812914].
    CHECK(clopperPearsonLower(5, 10, 0.025) == Approx(0.187086).margin(1e-6));
    CHECK(clopperPearsonUpper(5, 10, 0.025) == Approx(0.812914).margin(1e-6));
    struct Case {
        long x, n;
        double alpha;
    };
    for (const Case c :
         {Case{3, 20, 0.025}, Case{17, 40, 0.05}, Case{95, 100, 0.025}, Case{1, 7, 0.1}}) {
        // Upper U: P(X ≤ x | U) = α. Lower L: P(X ≥ x | L) = α, i.e. P(X ≤ x − 1 | L) = 1 − α.
        const double upper = bisect([&](double p) { return binomialCdf(c.x, c.n, p); }, c.alpha);
        const double lower =
            bisect([&](double p) { return binomialCdf(c.x - 1, c.n, p); }, 1.0 - c.alpha);
        CHECK(clopperPearsonUpper(c.x, c.n, c.alpha) == Approx(upper).margin(1e-9));
        CHECK(clopperPearsonLower(c.x, c.n, c.alpha) == Approx(lower).margin(1e-9));
    }
    CHECK_THROWS_AS(clopperPearsonLower(3, 2, 0.05), InputError);
    CHECK_THROWS_AS(clopperPearsonUpper(0, 0, 0.05), InputError);
    CHECK_THROWS_AS(clopperPearsonUpper(1, 2, 1.0), InputError);
}

TEST_CASE("The epsilon lower bound follows from the two (ε, δ) inequalities",
          "[audit][epsilon-bound]") {
    CHECK(epsilonLowerBound(0.9, 0.1, 0.0) == Approx(std::log(9.0)).epsilon(1e-14));
    // (0.5 − 0.01)/0.1 = 4.9 beats (1 − 0.1 − 0.01)/(1 − 0.5) = 1.78.
    CHECK(epsilonLowerBound(0.5, 0.1, 0.01) == Approx(std::log(4.9)).epsilon(1e-14));
    // First term wins: 0.2/0.1 = 2 > (1 − 0.1)/(1 − 0.2) = 1.125. Second term wins:
    // (1 − 0.5)/(1 − 0.95) = 10 > 0.95/0.5 = 1.9.
    CHECK(epsilonLowerBound(0.2, 0.1, 0.0) == Approx(std::log(2.0)).epsilon(1e-14));
    CHECK(epsilonLowerBound(0.95, 0.5, 0.0) == Approx(std::log(10.0)).epsilon(1e-14));
    CHECK(epsilonLowerBound(0.3, 0.5, 0.0) == 0.0);   // a useless attack proves nothing
    CHECK(epsilonLowerBound(0.05, 0.0, 0.1) == 0.0);  // TPR ≤ δ: nothing either
    CHECK(std::isinf(epsilonLowerBound(0.5, 0.0, 0.0)));
}

TEST_CASE("The attack's threshold is chosen on one half and measured on the other",
          "[audit][attack]") {
    std::vector<double> selectWith, selectWithout, evalWith, evalWithout;
    for (int i = 1; i <= 50; ++i) {
        selectWith.push_back(i);
        selectWithout.push_back(-i);
        evalWith.push_back(0.5 * i);
        evalWithout.push_back(-0.5 * i);
    }
    AuditPoint point;
    evaluateAttack(selectWith, selectWithout, evalWith, evalWithout, 0.0, 0.95, point);
    CHECK(point.higherMeansMember);
    CHECK(point.threshold > -1.0);
    CHECK(point.threshold < 1.0);
    CHECK(point.truePositives == 50);
    CHECK(point.falsePositives == 0);
    CHECK(point.evaluationTrials == 50);
    const double a = std::pow(0.025, 1.0 / 50.0);  // TPR ≥ a, FPR ≤ 1 − a
    CHECK(point.tprLower == Approx(a).epsilon(1e-12));
    CHECK(point.fprUpper == Approx(1.0 - a).epsilon(1e-12));
    CHECK(point.epsilonLower == Approx(std::log(a / (1.0 - a))).epsilon(1e-12));

    // Members scoring lower: the attack turns around.
    AuditPoint reversed;
    evaluateAttack(selectWithout, selectWith, evalWithout, evalWith, 0.0, 0.95, reversed);
    CHECK_FALSE(reversed.higherMeansMember);
    CHECK(reversed.truePositives == 50);
    CHECK(reversed.falsePositives == 0);

    // Identical distributions: no bound.
    AuditPoint nothing;
    evaluateAttack(selectWith, selectWith, evalWith, evalWith, 0.0, 0.95, nothing);
    CHECK(nothing.epsilonLower == 0.0);
}

TEST_CASE("The canary lies far from the data and is scored by its margin", "[audit][canary]") {
    const DataSplit data = test::syntheticSplit(2000);
    const Canary canary = makeCanary(data.train);
    const Eigen::VectorXd mean = data.train.X.colwise().mean().transpose();
    CHECK((canary.x - mean).norm() == Approx(10.0).epsilon(1e-9));
    CHECK((canary.label == 0 || canary.label == 1));
    RowMatrix theta = RowMatrix::Zero(1, data.train.features() + 1);
    theta(0, 0) = 2.0;
    theta(0, data.train.features()) = 5.0;  // the bias is not part of the score
    const double logit = 2.0 * canary.x(0);
    CHECK(canaryScore(theta, canary) == Approx(canary.label == 1 ? logit : -logit));
}

TEST_CASE("The audit refuses settings it cannot test", "[audit][applicability]") {
    const DataSplit data = test::syntheticSplit(2000);
    AuditOptions options = testOptions({1.0}, 10);
    CHECK(auditApplicability(options, data).empty());
    AuditOptions replace = options;
    replace.config.adjacency = privacy::Adjacency::Replace;
    CHECK_THAT(auditApplicability(replace, data), Catch::Contains("replace-one"));
    AuditOptions shuffled = options;
    shuffled.config.sampling = Sampling::Shuffle;
    CHECK_THAT(auditApplicability(shuffled, data), Catch::Contains("Poisson"));
    AuditOptions user = options;
    user.config.algorithm = "user-level-dp-sgd";
    CHECK_THAT(auditApplicability(user, data), Catch::Contains("user"));
    AuditOptions erm = options;
    erm.config.algorithm = "erm";
    CHECK_THAT(auditApplicability(erm, data), Catch::Contains("not a private"));
    AuditOptions brokenFermi = options;
    brokenFermi.config.algorithm = "dp-fermi";
    brokenFermi.brokenNoiseDivisor = 10.0;
    CHECK_THAT(auditApplicability(brokenFermi, data), Catch::Contains("dp-sgd only"));
    AuditOptions few = options;
    few.modelsPerWorld = 3;
    CHECK_FALSE(auditApplicability(few, data).empty());
    CancelToken cancel;
    CHECK_THROWS_AS(runPrivacyAudit(replace, data, cancel), InputError);
}

TEST_CASE("The audit is reproducible whatever the number of threads, and cancellable",
          "[audit][threads]") {
    const DataSplit data = test::syntheticSplit(2000);
    AuditOptions options = testOptions({4.0}, 6);
    options.config.epochs = 5;
    CancelToken cancel;
    options.threads = 1;
    const AuditResult one = runPrivacyAudit(options, data, cancel);
    options.threads = 2;
    long calls = 0, last = 0;
    const AuditResult two = runPrivacyAudit(options, data, cancel, [&](long done, long total) {
        ++calls;
        last = done;
        CHECK(total == 12);
    });
    REQUIRE(one.points.size() == 1);
    REQUIRE(two.points.size() == 1);
    CHECK(one.points[0].scoresWith == two.points[0].scoresWith);
    CHECK(one.points[0].scoresWithout == two.points[0].scoresWithout);
    CHECK(calls == 12);
    CHECK(last == 12);
    // Different worlds train on different data: the canary moves the scores.
    CHECK(one.points[0].scoresWith != one.points[0].scoresWithout);

    CancelToken cancelled;
    cancelled.cancel();
    const AuditResult stopped = runPrivacyAudit(options, data, cancelled);
    CHECK(stopped.cancelled);
    CHECK(stopped.points.empty());
}

TEST_CASE("DP-SGD's audit lower bound never exceeds the accountant's epsilon",
          "[audit][dp-sgd][slow]") {
    // 60 models per world and ε (30 choose the threshold, 30 measure it).
    const DataSplit data = test::syntheticSplit(2000);
    CancelToken cancel;
    const AuditResult result = runPrivacyAudit(testOptions({1.0, 4.0, 16.0}, 60), data, cancel);
    REQUIRE(result.points.size() == 3);
    CHECK_FALSE(result.broken);
    for (const AuditPoint& point : result.points) {
        INFO("target ε = " << point.targetEpsilon << ", lower bound " << point.epsilonLower);
        CHECK(point.claimedEpsilon <= point.targetEpsilon * (1.0 + 1e-9));
        CHECK(point.claimedEpsilon > 0.95 * point.targetEpsilon);
        CHECK(point.epsilonLower <= point.claimedEpsilon);
        CHECK_FALSE(point.contradictsClaim());
        CHECK(point.modelsTrained == 120);
        CHECK(point.evaluationTrials == 30);
    }
}

TEST_CASE("The audit catches DP-SGD with too little noise", "[audit][broken]") {
    // Noise ÷ 100 while claiming ε = 1: 40 models per world are enough to prove ε > 1.
    const DataSplit data = test::syntheticSplit(2000);
    AuditOptions options = testOptions({1.0}, 40);
    options.brokenNoiseDivisor = 100.0;
    CancelToken cancel;
    const AuditResult result = runPrivacyAudit(options, data, cancel);
    REQUIRE(result.points.size() == 1);
    const AuditPoint& point = result.points[0];
    CHECK(result.broken);
    CHECK(point.claimedEpsilon == Approx(1.0).epsilon(0.01));
    CHECK(point.actualEpsilon > 100.0);  // the accountant, told the real noise, would say so
    CHECK(point.epsilonLower > 1.0);
    CHECK(point.contradictsClaim());
}

TEST_CASE("A longer audit of DP-SGD and of the broken mechanism", "[.][audit-long]") {
    const DataSplit data = test::syntheticSplit(2000);
    CancelToken cancel;
    const AuditResult result = runPrivacyAudit(testOptions({1.0, 4.0, 16.0}, 500), data, cancel);
    for (const AuditPoint& point : result.points) CHECK(point.epsilonLower <= point.claimedEpsilon);
    AuditOptions broken = testOptions({1.0}, 500);
    broken.brokenNoiseDivisor = 10.0;
    const AuditResult caught = runPrivacyAudit(broken, data, cancel);
    REQUIRE(caught.points.size() == 1);
    CHECK(caught.points[0].epsilonLower > 1.0);
}

}  // namespace core_privacy_audit_test
