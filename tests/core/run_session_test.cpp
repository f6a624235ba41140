// The run session: the bookkeeping every training loop shares (cancel, observer, divergence,
// evaluated history, ε so far), on its own and through every registered algorithm.
#include "core/engine/run_session.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "core/algorithms/registry.h"
#include "test_data.h"

namespace core_run_session_test {

using namespace pfa;

namespace {

/// Records what it is shown and asks to stop at a chosen step or evaluation.
struct ScriptedObserver : TrainingObserver {
    long stopAtStep = -1, stopAtEvaluation = -1;
    std::vector<long> steps;
    std::vector<EpochMetrics> evaluations;
    bool onStep(const StepInfo& info) override {
        steps.push_back(info.step);
        return info.step == stopAtStep;
    }
    bool onEpochEnd(const EpochMetrics& metrics) override {
        evaluations.push_back(metrics);
        return static_cast<long>(evaluations.size()) == stopAtEvaluation;
    }
};

StepInfo step(long number) {
    StepInfo info;
    info.step = number;
    return info;
}

EpochMetrics evaluationAt(long stepNumber) {
    EpochMetrics metrics;
    metrics.step = stepNumber;
    return metrics;
}

}  // namespace

TEST_CASE("Run session: cancellation is seen before a step and named with the steps done",
          "[session]") {
    ScriptedObserver observer;
    CancelToken cancel;
    RunSession session(observer, cancel, "rounds");
    CHECK_FALSE(session.cancelled(0));
    CHECK(session.result().status == RunStatus::Completed);
    cancel.cancel();
    CHECK(session.cancelled(4));
    const RunResult result = session.finish();
    CHECK(result.status == RunStatus::Cancelled);
    CHECK(result.message == "cancelled after 4 rounds");
    CHECK(result.seconds >= 0.0);
}

TEST_CASE("Run session: the observer stops a run early, never its last step", "[session]") {
    ScriptedObserver observer;
    observer.stopAtStep = 3;
    CancelToken cancel;
    {
        RunSession session(observer, cancel);
        CHECK_FALSE(session.stopRequested(session.stepped(step(1)), 1, 3));
        CHECK_FALSE(session.stopRequested(session.stepped(step(2)), 2, 3));
        // Asked to stop after the last step: the run is complete all the same.
        CHECK_FALSE(session.stopRequested(session.stepped(step(3)), 3, 3));
        const RunResult result = session.finish();
        CHECK(result.status == RunStatus::Completed);
        CHECK(result.steps == 3);
        CHECK(observer.steps == std::vector<long>{1, 2, 3});
    }
    {
        RunSession session(observer, cancel, "rounds");
        CHECK(session.stopRequested(session.stepped(step(3)), 3, 10));
        const RunResult result = session.finish();
        CHECK(result.status == RunStatus::Cancelled);
        CHECK(result.message == "stopped after 3 rounds");
        CHECK(result.steps == 3);
    }
}

TEST_CASE("Run session: evaluations carry the accountant's ε at their step and the wall time",
          "[session]") {
    ScriptedObserver observer;
    observer.stopAtEvaluation = 2;
    CancelToken cancel;
    RunSession session(observer, cancel);
    // Not private until told otherwise: +∞.
    CHECK_FALSE(session.evaluated(evaluationAt(1)));
    session.setEpsilonSoFar([](long steps) { return 0.25 * static_cast<double>(steps); });
    CHECK(session.evaluated(evaluationAt(6)));  // the observer's stop request is passed on
    const RunResult result = session.finish();
    REQUIRE(result.history.size() == 2);
    CHECK(std::isinf(result.history[0].epsilonSpent));
    CHECK(result.history[1].epsilonSpent == 1.5);
    CHECK(result.history[1].seconds >= result.history[0].seconds);
    REQUIRE(observer.evaluations.size() == 2);
    CHECK(observer.evaluations[1].epsilonSpent == 1.5);  // what the observer sees is stamped
}

TEST_CASE("Run session: divergence is kept with its message", "[session]") {
    ScriptedObserver observer;
    CancelToken cancel;
    RunSession session(observer, cancel);
    CHECK_FALSE(session.diverged());
    session.diverge("the iterate diverged at step 7");
    CHECK(session.diverged());
    const RunResult result = session.finish();
    CHECK(result.status == RunStatus::Diverged);
    CHECK(result.message == "the iterate diverged at step 7");
}

TEST_CASE("Run session: about 50 evaluations a run, always the last step", "[session]") {
    std::vector<long> due;
    for (long t = 1; t <= 120; ++t)
        if (RunSession::evaluationDue(t, 120, 1)) due.push_back(t);
    CHECK(due.size() == 60);  // every ⌊120/50⌋ = 2 steps
    CHECK(due.front() == 2);
    CHECK(due.back() == 120);
    int dueOfSeven = 0, dueOf101 = 0;
    for (long t = 1; t <= 7; ++t) dueOfSeven += RunSession::evaluationDue(t, 7, 1) ? 1 : 0;
    for (long t = 1; t <= 101; ++t) dueOf101 += RunSession::evaluationDue(t, 101, 1) ? 1 : 0;
    CHECK(dueOfSeven == 7);  // short runs: every step
    CHECK(dueOf101 == 51);   // every 2nd step, and the last (odd) one
    CHECK(RunSession::evaluationDue(100, 1000, 1, 100));
    CHECK_FALSE(RunSession::evaluationDue(105, 1000, 1, 100));
}

TEST_CASE("Run session: evaluate-every spaces a loop's evaluations, never more than its schedule",
          "[session]") {
    const auto dueSteps = [](long total, long every, long points) {
        std::vector<long> due;
        for (long t = 1; t <= total; ++t)
            if (RunSession::evaluationDue(t, total, every, points)) due.push_back(t);
        return due;
    };
    // 35 rounds every 5: the 5th, 10th, …, 35th.
    CHECK(dueSteps(35, 5, 50) == std::vector<long>{5, 10, 15, 20, 25, 30, 35});
    // Not a multiple: the last round is evaluated all the same.
    CHECK(dueSteps(12, 5, 50) == std::vector<long>{5, 10, 12});
    // More than the run: only the last (what bench --evaluation-share measures against).
    CHECK(dueSteps(35, 1000000000, 50) == std::vector<long>{35});
    // A long run keeps its own spacing when evaluate-every asks for more evaluations …
    CHECK(dueSteps(1000, 3, 50).size() == 50);  // every ⌊1000/50⌋ = 20 steps
    // … and takes evaluate-every's when that asks for fewer.
    CHECK(dueSteps(1000, 100, 50) ==
          std::vector<long>{100, 200, 300, 400, 500, 600, 700, 800, 900, 1000});
    // dueEvery: a fixed spacing (epochs of s steps, a family's own floor), the last always.
    CHECK(RunSession::dueEvery(40, 100, 20));
    CHECK_FALSE(RunSession::dueEvery(41, 100, 20));
    CHECK(RunSession::dueEvery(100, 100, 30));
    CHECK(RunSession::dueEvery(7, 9, 0));  // a spacing below 1 is every step
}

TEST_CASE("Every algorithm stops when its observer asks after the first step",
          "[session][conformance]") {
    for (const auto& entry : algorithmRegistry()) {
        const Algorithm& algorithm = *entry;
        INFO(algorithm.name());
        const TrainConfig config = test::tinyRunConfig(algorithm);
        const RunResult full = test::runQuietly(config, test::tinyRunData(algorithm));
        REQUIRE(full.status == RunStatus::Completed);
        ScriptedObserver observer;
        observer.stopAtStep = 1;
        CancelToken cancel;
        const RunResult stopped =
            runAlgorithm(config, test::tinyRunData(algorithm), observer, cancel);
        if (full.steps > 1) {
            CHECK(stopped.status == RunStatus::Cancelled);
            CHECK(stopped.steps == 1);
            CHECK(stopped.message.rfind("stopped after 1 ", 0) == 0);
        } else {
            CHECK(stopped.status == RunStatus::Completed);
        }
        // Every evaluation the observer saw is in the result, as it was shown.
        REQUIRE(observer.evaluations.size() == stopped.history.size());
        for (std::size_t i = 0; i < stopped.history.size(); ++i)
            CHECK(observer.evaluations[i].epsilonSpent == stopped.history[i].epsilonSpent);
    }
}

}  // namespace core_run_session_test
