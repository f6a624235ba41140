#include "core/algorithms/diff2/diff2_rounds.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <utility>

#include "core/config/algorithm.h"
#include "core/engine/clipping.h"
#include "core/engine/design_matrix.h"
#include "core/engine/evaluator.h"
#include "core/engine/private_run_report.h"
#include "core/engine/run_session.h"
#include "core/engine/run_streams.h"
#include "core/model/logistic_functions.h"
#include "core/model/model.h"
#include "core/privacy/noisy_release.h"
#include "core/privacy/run_accountant.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "core/util/random.h"

namespace pfa::diff2 {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
/// The MLP's initial weights depend on the seed alone (common random numbers: runs that differ
/// in ε, η or T start from the same network). Data-independent, so not a privacy stream.
constexpr std::uint64_t kMlpInitStream = 0x4d4c50494e495400ULL;  // "MLPINIT"

}  // namespace

ParamSpec roundsParameter() {
    return declare("gd-rounds", "Rounds R", ParamKind::Integer,
                   "full-batch gradient rounds; every round uses every training record once")
        .unit("rounds")
        .atLeast(1)
        .defaultValue("2000")
        .sweepable();
}

ParamSpec stepParameter() {
    return declare("gd-step", "Step η", ParamKind::Real,
                   "step size of x ← x − η·v, v the noisy gradient estimate (the tuning "
                   "protocol halves it from 1)")
        .defaultValue("0.25")
        .above(0.0)
        .sweepable();
}

ParamSpec fullClipParameter() {
    return declare("full-clip", "Gradient clip C1", ParamKind::Real,
                   "each record's full gradient is clipped to this norm (restart rounds; "
                   "every round of DP-GD); not private runs do not clip")
        .defaultValue("1")
        .above(0.0)
        .sweepable();
}

ParamSpec modelParameter() {
    return declare("model", "Model", ParamKind::Choice,
                   "the model trained: linear, or a network with one hidden layer of 10 softplus "
                   "units")
        .choices({
            {"linear", "Linear",
             "linear model: squared loss on a regression target, logistic loss on two classes"},
            {"mlp", "Network (10 softplus units)",
             "one hidden layer of 10 softplus units, initial weights uniform in ±1/√fan-in; "
             "squared loss on a regression target, logistic loss on two classes"},
        })
        .defaultValue("linear");
}

ParamSpec restartPeriodParameter() {
    return declare("restart-period", "Restart period T", ParamKind::Integer,
                   "a full clipped gradient every T rounds (rounds 1, T+1, …), clipped gradient "
                   "differences in between; T = 1 is DP-GD")
        .unit("rounds")
        .atLeast(1)
        .defaultValue("0")
        .automatic("0", "max(1, round(0.01·R))")
        .sweepable();
}

ParamSpec clipRatioParameter() {
    return declare("difference-clip-ratio", "Difference clip ratio C2", ParamKind::Real,
                   "each record's gradient difference ∇ℓ(x_r) − ∇ℓ(x_{r−1}) is clipped to "
                   "C2·‖x_r − x_{r−1}‖ (about the per-record smoothness)")
        .defaultValue("3")
        .above(0.0)
        .sweepable();
}

ParamSpec noiseSplitParameter() {
    return declare("noise-split", "Noise split u", ParamKind::Real,
                   "u > 1: the restarts get ε/(2u) of the budget at the calibration's order, "
                   "the differences ε(u−1)/(2u)")
        .defaultValue("1.25")
        .above(1.0)
        .sweepable();
}

std::optional<RateShape> gradientNormRate(const RateInputs& in, std::string label,
                                          double (*bound)(double d, double records, double eps)) {
    const double d = in.runInput("parameters");
    const double records = in.runInput("records_per_silo_min") * in.runInput("silos");
    if (d <= 0.0 || records <= 0.0) return std::nullopt;
    return RateShape{std::move(label),
                     [=](double eps) { return std::isinf(eps) ? 0.0 : bound(d, records, eps); },
                     "gradient_norm_squared"};
}

long resolvedRestartPeriod(double requested, long rounds) {
    if (requested >= 1.0) return static_cast<long>(requested);
    return std::max(1L, std::lround(0.01 * static_cast<double>(rounds)));
}

Calibration calibrate(double epsilon, double delta, long rounds, long period, long nmin, long silos,
                      double split) {
    Calibration c;
    c.restarts = (rounds + period - 1) / period;
    if (!std::isfinite(epsilon)) return c;
    c.order = 1 + static_cast<long>(std::ceil(2.0 * std::log(1.0 / delta) / epsilon));
    const double A = static_cast<double>(c.order);
    const double K = static_cast<double>(c.restarts);
    const double scale = static_cast<double>(nmin) * static_cast<double>(silos);
    const double base = A / (scale * scale * epsilon);
    if (c.restarts >= rounds) {
        c.sigma1 = std::sqrt(4.0 * base * static_cast<double>(rounds));  // T = 1: u = 1
        return c;
    }
    c.sigma1 = std::sqrt(4.0 * split * K * base);
    c.sigma2 =
        std::sqrt(4.0 * split / (split - 1.0) * static_cast<double>(rounds - c.restarts) * base);
    return c;
}

// ---- GradientModel ---------------------------------------------------------------------------

GradientModel::GradientModel(ModelKind model, LossKind loss, Eigen::Index features)
    : m_model(model), m_loss(loss), m_features(features) {
    const Eigen::Index H = kHiddenUnits;
    m_parameters = model == ModelKind::Linear ? features + 1 : H * features + 2 * H + 1;
}

void GradientModel::reserve(Eigen::Index rows) {
    m_scores.resize(rows);
    m_scoreGradient.resize(rows);
    if (m_model == ModelKind::Mlp) {
        m_hiddenIn.resize(rows, kHiddenUnits);
        m_hidden.resize(rows, kHiddenUnits);
        m_delta.resize(rows, kHiddenUnits);
    }
}

void GradientModel::scores(const Eigen::VectorXd& x, const Eigen::MatrixXd& X,
                           Eigen::VectorXd& out) {
    const Eigen::Index d = m_features;
    if (m_model == ModelKind::Linear) {
        out.noalias() = X * x.head(d);
        out.array() += x(d);
        return;
    }
    const Eigen::Index H = kHiddenUnits;
    const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>
        W1(x.data(), H, d);
    m_hiddenIn.noalias() = X * W1.transpose();
    m_hiddenIn.rowwise() += x.segment(H * d, H).transpose();
    m_hidden = m_hiddenIn.unaryExpr([](double a) { return softplus(a); });
    out.noalias() = m_hidden * x.segment(H * d + H, H);
    out.array() += x(H * d + 2 * H);
}

void GradientModel::gradients(const Eigen::VectorXd& x, const Eigen::MatrixXd& X,
                              const Eigen::VectorXd& y, Eigen::VectorXd& loss, Eigen::MatrixXd& G) {
    const Eigen::Index d = m_features;
    scores(x, X, m_scores);
    // ℓ and ∂ℓ/∂score per record: ½(s − y)², or the logistic loss log(1 + e^s) − y·s.
    if (m_loss == LossKind::Squared) {
        m_scoreGradient = m_scores - y;
        loss = 0.5 * m_scoreGradient.array().square();
    } else {
        for (Eigen::Index i = 0; i < m_scores.size(); ++i) {
            const double s = m_scores(i);
            loss(i) = softplus(s) - y(i) * s;
            m_scoreGradient(i) = sigmoid(s) - y(i);
        }
    }
    if (m_model == ModelKind::Linear) {
        for (Eigen::Index k = 0; k < d; ++k) G.col(k) = m_scoreGradient.cwiseProduct(X.col(k));
        G.col(d) = m_scoreGradient;
        return;
    }
    const Eigen::Index H = kHiddenUnits;
    // δ_ij = r_i·w2_j·softplus'(a_ij), softplus' = sigmoid.
    for (Eigen::Index j = 0; j < H; ++j) {
        const double w2 = x(H * d + H + j);
        for (Eigen::Index i = 0; i < m_delta.rows(); ++i) {
            m_delta(i, j) = m_scoreGradient(i) * w2 * sigmoid(m_hiddenIn(i, j));
        }
    }
    for (Eigen::Index j = 0; j < H; ++j) {
        for (Eigen::Index k = 0; k < d; ++k)
            G.col(j * d + k) = m_delta.col(j).cwiseProduct(X.col(k));
        G.col(H * d + j) = m_delta.col(j);
        G.col(H * d + H + j) = m_scoreGradient.cwiseProduct(m_hidden.col(j));
    }
    G.col(H * d + 2 * H) = m_scoreGradient;
}

Eigen::VectorXd GradientModel::initial(std::uint64_t seed) const {
    Eigen::VectorXd x = Eigen::VectorXd::Zero(m_parameters);
    if (m_model == ModelKind::Linear) return x;
    RandomStream random(seed, kMlpInitStream);
    const Eigen::Index H = kHiddenUnits, d = m_features;
    const double inBound = 1.0 / std::sqrt(static_cast<double>(d));
    const double outBound = 1.0 / std::sqrt(static_cast<double>(H));
    for (Eigen::Index k = 0; k < H * d + H; ++k)
        x(k) = inBound * (2.0 * random.uniformOpen() - 1.0);
    for (Eigen::Index k = H * d + H; k < m_parameters; ++k)
        x(k) = outBound * (2.0 * random.uniformOpen() - 1.0);
    return x;
}

// ---- the run -------------------------------------------------------------------------------

SiloSizes siloSizes(const Dataset& train) {
    SiloSizes s;
    if (train.silos && train.silos->units() > 0) {
        s.silos = train.silos->units();
        s.smallest = train.silos->minRowsPerUnit();
    } else {
        s.silos = 1;
        s.smallest = static_cast<long>(train.rows());
    }
    return s;
}

void requireSuitableData(const std::string& algorithm, const DataSplit& data) {
    const Dataset& train = data.train;
    if (!train.isRegression() && train.numClasses() != 2) {
        throw InputError(algorithm +
                         " fits a regression target (squared loss) or two classes (logistic "
                         "loss), and '" +
                         train.name + "' has " + std::to_string(train.numClasses()) + " classes");
    }
    if (train.rows() < 2) throw InputError(algorithm + " needs at least 2 training rows");
}

privacy::AccountingInputs roundAccounting(const Calibration& cal, const SiloSizes& silos,
                                          long rounds, long period, double delta,
                                          const std::string& unit) {
    // A round's released vector is the noisy silo-weighted mean of clipped vectors; replacing one
    // record moves it by at most 2·clip/(nmin·P).
    const double scale = static_cast<double>(silos.smallest) * static_cast<double>(silos.silos);
    privacy::AccountingInputs inputs;
    inputs.unit = unit;
    inputs.adjacency = privacy::Adjacency::Replace;
    inputs.kind = privacy::ReleaseKind::Gaussian;
    inputs.samplingRate = 1.0;
    inputs.noiseMultiplier = cal.sigma1 * scale / 2.0;
    inputs.sensitivity =
        "2·C1/(nmin·P) (replace-one: one record's clipped gradient in its silo's mean, weight 1/P)";
    inputs.stepsPerRelease = period;
    if (cal.restarts < rounds) {
        inputs.interimNoiseMultiplier = cal.sigma2 * scale / 2.0;
        inputs.interimSensitivity =
            "2·C2·‖x_r − x_(r−1)‖/(nmin·P) (replace-one: one record's clipped gradient difference)";
    }
    inputs.delta = delta;
    return inputs;
}

void requireWithinBudget(const std::string& algorithm, const TrainConfig& config,
                         const Dataset& train, long rounds, long period, double split) {
    if (!config.isPrivate()) return;
    const SiloSizes silos = siloSizes(train);
    const Calibration cal =
        calibrate(config.epsilon, config.delta, rounds, period, silos.smallest, silos.silos, split);
    const double spent = privacy::certifiedEpsilon(roundAccounting(cal, silos, rounds, period,
                                                                   config.delta, train.unitName)
                                                       .afterSteps(rounds))
                             .epsilon;
    if (spent > config.epsilon * (1.0 + 1e-9)) {
        throw InputError(
            algorithm + ": epsilon = " + formatNumber(config.epsilon) +
            " is too small for the closed-form calibration: it spends its budget at the "
            "RDP order A = " +
            std::to_string(cal.order) +
            ", beyond the accountant's orders, which certify only epsilon = " +
            formatNumber(spent) + "; raise epsilon or delta");
    }
}

namespace {

/// The weight of each record in f: 1/(P·n_p), n_p the rows of its silo (1/n without silos).
Eigen::VectorXd recordWeights(const Dataset& train, const SiloSizes& silos) {
    const Eigen::Index n = train.rows();
    Eigen::VectorXd weight(n);
    if (train.silos && train.silos->units() > 0) {
        for (Eigen::Index i = 0; i < n; ++i) {
            const long p = train.silos->unitOf(static_cast<long>(i));
            weight(i) = 1.0 / (static_cast<double>(silos.silos) *
                               static_cast<double>(train.silos->rowCount(p)));
        }
    } else {
        weight.setConstant(1.0 / static_cast<double>(n));
    }
    return weight;
}

RowMatrix asTheta(const Eigen::VectorXd& p) {
    RowMatrix theta(1, p.size());
    theta.row(0) = p.transpose();
    return theta;
}

/// The display read-outs of an iterate (computed on the private rows, never released): the
/// weighted training loss and ‖∇f‖² (diagnostics), the test error (MSE, or the error rate of a
/// classifier) and, for a linear classifier, the test set's fairness gaps. Buffers allocated
/// once.
class RoundReadouts {
public:
    /// `X` and `y` are the run's column-major copy of the training rows and their targets.
    RoundReadouts(const RoundSettings& settings, LossKind loss, const DataSplit& data,
                  const Eigen::VectorXd& weight, const Eigen::MatrixXd& X, const Eigen::VectorXd& y)
        : m_train(data.train),
          m_test(data.test),
          m_regression(data.train.isRegression()),
          m_weight(weight),
          m_X(X),
          m_y(y),
          m_Xtest(data.test.X),
          m_ytest(regressionTargets(data.test)),
          m_model(settings.model, loss, data.train.features()),
          m_testModel(settings.model, loss, data.train.features()) {
        m_model.reserve(m_train.rows());
        m_testModel.reserve(m_test.rows());
        const Eigen::Index D = m_model.parameters();
        m_trainLoss.resize(m_train.rows());
        m_gradients.resize(m_train.rows(), D);
        m_fullGradient.resize(D);
        m_testScores.resize(m_test.rows());
        if (!m_regression && settings.model == ModelKind::Linear && m_test.rows() > 0) {
            m_classModel = makeModelForClasses(2);
            m_testDesign = std::make_unique<DesignMatrix>(makeDesignMatrix(m_test.X, 0.0));
            m_testEvaluator = std::make_unique<Evaluator>(m_test, *m_testDesign, *m_classModel);
        }
    }

    /// The test MSE (regression) or error rate of iterate p; NaN without test rows.
    double testError(const Eigen::VectorXd& p) {
        if (m_test.rows() == 0) return kNaN;
        m_testModel.scores(p, m_Xtest, m_testScores);
        if (m_regression)
            return (m_testScores - m_ytest).squaredNorm() / static_cast<double>(m_test.rows());
        long wrong = 0;
        for (Eigen::Index i = 0; i < m_testScores.size(); ++i) {
            if ((m_testScores(i) >= 0.0 ? 1.0 : 0.0) != m_ytest(i)) ++wrong;
        }
        return static_cast<double>(wrong) / static_cast<double>(m_test.rows());
    }

    /// The metrics of an evaluation at round r (training loss and ‖∇f‖² only as diagnostics).
    EpochMetrics measure(const Eigen::VectorXd& x, long r, int epoch, bool diagnostics,
                         const TrainConfig& config) {
        EpochMetrics m;
        m.epoch = epoch;
        m.step = r;
        m.violation = m.dpGap = m.eoGap = m.eoppGap = m.ermiHard = m.ermiSoft = kNaN;
        if (diagnostics) {
            m_model.gradients(x, m_X, m_y, m_trainLoss, m_gradients);
            m.trainLoss = m.trainObjective = m_weight.dot(m_trainLoss);
            m_fullGradient.noalias() = m_gradients.transpose() * m_weight;
            m.gradientNormSquared = m_fullGradient.squaredNorm();
        } else {
            m.trainLoss = m.trainObjective = kNaN;
        }
        m.testError = testError(x);
        if (m_testEvaluator && x.allFinite()) {
            m_testEvaluator->meanLoss(asTheta(x));
            m.setTestGaps(m_testEvaluator->fairness(config.advantagedClass), config.fairness);
        }
        return m;
    }

    /// The run's final test read-outs of the released last iterate x.
    void finish(RunResult& result, const Eigen::VectorXd& x, bool linear, bool diverged,
                const TrainConfig& config) {
        const bool finite = x.allFinite();
        if (linear) result.theta = asTheta(x);
        const double finalError = finite ? testError(x) : kNaN;
        if (m_regression) {
            result.regression.known = true;
            if (finite && !diverged) {
                result.regression.testMse = finalError;
                result.regression.testRmse = std::sqrt(finalError);
            }
            result.test =
                fairnessNotApplicable(static_cast<long>(m_test.rows()), result.regression.testMse);
        } else if (m_testEvaluator && finite) {
            m_testEvaluator->meanLoss(result.theta);
            result.test = m_testEvaluator->fairness(config.advantagedClass);
        } else {
            result.test = fairnessNotApplicable(static_cast<long>(m_test.rows()), finalError);
        }
    }

private:
    const Dataset& m_train;
    const Dataset& m_test;
    bool m_regression;
    const Eigen::VectorXd& m_weight;
    const Eigen::MatrixXd& m_X;
    const Eigen::VectorXd& m_y;
    const Eigen::MatrixXd m_Xtest;
    const Eigen::VectorXd m_ytest;
    GradientModel m_model, m_testModel;
    Eigen::VectorXd m_trainLoss, m_fullGradient, m_testScores;
    Eigen::MatrixXd m_gradients;
    std::unique_ptr<Model> m_classModel;
    std::unique_ptr<DesignMatrix> m_testDesign;
    std::unique_ptr<Evaluator> m_testEvaluator;
};

/// The weighted sum agg = Σ_i coef_i·g_i of the records' gradients (rows of G), or of their
/// gradient differences (rows of G − *previous), each clipped to `clip` and weighted by
/// `weight`; returns how many were clipped.
long clippedWeightedSum(const Eigen::MatrixXd& G, const Eigen::MatrixXd* previous, double clip,
                        const Eigen::VectorXd& weight, Eigen::VectorXd& norms,
                        Eigen::VectorXd& coef, Eigen::VectorXd& agg) {
    // Row norms summed column by column: G is column-major, so this reads it in order (a
    // row-wise reduction would stride across all columns for every record).
    norms.setZero();
    for (Eigen::Index k = 0; k < G.cols(); ++k) {
        if (previous)
            norms += (G.col(k) - previous->col(k)).cwiseAbs2();
        else
            norms += G.col(k).cwiseAbs2();
    }
    norms = norms.cwiseSqrt();
    const long clipped = clippedCoefficients(norms, clip, weight, coef);
    agg.noalias() = G.transpose() * coef;
    if (previous) agg.noalias() -= previous->transpose() * coef;
    return clipped;
}

/// The privacy report and statement of a private run of the rounds.
void describeRoundRun(RunResult& result, const privacy::RunAccountant& accountant,
                      const std::string& algorithm, const RoundSettings& settings,
                      const Calibration& cal, const SiloSizes& silos, const Dataset& train,
                      bool diagnostics) {
    const long T = std::max(1L, settings.period);
    const double C1 = settings.fullClip, C2 = settings.clipRatio;
    const bool regression = train.isRegression();
    const long n = static_cast<long>(train.rows());
    describePrivateRun(result, accountant, train);
    privacy::PrivacyReport& report = result.privacy;
    report.algorithm = algorithm;
    const std::string sizes =
        "A = " + std::to_string(cal.order) + ", nmin = " + std::to_string(silos.smallest) +
        " records in the smallest of P = " + std::to_string(silos.silos) + " silo(s)";
    if (T == 1) {
        report.calibration = "closed form σ = √(4AR/(nmin²P²ε)) (" + sizes +
                             "); the ε stated is the RDP accountant's for that σ (≤ target)";
        report.mechanism = "Gaussian, one release of the noisy mean clipped gradient per round";
    } else {
        report.calibration =
            "closed form σ1 = √(4uAK/(nmin²P²ε)), σ2 = √(4u/(u−1)·A(R−K)/(nmin²P²ε)) (" + sizes +
            ", K = " + std::to_string(cal.restarts) +
            " restarts, u = " + formatNumber(settings.split) +
            "); the ε stated is the RDP accountant's for σ1 and σ2 (≤ target)";
        report.mechanism = "Gaussian: a noisy mean clipped gradient every " + std::to_string(T) +
                           " rounds (σ1·C1), a noisy mean clipped gradient difference in every "
                           "other round (σ2·C2·‖x_r − x_(r−1)‖), composed exactly";
    }
    report.sampling = "none: every round uses every training record";
    report.samplingRate = 1.0;
    report.expectedBatch = n;
    report.adjacency = "replace-one";
    if (train.silos && train.silos->units() > 1) report.neighbouring = siloNeighbouring(train);
    report.noiseMultiplier = report.noiseMultiplierTheta = accountant.inputs().noiseMultiplier;
    report.sigmaTheta = cal.sigma1 * C1;
    report.clipTheta = C1;
    report.clipDescription = "C1 = " + formatNumber(C1) + " per record (full gradient)" +
                             (T == 1 ? std::string()
                                     : "; C2 = " + formatNumber(C2) +
                                           " × ‖x_r − x_(r−1)‖ per record (gradient difference)");
    report.protectedData =
        regression ? "every column of each training " + train.unitName + " (features and target)"
                   : wholeRecordProtection(train);
    report.postProcessing = "the last iterate";
    if (diagnostics) {
        report.disclose(
            "the squared gradient norm ‖∇f(x)‖² of the training objective per "
            "evaluation",
            {"history.gradient_norm_squared"}, /*diagnostic=*/true);
    }
    report.statement = privacy::renderPrivacyStatement(report, "", "");
}

}  // namespace

RunResult runRounds(const std::string& algorithm, const RoundSettings& settings,
                    const TrainConfig& config, const DataSplit& data, TrainingObserver& observer,
                    const CancelToken& cancel) {
    const Dataset& train = data.train;
    const Eigen::Index n = train.rows(), d = train.features();
    const bool regression = train.isRegression();
    const LossKind lossKind = regression ? LossKind::Squared : LossKind::Logistic;
    const bool isPrivate = config.isPrivate();
    const bool diagnostics = recordsDiagnostics(config);
    const long R = settings.rounds;
    const long T = std::max(1L, settings.period);
    // Not private: no noise and no clipping, i.e. plain gradient descent (the DIFF2 estimate
    // then telescopes to the full gradient).
    const double C1 = isPrivate ? settings.fullClip : kInf;
    const double C2 = isPrivate ? settings.clipRatio : kInf;

    const SiloSizes silos = siloSizes(train);
    const Calibration cal =
        calibrate(config.epsilon, config.delta, R, T, silos.smallest, silos.silos, settings.split);

    const Eigen::VectorXd weight = recordWeights(train, silos);
    const Eigen::MatrixXd X = train.X;  // column-major: per-record gradients are built by column
    const Eigen::VectorXd y = regressionTargets(train);

    GradientModel model(settings.model, lossKind, d);
    model.reserve(n);
    const Eigen::Index D = model.parameters();

    const privacy::AccountingInputs inputs =
        roundAccounting(cal, silos, R, T, config.delta, train.unitName);
    const privacy::RunAccountant accountant(inputs);

    // Noise keyed like dp-gd's when T = 1: restart-period 1 IS dp-gd, so both draw the same noise
    // (the settings that do not act when T = 1 are left out of the key).
    TrainConfig keyed = config;
    if (T == 1) {
        keyed.algorithm = "dp-gd";
        keyed.extra.erase("restart-period");
        keyed.extra.erase("difference-clip-ratio");
        keyed.extra.erase("noise-split");
    }
    const RunStreams streams(keyed, train);
    RandomStream noise = streams.stream(streams::kNoise);

    // Everything the rounds touch, allocated once.
    Eigen::VectorXd x = model.initial(config.seed);
    Eigen::VectorXd xPrev = x, v = Eigen::VectorXd::Zero(D), agg(D), loss(n), norms(n), coef(n);
    Eigen::MatrixXd G(n, D), Gprev(n, D);
    RoundReadouts readouts(settings, lossKind, data, weight, X, y);

    RunSession session(observer, cancel, "rounds");
    if (isPrivate)
        session.setEpsilonSoFar([&](long rounds) { return accountant.after(rounds).epsilon; });
    RunResult& result = session.result();
    result.config = config;
    result.dataset = train.name;
    long clipped = 0, seen = 0;
    double roundLoss = kNaN;

    for (long r = 1; r <= R; ++r) {
        if (session.cancelled(r - 1)) break;
        const bool restart = (r - 1) % T == 0;
        model.gradients(x, X, y, loss, G);
        roundLoss = weight.dot(loss);
        double noiseStd = 0.0;
        if (restart) {
            clipped += clippedWeightedSum(G, nullptr, C1, weight, norms, coef, agg);
            v = agg;
            noiseStd = cal.sigma1 * C1;
        } else {
            const double c = C2 * (x - xPrev).norm();
            clipped += clippedWeightedSum(G, &Gprev, c, weight, norms, coef, agg);
            v += agg;
            noiseStd = cal.sigma2 * c;
        }
        seen += n;
        {
            // v = v_prev (released) + this round's weighted clipped sum: a replaced record moves
            // it by twice its clip times its weight, at most 2·clip/(nmin·P).
            const privacy::ReleaseSpec release = privacy::ReleaseSpec::gaussian(
                restart ? "full-gradient" : "gradient-difference",
                2.0 * (restart ? C1 : C2 * (x - xPrev).norm()) /
                    (static_cast<double>(silos.smallest) * static_cast<double>(silos.silos)),
                isPrivate ? noiseStd : 0.0);
            privacy::releaseGaussian(release, v, noise);
        }
        G.swap(Gprev);  // ∇ℓ(x_r) is next round's ∇ℓ(x_{r−1}): one gradient pass per round
        xPrev = x;
        x.noalias() -= settings.step * v;

        StepInfo info;
        info.step = r;
        info.epoch = static_cast<int>((r - 1) / kEvaluateEvery) + 1;
        info.batchRows = static_cast<long>(n);
        info.batchLoss = diagnostics ? roundLoss : kNaN;
        bool stop = session.stepped(info);
        // Divergence is judged on the released iterate only: a stop decided on the exact
        // training loss would itself be a release of the private rows.
        // (‖x‖² overflowing is where the exact loss used to become infinite.)
        const bool diverged = !std::isfinite(x.squaredNorm());
        if (r % kEvaluateEvery == 0 || r == R || diverged) {
            EpochMetrics m = readouts.measure(x, r, static_cast<int>(result.history.size()) + 1,
                                              diagnostics, config);
            m.clipFraction = clippedShare(clipped, seen, diagnostics);
            clipped = seen = 0;
            stop = session.evaluated(m) || stop;
        }
        if (diverged) {
            session.diverge("the iterate diverged at round " + std::to_string(r) +
                            ": the step η = " + formatNumber(settings.step) +
                            " is too large; lower it");
            break;
        }
        if (session.stopRequested(stop, r, R)) break;
    }

    // The released model is the last iterate (display metrics are post-processing of it, but
    // are computed on the private rows and are not released).
    readouts.finish(result, x, settings.model == ModelKind::Linear, session.diverged(), config);
    result.trainLoss = result.history.empty() ? kNaN : result.history.back().trainLoss;
    result.theoryInputs = {{"parameters", static_cast<double>(D)},
                           {"records_per_silo_min", static_cast<double>(silos.smallest)},
                           {"silos", static_cast<double>(silos.silos)},
                           {"rounds", static_cast<double>(R)}};

    if (!isPrivate) {
        result.privacy = privacy::nonPrivateReport(algorithm, result.steps);
        return session.finish();
    }
    describeRoundRun(result, accountant, algorithm, settings, cal, silos, train, diagnostics);
    return session.finish();
}

}  // namespace pfa::diff2
