// ppsgd: personalised private SGD ("Personalization Improves Privacy–Accuracy Tradeoffs in
// Federated Learning"). Every user i predicts with (w + θ_i)ᵀx: a global vector w learnt by
// all users under user-level differential privacy, plus a personal offset θ_i that user i
// learns alone and never sends. One round: each taking part user computes the mean squared-loss
// gradient g_i of m samples at (w + θ_i); θ_i takes a local step with g_i (never clipped, never
// released); the server averages the clipped g_i, adds Gaussian noise z·C/Q and moves w. Only
// the noisy w's leave the server, so the guarantee is joint DP for each user, under
// replace-one-user adjacency: the number of users N is public (it normalises the average). The
// ratio a of global to local step (a = 0: everyone learns alone, nothing is released, ε = 0;
// a = ∞: one shared model) is the personalisation knob; its tradeoff against ε is what the
// algorithm shows.
//
// Data: "synthetic-personalised" carries its generator (Dataset::personalised): each round
// draws fresh samples and the exact excess risk is measured. Any other data with user ids
// (regression targets, or the class 0/1 as a number) samples m rows of the user's own rows
// with replacement each round, and caps the user's local step at 1/(largest squared row norm)
// so that it cannot diverge; data without user ids is refused (its unit is a user).
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <span>
#include <stdexcept>

#include "core/algorithms/ppsgd/ppsgd_theory.h"
#include "core/algorithms/ppsgd/ppsgd_users.h"
#include "core/config/algorithm.h"
#include "core/config/config_validation.h"
#include "core/config/own_setting.h"
#include "core/data/personalised.h"
#include "core/engine/batch_sampler.h"
#include "core/engine/clipping.h"
#include "core/engine/evaluator.h"
#include "core/engine/private_run_report.h"
#include "core/engine/run_session.h"
#include "core/engine/run_streams.h"
#include "core/engine/unit_sampler.h"
#include "core/privacy/noisy_release.h"
#include "core/privacy/run_accountant.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

namespace {

// The own settings this file reads (checked against the declarations at start).
const OwnNumber kBaseStep{"base-step"};
const OwnNumber kGlobalClip{"global-clip"};
const OwnNumber kGlobalRounds{"global-rounds"};
const OwnNumber kNoiseMultiplier{"noise-multiplier"};
const OwnNumber kPersonalisation{"personalisation"};
const OwnNumber kSampledUsers{"sampled-users"};
const OwnNumber kSamplesPerUser{"samples-per-user"};

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
/// A global model this long has diverged (the data's optima have norms of order 10²).
constexpr double kDivergedNorm = 1e12;

/// (η_w, η_θ) from the base step η and the personalisation a (global/local step ratio).
struct StepSizes {
    double global = 0.0;
    double local = 0.0;
};
StepSizes stepSizes(double eta, double a) {
    if (a == 0.0) return {0.0, eta};
    if (a <= 1.0) return {a * eta, eta};
    if (std::isinf(a)) return {eta, 0.0};
    return {eta, eta / a};
}

/// Number of users the run learns for: the generator's, the training part's, or its rows.
long userCount(const Dataset& train) {
    if (train.personalised) return train.personalised->users();
    return train.users ? train.users->units() : 0;  // validate refuses data without users
}

/// The accounting of the global model's releases (privacy-accounting.md §2, §2.5, §7): one
/// Gaussian release of the clipped per-user sum per round, under replace-one-user adjacency (the
/// number of users N is public; it sets the normaliser Q and the rate q = Q/N). With every user
/// in every round (q = 1) a replaced user moves the sum by at most 2C: the Gaussian curve at
/// z/2 (§2.5, q = 1). With Poisson user sampling (q < 1) each user's contribution has norm ≤ C
/// and membership is hidden: the group-of-two bound at z. a = 0 releases nothing.
privacy::AccountingInputs globalReleaseInputs(double q, double z, double a, long rounds,
                                              double delta) {
    privacy::AccountingInputs in;
    in.unit = "user";
    in.adjacency = privacy::Adjacency::Replace;
    const bool everyone = q >= 1.0;
    in.kind = a == 0.0 ? privacy::ReleaseKind::NoRelease
                       : (everyone ? privacy::ReleaseKind::Gaussian
                                   : privacy::ReleaseKind::PoissonReplace);
    in.samplingRate = a == 0.0 ? 1.0 : std::min(q, 1.0);
    in.noiseMultiplier = a == 0.0 ? 0.0 : (everyone ? z / 2.0 : z);
    in.sensitivity =
        everyone ? "2C (replace-one user: the per-round sum of clipped user gradients moves by "
                   "at most 2C)"
                 : "C (one sampled user's clipped gradient in the per-round sum; replace-one by "
                   "the group-of-two bound)";
    in.stepsPerRelease = 1;
    in.steps = rounds;
    in.delta = delta;
    return in;
}

/// The factor between the setting z (noise std on the sum over C) and the multiplier the
/// accountant charges: 1/2 with every user in every round (the bound is 2C), else 1.
double chargedMultiplierScale(double q) { return q >= 1.0 ? 0.5 : 1.0; }

/// One run's settings and sizes, read once: the loop, the result and the statement use them.
struct PpsgdPlan {
    long users = 0;       ///< N
    long rounds = 0;      ///< T
    long samples = 0;     ///< m: samples per user and round
    double expected = 0;  ///< Q: expected users per round (the normaliser)
    /// Who takes part in a round: each user with probability q = Q/N; the accountant reads q
    /// from this spec, the same the run's sampler draws with.
    SamplerSpec participation;
    double q = 0;     ///< the participation rate
    double a = 0;     ///< personalisation (global/local step ratio)
    double clip = 0;  ///< C per user
    double z = 0;     ///< noise multiplier on the sum over C
    StepSizes eta;
    bool streaming = false;  ///< the generator's fresh samples (exact excess risk)
    bool diagnostics = false;
    long evaluateEvery = 1;  ///< evaluate every this many rounds (at most ~100 times a run)
};

PpsgdPlan planOf(const TrainConfig& config, const Dataset& train) {
    PpsgdPlan p;
    p.users = userCount(train);
    p.rounds = static_cast<long>(kGlobalRounds(config));
    p.samples = static_cast<long>(kSamplesPerUser(config));
    p.expected = kSampledUsers(config);
    p.participation =
        SamplerSpec::overUnits(SamplingUnit::User, p.users, static_cast<long>(p.expected), 1);
    p.q = p.participation.samplingRate();
    p.a = kPersonalisation(config);
    p.clip = kGlobalClip(config);
    p.z = kNoiseMultiplier(config);
    p.eta = stepSizes(kBaseStep(config), p.a);
    p.streaming = train.personalised != nullptr;
    p.diagnostics = recordsDiagnostics(config);
    p.evaluateEvery = config.evaluateEvery;
    return p;
}

class PpsgdRun;

class Ppsgd final : public Algorithm {
public:
    std::string name() const override { return "ppsgd"; }
    std::string description() const override {
        return "Personalised private SGD: a global linear model learnt by all users under "
               "user-level "
               "differential privacy plus a personal offset each user learns alone and never "
               "shares.";
    }
    AlgorithmCapabilities capabilities() const override {
        return {.privacy = true,
                .unit = PrivacyUnit::User,
                .task = Task::Regression,
                .progressUnit = "round",
                .progressSetting = "global-rounds"};
    }
    std::vector<ParamSpec> parameters() const override {
        std::vector<ParamSpec> list = commonParameters(
            {"epsilon", "delta", "seed", "evaluate-every", "secure-noise", "diagnostics"});
        list.push_back(
            declare("personalisation", "Personalisation a (0 = all local, inf = all global)",
                    ParamKind::Real,
                    "ratio of the global model's step to the personal models' step: 0 = every user "
                    "learns "
                    "alone "
                    "(nothing is released, ε = 0); inf = one shared model, no personal offsets")
                .defaultValue("1")
                .atLeast(0.0)
                .sweepable());
        list.push_back(
            declare("base-step", "Base step η", ParamKind::Real,
                    "base step: the larger of the global and the personal step sizes (on tabular "
                    "users the "
                    "personal step is also at most 1/(the user's largest squared row norm))")
                .defaultValue("0.2")
                .above(0.0)
                .sweepable());
        list.push_back(
            declare("global-clip", "Global clip C per user", ParamKind::Real,
                    "bound on the norm of each user's mean gradient sent to the global model")
                .defaultValue("10")
                .above(0.0)
                .sweepable());
        list.push_back(declare("sampled-users", "Users per round Q", ParamKind::Integer,
                               "expected users taking part in a round (each joins with "
                               "probability Q/N); all users when automatic")
                           .defaultValue("0")
                           .atLeast(0.0)
                           .unit("users")
                           .automatic("0", "all N users every round")
                           .readsData(AutoReads::UnitCount)
                           .sweepable());
        list.push_back(
            declare("samples-per-user", "Samples per user m", ParamKind::Integer,
                    "samples each taking part user averages its gradient over, per round")
                .defaultValue("10")
                .atLeast(1.0)
                .unit("samples")
                .sweepable());
        list.push_back(
            declare("global-rounds", "Rounds", ParamKind::Integer, "communication rounds")
                .defaultValue("300")
                .atLeast(1.0)
                .unit("rounds")
                .sweepable());
        list.push_back(
            declare("noise-multiplier", "Noise multiplier z", ParamKind::Real,
                    "noise std on the sum of clipped user gradients divided by C; automatic: "
                    "the smallest z whose ε after all rounds stays within the budget")
                .defaultValue("0")
                .atLeast(0.0)
                .automatic("0", "solved by the accountant from the target ε")
                // Within ε = 1 over 300 rounds (charged at z/2 = 128 with all users).
                .example("256")
                .sweepable()
                .advanced()
                .applies(AppliesPrivate));
        return list;
    }

    void validate(const TrainConfig& config, const DataSplit& data) const override {
        requireNoFairness(config);
        const Dataset& train = data.train;
        // Its unit of privacy and of personalisation is a user: rows taken one by one as users
        // would personalise nothing and state the wrong unit.
        if (!train.personalised && (!train.users || train.users->units() == 0)) {
            throw InputError(
                "ppsgd learns a model per user and protects users, but '" + train.name +
                "' has no users (no user id on its rows): choose the synthetic personalised "
                "users (synthetic-personalised), data with a user column (e.g. Parkinsons "
                "telemonitoring, users by subject), or your own file with its user-id column "
                "chosen when importing it");
        }
        if (!train.personalised && !train.isRegression() && train.numClasses() > 2) {
            throw InputError(
                "ppsgd fits a linear model with the squared loss: it needs a regression target or "
                "two classes (used as 0/1), and '" +
                train.name + "' has " + std::to_string(train.numClasses()) + " classes");
        }
        const long n = userCount(train);
        const double q = kSampledUsers(config);
        if (q > static_cast<double>(n)) {
            throw InputError("sampled-users = " + formatNumber(q) +
                             " is invalid: the training data has " + std::to_string(n) + " users");
        }
        const double a = kPersonalisation(config);
        const double z = kNoiseMultiplier(config);
        if (a > 0.0 && !config.isPrivate() && z > 0.0) {
            throw InputError(
                "noise-multiplier = " + formatNumber(z) +
                " needs a finite privacy budget ε: the run states the ε this noise gives, which "
                "must stay within the budget");
        }
        if (a > 0.0 && config.isPrivate()) {
            const privacy::AccountingInputs in =
                globalReleaseInputs(q / static_cast<double>(n), z, a,
                                    static_cast<long>(kGlobalRounds(config)), config.delta);
            const double spent = privacy::certifiedEpsilon(in).epsilon;
            if (spent > config.epsilon * (1.0 + 1e-9)) {
                throw InputError(
                    "noise-multiplier = " + formatNumber(z) + " spends ε = " + formatNumber(spent) +
                    " over " + formatNumber(kGlobalRounds(config)) +
                    " rounds, more than the budget ε = " + formatNumber(config.epsilon) +
                    ": raise z or ε, or leave z automatic");
            }
        }
    }

    TrainConfig resolve(const TrainConfig& requested, const DataSplit& data) const override {
        const long n = userCount(data.train);
        if (n == 0) return requested;  // no users: validate refuses the data, saying why
        TrainConfig c = resolveUserLevelDefaults(requested, data, n);
        if (kSampledUsers(c) == 0) c.extra["sampled-users"] = std::to_string(n);
        const double a = kPersonalisation(c);
        if (kNoiseMultiplier(c) == 0 && c.isPrivate() && a > 0.0) {
            const double q = kSampledUsers(c) / static_cast<double>(n);
            const privacy::AccountingInputs shape =
                globalReleaseInputs(q, 1.0, a, static_cast<long>(kGlobalRounds(c)), c.delta);
            c.extra["noise-multiplier"] = realText(
                privacy::solveNoiseMultiplierFor(shape, chargedMultiplierScale(q), c.epsilon));
        }
        return c;
    }

    /// The convergence bound of personalised private SGD at this run's personalisation a = α·N,
    /// as a function of ε; the generator's constants come with the run (none without them).
    std::optional<RateShape> theoryRate(const RateInputs& in) const override;

    RunResult run(const PreparedConfig& prepared, const DataSplit& data, TrainingObserver& observer,
                  const CancelToken& cancel) const override;

    /// Runs with every user in every round: keyed by seed and samples per user.
    std::string togetherKey(const TrainConfig& config, const Dataset& train) const override;

    /// Runs with one together key in lockstep, each user's samples drawn once per round.
    std::vector<RunResult> runTogether(const std::vector<PreparedConfig>& runs,
                                       const DataSplit& data,
                                       const std::vector<TrainingObserver*>& observers,
                                       const CancelToken& cancel) const override;

private:
    friend class PpsgdRun;
    /// The privacy report and statement of a run that released something (or, a = 0, nothing).
    void describeRun(RunResult& result, const privacy::RunAccountant& accountant,
                     const PpsgdPlan& p, const TrainConfig& config, const Dataset& train) const;
};

std::optional<RateShape> Ppsgd::theoryRate(const RateInputs& in) const {
    if (in.run == nullptr || in.run->theoryInputs.empty()) return std::nullopt;
    PpsgdTheoryInputs theory;
    theory.users = static_cast<long>(in.runInput("users"));
    theory.rounds = static_cast<long>(in.runInput("rounds"));
    theory.dimension = static_cast<int>(in.runInput("dimension"));
    theory.smoothness = in.runInput("smoothness");
    theory.clip = in.runInput("clip");
    theory.gradientNoise = in.runInput("gradient_noise");
    theory.sumSquaredOptima = in.runInput("sum_squared_optima");
    theory.squaredMeanOptimum = in.runInput("squared_mean_optimum");
    theory.delta = in.delta;
    double a = 0.0;
    try {
        a = std::stod(in.setting("personalisation"));
    } catch (...) {
        return std::nullopt;
    }
    if (theory.users <= 0 || theory.rounds <= 0 || !std::isfinite(a) || in.delta <= 0.0)
        return std::nullopt;
    const double alpha = a / static_cast<double>(theory.users);
    return RateShape{
        "personalised SGD bound at a = " + formatNumber(a) +
            ": 4L·max(α,1/N)‖z*‖²_α/n + 3‖z*‖_α·√((α+1)σ̄²/(Nn) + α d C² ln(1/δ)/(N²ε²))",
        [=](double eps) {
            PpsgdTheoryInputs at = theory;
            at.epsilon = eps;
            return ppsgdBound(at, alpha);
        }};
}

/// The released global model, its final metrics and the per-user read-outs (who pays for
/// privacy) into `result`.
void releaseResult(RunResult& result, PpsgdReadouts& readouts, const Eigen::VectorXd& w,
                   const Eigen::MatrixXd& theta, const PpsgdPlan& p, const DataSplit& data,
                   bool diverged) {
    const Dataset& train = data.train;
    const Dataset& test = data.test;
    const PersonalisedTruth* truth = train.personalised.get();
    const long N = p.users;
    const long m = p.samples;
    const bool streaming = p.streaming;
    const bool diagnostics = p.diagnostics;
    // The released global model (encoded coordinates, bias last).
    Eigen::VectorXd global;
    readouts.encodedModel(w, theta, -1, global);
    result.theta = RowMatrix(1, global.size());
    result.theta.row(0) = global.transpose();
    result.regression.known = true;
    if (diverged) {
        result.test = fairnessNotApplicable(static_cast<long>(test.rows()), kNaN);
        return;
    }
    result.regression.testMse = readouts.testMse(w, theta, true);
    result.regression.testRmse = std::sqrt(result.regression.testMse);
    const double headline = streaming ? readouts.excessRisk(w, theta) : result.regression.testMse;
    result.test = fairnessNotApplicable(static_cast<long>(test.rows()), headline);
    result.trainLoss = result.history.empty() ? kNaN : result.history.back().trainLoss;

    if (streaming) {
        // What the bound of the theory overlay needs of the generator (display only).
        const Eigen::VectorXd mean = truth->optimum.rowwise().mean();
        result.theoryInputs = {
            {"users", static_cast<double>(N)},
            {"rounds", static_cast<double>(p.rounds)},
            {"dimension", static_cast<double>(truth->features())},
            {"smoothness", truth->variances.maxCoeff()},
            {"clip", p.clip},
            {"gradient_noise",
             truth->noise * truth->noise * truth->variances.sum() / static_cast<double>(m)},
            {"sum_squared_optima", truth->optimum.squaredNorm()},
            {"squared_mean_optimum", mean.squaredNorm()},
        };
    }

    // Per-user read-outs: who pays for privacy.
    result.unitKind = "user";
    auto rowsOf = [](const std::optional<UnitIndex>& index, int id) {
        if (!index) return 0L;
        const std::optional<long> k = index->find(id);
        return k ? index->rowCount(*k) : 0L;
    };
    if (streaming) {
        result.units.reserve(static_cast<std::size_t>(N));
        for (long i = 0; i < N; ++i) {
            UnitMetrics u;
            u.name = "user " + std::to_string(i + 1);
            u.trainRows = diagnostics ? rowsOf(train.users, static_cast<int>(i)) : -1;
            u.testRows = rowsOf(test.users, static_cast<int>(i));
            u.testError = readouts.userRisk()(i);
            if (test.users) {
                if (const std::optional<long> k = test.users->find(static_cast<int>(i))) {
                    u.testLoss = readouts.userSse()[static_cast<std::size_t>(*k)] /
                                 readouts.userRows()[static_cast<std::size_t>(*k)];
                }
            }
            result.units.push_back(std::move(u));
        }
    } else if (test.users) {
        for (long k = 0; k < test.users->units(); ++k) {
            UnitMetrics u;
            u.name = test.users->name(k);
            u.trainRows = diagnostics ? rowsOf(train.users, test.users->id(k)) : -1;
            u.testRows = test.users->rowCount(k);
            u.testError = u.testLoss = readouts.userSse()[static_cast<std::size_t>(k)] /
                                       readouts.userRows()[static_cast<std::size_t>(k)];
            result.units.push_back(std::move(u));
        }
    }
}

/// One ppsgd run, round by round. run() drives one alone; runTogether drives several in
/// lockstep that see the same users' samples, drawing each user's samples once per round for all
/// of them. The rounds are the same code either way, so each result is bit for bit the same.
class PpsgdRun {
public:
    PpsgdRun(const Ppsgd& algorithm, const PreparedConfig& prepared, const DataSplit& data,
             TrainingObserver& observer, const CancelToken& cancel)
        : m_algorithm(algorithm),
          m_config(prepared.config()),
          m_data(data),
          m_plan(planOf(m_config, data.train)),
          // Streaming: the generator's raw coordinates, no intercept (the generator has none).
          // Pool: the encoded features and an intercept (bias last, as every model of the app).
          m_users(data.train, m_config, m_plan.users, m_plan.eta.local),
          m_accountant(
              globalReleaseInputs(m_plan.q, m_plan.z, m_plan.a, m_plan.rounds, m_config.delta)),
          m_streams(m_config, data.train),
          m_participants(m_plan.participation, m_streams.stream(streams::kSampling)),
          m_noise(m_streams.stream(streams::kNoise)),
          // The release's bound: a replaced user moves the normalised sum by 2C/Q.
          m_release(privacy::ReleaseSpec::gaussian(
              "users-clipped-mean", 2.0 * m_plan.clip / m_plan.expected,
              m_plan.z > 0.0 ? m_plan.z * m_plan.clip / m_plan.expected : 0.0)),
          m_readouts(data, data.train.personalised.get(), m_plan.users, m_users.features(),
                     m_users.modelSize()),
          m_session(observer, cancel, "rounds") {
        // Everything the rounds touch is allocated here, once.
        const Eigen::Index D = m_users.modelSize();
        const long m = m_plan.samples;
        m_w = Eigen::VectorXd::Zero(D);
        m_theta = Eigen::MatrixXd::Zero(D, m_plan.users);  // column i: user i's offset
        m_x.resize(m, D);
        m_y.resize(m);
        m_residual.resize(m);
        m_model.resize(D);
        m_g.resize(D);
        m_gsum.resize(D);
        m_session.setEpsilonSoFar([this](long steps) { return m_accountant.after(steps).epsilon; });
        m_session.result().config = m_config;
        m_session.result().dataset = data.train.name;
    }

    /// This run's own source of samples (run alone).
    PpsgdUserSamples& samples() { return m_users; }
    /// Starts the next round; false when the run is over (all rounds done, stopped, cancelled).
    bool startRound() {
        if (m_over || m_round >= m_plan.rounds || m_session.cancelled(m_round)) {
            m_over = true;
            return false;
        }
        m_gsum.setZero();
        // Poisson participation (q = 1: everyone; no draw, so full rounds use no randomness).
        m_participants.nextUnits();
        return true;
    }
    /// The users taking part in the round started.
    std::span<const long> drawnUsers() const { return m_participants.drawnUnits(); }
    /// User i's step on its samples (x, y) of this round.
    void userStep(long i, const RowMatrix& x, const Eigen::VectorXd& y) {
        m_model = m_w + m_theta.col(i);
        // Squared loss ½(ŷ − y)²: the gradient at the pre-update point, shared by w and θ_i.
        m_residual.noalias() = x * m_model;
        m_residual -= y;
        m_roundLoss += m_residual.squaredNorm();
        m_roundSamples += static_cast<double>(x.rows());
        m_g.noalias() = x.transpose() * m_residual;
        m_g /= static_cast<double>(x.rows());
        // The local step: never clipped, never released.
        if (m_plan.eta.local > 0.0) m_theta.col(i) -= m_users.localStep(i) * m_g;
        if (m_plan.eta.global > 0.0) {
            ++m_contributions;
            m_clipped += clipInPlace(m_g, m_plan.clip);
            m_gsum += m_g;
        }
    }
    /// User i's step on its own samples (run alone).
    void drawAndStep(long i) {
        m_users.draw(i, m_x, m_y);
        userStep(i, m_x, m_y);
    }
    /// The round's release, report and evaluation; ends the run on a stop or divergence.
    void endRound() {
        const PpsgdPlan& p = m_plan;
        if (p.eta.global > 0.0) {
            // Normalised by the expected number of users (Poisson sampling), noise z·C on the sum.
            m_gsum /= p.expected;
            privacy::releaseGaussian(m_release, m_gsum, m_noise);
            m_w -= p.eta.global * m_gsum;
        }
        const long t = m_round++;
        StepInfo info;
        info.step = t + 1;
        info.epoch = static_cast<int>(t + 1);
        info.batchRows = static_cast<long>(m_roundSamples);
        info.batchLoss =
            p.diagnostics && m_roundSamples > 0 ? 0.5 * m_roundLoss / m_roundSamples : kNaN;
        bool stop = m_session.stepped(info);
        // Judged on the released global model alone: a stop decided on the users' exact losses
        // or their personal models would itself tell about their data.
        const bool diverged = !m_w.allFinite() || m_w.norm() > kDivergedNorm;
        if (RunSession::evaluationDue(t + 1, p.rounds, p.evaluateEvery, 100) || diverged) {
            EpochMetrics e = m_readouts.measure(m_w, m_theta, p.streaming);
            e.epoch = static_cast<int>(m_session.result().history.size()) + 1;
            e.step = t + 1;
            // Diagnostic: the MSE of the round's samples (the users' private data).
            e.trainLoss = p.diagnostics && m_roundSamples > 0 ? m_roundLoss / m_roundSamples : kNaN;
            e.trainObjective = e.trainLoss;
            e.clipFraction = clippedShare(m_clipped, m_contributions, p.diagnostics);
            stop = m_session.evaluated(e) || stop;
            m_clipped = m_contributions = 0;
        }
        m_roundLoss = m_roundSamples = 0.0;
        if (diverged) {
            m_session.diverge("the models diverged at round " + std::to_string(t + 1) +
                              ": the step size η = " + formatNumber(kBaseStep(m_config)) +
                              " is too large for these data; lower it");
            m_over = true;
        } else if (m_session.stopRequested(stop, t + 1, p.rounds)) {
            m_over = true;
        }
    }
    /// The released model, the read-outs and the privacy statement.
    RunResult finish() {
        RunResult& result = m_session.result();
        releaseResult(result, m_readouts, m_w, m_theta, m_plan, m_data, m_session.diverged());
        // a = 0 releases nothing whatever the budget: ε = 0, certified by the accountant.
        if (!m_config.isPrivate() && m_plan.a > 0.0) {
            result.privacy = privacy::nonPrivateReport(m_algorithm.name(), result.steps);
            return m_session.finish();
        }
        m_algorithm.describeRun(result, m_accountant, m_plan, m_config, m_data.train);
        return m_session.finish();
    }

private:
    const Ppsgd& m_algorithm;
    const TrainConfig& m_config;
    const DataSplit& m_data;
    const PpsgdPlan m_plan;
    PpsgdUserSamples m_users;
    const privacy::RunAccountant m_accountant;
    const RunStreams m_streams;
    UnitSampler m_participants;
    RandomStream m_noise;
    const privacy::ReleaseSpec m_release;
    PpsgdReadouts m_readouts;
    RunSession m_session;
    Eigen::VectorXd m_w, m_y, m_residual, m_model, m_g, m_gsum;
    Eigen::MatrixXd m_theta;
    RowMatrix m_x;
    long m_round = 0, m_clipped = 0, m_contributions = 0;
    double m_roundLoss = 0.0, m_roundSamples = 0.0;
    bool m_over = false;
};

RunResult Ppsgd::run(const PreparedConfig& prepared, const DataSplit& data,
                     TrainingObserver& observer, const CancelToken& cancel) const {
    PpsgdRun run(*this, prepared, data, observer, cancel);
    while (run.startRound()) {
        for (const long i : run.drawnUsers()) run.drawAndStep(i);
        run.endRound();
    }
    return run.finish();
}

std::string Ppsgd::togetherKey(const TrainConfig& config, const Dataset& train) const {
    // With every user in every round, a user's samples of round t depend on the seed, the data
    // and m alone (the users' streams, PpsgdUserSamples), so runs that differ only in the step,
    // personalisation, clip, noise or ε see the same samples: data, not a privacy mechanism.
    const long everyone = userCount(train);
    const double q = kSampledUsers(config);
    if (q != 0.0 && q != static_cast<double>(everyone)) return "";
    return "users-every-round;seed=" + std::to_string(config.seed) +
           ";samples-per-user=" + formatNumber(kSamplesPerUser(config));
}

std::vector<RunResult> Ppsgd::runTogether(const std::vector<PreparedConfig>& runs,
                                          const DataSplit& data,
                                          const std::vector<TrainingObserver*>& observers,
                                          const CancelToken& cancel) const {
    const std::string key = togetherKey(runs.front().config(), data.train);
    bool shareable = !key.empty();
    for (const PreparedConfig& run : runs)
        shareable = shareable && togetherKey(run.config(), data.train) == key;
    if (!shareable) return Algorithm::runTogether(runs, data, observers, cancel);
    std::vector<std::unique_ptr<PpsgdRun>> group;
    for (std::size_t k = 0; k < runs.size(); ++k)
        group.push_back(std::make_unique<PpsgdRun>(*this, runs[k], data, *observers[k], cancel));
    const long N = userCount(data.train);

    // The samples every run of the group sees, drawn once per user and round.
    PpsgdUserSamples shared(data.train, runs.front().config(), N, 0.0);
    RowMatrix x(static_cast<Eigen::Index>(kSamplesPerUser(runs.front().config())),
                shared.modelSize());
    Eigen::VectorXd y(x.rows());
    std::vector<PpsgdRun*> active;
    for (;;) {
        active.clear();
        for (auto& run : group) {
            if (!run->startRound()) continue;
            if (static_cast<long>(run->drawnUsers().size()) != N)
                throw std::logic_error("ppsgd runs together need every user in every round");
            active.push_back(run.get());
        }
        if (active.empty()) break;
        for (long i = 0; i < N; ++i) {
            shared.draw(i, x, y);
            for (PpsgdRun* run : active) run->userStep(i, x, y);
        }
        for (PpsgdRun* run : active) run->endRound();
    }
    std::vector<RunResult> results;
    for (auto& run : group) results.push_back(run->finish());
    return results;
}

void Ppsgd::describeRun(RunResult& result, const privacy::RunAccountant& accountant,
                        const PpsgdPlan& p, const TrainConfig& config, const Dataset& train) const {
    const long N = p.users;
    const long m = p.samples;
    const double q = p.q, Q = p.expected, a = p.a, C = p.clip, z = p.z;
    const bool streaming = p.streaming;
    const bool diagnostics = p.diagnostics;
    describePrivateRun(result, accountant, train);
    privacy::PrivacyReport& report = result.privacy;
    report.algorithm = name();
    report.unit = "user";
    // The unit is already the person: no group-privacy conversion applies.
    report.epsilonPerPerson = 0.0;
    report.maxRowsPerPerson = 0;
    report.adjacency = "replace-one";
    report.neighbouring =
        "all data of one user replaced by any other data (any number of rows); "
        "the number of users N = " +
        std::to_string(N) + " is public";
    report.trustModel =
        "joint DP: the server (trusted to add the noise) releases only the noisy global model; "
        "in a deployment each user's personal model stays with that user and is not protected "
        "from that user — this simulation evaluates the personal models, and what it records "
        "of them is listed as not protected";
    report.protectedData =
        streaming ? "all samples of each user" : "every row of each user (features and target)";
    report.clipTheta = C;
    report.clipDescription = "C = " + formatNumber(C) +
                             " per user (the norm of the user's mean gradient over " +
                             std::to_string(m) + " samples per round)";
    report.samplingRate = a == 0.0 ? 0.0 : std::min(q, 1.0);
    report.expectedBatch = static_cast<long>(Q);
    if (a == 0.0) {
        report.calibration = "none needed: personalisation a = 0 sends nothing to the server";
        report.mechanism = "no release (every user learns alone)";
        report.sampling = "none";
        report.postProcessing =
            "only each user's own model exists; it is computed from that user's data alone";
    } else {
        report.calibration =
            config.isPrivate()
                ? "noise multiplier z = " + formatNumber(z) +
                      " (the smallest z the accountant finds within the budget ε, unless given)"
                : "";
        report.mechanism =
            q >= 1.0
                ? "Gaussian, one release of the noisy global update per round (bound 2C on "
                  "the sum under replace-one, so the accountant's multiplier is z/2)"
                : "Poisson-subsampled Gaussian (users), replace-one by the group-of-two bound, "
                  "one release per round";
        report.sampling =
            q >= 1.0 ? "every user in every round"
                     : "Poisson: each user joins a round with probability q = " + formatNumber(q);
        report.noiseMultiplierTheta = z;
        report.noiseMultiplier = z * chargedMultiplierScale(q);
        report.sigmaTheta = z * C / Q;
        report.postProcessing =
            "each user's personal model θ_i, computed from the released global models and "
            "that user's own data (joint differential privacy)";
    }
    // The personalised metrics read each user's personal model θ_i, which the guarantee does
    // not cover (joint DP protects a user from what the others see: the global models).
    report.disclose(
        "every metric of the personal models w + θ_i (each computed from one user's "
        "own data): the test " +
            std::string(streaming ? "excess risk" : "MSE") +
            " per user, their mean and their spread",
        {"test_error", "regression.test_mse", "regression.test_rmse", "history.test_error",
         "history.excess_risk", "history.unit_error_spread", "units.items[].test_error",
         "units.items[].test_loss"});
    if (diagnostics && !result.units.empty()) {
        report.disclose("each user's number of training rows", {"units.items[].train_rows"},
                        /*diagnostic=*/true);
    }
    report.statement = privacy::renderPrivacyStatement(report, "", "");
}

}  // namespace

std::unique_ptr<Algorithm> makePpsgd() { return std::make_unique<Ppsgd>(); }

}  // namespace pfa
