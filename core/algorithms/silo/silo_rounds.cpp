#include "core/algorithms/silo/silo_rounds.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

#include "core/config/config_validation.h"
#include "core/config/own_setting.h"
#include "core/engine/batch_sampler.h"
#include "core/engine/run_streams.h"
#include "core/model/logistic_functions.h"
#include "core/privacy/rdp_mechanisms.h"
#include "core/privacy/run_accountant.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "core/util/recent_results.h"

namespace pfa {

namespace {

// The own settings this file reads (checked against the declarations at start).
const OwnNumber kDomainRadius{"domain-radius"};
const OwnNumber kLocalBatch{"local-batch"};
const OwnChoice kNoiseCalibration{"noise-calibration"};
const OwnNumber kRecordClip{"record-clip"};
const OwnChoice kReportedIterate{"reported-iterate"};
const OwnNumber kRounds{"rounds"};
const OwnNumber kSilosPerRound{"silos-per-round"};
const OwnNumber kStepSize{"step-size"};
const OwnChoice kTrust{"trust"};

ParamChoice choice(const char* value, const char* label, const char* help) {
    return ParamChoice{value, label, help};
}

}  // namespace

std::vector<ParamSpec> siloRoundParameters(bool withTrust, bool withCalibration) {
    std::vector<ParamSpec> own = {
        declare("rounds", "Rounds R", ParamKind::Integer,
                "communication rounds between the server and the silos")
            .defaultValue("35")
            .atLeast(1)
            .atMost(100000)
            .unit("rounds")
            .sweepable(),
        declare("local-batch", "Local batch K", ParamKind::Integer,
                "records each silo uses per round (its minibatch, or its local steps)")
            .defaultValue("0")
            .atLeast(1)
            .automatic("0",
                       "⌈n√ε/(2√R)⌉ capped at n, n = training records of the smallest silo (all "
                       "of them when not private)")
            .sweepable(),
        declare("silos-per-round", "Silos per round M", ParamKind::Integer,
                "silos taking part in each round, a uniformly random subset")
            .defaultValue("0")
            .atLeast(1)
            .automatic("0", "all silos")
            .sweepable(),
        declare("step-size", "Step size η", ParamKind::Real,
                "constant step size of the server (or local) updates")
            .defaultValue("0")
            .above(0)
            .automatic("0",
                       "D/√(R(C² + d·σ²)) with σ the noise std on the server's average, or 0.1 "
                       "when D = ∞")
            .sweepable(),
        declare("record-clip", "Clip C", ParamKind::Real,
                "each record's gradient is clipped to this norm")
            .defaultValue("1")
            .above(0)
            .sweepable(),
        // Declared as noisy-clipped-gd declares it: one setting, one spec.
        declare("domain-radius", "Domain radius D", ParamKind::Real,
                "iterates are projected onto the ball of radius D around 0 (inf: none)")
            .defaultValue("inf")
            .above(0)
            .sweepable(),
        declare("reported-iterate", "Reported model", ParamKind::Choice,
                "the uniform average of the server's iterates, or its last iterate")
            .defaultValue("uniform-average")
            .choices({choice("uniform-average", "Average of the iterates",
                             "uniform average of w_1 … w_R"),
                      choice("last", "Last iterate", "the server's model after the last round")})
            .advanced()};
    if (withCalibration) {
        // Sweepable: calibrations side by side, --axis noise-calibration=zcdp-epoch,rdp-poisson.
        own.push_back(
            declare("noise-calibration", "Noise calibration", ParamKind::Choice,
                    "how a silo's noise is calibrated to the per-record (ε, δ)")
                .defaultValue("zcdp-epoch")
                .choices(
                    {choice("zcdp-epoch", "zCDP, shuffled epochs",
                            "each silo walks through shuffled epochs; σ = (2C/K)·√(u/(2ρ)), u = "
                            "releases per record"),
                     choice("rdp-poisson", "Rényi DP, Poisson sampling",
                            "each silo Poisson-samples its records at rate K/n; σ solved with the "
                            "RDP accountant"),
                     choice("thesis-experiment", "Thesis experiment formula",
                            "σ² = 8C²·ln(1/δ)·R/(n²ε²) per silo with Poisson sampling at rate K/n, "
                            "as in the thesis experiments (reproduction only; trust: each silo): "
                            "the ε stated is what the RDP accountant certifies for that σ")})
                .advanced()
                .applies(AppliesPrivate)
                .sweepable());
    }
    if (withTrust) {
        // Sweepable: the trust models side by side, --axis trust=central,isrl,local.
        own.push_back(
            declare("trust", "Trust model", ParamKind::Choice,
                    "who adds the noise, at the same per-record (ε, δ): the records, the silos, a "
                    "shuffler or the server")
                .defaultValue("isrl")
                .choices({choice("isrl", "Each silo (ISRL-DP)",
                                 "each silo noises its update before it leaves the silo"),
                          choice("central", "Trusted server",
                                 "a trusted server sees exact updates and noises their average"),
                          choice("shuffle", "Shuffler (simulated)",
                                 "shuffle model, simulated at the rate level with the central "
                                 "noise"),
                          choice("local", "Each record (local DP)",
                                 "every record's clipped gradient is noised before it leaves the "
                                 "record")})
                .applies(AppliesPrivate)
                .sweepable());
    }
    return commonParameters(
        {"epsilon", "delta", "seed", "evaluate-every", "secure-noise", "diagnostics"},
        std::move(own));
}

SiloRoundSettings siloRoundSettings(const TrainConfig& config) {
    SiloRoundSettings s;
    s.rounds = static_cast<long>(kRounds(config));
    s.localBatch = static_cast<long>(kLocalBatch(config));
    s.silosPerRound = static_cast<long>(kSilosPerRound(config));
    s.stepSize = kStepSize(config);
    s.clip = kRecordClip(config);
    s.radius = kDomainRadius(config);
    s.lastIterate = kReportedIterate(config) == "last";
    s.evaluateEvery = config.evaluateEvery;
    if (config.extra.count("noise-calibration") && kNoiseCalibration(config) != "zcdp-epoch") {
        s.calibration = kNoiseCalibration(config) == "rdp-poisson"
                            ? SiloCalibration::RdpPoisson
                            : SiloCalibration::ThesisExperiment;
    }
    if (config.extra.count("trust")) {
        const std::string& trust = kTrust(config);
        s.trust = trust == "central"   ? SiloTrust::Central
                  : trust == "shuffle" ? SiloTrust::Shuffle
                  : trust == "local"   ? SiloTrust::Local
                                       : SiloTrust::Isrl;
    }
    return s;
}

std::string siloTrustName(SiloTrust trust) {
    switch (trust) {
        case SiloTrust::Central:
            return "central";
        case SiloTrust::Shuffle:
            return "shuffle model (rate-level simulation)";
        case SiloTrust::Isrl:
            return "inter-silo record-level (ISRL-DP)";
        case SiloTrust::Local:
            return "local";
    }
    return "isrl";
}

std::string siloTrustDescription(SiloTrust trust) {
    switch (trust) {
        case SiloTrust::Central:
            return "a trusted server: it sees every silo's exact update and adds the noise to "
                   "their average; the "
                   "guarantee holds for what the server publishes, not against the server";
        case SiloTrust::Shuffle:
            return "a secure shuffler (shuffle model, rate-level simulation): the noise a shuffle "
                   "protocol would reach "
                   "is simulated by adding the central noise to the server's average; the shuffle "
                   "protocol itself is "
                   "not run, so this run stands for its accuracy, and its guarantee is that of a "
                   "trusted server";
        case SiloTrust::Isrl:
            return "no one: each silo adds its noise before anything leaves it, so the guarantee "
                   "holds against the "
                   "server and the other silos (and implies the same central guarantee)";
        case SiloTrust::Local:
            return "no one, not even the silo: each record's clipped gradient is noised before it "
                   "leaves the record";
    }
    return "";
}

TrainConfig resolveSiloRoundDefaults(const TrainConfig& requested, const DataSplit& data,
                                     bool /*withTrust*/) {
    TrainConfig c = requested;
    const long nMin = data.train.silos ? data.train.silos->minRowsPerUnit()
                                       : static_cast<long>(data.train.rows());
    const long silos = data.train.silos ? data.train.silos->units() : 1;
    // δ keeps the app's automatic 1/n² over all training records: smaller (stronger) than the
    // 1/n_i² of one silo, and what the δ field says its automatic value is.
    c = resolveDefaults(c, data);
    if (kLocalBatch(c) == 0) {
        const double n = static_cast<double>(std::max(1L, nMin));
        const double r = kRounds(c);
        const double k =
            c.isPrivate() ? std::ceil(n * std::sqrt(c.epsilon) / (2.0 * std::sqrt(r))) : n;
        c.extra["local-batch"] = std::to_string(static_cast<long>(std::clamp(k, 1.0, n)));
    }
    if (kSilosPerRound(c) == 0) c.extra["silos-per-round"] = std::to_string(std::max(1L, silos));
    return c;
}

void validateSiloRounds(const TrainConfig& config, const DataSplit& data, bool withTrust) {
    if (!data.train.silos || data.train.silos->units() == 0) {
        throw InputError(
            "this algorithm trains across silos, but the data has none: split the rows into silos "
            "first (in the window: Advanced, Users and silos, Silo split; command line: --silos N, "
            "or --synthetic-silos N for the synthetic data)");
    }
    requireNoFairness(config);
    if (data.train.isRegression() || data.train.numClasses() != 2) {
        throw InputError(
            "this algorithm fits a binary logistic model: the data must have exactly 2 classes (it "
            "has " +
            std::to_string(data.train.numClasses()) + ")");
    }
    const long nMin = data.train.silos->minRowsPerUnit();
    const long k = static_cast<long>(kLocalBatch(config));
    if (k > nMin) {
        throw InputError("local-batch = " + std::to_string(k) +
                         " is invalid: at most the training records of the "
                         "smallest silo (" +
                         std::to_string(nMin) + ")");
    }
    const long m = static_cast<long>(kSilosPerRound(config));
    if (m > data.train.silos->units()) {
        throw InputError("silos-per-round = " + std::to_string(m) + " is invalid: the data has " +
                         std::to_string(data.train.silos->units()) + " silos");
    }
    const std::string deltaRefusal = deltaProblem(config);
    if (!deltaRefusal.empty()) throw InputError(deltaRefusal);
    if (withTrust && config.isPrivate() && kTrust(config) == "local" &&
        kNoiseCalibration(config) == "rdp-poisson") {
        throw InputError(
            "trust = local needs noise-calibration = zcdp-epoch: a record that noises its own "
            "gradient gains nothing from the silo's secret sampling");
    }
    if (withTrust && config.isPrivate() && kTrust(config) != "isrl" &&
        kNoiseCalibration(config) == "thesis-experiment") {
        throw InputError(
            "noise-calibration = thesis-experiment is the thesis's formula for noise "
            "added by each silo: it needs trust = isrl");
    }
}

long epochReleases(long rows, long localBatch, long rounds) {
    const long perEpoch = std::max(1L, rows / localBatch);
    return (rounds + perEpoch - 1) / perEpoch;
}

SiloAccounting siloAccounting(const SiloRoundSettings& s, long rows, double epsilon, double delta,
                              const std::string& sensitivity) {
    SiloAccounting a;
    privacy::AccountingInputs& in = a.inputs;
    in.unit = "record";
    in.adjacency = privacy::Adjacency::Replace;
    in.sensitivity = sensitivity;
    in.delta = delta;
    if (s.calibration == SiloCalibration::ZcdpEpoch) {
        in.kind = privacy::ReleaseKind::Gaussian;
        in.samplingRate = 1.0;
        in.stepsPerRelease = std::max(1L, rows / s.localBatch);
        a.releases = epochReleases(rows, s.localBatch, s.rounds);
        a.noiseMultiplier =
            std::sqrt(static_cast<double>(a.releases) / (2.0 * privacy::zcdpRho(epsilon, delta)));
    } else {
        in.kind = privacy::ReleaseKind::PoissonReplace;
        in.samplingRate =
            std::min(1.0, static_cast<double>(s.localBatch) / static_cast<double>(rows));
        in.stepsPerRelease = 1;
        in.steps = s.rounds;
        a.releases = s.rounds;
        if (s.calibration == SiloCalibration::RdpPoisson) {
            a.noiseMultiplier = privacy::solveNoiseMultiplierFor(in, 1.0, epsilon);
        } else {
            // The thesis's σ on a silo's mean, σ² = 8C²·ln(1/δ)·R/(n²ε²); on the batch sum it
            // is K·σ, and z refers to one record's clip norm C.
            const double n = static_cast<double>(rows);
            const double sigma =
                std::sqrt(8.0 * s.clip * s.clip * std::log(1.0 / delta) *
                          static_cast<double>(s.rounds) / (n * n * epsilon * epsilon));
            a.noiseMultiplier = sigma * static_cast<double>(s.localBatch) / s.clip;
        }
    }
    in.noiseMultiplier = a.noiseMultiplier;
    in.steps = s.rounds;
    return a;
}

SiloNoise::SiloNoise(const SiloRoundSettings& s, const UnitIndex& silos, double epsilon,
                     double delta, const std::string& sensitivity, bool serverSide) {
    std::vector<long> sizes;  // distinct silo sizes, one accountant each
    for (long u = 0; u < silos.units(); ++u) {
        const long rows = serverSide ? silos.minRowsPerUnit() : silos.rowCount(u);
        auto found = std::find(sizes.begin(), sizes.end(), rows);
        if (found == sizes.end()) {
            const SiloAccounting a = siloAccounting(s, rows, epsilon, delta, sensitivity);
            sizes.push_back(rows);
            m_accountants.emplace_back(a.inputs);
            found = sizes.end() - 1;
        }
        const privacy::RunAccountant& accountant =
            m_accountants[static_cast<std::size_t>(found - sizes.begin())];
        m_multiplier.push_back(accountant.inputs().noiseMultiplier);
        m_releases.push_back(accountant.inputs().afterSteps(s.rounds).releases());
    }
}

std::shared_ptr<const SiloNoise> sharedSiloNoise(const SiloRoundSettings& s, const UnitIndex& silos,
                                                 double epsilon, double delta,
                                                 const std::string& sensitivity, bool serverSide) {
    // Everything siloAccounting and the constructor read: the settings, the target, each
    // silo's size in order, and the bound's wording last (its length is the rest of the key).
    std::string key;
    const auto add = [&key](const auto& value) {
        key.append(reinterpret_cast<const char*>(&value), sizeof value);
    };
    add(static_cast<int>(s.calibration));
    add(s.localBatch);
    add(s.rounds);
    add(s.clip);
    add(epsilon);
    add(delta);
    add(serverSide);
    add(silos.units());
    for (long u = 0; u < silos.units(); ++u) add(silos.rowCount(u));
    key += sensitivity;
    static RecentResults<std::string, std::shared_ptr<const SiloNoise>> recent(16);
    return recent.get(key, [&] {
        return std::make_shared<const SiloNoise>(s, silos, epsilon, delta, sensitivity, serverSide);
    });
}

std::pair<const privacy::RunAccountant*, double> SiloNoise::worst(long rounds) const {
    // The first accountant with the largest ε (each computed once: this runs at every
    // evaluation), or the first when none exceeds −1.
    const privacy::RunAccountant* worst = &m_accountants.front();
    double most = -1.0, epsilon = std::numeric_limits<double>::quiet_NaN();
    for (const privacy::RunAccountant& accountant : m_accountants) {
        const double spent = accountant.after(rounds).epsilon;
        if (&accountant == worst) epsilon = spent;
        if (spent > most) {
            most = spent;
            worst = &accountant;
            epsilon = spent;
        }
    }
    return {worst, epsilon};
}

SiloBatcher::SiloBatcher(const UnitIndex& silos, long localBatch, SiloCalibration calibration)
    : m_silos(silos),
      m_batch(localBatch),
      m_calibration(calibration),
      m_order(static_cast<std::size_t>(silos.units())),
      m_position(static_cast<std::size_t>(silos.units()), std::numeric_limits<long>::max()) {}

const std::vector<long>& SiloBatcher::next(long silo, RandomStream& sampling) {
    const auto rows = m_silos.rowsOf(silo);
    m_rows.clear();
    if (m_calibration != SiloCalibration::ZcdpEpoch) {
        // Poisson over the silo's rows at q = K/n_i (every row, without a draw, when K ≥ n_i).
        const double q =
            std::min(1.0, static_cast<double>(m_batch) / static_cast<double>(rows.size()));
        const long population = static_cast<long>(rows.size());
        if (static_cast<long>(m_positions.size()) < population)
            m_positions.resize(static_cast<std::size_t>(population));
        const long drawn = drawParticipants(sampling, q, population, m_positions, "silo-rows");
        for (long k = 0; k < drawn; ++k)
            m_rows.push_back(
                rows[static_cast<std::size_t>(m_positions[static_cast<std::size_t>(k)])]);
        return m_rows;
    }
    auto& order = m_order[static_cast<std::size_t>(silo)];
    long& position = m_position[static_cast<std::size_t>(silo)];
    if (position > static_cast<long>(rows.size()) - m_batch) {
        // A new epoch: a fresh data-independent permutation; the tail of the last one that
        // does not fill a batch is skipped, so every record is in one batch per epoch at most.
        order.assign(rows.begin(), rows.end());
        for (std::size_t i = order.size() - 1; i > 0; --i)
            std::swap(order[i], order[sampling.uniformIndex(i + 1)]);
        position = 0;
    }
    m_rows.assign(order.begin() + position, order.begin() + position + m_batch);
    position += m_batch;
    return m_rows;
}

SiloEvaluation::SiloEvaluation(const TrainConfig& config, const DataSplit& data)
    : m_data(data),
      m_model(makeModelForClasses(2)),
      m_trainDesign(sharedDesignMatrix(data.train.X, 0.0)),
      m_testDesign(sharedDesignMatrix(data.test.X, 0.0)),
      m_train(data.train, *m_trainDesign, *m_model),
      m_test(data.test, *m_testDesign, *m_model),
      m_reporter(config, m_train, m_test, false, 0.0),
      m_row(1, data.train.features() + 1) {}

const RowMatrix& SiloEvaluation::asRow(const Eigen::VectorXd& w) {
    m_row.row(0) = w.transpose();
    return m_row;
}

namespace {

/// sigmoid(score) ≥ ½ ? 1 : 0, computing σ only where the sign does not decide: σ(z) ≥ ½ for
/// every z ≥ 0, and σ(z) < ½ − 10⁻¹¹ for z ≤ −10⁻¹⁰, so only scores between may round to ½.
int predictedClass(double score) {
    if (score >= 0.0) return 1;
    if (score <= -1e-10) return 0;
    return sigmoid(score) >= 0.5 ? 1 : 0;
}

/// Each test unit's metrics (error and loss) at θ.
std::vector<UnitMetrics> unitTestMetrics(const DataSplit& data, const Eigen::VectorXd& theta) {
    std::vector<UnitMetrics> units;
    if (!data.test.silos || !data.train.silos) return units;
    const UnitIndex& test = *data.test.silos;
    const UnitIndex& train = *data.train.silos;
    const Eigen::Index d = data.test.features();
    for (long u = 0; u < test.units(); ++u) {
        UnitMetrics m;
        m.name = test.name(u);
        const std::optional<long> inTrain = train.find(test.id(u));
        m.trainRows = inTrain ? train.rowCount(*inTrain) : 0;
        m.testRows = test.rowCount(u);
        long wrong = 0;
        double loss = 0.0;
        for (const long row : test.rowsOf(u)) {
            const double score = data.test.X.row(row).dot(theta.head(d)) + theta(d);
            const int predicted = predictedClass(score);
            wrong += predicted != data.test.y(row);
            loss += softplus(data.test.y(row) == 1 ? -score : score);  // −log σ(±score)
        }
        m.testError = static_cast<double>(wrong) / static_cast<double>(m.testRows);
        m.testLoss = loss / static_cast<double>(m.testRows);
        units.push_back(m);
    }
    return units;
}

}  // namespace

EpochMetrics SiloEvaluation::measure(long round, const Eigen::VectorXd& w, long clipped,
                                     long seen) {
    EpochMetrics m = m_reporter.measure(static_cast<int>(round), round, asRow(w), clipped, seen);
    // The measure left the test rows' predictions in m_test.
    if (m_data.test.silos && m_data.train.silos)
        m.unitErrorSpread = unitErrorSpread(m_data.test, *m_data.test.silos, m_test.predictions());
    return m;
}

void SiloEvaluation::finish(RunResult& result, const Eigen::VectorXd& w) {
    result.theta = asRow(w);
    m_reporter.finish(result);
    result.units = siloTestMetrics(m_data, w);
}

namespace {

/// Binary logistic regression on rows x̃ = (x, 1) (bias last), score of class 1: the
/// per-example gradient (σ(θ·x̃) − y)·x̃, for the heterogeneity diagnostic (the silo loops clip
/// theirs as a coefficient, silo_round_run.h).
void logisticGradient(const Dataset& data, long row, const Eigen::VectorXd& theta,
                      Eigen::VectorXd& gradient) {
    const Eigen::Index d = data.features();
    const double score = data.X.row(row).dot(theta.head(d)) + theta(d);
    const double residual = sigmoid(score) - static_cast<double>(data.y(row));
    gradient.head(d) = residual * data.X.row(row).transpose();
    gradient(d) = residual;
}

}  // namespace

std::vector<UnitMetrics> siloTestMetrics(const DataSplit& data, const Eigen::VectorXd& theta) {
    return unitTestMetrics(data, theta);
}

namespace {

/// The non-private optimum w* of the pooled training loss (Newton's method with a tiny ridge
/// 1e-6), empty when it diverges. A function of the rows alone: runs on the same rows (every
/// ε, trust model and seed of a sweep) solve it once; the 16 most recent are kept, keyed by the
/// data fingerprint (free inside a sweep).
Eigen::VectorXd pooledOptimum(const Dataset& train) {
    static RecentResults<std::uint64_t, Eigen::VectorXd> recent(16);
    return recent.get(knownOrNewFingerprint(train), [&train] {
        const Eigen::Index d = train.features();
        const double n = static_cast<double>(train.rows());
        constexpr double kRidge = 1e-6;
        Eigen::VectorXd w = Eigen::VectorXd::Zero(d + 1), x(d + 1);
        Eigen::MatrixXd h(d + 1, d + 1);
        for (int iteration = 0; iteration < 50; ++iteration) {
            Eigen::VectorXd total = kRidge * w;
            h = kRidge * Eigen::MatrixXd::Identity(d + 1, d + 1);
            for (Eigen::Index i = 0; i < train.rows(); ++i) {
                x.head(d) = train.X.row(i).transpose();
                x(d) = 1.0;
                const double p = sigmoid(w.dot(x));
                total += (p - train.y(i)) * x / n;
                h.selfadjointView<Eigen::Lower>().rankUpdate(x, p * (1.0 - p) / n);
            }
            const Eigen::VectorXd stepDirection =
                h.selfadjointView<Eigen::Lower>().ldlt().solve(total);
            w -= stepDirection;
            if (!w.allFinite()) return Eigen::VectorXd();
            if (stepDirection.norm() < 1e-10 * (1.0 + w.norm())) break;
        }
        return w;
    });
}

}  // namespace

double siloHeterogeneity(const Dataset& train) {
    if (!train.silos) return std::numeric_limits<double>::quiet_NaN();
    const Eigen::Index d = train.features();
    const Eigen::VectorXd w = pooledOptimum(train);
    if (w.size() == 0) return std::numeric_limits<double>::quiet_NaN();
    Eigen::VectorXd g(d + 1);
    const UnitIndex& silos = *train.silos;
    double sum = 0.0;
    for (long u = 0; u < silos.units(); ++u) {
        Eigen::VectorXd mean = Eigen::VectorXd::Zero(d + 1);
        for (const long row : silos.rowsOf(u)) {
            logisticGradient(train, row, w, g);
            mean += g;
        }
        mean /= static_cast<double>(silos.rowCount(u));
        sum += mean.squaredNorm();
    }
    return sum / static_cast<double>(silos.units());
}

std::vector<long> sampleSilos(long n, long m, RandomStream& sampling) {
    std::vector<long> all(static_cast<std::size_t>(n));
    std::iota(all.begin(), all.end(), 0L);
    if (m >= n) return all;
    for (long i = 0; i < m; ++i) {
        const long j =
            i + static_cast<long>(sampling.uniformIndex(static_cast<std::uint64_t>(n - i)));
        std::swap(all[static_cast<std::size_t>(i)], all[static_cast<std::size_t>(j)]);
    }
    all.resize(static_cast<std::size_t>(m));
    std::sort(all.begin(), all.end());
    return all;
}

}  // namespace pfa
