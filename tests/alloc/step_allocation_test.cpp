// The training step must not touch the heap (DESIGN.md: "Eigen inner loops do not allocate").
// This executable replaces the global operator new with a counting one and checks that no
// allocation happens between two consecutive steps of the same epoch, for every algorithm.
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <new>

#include "core/algorithms/registry.h"
#include "core/data/heavy_tailed.h"
#include "core/data/preprocessing.h"
#include "core/data/synthetic.h"
#include "core/data/units.h"
#include "core/engine/unit_sampler.h"

namespace {
std::atomic<long> g_allocations{0};
}

void* operator new(std::size_t size) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

using namespace pfa;

namespace {

/// Counts allocations between consecutive steps of the same epoch.
struct AllocationProbe : TrainingObserver {
    long previousCount = -1;
    int previousEpoch = -1;
    long intervals = 0;
    long allocatingIntervals = 0;
    bool onStep(const StepInfo& step) override {
        const long now = g_allocations.load();
        if (step.epoch == previousEpoch) {
            ++intervals;
            if (now != previousCount) ++allocatingIntervals;
        }
        previousEpoch = step.epoch;
        previousCount = g_allocations.load();
        return false;
    }
};

}  // namespace

TEST_CASE("No heap allocation inside the training step", "[allocation]") {
    SyntheticOptions options;
    options.rows = 3000;
    const DataSplit data = splitAndEncode(generateSynthetic(options));
    struct Case {
        const char* algorithm;
        double epsilon;
        double lambda;
        FairnessNotion notion;
        int classes;
        BatchSharing batches = BatchSharing::Own;
    };
    for (const Case& c :
         {Case{"erm", INFINITY, 0, FairnessNotion::DemographicParity, 2},
          Case{"fermi", INFINITY, 1, FairnessNotion::DemographicParity, 2},
          Case{"fermi", INFINITY, 1, FairnessNotion::EqualizedOdds, 2},
          Case{"dp-fermi", 1.0, 1, FairnessNotion::EqualOpportunity, 2},
          Case{"dp-fermi", 1.0, 2, FairnessNotion::DemographicParity, 2},
          Case{"dp-sgd", 1.0, 0, FairnessNotion::DemographicParity, 2},
          Case{"dp-fermi", 1.0, 1, FairnessNotion::DemographicParity, 3},
          // The shared products' path (a group of one).
          Case{"dp-fermi", 1.0, 2, FairnessNotion::DemographicParity, 2, BatchSharing::BySeed},
          Case{"dp-fermi", 1.0, 1, FairnessNotion::EqualizedOdds, 3, BatchSharing::BySeed},
          Case{"dp-sgd", 1.0, 0, FairnessNotion::DemographicParity, 2, BatchSharing::BySeed}}) {
        INFO(c.algorithm << " classes " << c.classes << " batches " << batchSharingName(c.batches));
        DataSplit split = data;
        if (c.classes == 3) {
            for (Dataset* part : {&split.train, &split.test}) {
                part->classNames.push_back("third");
                for (Eigen::Index i = 0; i < part->rows(); i += 3) part->y(i) = 2;
            }
        }
        TrainConfig config;
        config.algorithm = c.algorithm;
        config.epsilon = c.epsilon;
        config.lambda = c.lambda;
        config.fairness = c.notion;
        config.epochs = 3;
        config.batchSize = 128;
        config.batchSharing = c.batches;
        AllocationProbe probe;
        CancelToken cancel;
        const RunResult result = runAlgorithm(config, split, probe, cancel);
        REQUIRE(result.status == RunStatus::Completed);
        REQUIRE(probe.intervals > 30);
        CHECK(probe.allocatingIntervals == 0);
    }
}

TEST_CASE("No heap allocation when drawing a batch of users", "[allocation]") {
    std::vector<int> userOfRow;
    for (int row = 0; row < 5000; ++row) userOfRow.push_back((row * 7919) % 613);
    const UnitIndex users(userOfRow);
    UnitSampler sampler(SamplerSpec::overUnits(SamplingUnit::User, users.units(), 50, 1), users,
                        RandomStream(3, 1));
    std::vector<long> rows(static_cast<std::size_t>(users.rows()));
    long drawnRows = 0;
    const long before = g_allocations.load();
    for (int step = 0; step < 200; ++step) drawnRows += sampler.next(rows);
    CHECK(g_allocations.load() == before);
    CHECK(drawnRows > 0);
}

TEST_CASE("No heap allocation inside a round of user-level DP-SGD", "[allocation]") {
    SyntheticOptions options;
    options.rows = 6000;
    options.users = 300;
    const DataSplit data = splitAndEncode(generateSynthetic(options));
    for (const char* mode : {"practical", "naive", "naive-sampled"}) {
        INFO(mode);
        TrainConfig config;
        config.algorithm = "user-level-dp-sgd";
        config.epsilon = 4.0;
        config.lambda = 0.0;
        config.extra["user-rounds"] = "200";
        config.extra["user-noise"] = std::string(mode).substr(0, std::string(mode).find('-'));
        if (std::string(mode) == "naive-sampled") config.extra["users-per-round"] = "50";
        AllocationProbe probe;
        CancelToken cancel;
        const RunResult result = runAlgorithm(config, data, probe, cancel);
        REQUIRE(result.steps == 200);
        REQUIRE(probe.intervals > 30);
        CHECK(probe.allocatingIntervals == 0);
    }
}

namespace {

/// Counts allocations between consecutive steps, except across an evaluation (onEpochEnd):
/// the one-pass heavy-tail loops evaluate the released model every ~T/50 steps, outside the
/// step itself.
struct StepOnlyProbe : TrainingObserver {
    long previousCount = -1;
    long intervals = 0;
    long allocatingIntervals = 0;
    bool onStep(const StepInfo&) override {
        const long now = g_allocations.load();
        if (previousCount >= 0) {
            ++intervals;
            if (now != previousCount) ++allocatingIntervals;
        }
        previousCount = g_allocations.load();
        return false;
    }
    bool onEpochEnd(const EpochMetrics&) override {
        previousCount = -1;  // the evaluation allocates; the next step starts a new interval
        return false;
    }
};

}  // namespace

TEST_CASE("No heap allocation inside a step of the heavy-tail regression algorithms",
          "[allocation]") {
    HeavyTailedOptions options;
    options.rows = 4000;
    options.features = 5;
    const DataSplit data = splitAndEncode(generateHeavyTailed(options));
    for (const char* algorithm :
         {"noisy-clipped-gd", "accelerated-clipped-gd", "proximal-clipped-gd"}) {
        INFO(algorithm);
        TrainConfig config;
        config.algorithm = algorithm;
        config.epsilon = 1.0;
        config.lambda = 0.0;
        config.extra["steps"] = "300";
        if (std::string(algorithm) == "proximal-clipped-gd")
            config.extra["l1-penalty"] = "0.01";  // the prox too
        StepOnlyProbe probe;
        CancelToken cancel;
        const RunResult result = runAlgorithm(config, data, probe, cancel);
        REQUIRE(result.status == RunStatus::Completed);
        REQUIRE(probe.intervals > 200);
        CHECK(probe.allocatingIntervals == 0);
    }
}

TEST_CASE("No heap allocation inside a step of linear DP-SGD and semi-DP SGD", "[allocation]") {
    SyntheticOptions options;
    options.rows = 3000;
    const DataSplit data = splitAndEncode(generateSynthetic(options));
    for (const char* algorithm : {"dp-sgd-linear", "semi-dp-sgd"}) {
        for (const double epsilon : {1.0, static_cast<double>(INFINITY)}) {
            for (const char* precision : {"double", "single", "single-scores"}) {
                INFO(algorithm << " epsilon " << epsilon << " row-precision " << precision);
                TrainConfig config;
                config.algorithm = algorithm;
                config.epsilon = epsilon;
                config.lambda = 0.0;
                config.epochs = 3;
                config.batchSize = 64;
                config.extra["row-precision"] = precision;
                if (std::string(algorithm) == "semi-dp-sgd")
                    config.extra["public-share"] = "0.1";  // α automatic
                AllocationProbe probe;
                CancelToken cancel;
                const RunResult result = runAlgorithm(config, data, probe, cancel);
                REQUIRE(result.status == RunStatus::Completed);
                REQUIRE(probe.intervals > 30);
                CHECK(probe.allocatingIntervals == 0);
            }
        }
    }
}

TEST_CASE("No heap allocation inside a round of DIFF2 and DP-GD", "[allocation][diff2][dp-gd]") {
    SyntheticOptions options;
    options.rows = 3000;
    options.silos = 4;
    const DataSplit data = splitAndEncode(generateSynthetic(options));
    for (const char* algorithm : {"diff2", "dp-gd"}) {
        for (const char* model : {"linear", "mlp"}) {
            INFO(algorithm << " " << model);
            TrainConfig config;
            config.algorithm = algorithm;
            config.epsilon = 2.0;
            config.lambda = 0.0;
            config.extra["gd-rounds"] = "100";
            config.extra["model"] = model;
            if (std::string(algorithm) == "diff2") config.extra["restart-period"] = "5";
            AllocationProbe probe;
            CancelToken cancel;
            const RunResult result = runAlgorithm(config, data, probe, cancel);
            REQUIRE(result.steps == 100);
            REQUIRE(probe.intervals > 30);
            CHECK(probe.allocatingIntervals == 0);
        }
    }
}

TEST_CASE("No heap allocation inside a step of f-ld and pf-ld", "[allocation]") {
    SyntheticOptions options;
    options.rows = 3000;
    const DataSplit data = splitAndEncode(generateSynthetic(options));
    for (const char* algorithm : {"f-ld", "pf-ld"}) {
        for (const FairnessNotion notion :
             {FairnessNotion::DemographicParity, FairnessNotion::EqualizedOdds}) {
            INFO(algorithm << " " << fairnessCode(notion));
            TrainConfig config;
            config.algorithm = algorithm;
            config.epsilon = std::string(algorithm) == "pf-ld" ? 1.0 : INFINITY;
            config.lambda = 0.0;
            config.fairness = notion;
            config.epochs = 3;
            config.batchSize = 128;
            AllocationProbe probe;
            CancelToken cancel;
            const RunResult result = runAlgorithm(config, data, probe, cancel);
            REQUIRE(result.status == RunStatus::Completed);
            REQUIRE(probe.intervals > 30);
            CHECK(probe.allocatingIntervals == 0);
        }
    }
}

TEST_CASE("No heap allocation inside the steps of runs trained together", "[allocation]") {
    SyntheticOptions options;
    options.rows = 3000;
    const DataSplit data = splitAndEncode(generateSynthetic(options));
    std::vector<TrainConfig> configs;
    for (const auto& [epsilon, lambda] : {std::pair{1.0, 2.0}, {0.5, 0.0}, {4.0, 8.0}}) {
        TrainConfig config;
        config.epsilon = epsilon;
        config.lambda = lambda;
        config.epochs = 3;
        config.batchSize = 128;
        config.batchSharing = BatchSharing::BySeed;
        configs.push_back(config);
    }
    // The probe watches the first run; the others step on the same thread in between.
    AllocationProbe probe;
    TrainingObserver second, third;
    CancelToken cancel;
    const std::vector<RunResult> results =
        runAlgorithmTogether(configs, data, {&probe, &second, &third}, cancel);
    for (const RunResult& result : results) REQUIRE(result.status == RunStatus::Completed);
    REQUIRE(probe.intervals > 30);
    CHECK(probe.allocatingIntervals == 0);
}
