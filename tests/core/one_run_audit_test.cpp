// The one-run audit (Steinke, Nasr and Jagielski 2023): its p-value and ε bound against an
// independent computation, the attack's guesses, the white-box gradient canaries on DP-SGD's
// real step (correct and deliberately broken), the black-box input canaries, and what it refuses.
#include "core/audit/one_run_audit.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "audit_test_options.h"
#include "core/util/error.h"
#include "test_data.h"

namespace core_one_run_audit_test {

using namespace pfa;
using namespace pfa::audit;

namespace {

/// The tests' DP-SGD audit (auditTestOptions) by a one-run `method` with `canaries`.
AuditOptions oneRunOptions(AuditMethod method, std::vector<double> epsilons, long canaries) {
    AuditOptions options = test::auditTestOptions(std::move(epsilons));
    options.method = method;
    options.canaries = canaries;
    return options;
}

}  // namespace

TEST_CASE("The one-run p-value and ε bound match an independent computation", "[audit][one-run]") {
    // Reference values from scipy.stats.binom, with the paper's Algorithm 2 written out
    // (β + α·2mδ), and bisection to 1e-18 for the bounds.
    CHECK(oneRunPValue(1000, 100, 90, 1.0, 1e-5) == Approx(0.0008412885614385308).epsilon(1e-9));
    CHECK(oneRunPValue(1000, 100, 90, 2.0, 0.0) == Approx(0.3425540546249235).epsilon(1e-9));
    CHECK(oneRunPValue(1000, 200, 150, 1.5, 1e-5) == Approx(0.993391788326738).epsilon(1e-9));
    CHECK(oneRunPValue(10000, 500, 499, 3.0, 1e-5) == Approx(0.0063400621865353024).epsilon(1e-9));
    CHECK(oneRunEpsilonLower(1000, 100, 90, 0.05, 1e-5) == Approx(1.6261434806957262).margin(2e-6));
    CHECK(oneRunEpsilonLower(1000, 100, 90, 0.05, 0.0) == Approx(1.6308231927409742).margin(2e-6));
    CHECK(oneRunEpsilonLower(1000, 200, 150, 0.05 / 7, 1e-5) ==
          Approx(0.6909112581665613).margin(2e-6));
    CHECK(oneRunEpsilonLower(10000, 500, 499, 0.005, 4.44e-7) ==
          Approx(4.172498876158873).margin(2e-6));
    // Half the guesses right proves nothing; δ only weakens a bound.
    CHECK(oneRunEpsilonLower(1000, 10, 5, 0.05, 1e-5) == 0.0);
    CHECK(oneRunEpsilonLower(1000, 100, 90, 0.05, 1e-3) <
          oneRunEpsilonLower(1000, 100, 90, 0.05, 0.0));
    CHECK(oneRunPValue(1000, 100, 0, 5.0, 0.0) == 1.0);
    CHECK_THROWS_AS(oneRunPValue(10, 20, 5, 1.0, 0.0), InputError);
    CHECK_THROWS_AS(oneRunPValue(100, 20, 21, 1.0, 0.0), InputError);
}

TEST_CASE("The one-run attack guesses the top scores for counts fixed in advance",
          "[audit][one-run]") {
    CHECK(oneRunGuessCounts(1000) == std::vector<long>{10, 20, 50, 100, 200, 500, 1000});
    CHECK(oneRunGuessCounts(15) == std::vector<long>{10});
    // 100 canaries: the 30 in score highest, then the rest mixed.
    std::vector<double> scores;
    std::vector<bool> included;
    for (int i = 0; i < 100; ++i) {
        const bool in = i < 30 || i % 2 == 0;
        included.push_back(in);
        scores.push_back(i < 30 ? 100.0 - i : static_cast<double>(i % 7));
    }
    AuditPoint point;
    evaluateOneRunAttack(scores, included, 1e-5, 0.95, point);
    CHECK(point.canaries == 100);
    CHECK(point.canariesIncluded == 65);
    CHECK(point.guessOptions == 8);  // 10, 20, 50, 100, each one-sided and two-sided
    CHECK(point.guesses == 20);      // 20 of 20 right beats 10 of 10 and the mixed rest
    CHECK(point.guessedOut == 0);
    CHECK(point.correctGuesses == 20);
    CHECK(point.epsilonLower ==
          Approx(oneRunEpsilonLower(100, 20, 20, 0.05 / 8, 1e-5)).margin(1e-12));
    // Members and non-members perfectly apart: the bottom half called out doubles the guesses.
    std::vector<double> apart;
    std::vector<bool> halves;
    for (int i = 0; i < 100; ++i) {
        apart.push_back(i < 50 ? 1.0 + i : -1.0 - i);
        halves.push_back(i < 50);
    }
    evaluateOneRunAttack(apart, halves, 1e-5, 0.95, point);
    CHECK(point.guesses == 100);
    CHECK(point.guessedOut == 50);
    CHECK(point.correctGuesses == 100);
    CHECK(point.epsilonLower ==
          Approx(oneRunEpsilonLower(100, 100, 100, 0.05 / 8, 1e-5)).margin(1e-12));
    CHECK_THROWS_AS(evaluateOneRunAttack({1.0}, {true, false}, 0.0, 0.95, point), InputError);
}

TEST_CASE("The white-box step score is the canary's log-likelihood ratio", "[audit][one-run]") {
    // ln(1 − q + q·exp((Δx − Δ²/2)/S²)), by hand, on both branches of the stable form.
    const double q = 0.04, bound = 2.0, noise = 3.0;
    for (double x : {-10.0, 0.0, 1.0, 5.0, 200.0}) {
        const double a = (bound * x - 0.5 * bound * bound) / (noise * noise);
        CHECK(gradientCanaryStepScore(x, bound, noise, q) ==
              Approx(std::log(1.0 - q + q * std::exp(a))).epsilon(1e-12));
    }
    // Far past the overflow of exp: still finite and ≈ a + ln q.
    const double huge = gradientCanaryStepScore(1e6, 1.0, 1.0, q);
    CHECK(std::isfinite(huge));
    CHECK(huge == Approx(1e6 - 0.5 + std::log(q)).epsilon(1e-12));
}

TEST_CASE(
    "The white-box audit of DP-SGD proves a bound below its claim and catches too little "
    "noise",
    "[audit][one-run][white-box]") {
    const DataSplit data = test::syntheticSplit(2000);
    CancelToken cancel;
    AuditOptions options = oneRunOptions(AuditMethod::OneRunGradient, {1.0, 4.0}, 2000);
    long calls = 0;
    const AuditResult result = runOneRunAudit(options, data, cancel, [&](long, long total) {
        ++calls;
        CHECK(total == 2 * 223);  // 2000 canaries, 9 coordinates per run
    });
    REQUIRE(result.points.size() == 2);
    CHECK(calls == 2 * 223);
    CHECK(result.method == AuditMethod::OneRunGradient);
    CHECK(result.canaries == 2000);
    for (const AuditPoint& point : result.points) {
        INFO("target ε = " << point.targetEpsilon << ", bound " << point.epsilonLower << ", "
                           << point.correctGuesses << " of " << point.guesses);
        CHECK(point.runs == 223);
        CHECK(point.canaries == 2000);
        CHECK(point.canaryScores.size() == 2000);
        CHECK(point.claimedEpsilon == Approx(point.targetEpsilon).epsilon(0.01));
        CHECK(point.epsilonLower <= point.claimedEpsilon);
        CHECK_FALSE(point.contradictsClaim());
    }
    // The canaries' coin flips are the audit's, the same for every ε; the attack sees them.
    CHECK(result.points[0].canaryIncluded == result.points[1].canaryIncluded);
    // At ε = 4 the gradient canaries are found far more often than chance.
    CHECK(result.points[1].epsilonLower > 0.5);
    CHECK(result.points[1].epsilonLower > result.points[0].epsilonLower);

    // Noise ÷ 10 while claiming ε = 1: the attack proves ε far above 1.
    AuditOptions broken = oneRunOptions(AuditMethod::OneRunGradient, {1.0}, 2000);
    broken.brokenNoiseDivisor = 10.0;
    const AuditResult caught = runOneRunAudit(broken, data, cancel);
    REQUIRE(caught.points.size() == 1);
    CHECK(caught.broken);
    CHECK(caught.points[0].claimedEpsilon == Approx(1.0).epsilon(0.01));
    CHECK(caught.points[0].epsilonLower > 3.0);
    CHECK(caught.points[0].contradictsClaim());
}

TEST_CASE(
    "The white-box audit is reproducible whatever the threads, and only reaches a "
    "clipped noisy step",
    "[audit][one-run][white-box]") {
    const DataSplit data = test::syntheticSplit(2000);
    CancelToken cancel;
    AuditOptions options = oneRunOptions(AuditMethod::OneRunGradient, {2.0}, 100);
    options.config.epochs = 5;
    options.threads = 1;
    const AuditResult one = runOneRunAudit(options, data, cancel);
    options.threads = 2;
    const AuditResult two = runOneRunAudit(options, data, cancel);
    REQUIRE(one.points.size() == 1);
    REQUIRE(two.points.size() == 1);
    CHECK(one.points[0].canaryScores == two.points[0].canaryScores);
    // Included canaries score higher on average: the hook really adds them to the step.
    double in = 0.0, out = 0.0;
    long nIn = 0, nOut = 0;
    for (std::size_t i = 0; i < one.points[0].canaryScores.size(); ++i) {
        (one.points[0].canaryIncluded[i] ? in : out) += one.points[0].canaryScores[i];
        ++(one.points[0].canaryIncluded[i] ? nIn : nOut);
    }
    CHECK(in / static_cast<double>(nIn) > out / static_cast<double>(nOut));

    // PF-LD's loop has no step the hook reaches: refused with the reason, not a silent 0.
    AuditOptions other = options;
    other.config = {};
    other.config.algorithm = "pf-ld";
    other.config.lambda = 0.0;
    CHECK_THROWS_WITH(runOneRunAudit(other, data, cancel), Catch::Contains("white-box audit"));
}

TEST_CASE("The black-box one-run audit inserts input canaries by coin flips", "[audit][one-run]") {
    const DataSplit data = test::syntheticSplit(2000);
    CancelToken cancel;
    const AuditResult result =
        runOneRunAudit(oneRunOptions(AuditMethod::OneRunInput, {1.0}, 200), data, cancel);
    REQUIRE(result.points.size() == 1);
    const AuditPoint& point = result.points[0];
    CHECK(result.method == AuditMethod::OneRunInput);
    CHECK(point.runs == 23);  // at most 9 canaries (the model's coordinates) per run
    CHECK(point.canariesIncluded > 70);
    CHECK(point.canariesIncluded < 130);
    CHECK(point.epsilonLower <= point.claimedEpsilon);
    CHECK_THAT(result.canary.description, Catch::Contains("probability ½"));
    AuditOptions few = oneRunOptions(AuditMethod::OneRunInput, {1.0}, 5);
    CHECK_THAT(auditApplicability(few, data), Catch::Contains("canaries"));
}

}  // namespace core_one_run_audit_test
