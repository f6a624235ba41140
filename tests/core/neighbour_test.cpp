// The neighbour test: for every registered algorithm, each adjacency its runs claim and its
// unit of privacy (record, user, silo record), two neighbouring data sets D and D' are built by
// hand (one unit removed; one unit replaced by an adversarial one: extreme features, flipped
// label and sensitive attribute, a huge target), and the algorithm runs on both with the noise
// switched off, the samplers' batches coupled and the random streams keyed alike. Every noisy
// release of the run on D' is compared with the same release on D: its noise-free value may
// move by at most the bound Δ the release declares (and the accountant charges), and the run
// on D' then continues from D's value. Anything the data reaches without noise (a normaliser,
// a split, a count, a stop) shows up as a release that moves too far, a release that is
// missing or extra, or a different released model.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

#include "core/algorithms/registry.h"
#include "core/config/parameters.h"
#include "core/data/linear_gaussian.h"
#include "core/data/silo_splitters.h"
#include "core/engine/private_run_report.h"
#include "core/privacy/noisy_release.h"
#include "core/sweep/record_fields.h"
#include "core/sweep/run_record.h"
#include "core/util/error.h"
#include "neighbour_data.h"
#include "test_data.h"

namespace core_neighbour_test {

using namespace pfa;

namespace {

/// Couples a run on D' to the run on D (see the file comment).
class CouplingTap final : public privacy::ReleaseTap {
public:
    explicit CouplingTap(std::uint64_t fingerprint) : m_fingerprint(fingerprint) {}

    void startReplay() {
        m_replay = true;
        m_release = m_batch = 0;
    }

    bool onRelease(const privacy::ReleaseSpec& spec, Eigen::Ref<Eigen::VectorXd> value) override {
        if (!m_replay) {
            m_releases.push_back({spec.channel, value, spec.sensitivity, spec.norm});
            return false;  // no noise: the noise-free value is released
        }
        if (m_release >= m_releases.size()) {
            fail("an extra release '" + std::string(spec.channel) + "' (D made " +
                 std::to_string(m_releases.size()) + ")");
            return false;
        }
        const Recorded& d = m_releases[m_release++];
        if (d.channel != spec.channel || d.value.size() != value.size()) {
            fail("release " + std::to_string(m_release) + ": D released '" + d.channel + "' (" +
                 std::to_string(d.value.size()) + " values), D' '" + spec.channel + "' (" +
                 std::to_string(value.size()) + ")");
            return false;
        }
        const double moved = d.norm == privacy::SensitivityNorm::L1 ? (value - d.value).lpNorm<1>()
                                                                    : (value - d.value).norm();
        const double ratio =
            d.sensitivity > 0.0 ? moved / d.sensitivity : (moved > 0.0 ? INFINITY : 0.0);
        const std::string what = "release " + std::to_string(m_release) + " ('" + d.channel +
                                 "') moved " + std::to_string(moved) +
                                 " against Δ = " + std::to_string(d.sensitivity);
        if (ratio > m_worstRatio) {
            m_worstRatio = ratio;
            m_worst = what;
        }
        if (!(moved <= d.sensitivity * (1.0 + 1e-9) + 1e-12)) fail(what);
        value = d.value;  // D' continues from D's release
        return false;
    }

    void onBatch(const privacy::BatchDraw& draw, std::vector<long>& members, long& size) override {
        if (!m_replay) {
            m_batches.emplace_back(members.begin(), members.begin() + size);
            return;
        }
        if (m_batch >= m_batches.size()) {
            fail(std::string("an extra batch from the sampler of ") + draw.sampler);
            return;
        }
        // The same draws; a unit D' lacks (the last, removed one) is left out.
        size = 0;
        for (const long unit : m_batches[m_batch++]) {
            if (unit < draw.population) members[static_cast<std::size_t>(size++)] = unit;
        }
    }

    std::optional<std::uint64_t> dataFingerprint() const override { return m_fingerprint; }

    std::size_t releases() const { return m_releases.size(); }
    std::size_t replayedReleases() const { return m_release; }
    double worstRatio() const { return m_worstRatio; }
    const std::string& worst() const { return m_worst; }
    const std::vector<std::string>& failures() const { return m_failures; }

private:
    struct Recorded {
        std::string channel;
        Eigen::VectorXd value;
        double sensitivity;
        privacy::SensitivityNorm norm;
    };
    void fail(const std::string& what) {
        if (m_failures.size() < 5) m_failures.push_back(what);
    }

    std::uint64_t m_fingerprint;
    bool m_replay = false;
    std::vector<Recorded> m_releases;
    std::vector<std::vector<long>> m_batches;
    std::size_t m_release = 0, m_batch = 0;
    double m_worstRatio = 0.0;
    std::string m_worst;
    std::vector<std::string> m_failures;
};

/// The outcome of one coupled pair of runs.
struct Coupled {
    bool ran = false;  ///< false: D' was refused (the message says why)
    std::string refusal;
    std::size_t releases = 0;
    double worstRatio = 0.0;
    std::string worst;
    std::vector<std::string> failures;
    double modelDifference = 0.0;  ///< max |θ_D − θ_D'|
    RunResult onD, onDPrime;
};

/// `config` with the settings the run on D read from the data and states as not protected
/// (its disclosed automatic values) fixed at D's values: what the statement says is not
/// protected is the same for both runs; everything else is resolved again on D'.
TrainConfig withPinnedSettings(TrainConfig config, const RunResult& onD) {
    const Algorithm& algorithm = findAlgorithm(config.algorithm);
    for (const DataDerivedSetting& setting : onD.config.readFromData) {
        if (!isDisclosed(setting, onD.privacy.accounting.adjacency)) continue;
        for (const ParamSpec& spec : algorithm.parameters())
            if (spec.name == setting.name) setParameter(config, spec, setting.value);
    }
    return config;
}

Coupled runCoupled(const TrainConfig& config, const DataSplit& d, const DataSplit& dPrime) {
    Coupled out;
    CouplingTap tap(0x4e454947484252ULL);  // "NEIGHBR": both runs draw the same samples
    const privacy::ScopedReleaseTap scope(tap);
    out.onD = test::runQuietly(config, d);
    const RunResult& onD = out.onD;
    REQUIRE(onD.status == RunStatus::Completed);
    tap.startReplay();
    try {
        out.onDPrime = test::runQuietly(withPinnedSettings(config, onD), dPrime);
    } catch (const InputError& e) {
        out.refusal = e.what();
        return out;
    }
    const RunResult& onDPrime = out.onDPrime;
    out.ran = true;
    out.releases = tap.releases();
    out.worstRatio = tap.worstRatio();
    out.worst = tap.worst();
    out.failures = tap.failures();
    if (tap.replayedReleases() != tap.releases()) {
        out.failures.push_back("D' made " + std::to_string(tap.replayedReleases()) +
                               " releases, D " + std::to_string(tap.releases()));
    }
    if (onDPrime.theta.rows() != onD.theta.rows() || onDPrime.theta.cols() != onD.theta.cols()) {
        out.failures.push_back("the released models differ in shape");
    } else if (onD.theta.size() > 0) {
        out.modelDifference = (onDPrime.theta - onD.theta).cwiseAbs().maxCoeff();
        if (!(out.modelDifference <= 1e-9))
            out.failures.push_back("the released models differ by " +
                                   std::to_string(out.modelDifference) +
                                   " although every release was the same");
    }
    return out;
}

/// A short run of `algorithm` at ε = 1 that `data` prepares: its defaults (automatic values
/// included: they are part of what is checked), a few epochs, the fairness term on; the first
/// of (whole records, sensitive attribute only) × (demographic parity, equalized odds) that the
/// algorithm accepts.
std::optional<TrainConfig> privateConfig(const Algorithm& algorithm, const DataSplit& data,
                                         privacy::Adjacency adjacency) {
    TrainConfig base;
    base.algorithm = algorithm.name();
    base.epsilon = 1.0;
    base.lambda = algorithm.usesFairness() ? 1.0 : 0.0;
    base.epochs = 3;
    base.seed = 5;
    base.adjacency = adjacency;
    std::vector<TrainConfig> tries;
    for (const ProtectionScope scope :
         {ProtectionScope::AllFeatures, ProtectionScope::SensitiveOnly}) {
        for (const FairnessNotion notion :
             {FairnessNotion::DemographicParity, FairnessNotion::EqualizedOdds}) {
            tries.push_back(base);
            tries.back().scope = scope;
            tries.back().fairness = notion;
        }
    }
    for (const TrainConfig& c : tries) {
        try {
            prepareRun(algorithm, c, data);
            return c;
        } catch (const InputError&) {
        }
    }
    return std::nullopt;
}

/// One claim to check: an algorithm's private configuration on its data, and the neighbouring
/// pairs of the adjacency its runs state.
struct Claim {
    const Algorithm* algorithm = nullptr;
    TrainConfig config;
    const DataSplit* data = nullptr;
    privacy::Adjacency adjacency = privacy::Adjacency::AddRemove;
    std::vector<test::Neighbour> neighbours;
};

/// The data set `algorithm` takes (classification with silos, regression, or users) and a
/// private configuration on it for the `requested` adjacency; nullopt when none runs.
std::optional<std::pair<const DataSplit*, TrainConfig>> setupFor(const Algorithm& algorithm,
                                                                 privacy::Adjacency requested) {
    const test::NeighbourData& data = test::neighbourData();
    const bool users = algorithm.capabilities().unit == PrivacyUnit::User;
    for (const DataSplit* candidate :
         users ? std::vector<const DataSplit*>{&data.users}
               : std::vector<const DataSplit*>{&data.rows, &data.regression}) {
        if (std::optional<TrainConfig> config = privateConfig(algorithm, *candidate, requested))
            return std::make_pair(candidate, *config);
    }
    return std::nullopt;
}

/// Every certified claim of every registered private algorithm: each adjacency it can be run
/// under (the `adjacency` setting, where declared), with the pairs of the adjacency its record
/// states. Counts the algorithms seen.
std::vector<Claim> allClaims(long& privateAlgorithms) {
    std::vector<Claim> claims;
    privateAlgorithms = 0;
    for (const auto& entry : algorithmRegistry()) {
        const Algorithm& algorithm = *entry;
        if (!algorithm.supportsPrivacy()) continue;
        ++privateAlgorithms;
        std::vector<privacy::Adjacency> adjacencies{privacy::Adjacency::AddRemove};
        if (readsParameter(algorithm, "adjacency"))
            adjacencies.push_back(privacy::Adjacency::Replace);
        for (const privacy::Adjacency requested : adjacencies) {
            const auto setup = setupFor(algorithm, requested);
            INFO(algorithm.name());
            if (!setup) {
                FAIL_CHECK("no private configuration runs on the test data");
                continue;
            }
            const RunResult claim = test::runQuietly(setup->second, *setup->first);
            REQUIRE(claim.privacy.isPrivate);
            if (claim.privacy.knownGaps || !claim.privacy.certified) continue;
            Claim c;
            c.algorithm = &algorithm;
            c.config = setup->second;
            c.data = setup->first;
            c.adjacency = claim.privacy.accounting.adjacency;
            c.neighbours = test::neighboursOf(
                *setup->first, algorithm.capabilities().unit == PrivacyUnit::User, c.adjacency,
                setup->second.scope == ProtectionScope::SensitiveOnly);
            // Batches shared by seed: the same mechanism per run, and a record that names its
            // sample; both must hold on neighbouring data too.
            if (readsParameter(algorithm, "batch-sharing")) {
                Claim shared = c;
                shared.config.batchSharing = BatchSharing::BySeed;
                claims.push_back(std::move(shared));
            }
            // Rows read in single precision: each clip on the rounded row actually added.
            if (readsParameter(algorithm, "row-precision")) {
                Claim single = c;
                single.config.extra["row-precision"] = "single";
                claims.push_back(single);
                // … and each row's score in single precision: it only sets that row's scale.
                single.config.extra["row-precision"] = "single-scores";
                claims.push_back(std::move(single));
            }
            // A nested sample shared by runs at any public share (add/remove only): each run's
            // batches are its private rows below its rate, drawn from every training row.
            if (readsParameter(algorithm, "shared-sample") &&
                c.adjacency == privacy::Adjacency::AddRemove) {
                Claim nested = c;
                nested.config.batchSharing = BatchSharing::BySeed;
                nested.config.extra["shared-sample"] = "nested";
                claims.push_back(std::move(nested));
            }
            // A game's later rounds: their releases' Δ follows the auditor's multipliers
            // (round 1 alone, with λ̃ = 0, would check only Δ = 0).
            if (readsParameter(algorithm, "game-rounds")) {
                Claim rounds = c;
                rounds.config.extra["game-rounds"] = "6";
                rounds.config.extra["auditor-step"] = "2";
                claims.push_back(std::move(rounds));
            }
            // Every trust model across silos: the noise is added to the records' sum (local),
            // each silo's mean (ISRL, the default) or the server's average (central, shuffle).
            if (readsParameter(algorithm, "trust")) {
                for (const char* trust : {"local", "central", "shuffle"}) {
                    Claim trusted = c;
                    trusted.config.extra["trust"] = trust;
                    claims.push_back(std::move(trusted));
                }
            }
            claims.push_back(std::move(c));
        }
    }
    return claims;
}

JsonValue recordOf(const RunResult& result, const DataSplit& data) {
    RunContext context;
    context.runKey = "neighbours";
    context.ledgerKey = "neighbours";
    context.datasetDescription = data.train.name;
    context.trainRows = static_cast<long>(data.train.rows());
    context.testRows = static_cast<long>(data.test.rows());
    context.features = static_cast<long>(data.train.features());
    return parseJson(runRecordJson(result, context));
}

/// Whether a disclosure of `report` names `path`.
bool disclosed(const privacy::PrivacyReport& report, const std::string& path) {
    for (const privacy::Disclosure& d : report.disclosures)
        for (const std::string& field : d.fields)
            if (recordPathMatches(field, path)) return true;
    return false;
}

/// The record-field rules for the coupled records of D and D' (see the test below).
std::vector<std::string> recordFieldProblems(const Coupled& c, const DataSplit& d,
                                             const DataSplit& dPrime,
                                             privacy::Adjacency adjacency) {
    std::vector<std::string> problems;
    std::set<std::string> seen;  // one problem per field
    const privacy::PrivacyReport& report = c.onD.privacy;
    const std::vector<RecordLeaf> leaves = flattenRecord(recordOf(c.onD, d));
    std::map<std::string, std::string> other;
    for (const RecordLeaf& leaf : flattenRecord(recordOf(c.onDPrime, dPrime)))
        other[leaf.path] = leaf.value;
    for (const RecordLeaf& leaf : leaves) {
        if (!isDeclaredRecordField(leaf.normalised)) {
            problems.push_back("undeclared record field '" + leaf.normalised + "'");
            continue;
        }
        const FieldClass fieldClass = recordFieldClass(leaf.normalised);
        const bool privateClass =
            fieldClass == FieldClass::Diagnostic || fieldClass == FieldClass::Disclosed ||
            (fieldClass == FieldClass::UnitCount && adjacency == privacy::Adjacency::AddRemove);
        const bool named = disclosed(report, leaf.normalised);
        if (privateClass && !leaf.empty && !named &&
            seen.insert(leaf.normalised + "#named").second) {
            problems.push_back("'" + leaf.normalised + "' (" + fieldClassName(fieldClass) +
                               ") is in the record but not named in the statement");
        }
        // A field that tells the neighbours apart must be private and named.
        const auto found = other.find(leaf.path);
        const bool differs = found == other.end() ? !leaf.empty : found->second != leaf.value;
        const bool exempt =
            fieldClass == FieldClass::Bookkeeping || fieldClass == FieldClass::Preprocessing ||
            fieldClass == FieldClass::Secret || fieldClass == FieldClass::Statement ||
            // The accountant's figures follow from n under add/remove.
            (adjacency == privacy::Adjacency::AddRemove && fieldClass == FieldClass::Accounting);
        if (differs && !exempt && !named && seen.insert(leaf.normalised + "#differs").second) {
            problems.push_back(
                "'" + leaf.path + "' (" + fieldClassName(fieldClass) +
                ") differs between the neighbours (" + leaf.value.substr(0, 40) + " vs " +
                (found == other.end() ? std::string("absent") : found->second.substr(0, 40)) +
                ") but the statement does not name it as not protected");
        }
    }
    for (const privacy::Disclosure& d : report.disclosures) {
        if (report.statement.find(d.what) == std::string::npos)
            problems.push_back("the disclosure '" + d.what + "' is not in the statement");
    }
    return problems;
}

}  // namespace

TEST_CASE("Neighbour test: every release of every algorithm moves by at most its Δ",
          "[privacy][neighbours]") {
    long privateAlgorithms = 0, pairs = 0;
    std::ostringstream table;
    std::map<std::string, bool> checked;
    for (const Claim& claim : allClaims(privateAlgorithms)) {
        const std::string name = claim.algorithm->name();
        for (const test::Neighbour& neighbour : claim.neighbours) {
            INFO(name << ", " << adjacencyName(claim.adjacency) << ", " << neighbour.name);
            const Coupled c = runCoupled(claim.config, neighbour.d, neighbour.dPrime);
            if (!c.ran) {
                // A refusal that depends on the neighbour is itself a release.
                FAIL_CHECK("D' was refused although D ran: " << c.refusal);
                continue;
            }
            ++pairs;
            checked[name] = true;
            CHECK(c.releases > 0);
            if (!c.failures.empty()) {
                std::string all;
                for (const std::string& failure : c.failures) all += "\n  " + failure;
                FAIL_CHECK("D and D' are told apart without noise:" << all);
            }
            table << name << " | " << adjacencyName(claim.adjacency) << " | " << neighbour.name
                  << " | " << c.releases << " releases | worst " << c.worstRatio << " of Δ\n";
        }
    }
    for (const auto& entry : algorithmRegistry()) {
        INFO(entry->name());
        if (entry->supportsPrivacy()) CHECK(checked[entry->name()]);
    }
    WARN("neighbour test: " << algorithmRegistry().size() << " algorithms registered, "
                            << privateAlgorithms << " private, " << pairs << " neighbouring pairs\n"
                            << table.str());
}

TEST_CASE("Record fields: every field is declared, and what tells neighbours apart is named",
          "[privacy][neighbours][record-fields]") {
    long privateAlgorithms = 0, pairs = 0;
    std::map<std::string, bool> checked;
    for (const Claim& claim : allClaims(privateAlgorithms)) {
        const std::string name = claim.algorithm->name();
        for (const test::Neighbour& neighbour : claim.neighbours) {
            INFO(name << ", " << adjacencyName(claim.adjacency) << ", " << neighbour.name);
            const Coupled c = runCoupled(claim.config, neighbour.d, neighbour.dPrime);
            if (!c.ran) continue;  // the neighbour test reports it
            ++pairs;
            checked[name] = true;
            const std::vector<std::string> problems =
                recordFieldProblems(c, neighbour.d, neighbour.dPrime, claim.adjacency);
            if (!problems.empty()) {
                std::string all;
                for (const std::string& problem : problems) all += "\n  " + problem;
                FAIL_CHECK("record fields:" << all);
            }
        }
        // Diagnostics switched off: no diagnostic field holds a value, none is stated.
        TrainConfig quiet = claim.config;
        quiet.recordDiagnostics = false;
        const RunResult r = test::runQuietly(quiet, *claim.data);
        INFO(name << ", diagnostics off");
        CHECK_FALSE(r.privacy.diagnosticsRecorded);
        for (const privacy::Disclosure& d : r.privacy.disclosures) CHECK_FALSE(d.diagnostic);
        std::set<std::string> reported;
        for (const RecordLeaf& leaf : flattenRecord(recordOf(r, *claim.data))) {
            if (isDeclaredRecordField(leaf.normalised) && reported.insert(leaf.normalised).second &&
                recordFieldClass(leaf.normalised) == FieldClass::Diagnostic && !leaf.empty) {
                FAIL_CHECK("'" << leaf.normalised << "' holds " << leaf.value.substr(0, 60)
                               << " with diagnostics switched off");
            }
        }
    }
    // The non-private algorithms claim nothing; their records hold declared fields only.
    long all = 0;
    for (const auto& entry : algorithmRegistry()) {
        ++all;
        INFO(entry->name());
        if (entry->supportsPrivacy()) {
            CHECK(checked[entry->name()]);
            continue;
        }
        TrainConfig config;
        config.algorithm = entry->name();
        config.epsilon = INFINITY;
        config.lambda = entry->usesFairness() ? 1.0 : 0.0;
        config.epochs = 2;
        const test::NeighbourData& data = test::neighbourData();
        const RunResult r = test::runQuietly(config, data.rows);
        for (const RecordLeaf& leaf : flattenRecord(recordOf(r, data.rows)))
            CHECK(isDeclaredRecordField(leaf.normalised));
    }
    WARN("record fields: " << all << " algorithms registered, " << privateAlgorithms << " private, "
                           << pairs << " neighbouring pairs");
}

}  // namespace core_neighbour_test
