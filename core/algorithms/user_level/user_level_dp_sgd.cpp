// user-level-dp-sgd: user-level differentially private SGD for binary logistic regression,
// with an outlier-removal mean estimate of the users' gradients (other-algorithms.md §4). The
// unit of privacy is a user (all of their rows), under replace-one-user adjacency.
//
// Each user keeps m of their rows (a random subset drawn once). Every round each user's mean
// gradient over those rows is taken at randomly smoothed points θ + y (y uniform in a ball of
// radius r); the users whose mean gradients sit inside the crowd are kept, at random, and the
// mean of the kept ones takes a projected noisy step. The released model is the average of the
// iterates. Three noise modes:
//  * naive (rigorous): no gate and no removal; each user's mean gradient is clipped to C_u and
//    the mean over users gets Gaussian noise; accounted by the RDP accountant as T Gaussian
//    releases (or T Poisson-subsampled ones, group-of-two bound, with user sampling);
//  * practical: the concentration gate (sparse vector, ε/2, pure DP by basic composition) and
//    T Gaussian releases at an ASSUMED sensitivity κτ/n of the kept users' mean — a heuristic
//    the paper's proof does not cover, said so in the statement;
//  * paper: the gate and the paper's closed-form noise, which holds up to an unstated absolute
//    constant; its ε is stated as the paper claims it, and the accountant's value is the one
//    of the practical mode's assumed sensitivity for that noise.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/config/algorithm.h"
#include "core/config/config_validation.h"
#include "core/config/own_setting.h"
#include "core/engine/batch_sampler.h"
#include "core/engine/clipping.h"
#include "core/engine/design_matrix.h"
#include "core/engine/epoch_reporter.h"
#include "core/engine/evaluator.h"
#include "core/engine/private_run_report.h"
#include "core/engine/run_session.h"
#include "core/engine/run_streams.h"
#include "core/engine/unit_sampler.h"
#include "core/model/logistic_functions.h"
#include "core/model/model.h"
#include "core/privacy/noisy_release.h"
#include "core/privacy/rdp_mechanisms.h"
#include "core/privacy/run_accountant.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

namespace {

// The own settings this file reads (checked against the declarations at start).
const OwnNumber kDiameter{"diameter"};
const OwnNumber kKappa{"kappa"};
const OwnNumber kRowBound{"row-bound"};
const OwnNumber kRowsPerUser{"rows-per-user"};
const OwnNumber kSmoothingRadius{"smoothing-radius"};
const OwnNumber kTauFactor{"tau-factor"};
const OwnNumber kUserClip{"user-clip"};
const OwnChoice kUserNoise{"user-noise"};
const OwnNumber kUserRounds{"user-rounds"};
const OwnNumber kUserStepSize{"user-step-size"};
const OwnNumber kUsersPerRound{"users-per-round"};

}  // namespace

/// One round's outlier filter (other-algorithms.md §4.4) on the users' stacked mean gradients
/// Q (n × d): writes each user's keep probability p_i = clamp((f_i − n/2)/(n/6), 0, 1), f_i =
/// #{j : ‖q_i − q_j‖ ≤ 2τ}, and returns the concentration score s = #{(i, j) : ‖q_i − q_j‖ ≤ τ}/n
/// (ordered pairs, i = j included). `gram` (n × n), `squared` and `keepProbability` (n) are
/// caller-owned buffers, so a round does not allocate. Not in a header: the algorithm's test
/// declares it to check the filter on its own.
double userLevelFilter(const RowMatrix& Q, double tau, Eigen::MatrixXd& gram,
                       Eigen::VectorXd& squared, Eigen::VectorXd& keepProbability);

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
/// Stream labels of this algorithm (fixed values: changing them changes every result). The
/// smoothing points do not protect anything; the gate's Laplace noise and the keep decisions
/// are part of the privacy mechanism and have a stream of their own.
constexpr std::uint64_t kSmoothingStream = 0x534d4f4f54480000ULL;  // "SMOOTH"
constexpr std::uint64_t kGateStream = 0x4741544500000000ULL;       // "GATE"
/// Base label of the per-user streams that pick each user's m rows (user position added).
constexpr std::uint64_t kUserRowsStream = 0x5553455230000000ULL;  // "USER0"

enum class NoiseMode { Paper, Practical, Naive };

NoiseMode noiseMode(const TrainConfig& config) {
    const std::string& text = kUserNoise(config);
    if (text == "paper") return NoiseMode::Paper;
    if (text == "naive") return NoiseMode::Naive;
    return NoiseMode::Practical;
}

/// The quantities every part of a run derives from the resolved settings and the data.
struct Setup {
    NoiseMode mode = NoiseMode::Practical;
    long n = 0;           ///< training users
    long m = 0;           ///< rows per user
    long T = 0;           ///< rounds
    long dim = 0;         ///< parameters: features + intercept
    long perRound = 0;    ///< users per round (n: all)
    double q = 1.0;       ///< user sampling rate
    double B = 0.0;       ///< row bound = G (logistic loss)
    double R = 0.0;       ///< diameter of the parameter ball
    double tau = 0.0;     ///< concentration radius c_τ·G/√m
    double r = 0.0;       ///< smoothing radius
    double eta = 0.0;     ///< step size
    double clip = kInf;   ///< naive: per-user clip C_u
    double kappa = 15.0;  ///< assumed-sensitivity factor of the gated modes
    double sigma = 0.0;   ///< noise std per coordinate on the averaged gradient
    double z = 0.0;       ///< noise multiplier the accountant charges
    /// Who takes part in a round: each user with probability q = m/n (all when m = n); the
    /// accountant reads q from this spec, the same the run's sampler draws with.
    SamplerSpec participation;
};

/// A run's setup read from its prepared configuration (the noise is set by calibrateRelease).
Setup setupOf(const TrainConfig& config, const Dataset& train) {
    Setup s;
    s.mode = noiseMode(config);
    s.n = train.users->units();
    s.m = static_cast<long>(kRowsPerUser(config));
    s.T = static_cast<long>(kUserRounds(config));
    s.dim = static_cast<long>(train.features()) + 1;
    s.perRound = static_cast<long>(kUsersPerRound(config));
    s.participation = SamplerSpec::overUnits(SamplingUnit::User, s.n, s.perRound, 1);
    s.q = s.participation.samplingRate();
    s.B = kRowBound(config);
    s.R = kDiameter(config);
    s.tau = kTauFactor(config) * s.B / std::sqrt(static_cast<double>(s.m));
    s.r = kSmoothingRadius(config);
    s.eta = kUserStepSize(config);
    s.kappa = kKappa(config);
    if (s.mode == NoiseMode::Naive) s.clip = kUserClip(config);
    return s;
}

/// The gated modes' concentration gate (other-algorithms.md §4): each round it keeps users at
/// random by their concentration and compares the noisy score with a noisy threshold drawn
/// once; a round that fails halts the run. Its figures (margin, removed share) are kept for the
/// evaluations. Draws from `stream` only.
class ConcentrationGate {
public:
    ConcentrationGate(const Setup& s, const TrainConfig& config, RandomStream& stream)
        : m_s(s),
          m_stream(stream),
          m_gram(s.n, s.n),
          m_squared(s.n),
          m_keep(s.n),
          m_laplaceScale(config.isPrivate() ? 8.0 / config.epsilon : 0.0) {
        // The threshold 2n/5 − Lap(4/ε), drawn once (n is public under replace-one).
        const double nd = static_cast<double>(s.n);
        const privacy::ReleaseSpec thresholdRelease = privacy::ReleaseSpec::laplace(
            "gate-threshold", 0.0, config.isPrivate() ? 4.0 / config.epsilon : 0.0);
        m_threshold = config.isPrivate()
                          ? -privacy::releaseLaplace(thresholdRelease, -2.0 * nd / 5.0, stream)
                          : 2.0 * nd / 5.0;
    }

    /// One round on the users' gradients Q: the kept users' mean gradient into `g` (users
    /// marked in `active`), or false when the gate halts the run.
    bool pass(const RowMatrix& Q, std::vector<char>& active, Eigen::VectorXd& g) {
        const double score = userLevelFilter(Q, m_s.tau, m_gram, m_squared, m_keep);
        long kept = 0;
        for (long i = 0; i < m_s.n; ++i) {
            // Randomised removal: kept with probability p_i.
            const double p = m_keep(i);
            const bool keep = p >= 1.0 || (p > 0.0 && m_stream.uniformOpen() < p);
            active[static_cast<std::size_t>(i)] = keep ? 1 : 0;
            kept += keep ? 1 : 0;
        }
        // The gate: score s/2 (sensitivity 1) against the noisy threshold, once per round.
        const double half = score / 2.0;
        worstMargin = std::min(worstMargin, half - m_threshold);
        // Δ₁ of s/2: a replaced user moves s by at most 2
        const privacy::ReleaseSpec scoreRelease =
            privacy::ReleaseSpec::laplace("gate-score", 1.0, m_laplaceScale);
        if (privacy::releaseLaplace(scoreRelease, half, m_stream) < m_threshold) return false;
        for (long i = 0; i < m_s.n; ++i) {
            if (active[static_cast<std::size_t>(i)]) g += Q.row(i).transpose();
        }
        if (kept > 0) g /= static_cast<double>(kept);
        removedSum += m_s.n - kept;
        ++roundsInPeriod;
        return true;
    }

    /// Stamps the gate's figures since the last evaluation on `metrics` (`halted`: the period
    /// ended at a halt) and starts a new period.
    void report(EpochMetrics& metrics, bool halted) {
        metrics.gateMargin = worstMargin;
        if (!halted || roundsInPeriod > 0) {
            metrics.removedFraction =
                static_cast<double>(removedSum) /
                (static_cast<double>(m_s.n) * static_cast<double>(roundsInPeriod));
        }
    }
    void newPeriod() {
        worstMargin = kInf;
        removedSum = roundsInPeriod = 0;
    }

    double worstMargin = kInf;  ///< smallest score/2 − threshold since the last evaluation
    long removedSum = 0;        ///< users removed in the period's rounds
    long roundsInPeriod = 0;    ///< rounds since the last evaluation

private:
    const Setup& m_s;
    RandomStream& m_stream;
    Eigen::MatrixXd m_gram;
    Eigen::VectorXd m_squared, m_keep;
    double m_laplaceScale;
    double m_threshold = 0.0;
};

/// The paper's noise std (other-algorithms.md §4.5, "paper calibration").
double paperSigma(const Setup& s, double epsilon, double delta) {
    const double n = static_cast<double>(s.n), m = static_cast<double>(s.m),
                 T = static_cast<double>(s.T), d = static_cast<double>(s.dim);
    const double deltaPrime = delta / (2.0 * T * m * n * d);
    const double variance = 8.0 * s.tau * s.tau * T * (epsilon + std::log(T / deltaPrime)) *
                            (epsilon / 2.0 - std::log(deltaPrime)) / (n * n * epsilon * epsilon);
    return std::sqrt(variance);
}

/// The release the accountant charges and the noise it implies: fills s.sigma and s.z for the
/// mode (naive: certified Gaussian or Poisson-sampled release of the clipped user mean; gated
/// modes: the ASSUMED sensitivity κτ/n and the concentration gate's sparse vector).
privacy::RunAccountant calibrateRelease(Setup& s, const TrainConfig& config) {
    const bool isPrivate = config.isPrivate();
    const double nd = static_cast<double>(s.n);
    // The release the accountant charges, and the noise std it implies.
    privacy::AccountingInputs release;
    release.adjacency = privacy::Adjacency::Replace;
    release.delta = isPrivate ? config.delta : 0.0;
    release.steps = s.T;
    std::vector<privacy::PureRelease> side;
    if (isPrivate) {
        if (s.mode == NoiseMode::Naive && s.perRound == s.n) {
            // Replacing one user moves the mean of the clipped user gradients by ≤ 2C_u/n.
            const double delta2 = 2.0 * s.clip / nd;
            s.sigma = delta2 * std::sqrt(static_cast<double>(s.T) /
                                         (2.0 * privacy::zcdpRho(config.epsilon, config.delta)));
            s.z = s.sigma / delta2;
            release.kind = privacy::ReleaseKind::Gaussian;
            release.noiseMultiplier = s.z;
            release.sensitivity =
                "2C_u/n (replace-one difference of the mean of the users' clipped gradients)";
        } else if (s.mode == NoiseMode::Naive) {
            // Poisson over users: each sampled user adds a clipped vector of norm ≤ C_u to
            // the sum, which is normalised by the expected count qn (group-of-two bound).
            release.kind = privacy::ReleaseKind::PoissonReplace;
            release.samplingRate = s.q;
            release.sensitivity =
                "C_u (one sampled user's clipped gradient in the sum; replace-one by the "
                "group-of-two bound)";
            s.z = privacy::solveNoiseMultiplierFor(release, 1.0, config.epsilon);
            release.noiseMultiplier = s.z;
            s.sigma = s.z * s.clip / (s.q * nd);
        } else {
            const double assumed = s.kappa * s.tau / nd;
            s.sigma =
                s.mode == NoiseMode::Paper
                    ? paperSigma(s, config.epsilon, config.delta)
                    : assumed *
                          std::sqrt(static_cast<double>(s.T) /
                                    (2.0 * privacy::zcdpRho(config.epsilon / 2.0, config.delta)));
            s.z = s.sigma / assumed;
            release.kind = privacy::ReleaseKind::Gaussian;
            release.noiseMultiplier = s.z;
            release.sensitivity = "κτ/n (ASSUMED sensitivity of the kept users' mean; heuristic)";
            side.push_back({"concentration gate",
                            "sparse vector: threshold 2n/5 − Lap(4/ε), score/2 + Lap(8/ε) "
                            "per round",
                            config.epsilon / 2.0});
        }
    }
    return privacy::composeRunAccountant(release, side, release.delta, "user");
}

/// m rows of every user, drawn once, into the rows u·m … u·m + m − 1 of X and y: a partial
/// shuffle of the user's rows, or — for a user with fewer than m rows — m draws with
/// replacement (such a user is not refused: a refusal would tell about that user's rows). Each
/// user draws from a stream of its own, so one user's rows never change which rows the others
/// keep.
void drawUserRows(const UnitIndex& users, const DesignMatrix& design, const Dataset& train,
                  const RunStreams& streams, long m, RowMatrix& X, Eigen::VectorXd& y) {
    std::vector<long> pool;
    for (long u = 0; u < users.units(); ++u) {
        const auto rows = users.rowsOf(u);
        pool.assign(rows.begin(), rows.end());
        RandomStream own = streams.stream(kUserRowsStream + static_cast<std::uint64_t>(u));
        const bool enough = static_cast<long>(pool.size()) >= m;
        for (long j = 0; j < m; ++j) {
            long row = 0;
            if (enough) {
                const auto pick =
                    j +
                    static_cast<long>(own.uniformIndex(pool.size() - static_cast<std::size_t>(j)));
                std::swap(pool[static_cast<std::size_t>(j)], pool[static_cast<std::size_t>(pick)]);
                row = pool[static_cast<std::size_t>(j)];
            } else {
                row = pool[own.uniformIndex(pool.size())];
            }
            X.row(u * m + j) = design.X().row(row);
            y(u * m + j) = static_cast<double>(train.y(row));
        }
    }
}

/// Every active user's smoothed mean logistic gradient at θ into the rows of Q (inactive users:
/// 0): the gradient at θ + y_ij, y_ij uniform in the r-ball. Only ⟨y_ij, x_ij⟩ enters, which is
/// r·‖x_ij‖ times one coordinate of a point uniform in the unit ball (`rowNorms`: ‖x_ij‖).
/// `scores` (one per row) is overwritten with the rows' residuals.
void smoothedUserGradients(const RowMatrix& X, const Eigen::VectorXd& y,
                           const Eigen::VectorXd& rowNorms, const Eigen::VectorXd& theta,
                           const std::vector<char>& active, const Setup& s, RandomStream& smoothing,
                           Eigen::VectorXd& scores, RowMatrix& Q) {
    const double mInv = 1.0 / static_cast<double>(s.m);
    scores.noalias() = X * theta;
    if (s.r > 0.0) {
        for (long u = 0; u < s.n; ++u) {
            if (!active[static_cast<std::size_t>(u)]) continue;
            for (long row = u * s.m; row < (u + 1) * s.m; ++row)
                scores(row) += s.r * rowNorms(row) * smoothing.unitBallCoordinate(s.dim);
        }
    }
    // Residuals σ(score) − y of every row at once (vectorised exp).
    scores = (1.0 / (1.0 + (-scores.array()).exp())).matrix() - y;
    for (long u = 0; u < s.n; ++u) {
        if (!active[static_cast<std::size_t>(u)]) {
            Q.row(u).setZero();
            continue;
        }
        Q.row(u).noalias() =
            mInv * scores.segment(u * s.m, s.m).transpose() * X.middleRows(u * s.m, s.m);
    }
}

class UserLevelDpSgd final : public Algorithm {
public:
    std::string name() const override { return "user-level-dp-sgd"; }
    std::string description() const override {
        return "User-level DP-SGD for logistic regression: protects all rows of a user at once; "
               "drops users whose gradients lie outside the crowd (or clips each user, naive "
               "mode).";
    }
    AlgorithmCapabilities capabilities() const override {
        return {.privacy = true,
                .unit = PrivacyUnit::User,
                .progressUnit = "round",
                .progressSetting = "user-rounds"};
    }
    std::vector<ParamSpec> parameters() const override {
        std::vector<ParamSpec> list =
            commonParameters({"epsilon", "delta", "seed", "secure-noise", "advantaged-class",
                              "evaluate-every", "diagnostics"});
        list.push_back(
            declare("user-noise", "Noise calibration", ParamKind::Choice,
                    "how the noise is set: naive (per-user clipping, rigorous), practical (outlier "
                    "removal, heuristic sensitivity κτ/n) or paper (outlier removal, the paper's "
                    "formula, up to an unstated constant)")
                .choices({
                    {"naive", "naive per-user clipping (rigorous)",
                     "no gate, no removal: each user's mean gradient is clipped to C_u; certified "
                     "by the accountant"},
                    {"practical", "outlier removal, practical (heuristic)",
                     "concentration gate (ε/2) and noise for an assumed sensitivity κτ/n of the "
                     "kept users' mean; heuristic — the paper's proof does not cover this mode"},
                    {"paper", "outlier removal, paper (up to a constant)",
                     "concentration gate (ε/2) and the paper's noise formula, correct up to an "
                     "unstated constant"},
                })
                // The rigorous mode is the default: the other two state an ε that rests on an
                // assumption.
                .defaultValue("naive")
                // The three modes side by side: --axis user-noise=naive,practical
                .sweepable());
        list.push_back(declare("user-rounds", "Rounds T", ParamKind::Integer,
                               "noisy gradient steps, each over every user")
                           .defaultValue("500")
                           .atLeast(1)
                           .atMost(1e7)
                           .sweepable());
        list.push_back(declare("rows-per-user", "Rows per user m", ParamKind::Integer,
                               "every user contributes this many of their rows (a random subset "
                               "drawn once; a user with fewer rows: m draws with replacement)")
                           .defaultValue("0")
                           .atLeast(1)
                           .atMost(1e7)
                           .automatic("0", "the fewest training rows any user has")
                           .readsData(AutoReads::Content)
                           .sweepable()
                           .advanced());
        list.push_back(
            declare("tau-factor", "Concentration factor c_τ", ParamKind::Real,
                    "τ = c_τ·G/√m: users whose mean gradients are farther than τ (2τ for "
                    "removal) from most others count as outliers (outlier-removal modes only)")
                .defaultValue("2")
                .above(0.0)
                .sweepable());
        list.push_back(declare("diameter", "Parameter ball diameter R", ParamKind::Real,
                               "the parameters are projected onto the ball of radius R/2")
                           .defaultValue("10")
                           .above(0.0)
                           .sweepable()
                           .advanced());
        list.push_back(declare("row-bound", "Row bound B", ParamKind::Real,
                               "every row (x, 1) is rescaled to norm ≤ B, so the logistic loss is "
                               "G-Lipschitz with G = B (a public constant)")
                           .defaultValue("5")
                           .above(0.0)
                           .sweepable()
                           .advanced());
        // 0 is a value (no smoothing), so "automatic" is stored as −1.
        list.push_back(declare("smoothing-radius", "Smoothing radius r", ParamKind::Real,
                               "gradients are taken at θ + y, y uniform in a ball of radius r "
                               "(0: no smoothing)")
                           .defaultValue("-1")
                           .atLeast(0.0)
                           .automatic("-1", "d^{1/4}·R/√T")
                           .sweepable()
                           .advanced());
        list.push_back(declare("user-step-size", "Step size η", ParamKind::Real,
                               "the step of θ ← Π(θ − η(g + noise))")
                           .defaultValue("0")
                           .above(0.0)
                           .automatic("0", "(R/G)·min{√m·n·ε/(T·√d·ln(mnd/δ)), T^{−3/4}, √(nm)/T}")
                           .sweepable()
                           .advanced());
        list.push_back(declare("user-clip", "Per-user clip C_u", ParamKind::Real,
                               "naive mode: each user's mean gradient is clipped to this norm")
                           .defaultValue("0")
                           .above(0.0)
                           .automatic("0", "G (the Lipschitz bound: no user is clipped)")
                           .sweepable()
                           .advanced());
        list.push_back(
            declare("kappa", "Assumed sensitivity factor κ", ParamKind::Real,
                    "practical and paper modes: the kept users' mean is assumed to move by "
                    "at most κτ/n when one user is replaced (heuristic)")
                .defaultValue("15")
                .above(0.0)
                .sweepable()
                .advanced());
        list.push_back(declare("users-per-round", "Users per round", ParamKind::Integer,
                               "naive mode: each round samples users independently with rate q = "
                               "this/n (Poisson); the others use every user")
                           .defaultValue("0")
                           .atLeast(1)
                           .atMost(1e7)
                           .automatic("0", "every user, every round")
                           .readsData(AutoReads::UnitCount)
                           .sweepable()
                           .advanced());
        return list;
    }

    void validate(const TrainConfig& config, const DataSplit& data) const override {
        requireNoFairness(config);
        const Dataset& train = data.train;
        if (!train.users || train.users->units() == 0) {
            throw InputError(
                "user-level-dp-sgd needs data with users (a user id on every row), because its "
                "unit "
                "of privacy is a user: load a data set with a user column (e.g. Parkinsons "
                "telemonitoring, users by subject) or synthetic data with users.");
        }
        if (train.numClasses() != 2) {
            throw InputError("user-level-dp-sgd trains binary logistic regression; the data has " +
                             std::to_string(train.numClasses()) + " classes");
        }
        const long n = train.users->units();
        if (n < 2)
            throw InputError("user-level-dp-sgd needs at least 2 training users; the data has 1");
        const long perRound = static_cast<long>(kUsersPerRound(config));
        if (perRound > n) {
            throw InputError("users-per-round = " + std::to_string(perRound) +
                             " is invalid: there are " + std::to_string(n) + " training users");
        }
        if (perRound < n && noiseMode(config) != NoiseMode::Naive) {
            throw InputError(
                "users-per-round = " + std::to_string(perRound) +
                " is invalid with user-noise = " + kUserNoise(config) +
                ": the concentration gate compares every user with every other in each round; "
                "sample users only with user-noise = naive (or use every user)");
        }
    }

    TrainConfig resolve(const TrainConfig& requested, const DataSplit& data) const override {
        TrainConfig c = resolveUserLevelDefaults(requested, data,
                                                 data.train.users ? data.train.users->units() : 0);
        if (!data.train.users || data.train.users->units() == 0) return c;  // validate refuses it
        const double n = static_cast<double>(data.train.users->units());
        const double d = static_cast<double>(data.train.features() + 1);
        const double T = kUserRounds(c);
        const double R = kDiameter(c);
        const double G = kRowBound(c);
        if (kRowsPerUser(c) == 0) {
            c.extra["rows-per-user"] = std::to_string(data.train.users->minRowsPerUnit());
        }
        const double m = kRowsPerUser(c);
        if (kSmoothingRadius(c) < 0) {
            c.extra["smoothing-radius"] = realText(std::pow(d, 0.25) * R / std::sqrt(T));
        }
        if (kUserStepSize(c) == 0) {
            // ε = ∞ (not private): the privacy term of the minimum is +∞.
            const double delta = c.isPrivate() ? c.delta : 1.0;
            const double privacyTerm = c.isPrivate()
                                           ? std::sqrt(m) * n * c.epsilon /
                                                 (T * std::sqrt(d) * std::log(m * n * d / delta))
                                           : kInf;
            const double eta =
                (R / G) * std::min({privacyTerm, std::pow(T, -0.75), std::sqrt(n * m) / T});
            c.extra["user-step-size"] = realText(eta);
        }
        if (kUserClip(c) == 0) c.extra["user-clip"] = realText(G);
        if (kUsersPerRound(c) == 0)
            c.extra["users-per-round"] = std::to_string(static_cast<long>(n));
        return c;
    }

    /// "user-noise" paper or practical: 1/√(nm) + √d·ln(ndm/δ)/(n √m ε) (n users, m records
    /// each); the naive baseline has none (the specs give it no rate).
    std::optional<RateShape> theoryRate(const RateInputs& in) const override {
        if (in.setting("user-noise") == "naive") return std::nullopt;
        const double n = in.n, m = in.m, d = in.d, delta = in.delta;
        if (n <= 0.0 || m <= 0.0 || d <= 0.0 || delta <= 0.0) return std::nullopt;
        const double logTerm = std::max(1.0, std::log(n * d * m / delta));
        return RateShape{"user-level DP, convex: 1/√(nm) + √d·ln(ndm/δ)/(n √m ε)", [=](double eps) {
                             return 1.0 / std::sqrt(n * m) +
                                    std::sqrt(d) * logTerm / (n * std::sqrt(m) * eps);
                         }};
    }

    RunResult run(const PreparedConfig& prepared, const DataSplit& data, TrainingObserver& observer,
                  const CancelToken& cancel) const override {
        const TrainConfig& config = prepared.config();
        const Dataset& train = data.train;
        const UnitIndex& users = *train.users;
        const bool isPrivate = config.isPrivate();

        Setup s = setupOf(config, train);
        const bool gated = s.mode != NoiseMode::Naive;
        const double nd = static_cast<double>(s.n);

        const privacy::RunAccountant accountant = calibrateRelease(s, config);

        RunSession session(observer, cancel, "rounds");
        RunResult& result = session.result();
        result.config = config;
        result.dataset = train.name;
        result.featureBound = s.B;  // prediction must rescale rows the same way
        result.unitKind = "user";

        const RunStreams streams(config, train);
        UnitSampler participants(s.participation, streams.stream(streams::kSampling));
        RandomStream noise = streams.stream(streams::kNoise);
        RandomStream gate = streams.stream(kGateStream);
        RandomStream smoothing = streams.stream(kSmoothingStream);

        const auto designPtr = sharedDesignMatrix(train.X, s.B);
        const auto testDesignPtr = sharedDesignMatrix(data.test.X, s.B);
        const DesignMatrix& design = *designPtr;
        const DesignMatrix& testDesign = *testDesignPtr;
        const long rowsUsed = s.n * s.m;
        RowMatrix X(rowsUsed, s.dim);
        Eigen::VectorXd y(rowsUsed);
        drawUserRows(users, design, train, streams, s.m, X, y);

        // Every per-round buffer, allocated once.
        Eigen::VectorXd theta = Eigen::VectorXd::Zero(s.dim), average = theta, g(s.dim),
                        scores(rowsUsed);
        const Eigen::VectorXd rowNorms = X.rowwise().norm();
        RowMatrix Q(s.n, s.dim);
        std::vector<char> active(static_cast<std::size_t>(s.n), 1);
        std::optional<ConcentrationGate> concentration;
        if (gated) concentration.emplace(s, config, gate);
        const double ballRadius = s.R / 2.0;

        const std::unique_ptr<Model> model = makeModelForClasses(2);
        Evaluator trainEvaluator(train, design, *model);
        Evaluator testEvaluator(data.test, testDesign, *model);
        // The ε curve shows certified values only: the heuristic modes certify none (+∞).
        if (isPrivate && !gated)
            session.setEpsilonSoFar([&](long steps) { return accountant.after(steps).epsilon; });
        EpochReporter reporter(config, trainEvaluator, testEvaluator, false, 0.0);
        const bool diagnostics = recordsDiagnostics(config);
        const std::vector<long> trainPosition =
            data.test.users ? matchUnits(*data.test.users, users) : std::vector<long>{};

        long clipped = 0, seen = 0;
        long halted = 0;
        RowMatrix reported(1, s.dim);
        // An evaluated model's figures: the reporter's, the gate's since the last evaluation
        // (`atHalt`: the period ended at a halt) and the spread of the users' test errors.
        auto evaluate = [&](int epoch, long step, const RowMatrix& model, bool atHalt) {
            EpochMetrics metrics = reporter.measure(epoch, step, model, clipped, seen);
            if (diagnostics && gated) concentration->report(metrics, atHalt);
            // The measure left the test rows' predictions in testEvaluator.
            if (data.test.users)
                metrics.unitErrorSpread =
                    pfa::unitErrorSpread(data.test, *data.test.users, testEvaluator.predictions());
            clipped = seen = 0;
            if (gated) concentration->newPeriod();
            return session.evaluated(metrics);
        };

        for (long t = 1; t <= s.T; ++t) {
            if (session.cancelled(t - 1)) break;
            // Users in this round (all, or Poisson with rate q in the naive mode).
            const long drawn = participants.nextUnits();
            std::fill(active.begin(), active.end(), 0);
            for (const long u : participants.drawnUnits()) active[static_cast<std::size_t>(u)] = 1;
            // Smoothed mean gradient of every user: the loss gradient at θ + y_ij, y_ij uniform
            // in the r-ball (only ⟨y_ij, x_ij⟩ enters the logistic gradient).
            smoothedUserGradients(X, y, rowNorms, theta, active, s, smoothing, scores, Q);
            g.setZero();
            if (gated) {
                if (!concentration->pass(Q, active, g)) {
                    halted = t;
                    break;
                }
            } else {
                for (long u = 0; u < s.n; ++u) {
                    if (!active[static_cast<std::size_t>(u)]) continue;
                    double scale = 1.0;
                    clipped += clipScale(Q.row(u).norm(), s.clip, scale);
                    g += scale * Q.row(u).transpose();
                }
                seen += drawn;
                // Normalised by the expected number of users, never the realised one.
                g /= s.q * nd;
            }
            {
                privacy::ReleaseSpec release;
                release.channel = gated ? "kept-users-mean" : "users-clipped-mean";
                // Naive: a replaced user moves the normalised sum of clipped user gradients by
                // 2C_u/(qn); the gated modes ASSUME κτ/n (heuristic, not certified).
                release.sensitivity = gated ? s.kappa * s.tau / nd : 2.0 * s.clip / (s.q * nd);
                release.noiseScale = s.sigma;
                privacy::releaseGaussian(release, g, noise);
            }
            theta -= s.eta * g;
            const double norm = theta.norm();
            if (norm > ballRadius) theta *= ballRadius / norm;
            average += theta;

            StepInfo info;
            info.step = t;
            info.epoch = static_cast<int>(result.history.size()) + 1;
            info.batchRows = drawn * s.m;
            info.batchLoss = kNaN;
            bool stop = session.stepped(info);
            if (RunSession::evaluationDue(t, s.T, config.evaluateEvery)) {
                reported.row(0) = (average / static_cast<double>(t)).transpose();
                stop = evaluate(info.epoch, t, reported, false) || stop;
            }
            if (session.stopRequested(stop, t, s.T)) break;
        }

        result.theta = RowMatrix::Zero(1, s.dim);
        if (halted > 0) {
            // The paper's rule: a run whose data the gate finds spread out returns θ₀.
            result.message =
                "halted at round " + std::to_string(halted) +
                ": the concentration gate found the users' gradients too spread out; the "
                "starting point θ₀ = 0 is returned";
            evaluate(static_cast<int>(result.history.size()) + 1, result.steps, result.theta, true);
        } else if (result.steps > 0) {
            result.theta.row(0) = (average / static_cast<double>(result.steps)).transpose();
        }
        reporter.finish(result);
        result.units = unitMetrics(result.theta, data, testDesign, trainPosition);
        if (!recordsDiagnostics(config)) {
            for (UnitMetrics& unit : result.units) unit.trainRows = -1;  // private counts
        }
        if (!isPrivate) {
            result.privacy = privacy::nonPrivateReport(name(), result.steps);
            return session.finish();
        }
        describe(result, accountant, s, train, halted);
        return session.finish();
    }

private:
    /// Test error and loss of every test user (matched to the training users by id).
    static std::vector<UnitMetrics> unitMetrics(const RowMatrix& theta, const DataSplit& data,
                                                const DesignMatrix& testDesign,
                                                const std::vector<long>& trainPosition) {
        std::vector<UnitMetrics> out;
        if (!data.test.users) return out;
        const UnitIndex& test = *data.test.users;
        const Eigen::VectorXd scores = testDesign.X() * theta.row(0).transpose();
        for (long u = 0; u < test.units(); ++u) {
            UnitMetrics unit;
            unit.name = test.name(u);
            const long position =
                trainPosition.empty() ? -1 : trainPosition[static_cast<std::size_t>(u)];
            unit.trainRows = position >= 0 ? data.train.users->rowCount(position) : 0;
            unit.testRows = test.rowCount(u);
            double errors = 0.0, loss = 0.0;
            for (const long row : test.rowsOf(u)) {
                const double z = scores(row);
                const int label = data.test.y(row);
                errors += (z >= 0.0 ? 1 : 0) != label ? 1.0 : 0.0;
                // Cross-entropy −log σ(±z) = softplus(∓z).
                loss += softplus(label == 1 ? -z : z);
            }
            unit.testError = errors / static_cast<double>(unit.testRows);
            unit.testLoss = loss / static_cast<double>(unit.testRows);
            out.push_back(std::move(unit));
        }
        return out;
    }

    void describe(RunResult& result, const privacy::RunAccountant& accountant, const Setup& s,
                  const Dataset& train, long halted) const {
        const TrainConfig& config = result.config;
        describePrivateRun(result, accountant, train);
        privacy::PrivacyReport& report = result.privacy;
        report.algorithm = name();
        report.unit = "user";
        report.adjacency = "replace-one";
        report.neighbouring = "all rows of one user replaced (any number of rows, any values)";
        report.trustModel =
            "a trusted curator: whoever runs the training sees every user's rows; only the model "
            "is protected (central differential privacy)";
        report.protectedData =
            "all rows of each training user together (features, label and the sensitive "
            "attribute '" +
            train.sensitiveDescription + "')";
        // The unit is the person: the guarantee per user is the run's ε (no group privacy).
        report.persons = s.n;
        report.maxRowsPerPerson = 0;
        report.epsilonPerPerson = report.epsilonSpent;
        report.noiseMultiplier = report.noiseMultiplierTheta = s.z;
        report.sigmaTheta = s.sigma;
        report.samplingRate = s.q;
        report.expectedBatch = s.perRound;
        report.sampling = s.perRound == s.n
                              ? "every user in every round"
                              : "Poisson over users (each user joins a round independently)";
        report.postProcessing = "the average of the " + std::to_string(result.steps) +
                                " projected iterates (the paper's output)";
        const std::string m = std::to_string(s.m);
        const std::string common =
            "m = " + m +
            " rows per user (a random subset drawn once), rows (x, 1) rescaled to "
            "norm ≤ B = " +
            formatNumber(s.B) + " so G = " + formatNumber(s.B) +
            ", θ projected onto the ball of radius R/2 = " + formatNumber(s.R / 2.0) +
            ", smoothing radius r = " + formatNumber(s.r) + ", step η = " + formatNumber(s.eta);
        if (s.mode == NoiseMode::Naive) {
            report.calibration = "naive per-user clipping, rigorous (RDP-calibrated)";
            report.clipTheta = s.clip;
            report.clipDescription =
                "C_u = " + formatNumber(s.clip) + " on each user's mean gradient; " + common;
            report.mechanism = s.perRound == s.n
                                   ? "Gaussian on the mean of the users' clipped gradients, " +
                                         std::to_string(result.steps) + " releases"
                                   : "Poisson-subsampled Gaussian over users, replace-one by the "
                                     "group-of-two bound";
        } else {
            const double tau = s.tau;
            report.clipDescription =
                "none (users outside the crowd are removed at random, τ = c_τ·G/√m = " +
                formatNumber(tau) + ", assumed sensitivity κτ/n with κ = " + formatNumber(s.kappa) +
                "); " + common;
            report.extraReleases =
                "concentration gate (sparse vector: threshold 2n/5 − Lap(4/ε), score/2 + "
                "Lap(8/ε) per round), ε₀ = " +
                formatNumber(config.epsilon / 2.0) + " by basic composition";
            report.mechanism =
                "Gaussian on the mean of the kept users' gradients at the assumed sensitivity "
                "κτ/n, " +
                std::to_string(result.steps) + " releases, plus the gate's pure ε₀";
            if (recordsDiagnostics(config)) {
                report.disclose(
                    "the gate's exact margin s/2 − thr and the share of users the "
                    "filter removed, per period",
                    {"history.gate_margin", "history.removed_fraction"},
                    /*diagnostic=*/true);
            }
            const std::string heuristic =
                "the ε above assumes that replacing one user moves the kept users' mean by at most "
                "κτ/n (κ = " +
                formatNumber(s.kappa) +
                "); this is not proven — a replaced user can also change other users' random keep "
                "decisions — so "
                "it is not a rigorous guarantee (only noise = naive is)";
            if (s.mode == NoiseMode::Practical) {
                report.calibration =
                    "practical (heuristic — the paper's proof does not cover this mode)";
                report.warnings.push_back(
                    "heuristic — the paper's proof does not cover this mode: " + heuristic);
            } else {
                report.calibration = "paper's closed form (correct up to an unstated constant)";
                report.knownGaps = true;
                report.epsilonNominal = config.epsilon;
                report.warnings.push_back(
                    "the paper's noise formula claims ε = " + formatNumber(config.epsilon) +
                    " only up to an unstated absolute constant, which no accountant can certify; " +
                    heuristic);
            }
        }
        if (s.mode != NoiseMode::Naive) {
            // Not a guarantee: nothing is certified, the heuristic value is kept beside.
            privacy::keepAccountingAsHeuristic(report);
        }
        if (recordsDiagnostics(config) && !result.units.empty()) {
            report.disclose("each user's number of training rows", {"units.items[].train_rows"},
                            /*diagnostic=*/true);
        }
        if (halted > 0) report.warnings.push_back(result.message);
        report.statement = privacy::renderPrivacyStatement(report, "", "");
    }
};

}  // namespace

double userLevelFilter(const RowMatrix& Q, double tau, Eigen::MatrixXd& gram,
                       Eigen::VectorXd& squared, Eigen::VectorXd& keepProbability) {
    const long n = static_cast<long>(Q.rows());
    const double nd = static_cast<double>(n);
    const double tau2 = tau * tau, twoTau2 = 4.0 * tau2;
    // Pairwise squared distances of the stacked user gradients: ‖a‖² + ‖b‖² − 2aᵀb, one
    // matrix product for all pairs (the diagonal gives the squared norms).
    gram.noalias() = Q * Q.transpose();
    squared = gram.diagonal();
    long close = 0;
    for (long i = 0; i < n; ++i) {
        long within2 = 0;
        for (long j = 0; j < n; ++j) {
            // Column i of the column-major Gram matrix: contiguous. d² of i with itself is 0.
            const double d2 = squared(i) + squared(j) - 2.0 * gram(j, i);
            close += d2 <= tau2 ? 1 : 0;
            within2 += d2 <= twoTau2 ? 1 : 0;
        }
        keepProbability(i) =
            std::clamp((static_cast<double>(within2) - nd / 2.0) / (nd / 6.0), 0.0, 1.0);
    }
    return static_cast<double>(close) / nd;
}

std::unique_ptr<Algorithm> makeUserLevelDpSgd() { return std::make_unique<UserLevelDpSgd>(); }

}  // namespace pfa
