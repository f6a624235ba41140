// Auto-tune (core/sweep/auto_tune.h): the abandon rule, the first surviving step kept, the
// selection by final training loss, the validation split carved from the training rows, and
// the statement that the choice is not covered, with the composed ε of every trial.
#include "core/sweep/auto_tune.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "core/data/silo_splitters.h"
#include "core/privacy/accounting_inputs.h"
#include "core/util/random.h"
#include "test_data.h"

using namespace pfa;

namespace {

DataSplit regression(int rows, int d, int silos) {
    RandomStream random(8, 21);
    DataSplit split;
    for (Dataset* part : {&split.train, &split.test}) {
        const int n = part == &split.train ? rows * 4 / 5 : rows / 5;
        part->name = "tune-regression";
        part->X.resize(n, d);
        part->target.resize(n);
        for (int i = 0; i < n; ++i) {
            double s = 0.0;
            for (int j = 0; j < d; ++j) {
                part->X(i, j) = random.normal();
                s += part->X(i, j) * 0.4;
            }
            part->target(i) = std::tanh(s) + 0.2 * random.normal();
        }
        part->y = Eigen::VectorXi::Zero(n);
        part->s = Eigen::VectorXi::Zero(n);
        part->groupNames = {"all"};
    }
    SiloOptions options;
    options.silos = silos;
    assignSilos(split, makeSilos(split, options));
    return split;
}

TrainConfig candidate(const std::string& algorithm, double epsilon) {
    TrainConfig c;
    c.algorithm = algorithm;
    c.epsilon = epsilon;
    c.delta = 1e-5;
    c.seed = 2;
    c.lambda = 0.0;
    c.extra["gd-rounds"] = "200";
    c.extra["full-clip"] = "1";
    return c;
}

}  // namespace

TEST_CASE("The abandon rule: NaN, or 5 evaluations in a row above 1.05 x the best", "[auto-tune]") {
    AbandonRule nan(1.05, 5);
    CHECK_FALSE(nan.observe(1.0));
    CHECK(nan.observe(std::nan("")));
    CHECK_THAT(nan.reason(), Catch::Contains("not finite"));

    AbandonRule rising(1.05, 5);
    CHECK_FALSE(rising.observe(1.0));
    for (int k = 0; k < 4; ++k) CHECK_FALSE(rising.observe(1.2));
    CHECK(rising.observe(1.2));  // the fifth in a row
    CHECK_THAT(rising.reason(), Catch::Contains("5 evaluations in a row"));

    // A new best resets the count; so does an evaluation within 1.05 x the best.
    AbandonRule reset(1.05, 5);
    CHECK_FALSE(reset.observe(1.0));
    for (int k = 0; k < 4; ++k) CHECK_FALSE(reset.observe(1.1));
    CHECK_FALSE(reset.observe(0.9));  // new best
    for (int k = 0; k < 4; ++k) CHECK_FALSE(reset.observe(0.95));
    CHECK_FALSE(reset.observe(0.94));  // within 1.05 x 0.9: the row is broken
    for (int k = 0; k < 4; ++k) CHECK_FALSE(reset.observe(0.96));
    CHECK(reset.observe(0.96));
}

TEST_CASE("Auto-tune keeps the first surviving step and chooses by final training loss",
          "[auto-tune]") {
    const DataSplit data = regression(1500, 4, 3);
    AutoTuneOptions options;
    // Without noise and clipping, 64 and 16 diverge on standardised features (|1 − ηλ| > 1).
    options.steps = {64.0, 16.0, 4.0, 1.0, 0.25};
    std::vector<TrainConfig> candidates;
    for (const char* period : {"1", "10"}) {
        TrainConfig c = candidate("diff2", INFINITY);
        c.extra["restart-period"] = period;
        candidates.push_back(c);
    }
    CancelToken cancel;
    std::vector<TuneProgress> reports;
    const AutoTuneOutcome out = autoTune(candidates, data, options, cancel,
                                         [&](const TuneProgress& p) { reports.push_back(p); });
    REQUIRE(out.chosen);
    REQUIRE(reports.size() == out.trials.size());
    // Per candidate: trials in the order of the steps, abandoned until the first survivor, which
    // ends the candidate's trials.
    for (std::size_t c = 0; c < candidates.size(); ++c) {
        std::vector<const TuneTrial*> mine;
        for (const TuneTrial& t : out.trials) {
            if (t.candidate == c) mine.push_back(&t);
        }
        REQUIRE(!mine.empty());
        CHECK(mine.front()->config.extra.at("gd-step") == "64");
        CHECK_FALSE(mine.front()->survived);
        CHECK(mine.back()->survived);
        for (std::size_t k = 0; k + 1 < mine.size(); ++k) CHECK_FALSE(mine[k]->survived);
    }
    // The chosen trial has the smallest final training loss among the survivors.
    for (const TuneTrial& t : out.trials) {
        if (t.survived) CHECK(out.trials[*out.chosen].trainLoss <= t.trainLoss);
    }
    // The final run is the chosen setting on all training rows.
    const RunResult& final = out.final;
    REQUIRE(final.status == RunStatus::Completed);
    CHECK(final.config.extra.at("gd-step") == out.trials[*out.chosen].config.extra.at("gd-step"));
    CHECK(final.config.extra.at("restart-period") ==
          out.trials[*out.chosen].config.extra.at("restart-period"));
}

TEST_CASE("Auto-tune states that its choice is not covered, and what all trials cost",
          "[auto-tune]") {
    const DataSplit data = regression(1500, 4, 3);
    AutoTuneOptions options;
    options.steps = {1.0, 0.25};
    std::vector<TrainConfig> candidates;
    for (const char* clip : {"0.3", "1"}) {
        TrainConfig c = candidate("dp-gd", 4.0);
        c.extra["full-clip"] = clip;
        candidates.push_back(c);
    }
    CancelToken cancel;
    const AutoTuneOutcome out = autoTune(candidates, data, options, cancel);
    REQUIRE(out.chosen);
    const RunResult& final = out.final;
    REQUIRE(final.status == RunStatus::Completed);
    CHECK(final.privacy.tuning == "not-covered");
    CHECK(final.privacy.tuningCandidates == static_cast<int>(out.trials.size()));
    CHECK_THAT(final.privacy.statement,
               Catch::Contains("Tuning is not covered") && Catch::Contains("auto-tune"));
    // The composed ε is more than the run's own and at most the plain sum of all the runs' ε.
    double sum = final.privacy.epsilonSpent;
    for (const TuneTrial& t : out.trials) sum += privacy::certifiedEpsilon(t.accounting).epsilon;
    CHECK(out.composedEpsilon > final.privacy.epsilonSpent);
    CHECK(out.composedEpsilon <= sum);
}

TEST_CASE("Auto-tune's validation rows come from the training rows only", "[auto-tune]") {
    const DataSplit data = regression(1000, 3, 4);
    const DataSplit carved = carveValidation(data, 0.2, 5);
    CHECK(carved.train.rows() + carved.test.rows() == data.train.rows());
    CHECK(carved.test.rows() == 160);
    // Every validation row is a training row (the targets are distinct reals).
    std::set<double> trainTargets(data.train.target.data(),
                                  data.train.target.data() + data.train.rows());
    for (Eigen::Index i = 0; i < carved.test.rows(); ++i)
        CHECK(trainTargets.count(carved.test.target(i)) == 1);
    // The silos follow their rows.
    REQUIRE(carved.train.silos);
    CHECK(carved.train.silos->units() == 4);
    CHECK(carved.train.silos->rows() == carved.train.rows());
    CHECK_THROWS_WITH(carveValidation(data, 1.0, 5), Catch::Contains("leaves a part empty"));
}
