// semi-dp-sgd: semi-differentially private SGD for linear regression with public data
// (thesis-algorithms.md §5.2, "Optimal Differentially Private Learning with Public Data"). About
// a share p of the training rows is PUBLIC: a row is public when a keyed hash of its own raw
// values (public-seed) falls below p, so no other row decides it; only the other rows are
// protected. Each step mixes the noisy clipped mean
// gradient of a Poisson batch of private rows, g_priv (σ from the RDP accountant over the
// private rows alone, q = K_priv/n_priv), with the mean gradient of K_pub public rows, g_pub
// (each normalised to norm C unless switched off): g = α g_priv + (1 − α) g_pub. α is set by
// hand or automatically from the public batch's spread (the variance-minimising weight, the
// gradient form of the weighted-Gaussian mean estimator's r*). Warm start: least squares on the
// public rows. public-use = public-only is the "throw the private rows away" baseline: exact
// least squares on the public rows. The loop is shared with dp-sgd-linear.
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "core/algorithms/linear_sgd/linear_dp_sgd.h"
#include "core/config/algorithm.h"
#include "core/config/config_validation.h"
#include "core/config/own_setting.h"
#include "core/engine/evaluator.h"
#include "core/engine/run_session.h"
#include "core/engine/run_streams.h"
#include "core/privacy/run_accountant.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

namespace {

// The own settings this file reads (checked against the declarations at start).
const OwnChoice kNormalisePublic{"normalise-public"};
const OwnNumber kPublicBatch{"public-batch"};
const OwnNumber kPublicSeed{"public-seed"};
const OwnNumber kPublicShare{"public-share"};
const OwnChoice kPublicUse{"public-use"};
const OwnNumber kPublicWeight{"public-weight"};
const OwnChoice kWarmStart{"warm-start"};
const OwnChoice kWeightRule{"weight-rule"};

constexpr std::uint64_t kPublicBatchStream = 0x5055424241544348ULL;  // "PUBBATCH"
/// The stored value of an automatic α (out of range, so only the word "auto" means it).
constexpr const char* kAutoAlpha = "-1";

class SemiDpSgd final : public LinearSgdAlgorithm {
public:
    std::string name() const override { return "semi-dp-sgd"; }
    std::string description() const override {
        return "Linear regression with public data: a share of the training rows is public; DP-SGD "
               "on "
               "the private rows mixed with the public rows' gradients (only private rows "
               "protected).";
    }
    AlgorithmCapabilities capabilities() const override {
        return {.privacy = true, .task = Task::Regression};
    }
    std::vector<ParamSpec> parameters() const override {
        return commonParameters(
            {"epsilon", "delta", "seed", "epochs", "batch-size", "lr-theta", "adjacency",
             "clip-theta", "averaging", "evaluate-every", "secure-noise", "diagnostics",
             "batch-sharing"},
            {domainRadiusParameter(), rowPrecisionParameter(), sharedSampleParameter(),
             declare("public-share", "Public share p", ParamKind::Real,
                     "share of the training rows that are public (not protected): a row is public "
                     "when a hash of its own values (keyed by public-seed) falls below p, so about "
                     "p·n rows are")
                 .defaultValue("0.05")
                 .atLeast(0.0)
                 .atMost(1.0, true)
                 .sweepable(),
             declare("public-seed", "Public rows seed", ParamKind::Integer,
                     "key of the hash that makes rows public (the rule, and so which rows are "
                     "public, is assumed public knowledge)")
                 .defaultValue("0")
                 .atLeast(0.0)
                 .atMost(0x1p53)
                 .advanced(),
             declare("public-use", "Use of the rows", ParamKind::Choice,
                     "how the public and private rows are used")
                 .defaultValue("weighted")
                 .choices({{"weighted", "semi-DP SGD (weighted gradients)",
                            "noisy private gradients mixed with public gradients: g = α g_priv + "
                            "(1 − α) g_pub"},
                           {"public-only", "public rows only (least squares)",
                            "throws the private rows away: exact least squares on the public "
                            "rows, ε = 0"}})
                 .sweepable(),
             declare("public-weight", "Private weight α", ParamKind::Real,
                     "weight α of the private gradient in g = α g_priv + (1 − α) g_pub (1: public "
                     "rows ignored; 0: private rows ignored)")
                 .defaultValue(kAutoAlpha)
                 .atLeast(0.0)
                 .atMost(1.0)
                 .automatic(kAutoAlpha,
                            "variance-minimising, from the public rows only, per step or per run "
                            "as weight-rule says",
                            false)
                 .sweepable(),
             // Records written before per-run became the default used per-step.
             declare("weight-rule", "Automatic α from", ParamKind::Choice,
                     "what the automatic weight α balances")
                 .defaultValue("per-run")
                 .choices(
                     {{"per-run", "the whole run's rows",
                       "α = (V²/n_pub)/(V²/n̂_priv + dσ²/T + V²/n_pub), n̂_priv = n_pub(1 − p)/p "
                       "(public: the true count of private rows is private under add/remove): "
                       "the public rows are reused every step, so their error does not average "
                       "out while the private noise does (the rule that beats DP-SGD on the "
                       "private rows)"},
                      {"per-step", "one step's batches",
                       "α = (V²/K_pub)/(V²/K_priv + dσ² + V²/K_pub): the variance of one step's "
                       "estimate, as if every step saw fresh public rows; with few public rows "
                       "reused for many steps it trusts them too much"}})
                 .formerDefault("per-step")
                 .sweepable()
                 .advanced(),
             declare("public-batch", "Public batch K_pub", ParamKind::Integer,
                     "public rows per step")
                 .defaultValue("0")
                 .atLeast(1.0)
                 .atMost(1e9)
                 .unit("rows")
                 .automatic("0", "min(256, public rows)")
                 .sweepable()
                 .advanced(),
             declare("normalise-public", "Normalise public gradients", ParamKind::Flag,
                     "scale each public row's gradient to norm C (costs no privacy)")
                 .defaultValue("true")
                 .advanced(),
             declare("warm-start", "Warm start", ParamKind::Choice, "where the iterates start")
                 .defaultValue("public-least-squares")
                 .choices({{"public-least-squares", "least squares on the public rows",
                            "exact least-squares fit on the public rows (no privacy cost)"},
                           {"none", "zero", "the zero model"}})
                 .advanced()});
    }

    void validate(const TrainConfig& config, const DataSplit& data) const override {
        requireNoFairness(config);
        validateSharedSample(config);
        const PublicPrivateRows rows = splitPublicRows(
            data.train, kPublicShare(config), static_cast<std::uint64_t>(kPublicSeed(config)));
        const long nPrivate = static_cast<long>(rows.privateRows.size());
        if (nPrivate < 1) {
            throw InputError("public-share = " + formatNumber(kPublicShare(config)) +
                             " leaves no private training row; lower it");
        }
        if (config.batchSize > nPrivate) {
            throw InputError("batch-size = " + std::to_string(config.batchSize) +
                             " is invalid: at most the number of private training rows (" +
                             std::to_string(nPrivate) + ")");
        }
    }

    TrainConfig resolve(const TrainConfig& requested, const DataSplit& data) const override {
        TrainConfig c = resolveDefaults(requested, data);
        const long nPublic = static_cast<long>(
            splitPublicRows(data.train, kPublicShare(c), static_cast<std::uint64_t>(kPublicSeed(c)))
                .publicRows.size());
        if (kPublicBatch(c) == 0)
            c.extra["public-batch"] = std::to_string(std::min(256L, std::max(1L, nPublic)));
        return c;
    }

    /// Semi-DP convex learning (L·D dropped): min{1/√n_pub, √(d ln(1/δ))/(ε n) + 1/√n}; public
    /// rows only: 1/√n_pub. n_pub = round(public-share · n), as the algorithm picks them.
    std::optional<RateShape> theoryRate(const RateInputs& in) const override {
        const double n = in.n, d = in.d;
        if (n <= 0.0 || d <= 0.0) return std::nullopt;
        const std::string shareText = in.setting("public-share");
        const double p = shareText.empty() ? 0.0 : std::atof(shareText.c_str());
        const double nPublic = static_cast<double>(std::llround(p * n));
        const double logDelta = logInverseDelta(in.delta);
        if (in.setting("public-use") == "public-only") {
            if (nPublic <= 0.0) return std::nullopt;
            return RateShape{"public rows only: 1/√n_pub",
                             [=](double) { return 1.0 / std::sqrt(nPublic); }};
        }
        return RateShape{
            "semi-DP, convex: min{1/√n_pub, √(d ln(1/δ))/(ε n) + 1/√n}", [=](double eps) {
                const double privateRate = std::sqrt(d * logDelta) / (eps * n) + 1.0 / std::sqrt(n);
                return nPublic > 0.0 ? std::min(1.0 / std::sqrt(nPublic), privateRate)
                                     : privateRate;
            }};
    }

    /// Private runs with batch-sharing by-seed on the same private rows (public-share and
    /// public-seed) and public batch draw the same batches; public rows only: alone. Without
    /// public rows (share 0) a run draws the batches of dp-sgd-linear's runs, whose step it
    /// takes, and trains with them.
    std::string togetherKey(const TrainConfig& config, const Dataset& train) const override {
        const std::string key = Algorithm::togetherKey(config, train);
        if (key.empty() || kPublicUse(config) == "public-only") return "";
        const double envelope = envelopeOf(config, train);
        if (envelope > 0.0) return key + ";" + nestedSamplePopulation(envelope);
        if (!(kPublicShare(config) > 0.0)) return key;
        return key + ";" + populationOf(config) +
               ";public-batch=" + formatNumber(kPublicBatch(config));
    }

private:
    /// The envelope rate of a run of `config` (nestedEnvelopeRate), 0 unless it draws a nested
    /// shared sample.
    static double envelopeOf(const TrainConfig& config, const Dataset& train) {
        const PublicPrivateRows rows = splitPublicRows(
            train, kPublicShare(config), static_cast<std::uint64_t>(kPublicSeed(config)));
        return nestedEnvelopeRate(config, static_cast<long>(train.rows()),
                                  static_cast<long>(rows.privateRows.size()));
    }

    /// Which rows the private batches are drawn from, by the public settings that decide it:
    /// with share 0 every row (as for dp-sgd-linear, named alike), whatever the seed.
    static std::string populationOf(const TrainConfig& config) {
        if (!(kPublicShare(config) > 0.0)) return "";
        return "private rows: public-share=" + formatNumber(kPublicShare(config)) +
               ",public-seed=" + formatNumber(kPublicSeed(config));
    }

    /// The run of `config`: its rows, streams, training and statement.
    LinearSgdJob job(const TrainConfig& config, const DataSplit& data) const override {
        const Dataset& train = data.train;
        const double share = kPublicShare(config);
        const auto publicSeed = static_cast<std::uint64_t>(kPublicSeed(config));
        const bool publicOnly = kPublicUse(config) == "public-only";
        const double alphaSetting = kPublicWeight(config);
        const double alpha = alphaSetting < 0.0 ? NAN : alphaSetting;

        LinearSgdJob job;
        job.plan = planLinearSgd(config, train, splitPublicRows(train, share, publicSeed));
        LinearSgdSetup& s = job.plan.setup;
        const long nPublic = static_cast<long>(s.publicRows.size());
        s.alpha = nPublic > 0 ? alpha : 1.0;  // no public rows: DP-SGD on the private rows
        // No public rows: no public batch either (as dp-sgd-linear, with whose runs it trains).
        s.publicBatch = nPublic > 0 ? static_cast<long>(kPublicBatch(config)) : 0;
        s.normalisePublic = kNormalisePublic(config) == "true";
        s.runLevelWeight = kWeightRule(config) == "per-run";
        // Public: which rows are public depends on each row alone, so n_pub does not move when
        // a private row is added or removed.
        if (share > 0.0)
            s.privateRowsForWeight = static_cast<double>(nPublic) * (1.0 - share) / share;
        if (kWarmStart(config) == "public-least-squares" && nPublic > 0) {
            s.start = leastSquaresOnRows(train, s.publicRows);
        }
        // Only public rows are read: nothing that depends on a private row is released.
        if (publicOnly || s.alpha == 0.0)
            job.plan.accounting.kind = privacy::ReleaseKind::NoRelease;

        if (publicOnly) {
            job.trainOtherwise = [&data](const LinearSgdPlan& plan, TrainingObserver& observer,
                                         const CancelToken& cancel) {
                return publicOnlyRun(plan.setup, data, observer, cancel);
            };
        } else {
            // A nested sample is named by its rate (read from n); the public rows' order, by
            // the public settings alone, as without it.
            const RunStreams streams(config, train,
                                     s.envelopeRate > 0.0 ? nestedSamplePopulation(s.envelopeRate)
                                                          : populationOf(config),
                                     populationOf(config));
            job.sharedBatches = streams.sharedBatches();
            job.plan.accounting.sharedBatches = job.sharedBatches;
            job.sampling = streams.stream(streams::kSampling);
            // The public rows' order: shared with the runs that share the private batches.
            job.publicSampling = streams.sharedStream(kPublicBatchStream);
            job.noise = streams.stream(streams::kNoise);
            const bool charged =
                config.isPrivate() && job.plan.accounting.kind != privacy::ReleaseKind::NoRelease;
            const bool isPrivate = config.isPrivate();
            const auto accountant =
                std::make_shared<const privacy::RunAccountant>(job.plan.accounting);
            job.epsilonAfter = [accountant, charged, isPrivate](long steps) {
                return charged ? accountant->after(steps).epsilon : (isPrivate ? 0.0 : INFINITY);
            };
        }
        job.describe = [this, config, &data, publicOnly, share, publicSeed](
                           RunResult& result, const LinearSgdPlan& plan) {
            describe(result, plan, config, data.train, publicOnly, share, publicSeed);
        };
        return job;
    }

    /// The settings, row counts and privacy statement of a trained run.
    void describe(RunResult& result, const LinearSgdPlan& plan, const TrainConfig& config,
                  const Dataset& train, bool publicOnly, double share,
                  std::uint64_t publicSeed) const {
        const LinearSgdSetup& s = plan.setup;
        const long nPublic = static_cast<long>(s.publicRows.size());
        const long nPrivate = static_cast<long>(s.privateRows.size());
        result.config = config;
        result.theoryInputs["public_rows"] = static_cast<double>(nPublic);
        result.theoryInputs["private_rows"] = static_cast<double>(nPrivate);
        if (!config.isPrivate()) {
            result.privacy = privacy::nonPrivateReport(name(), result.steps);
            return;
        }
        const std::string split =
            "public rows (each row is public when a hash of its own values, keyed by public-seed " +
            std::to_string(publicSeed) + ", falls below public-share " + formatNumber(share) +
            ": whether a row is public depends on that row alone)";
        std::string protectedRows =
            "every column (features and target) of each PRIVATE "
            "training row only. The " +
            split +
            " get NO protection: they are used as they are. The rule "
            "that makes a row public is assumed to be public "
            "knowledge";
        if (!publicOnly && std::isnan(s.alpha))
            protectedRows += "; the automatic weight α is computed from public rows only";
        if (publicOnly)
            protectedRows += "; the private rows are not used at all (ε = 0)";
        else if (s.alpha == 0.0)
            protectedRows += "; with α = 0 the private rows are not used at all (ε = 0)";
        describeLinearSgdRun(result, plan, train, name(), protectedRows);
        if (config.adjacency == privacy::Adjacency::AddRemove) {
            // Under add/remove the number of private rows is private like n itself.
            result.privacy.disclose("the numbers of private (" + std::to_string(nPrivate) +
                                        ") and public (" + std::to_string(nPublic) +
                                        ") training rows",
                                    {"theory_inputs.private_rows", "theory_inputs.public_rows"});
            result.privacy.statement = privacy::renderPrivacyStatement(result.privacy, "", "");
        }
    }

    /// The "public rows only" baseline: exact least squares on the public rows (the zero model
    /// when there are none). One step, no privacy cost.
    static RunResult publicOnlyRun(const LinearSgdSetup& s, const DataSplit& data,
                                   TrainingObserver& observer, const CancelToken& cancel) {
        RunSession session(observer, cancel);
        session.setEpsilonSoFar([](long) { return 0.0; });  // no private row is read
        RunResult& result = session.result();
        result.dataset = data.train.name;
        const Eigen::VectorXd w = leastSquaresOnRows(data.train, s.publicRows);
        result.theta = RowMatrix(1, w.size());
        result.theta.row(0) = w.transpose();
        result.regression = evaluateRegression(data.test, w);
        result.regression.known = true;
        result.test =
            fairnessNotApplicable(static_cast<long>(data.test.rows()), result.regression.testMse);
        // A training-set diagnostic (all training rows, private ones included).
        result.trainLoss = s.diagnostics ? evaluateRegression(data.train, w).testMse : NAN;
        if (s.publicRows.empty()) result.message = "no public rows: the model is zero";
        StepInfo info;
        info.step = 1;
        info.epoch = 1;
        info.batchRows = static_cast<long>(s.publicRows.size());
        session.stepped(info);
        EpochMetrics m;
        m.epoch = 1;
        m.step = 1;
        m.trainLoss = m.trainObjective = result.trainLoss;
        m.clipFraction = s.diagnostics ? 0.0 : NAN;
        m.testError = result.regression.testMse;
        if (std::isfinite(s.optimalMse)) m.excessRisk = m.testError - s.optimalMse;
        m.violation = m.dpGap = m.eoGap = m.eoppGap = m.ermiHard = m.ermiSoft = NAN;
        session.evaluated(m);
        return session.finish();
    }
};

}  // namespace

std::unique_ptr<Algorithm> makeSemiDpSgd() { return std::make_unique<SemiDpSgd>(); }

}  // namespace pfa
