// Bit-for-bit guard for restructuring the engine: a grid of small runs over the saddle-point
// algorithms and the settings that steer their mechanics, and one tiny run of every registered
// algorithm (test::tinyRunConfig on test::tinyRunData), each reduced to a SHA-256 fingerprint of
// its exact results (θ, W, every epoch's metrics, the privacy report's noise and ε). A change that
// only moves code must leave every fingerprint as it is.
//
// After a change that is *meant* to alter results, print the new fingerprints with
//   PFA_PRINT_GOLDEN=1 build/bin/pfa_core_tests "[golden]"
// and replace the table below, saying in the commit why the results changed.
//
// The fingerprints cover numbers; the whole record of each tiny run (every field, statement
// and warning included, at full precision) is compared byte for byte before and after a
// restructuring with
//   PFA_RECORD_DIR=DIR build/bin/pfa_core_tests "[golden]"
// which writes DIR/<algorithm>.json (the run uid and wall times blanked), then `diff -r`.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>

#include "core/algorithms/registry.h"
#include "core/sweep/run_record.h"
#include "core/util/sha256.h"
#include "test_data.h"

namespace core_golden_runs_test {

using namespace pfa;

namespace {

struct GoldenCase {
    std::string name;
    TrainConfig config;
};

TrainConfig base(const std::string& algorithm, double epsilon, double lambda) {
    TrainConfig c = test::quickConfig(algorithm, epsilon, lambda);
    c.epochs = 3;
    c.batchSize = 128;
    c.seed = 7;
    return c;
}

std::vector<GoldenCase> goldenCases() {
    std::vector<GoldenCase> cases;
    auto add = [&](const std::string& name, const TrainConfig& config) {
        cases.push_back({name, config});
    };
    add("erm", base("erm", INFINITY, 0.0));
    add("erm l2 subsample", [] {
        TrainConfig c = base("erm", INFINITY, 0.0);
        c.l2 = 0.01;
        c.sampling = Sampling::Subsample;
        return c;
    }());
    for (FairnessNotion notion : {FairnessNotion::DemographicParity, FairnessNotion::EqualizedOdds,
                                  FairnessNotion::EqualOpportunity}) {
        TrainConfig c = base("fermi", INFINITY, 2.0);
        c.fairness = notion;
        add("fermi " + fairnessCode(notion), c);
    }
    add("fermi box averaged", [] {
        TrainConfig c = base("fermi", INFINITY, 4.0);
        c.projection = Projection::Box;
        c.averaging = IterateAveraging::PolynomialDecay;
        return c;
    }());
    for (Sampling sampling : {Sampling::Poisson, Sampling::Shuffle, Sampling::Subsample}) {
        TrainConfig c = base("dp-sgd", 1.0, 0.0);
        c.sampling = sampling;
        add("dp-sgd " + samplingName(sampling), c);
    }
    add("dp-sgd last iterate", [] {
        TrainConfig c = base("dp-sgd", 2.0, 0.0);
        c.averaging = IterateAveraging::None;
        return c;
    }());
    add("dp-fermi lambda 0", base("dp-fermi", 1.0, 0.0));
    add("dp-fermi default", base("dp-fermi", 1.0, 2.0));
    add("dp-fermi eo", [] {
        TrainConfig c = base("dp-fermi", 0.5, 8.0);
        c.fairness = FairnessNotion::EqualizedOdds;
        return c;
    }());
    add("dp-fermi eopp", [] {
        TrainConfig c = base("dp-fermi", 3.0, 2.0);
        c.fairness = FairnessNotion::EqualOpportunity;
        return c;
    }());
    add("dp-fermi clipped W", [] {
        TrainConfig c = base("dp-fermi", 1.0, 2.0);
        c.wStream = WStream::ClippedGradient;
        c.averaging = IterateAveraging::None;
        return c;
    }());
    add("dp-fermi split clip", [] {
        TrainConfig c = base("dp-fermi", 1.0, 16.0);
        c.lossClipShare = 0.5;
        return c;
    }());
    add("dp-fermi sensitive-only shuffle", [] {
        TrainConfig c = base("dp-fermi", 1.0, 2.0);
        c.scope = ProtectionScope::SensitiveOnly;
        c.sampling = Sampling::Shuffle;
        return c;
    }());
    add("dp-fermi published sensitive-only", [] {
        TrainConfig c = base("dp-fermi", 1.0, 2.0);
        c.calibration = Calibration::Published;
        c.scope = ProtectionScope::SensitiveOnly;
        c.minGroupShare = 0.25;
        return c;
    }());
    add("dp-fermi published all-features", [] {
        TrainConfig c = base("dp-fermi", 1.0, 2.0);
        c.calibration = Calibration::Published;
        c.minGroupShare = 0.25;
        return c;
    }());
    add("dp-fermi non-private", base("dp-fermi", INFINITY, 2.0));
    return cases;
}

void feed(Sha256& hash, double value) { hash.update(&value, sizeof value); }

template <typename Matrix>
void feedMatrix(Sha256& hash, const Matrix& m) {
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        for (Eigen::Index j = 0; j < m.cols(); ++j) feed(hash, m(i, j));
    }
}

/// Everything a run computes that a restructuring must not change (wall times excluded).
std::string fingerprint(const RunResult& r) {
    Sha256 hash;
    feedMatrix(hash, r.theta);
    feedMatrix(hash, r.W);
    feed(hash, static_cast<double>(r.steps));
    feed(hash, r.trainLoss);
    feed(hash, r.test.error);
    feed(hash, r.test.dpGap);
    feed(hash, r.test.eoGap);
    for (const EpochMetrics& m : r.history) {
        for (double v : {static_cast<double>(m.step), m.trainLoss, m.trainObjective, m.testError,
                         m.violation, m.ermiSoft, m.epsilonSpent, m.clipFraction}) {
            feed(hash, v);
        }
    }
    const privacy::PrivacyReport& p = r.privacy;
    for (double v :
         {p.epsilonSpent, p.delta, p.noiseMultiplier, p.noiseMultiplierTheta, p.noiseMultiplierW,
          p.sigmaTheta, p.sigmaW, p.clipTheta, p.clipW, p.epsilonShares}) {
        feed(hash, v);
    }
    return hash.hexDigest().substr(0, 24);
}

/// Fingerprints of one tiny run of every registered algorithm, captured at 79b2e8e (before the
/// engine's shared parts: clipping, logistic functions, participation draws), renewed when the
/// training loss's logarithm became tableLog's: only the training loss and objective changed,
/// by at most 3.7e-16 relative (every record compared field by field); and DP-GD's when the
/// network's softplus and sigmoid took tableExp and tableLog with one division: only its
/// diagnostic history (gradient norm, training loss) changed, by at most 4.1e-16 relative; and
/// the heavy-tail algorithms' when their evaluations during training took the rows' factor
/// (RegressionFactor): only their histories' MSEs changed, by at most 9.5e-16 relative.
const std::map<std::string, std::string>& expectedRegistryFingerprints() {
    static const std::map<std::string, std::string> expected = {
#include "golden_registry_expected.inc"
    };
    return expected;
}

/// Fingerprints on this code base (x86-64, g++ 12, Release), captured at e71e4b5, renewed with
/// the registry's for the training loss's logarithm.
const std::map<std::string, std::string>& expectedFingerprints() {
    static const std::map<std::string, std::string> expected = {
#include "golden_runs_expected.inc"
    };
    return expected;
}

/// Checks the fingerprint of `result` against `expected[name]`, or, with PFA_PRINT_GOLDEN set,
/// prints its line for the .inc file instead.
void checkFingerprint(const std::string& name, const RunResult& result,
                      const std::map<std::string, std::string>& expected) {
    REQUIRE(result.status == RunStatus::Completed);
    const std::string actual = fingerprint(result);
    if (std::getenv("PFA_PRINT_GOLDEN") != nullptr) {
        std::printf("        {\"%s\", \"%s\"},\n", name.c_str(), actual.c_str());
        return;
    }
    const auto found = expected.find(name);
    REQUIRE(found != expected.end());
    CHECK(actual == found->second);
}

/// With PFA_RECORD_DIR set, writes the complete record of `result` to DIR/<name>.json, at full
/// precision, with what differs between two executions of the same run blanked.
void writeRecordForComparison(const std::string& name, RunResult result) {
    const char* folder = std::getenv("PFA_RECORD_DIR");
    if (folder == nullptr) return;
    result.runUid.clear();
    result.seconds = 0.0;
    for (EpochMetrics& metrics : result.history) metrics.seconds = 0.0;
    RunRecordOptions options;
    options.historyDigits = 17;
    std::ofstream out(std::string(folder) + "/" + name + ".json");
    out << runRecordJson(result, RunContext{}, options) << '\n';
    REQUIRE(out.good());
}

}  // namespace

TEST_CASE("Every algorithm's results stay bit for bit what they were", "[golden]") {
    const DataSplit data = test::syntheticSplit(1200);
    for (const GoldenCase& c : goldenCases()) {
        INFO(c.name);
        checkFingerprint(c.name, test::runQuietly(c.config, data), expectedFingerprints());
    }
    CHECK(expectedFingerprints().size() == goldenCases().size());
}

TEST_CASE("Every registered algorithm's tiny run stays bit for bit what it was", "[golden]") {
    for (const auto& entry : algorithmRegistry()) {
        const Algorithm& algorithm = *entry;
        INFO(algorithm.name());
        const RunResult result =
            test::runQuietly(test::tinyRunConfig(algorithm), test::tinyRunData(algorithm));
        checkFingerprint(algorithm.name(), result, expectedRegistryFingerprints());
        writeRecordForComparison(algorithm.name(), result);
    }
    CHECK(expectedRegistryFingerprints().size() == algorithmRegistry().size());
}

}  // namespace core_golden_runs_test
