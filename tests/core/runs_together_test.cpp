// Runs that read the same data train together without sharing any randomness: ppsgd's runs with
// every user in every round draw each user's samples once for the whole group. Each result must
// be bit for bit what the run gives alone.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "core/algorithms/registry.h"
#include "core/config/parameters.h"
#include "core/data/personalised.h"
#include "core/data/preprocessing.h"
#include "core/util/random.h"
#include "test_data.h"

using namespace pfa;

namespace {

/// Equal, or both NaN (a metric not recorded).
bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

/// Same model, per-evaluation history, final metrics, per-unit read-outs and ε, bit for bit.
void requireIdentical(const RunResult& a, const RunResult& b) {
    REQUIRE(a.status == b.status);
    REQUIRE(a.steps == b.steps);
    REQUIRE(a.theta.size() == b.theta.size());
    for (Eigen::Index i = 0; i < a.theta.size(); ++i)
        REQUIRE(a.theta.data()[i] == b.theta.data()[i]);
    REQUIRE(a.history.size() == b.history.size());
    for (std::size_t e = 0; e < a.history.size(); ++e) {
        REQUIRE(a.history[e].step == b.history[e].step);
        REQUIRE(same(a.history[e].testError, b.history[e].testError));
        REQUIRE(same(a.history[e].clipFraction, b.history[e].clipFraction));
        REQUIRE(same(a.history[e].epsilonSpent, b.history[e].epsilonSpent));
        REQUIRE(same(a.history[e].trainLoss, b.history[e].trainLoss));
    }
    REQUIRE(same(a.test.error, b.test.error));
    REQUIRE(same(a.regression.testMse, b.regression.testMse));
    REQUIRE(a.units.size() == b.units.size());
    for (std::size_t u = 0; u < a.units.size(); ++u)
        REQUIRE(same(a.units[u].testError, b.units[u].testError));
    REQUIRE(same(a.privacy.epsilonSpent, b.privacy.epsilonSpent));
    REQUIRE(a.privacy.statement == b.privacy.statement);
}

std::vector<RunResult> together(const std::vector<TrainConfig>& configs, const DataSplit& data) {
    std::vector<TrainingObserver> observers(configs.size());
    std::vector<TrainingObserver*> pointers;
    for (TrainingObserver& observer : observers) pointers.push_back(&observer);
    CancelToken cancel;
    return runAlgorithmTogether(configs, data, pointers, cancel);
}

DataSplit personalisedSplit(int users, int features) {
    PersonalisedOptions options;
    options.users = users;
    options.features = features;
    options.heterogeneity = 0.3;
    options.rowsPerUser = 4;
    return splitAndEncode(generatePersonalised(options));
}

TrainConfig ppsgdConfig(double epsilon, double a, double eta, long rounds) {
    TrainConfig c;
    c.algorithm = "ppsgd";
    c.epsilon = epsilon;
    c.delta = 1e-4;
    c.seed = 3;
    c.lambda = 0.0;
    c.extra["personalisation"] = realText(a);
    c.extra["base-step"] = realText(eta);
    c.extra["global-rounds"] = std::to_string(rounds);
    return c;
}

}  // namespace

TEST_CASE("ppsgd runs trained together equal each run alone, bit for bit", "[ppsgd][together]") {
    for (const bool streaming : {true, false}) {
        DataSplit data = personalisedSplit(40, 6);
        if (!streaming) {
            // Pool: the users' own rows (every row its own user without user ids).
            data.train.personalised.reset();
            data.test.personalised.reset();
        }
        std::vector<TrainConfig> configs = {
            ppsgdConfig(1.0, 1.0, 0.2, 30), ppsgdConfig(4.0, 0.0, 0.05, 30),
            ppsgdConfig(INFINITY, INFINITY, 0.2, 30), ppsgdConfig(2.0, 10.0, 0.7, 12),
            // diverges early (a huge step): it leaves the group, the others go on
            ppsgdConfig(2.0, 1.0, 500.0, 30)};
        configs[1].extra["global-clip"] = "1";
        configs[2].extra["diagnostics"] = "on";
        const std::vector<RunResult> trained = together(configs, data);
        REQUIRE(trained.size() == configs.size());
        for (std::size_t i = 0; i < configs.size(); ++i) {
            INFO((streaming ? "streaming" : "pool") << " run " << i);
            requireIdentical(trained[i], test::runQuietly(configs[i], data));
        }
        CHECK(trained[3].steps == 12);
        CHECK(trained[0].status == RunStatus::Completed);
    }
}

TEST_CASE("ppsgd trains together only runs with every user in every round", "[ppsgd][together]") {
    const DataSplit data = personalisedSplit(40, 6);
    const Algorithm& ppsgd = findAlgorithm("ppsgd");
    const TrainConfig everyone = ppsgdConfig(1.0, 1.0, 0.2, 30);
    TrainConfig sampled = everyone;
    sampled.extra["sampled-users"] = "10";
    TrainConfig allByNumber = everyone;
    allByNumber.extra["sampled-users"] = "40";
    TrainConfig otherSeed = everyone;
    otherSeed.seed = 4;
    const auto key = [&](const TrainConfig& config) {
        return ppsgd.togetherKey(prepareRun(ppsgd, config, data).config(), data.train);
    };
    CHECK(!key(everyone).empty());
    CHECK(key(allByNumber) == key(everyone));
    CHECK(key(sampled).empty());
    CHECK(key(otherSeed) != key(everyone));
    // Runs that cannot share their samples still train correctly when handed over together.
    const std::vector<RunResult> trained = together({everyone, sampled}, data);
    requireIdentical(trained[1], test::runQuietly(sampled, data));
    requireIdentical(trained[0], test::runQuietly(everyone, data));
}
