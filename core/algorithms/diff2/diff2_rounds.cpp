#include "core/algorithms/diff2/diff2_rounds.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <utility>

#include "core/config/algorithm.h"
#include "core/engine/clipping.h"
#include "core/engine/design_matrix.h"
#include "core/engine/evaluator.h"
#include "core/engine/private_run_report.h"
#include "core/engine/run_session.h"
#include "core/engine/run_streams.h"
#include "core/engine/shared_batch_products.h"
#include "core/engine/vector_math.h"
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
    : m_model(model), m_loss(loss), m_features(features), m_network(features) {
    const Eigen::Index H = kHiddenUnits;
    m_parameters = model == ModelKind::Linear ? features + 1 : H * features + 2 * H + 1;
}

void GradientModel::reserve(Eigen::Index rows) {
    m_linearScores.resize(rows);
    m_weightedScoreGradient.resize(rows);
    m_outputExp.resize(rows, 1);
    m_outputOnePlusExp.resize(rows, 1);
}

void GradientModel::reserve(RecordFactors& factors, Eigen::Index rows) const {
    factors.scoreGradient.resize(rows);
    if (m_model == ModelKind::Mlp) {
        factors.hidden.resize(rows, kHiddenUnits);
        factors.delta.resize(rows, kHiddenUnits);
    }
}

NetworkRows GradientModel::networkJob(const Eigen::VectorXd& x, const FeatureRows& X) const {
    const Eigen::Index H = kHiddenUnits, d = m_features;
    NetworkRows job;
    job.W1 = x.data();
    job.b1 = x.data() + H * d;
    job.w2 = x.data() + H * d + H;
    job.b2 = x(H * d + 2 * H);
    job.features = static_cast<long>(d);
    job.X = X.data();
    job.stride = static_cast<long>(X.outerStride());
    job.rows = static_cast<long>(X.rows());
    job.logistic = m_loss == LossKind::Logistic;
    return job;
}

void GradientModel::scores(const Eigen::VectorXd& x, const FeatureRows& X, Eigen::VectorXd& out) {
    const Eigen::Index d = m_features;
    if (m_model == ModelKind::Linear) {
        out.noalias() = X * x.head(d);
        out.array() += x(d);
        return;
    }
    NetworkRows job = networkJob(x, X);
    job.scores = out.data();
    networkRows(job, m_network);
}

long GradientModel::pass(const Eigen::VectorXd& x, const FeatureRows& X, const Eigen::VectorXd& y,
                         RecordFactors& out, Eigen::VectorXd* loss, const ClippedSum* sum) {
    if (m_model == ModelKind::Mlp) {
        NetworkRows job = networkJob(x, X);
        job.y = y.data();
        job.loss = loss ? loss->data() : nullptr;
        job.r = out.scoreGradient.data();
        job.hidden = out.hidden.data();
        job.delta = out.delta.data();
        job.leading = static_cast<long>(out.hidden.rows());
        if (sum) {
            if (sum->before) {
                job.rBefore = sum->before->scoreGradient.data();
                job.hiddenBefore = sum->before->hidden.data();
                job.deltaBefore = sum->before->delta.data();
            }
            job.inputNormsSquared = sum->inputNormsSquared->data();
            job.weight = sum->weight->data();
            job.bound = sum->bound;
            job.norms = sum->norms->data();
            job.coef = sum->coef->data();
            job.agg = sum->agg->data();
        }
        return networkRows(job, m_network);
    }
    Eigen::VectorXd& scoreOut = m_linearScores;
    scores(x, X, scoreOut);
    Eigen::VectorXd& r = out.scoreGradient;
    // ℓ and ∂ℓ/∂score per record: ½(s − y)², or the logistic loss log(1 + e^s) − y·s.
    if (m_loss == LossKind::Squared) {
        r = scoreOut - y;
        if (loss) *loss = 0.5 * r.array().square();
    } else {
        // softplus(s) into the loss buffer (or scratch), sigmoid(s) into r; then subtract.
        Eigen::VectorXd& softplusOfScore = loss ? *loss : m_weightedScoreGradient;
        vector_math::softplusAndSigmoid(scoreOut.data(), static_cast<long>(scoreOut.size()),
                                        m_outputExp.data(), m_outputOnePlusExp.data(),
                                        softplusOfScore.data(), r.data());
        r -= y;
        if (loss) loss->array() -= y.array() * scoreOut.array();
    }
    return sum ? linearClippedSum(out, X, *sum) : 0;
}

long GradientModel::linearClippedSum(const RecordFactors& now, const FeatureRows& X,
                                     const ClippedSum& sum) {
    // g_i = r_i·[x_i, 1]: its norm is |r_i − r'_i|·√(‖x_i‖² + 1).
    const Eigen::Index d = m_features;
    Eigen::VectorXd& norms = *sum.norms;
    Eigen::VectorXd& coef = *sum.coef;
    Eigen::VectorXd& agg = *sum.agg;
    Eigen::VectorXd& difference = m_weightedScoreGradient;
    if (sum.before)
        difference = now.scoreGradient - sum.before->scoreGradient;
    else
        difference = now.scoreGradient;
    norms.array() = (difference.array().square() * sum.inputNormsSquared->array()).sqrt();
    const long clipped = clippedCoefficients(norms, sum.bound, *sum.weight, coef);
    difference.array() *= coef.array();
    agg.head(d).noalias() = X.transpose() * difference;
    agg(d) = difference.sum();
    return clipped;
}

void GradientModel::gradients(const Eigen::VectorXd& x, const FeatureRows& X,
                              const Eigen::VectorXd& y, Eigen::VectorXd& loss, Eigen::MatrixXd& G) {
    const Eigen::Index d = m_features;
    RecordFactors f;
    reserve(f, X.rows());
    pass(x, X, y, f, &loss);
    if (m_model == ModelKind::Linear) {
        for (Eigen::Index k = 0; k < d; ++k) G.col(k) = f.scoreGradient.cwiseProduct(X.col(k));
        G.col(d) = f.scoreGradient;
        return;
    }
    const Eigen::Index H = kHiddenUnits;
    for (Eigen::Index j = 0; j < H; ++j) {
        for (Eigen::Index k = 0; k < d; ++k)
            G.col(j * d + k) = f.delta.col(j).cwiseProduct(X.col(k));
        G.col(H * d + j) = f.delta.col(j);
        G.col(H * d + H + j) = f.scoreGradient.cwiseProduct(f.hidden.col(j));
    }
    G.col(H * d + 2 * H) = f.scoreGradient;
}

Eigen::VectorXd inputNormsSquared(const FeatureRows& X) {
    return (X.rowwise().squaredNorm().array() + 1.0).matrix();
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
    /// `y` holds the training rows' targets; `testDesign` the test rows' design matrix, shared by
    /// the runs trained together (needed by a linear classifier with test rows, else null).
    RoundReadouts(const RoundSettings& settings, LossKind loss, const DataSplit& data,
                  const Eigen::VectorXd& weight, const Eigen::VectorXd& y,
                  std::shared_ptr<const DesignMatrix> testDesign)
        : m_train(data.train),
          m_test(data.test),
          m_regression(data.train.isRegression()),
          m_weight(weight),
          m_y(y),
          m_ytest(regressionTargets(data.test)),
          m_model(settings.model, loss, data.train.features()),
          m_testModel(settings.model, loss, data.train.features()) {
        m_model.reserve(m_train.rows());
        m_model.reserve(m_factors, m_train.rows());
        m_testModel.reserve(m_test.rows());
        const Eigen::Index D = m_model.parameters();
        m_trainLoss.resize(m_train.rows());
        m_fullGradient.resize(D);
        m_testScores.resize(m_test.rows());
        if (!m_regression && settings.model == ModelKind::Linear && m_test.rows() > 0) {
            m_classModel = makeModelForClasses(2);
            m_testDesign = std::move(testDesign);
            m_testEvaluator = std::make_unique<Evaluator>(m_test, *m_testDesign, *m_classModel);
        }
    }

    /// The test MSE (regression) or error rate of iterate p; NaN without test rows.
    double testError(const Eigen::VectorXd& p) {
        if (m_test.rows() == 0) return kNaN;
        m_testModel.scores(p, m_test.X, m_testScores);
        if (m_regression)
            return (m_testScores - m_ytest).squaredNorm() / static_cast<double>(m_test.rows());
        long wrong = 0;
        for (Eigen::Index i = 0; i < m_testScores.size(); ++i) {
            if ((m_testScores(i) >= 0.0 ? 1.0 : 0.0) != m_ytest(i)) ++wrong;
        }
        return static_cast<double>(wrong) / static_cast<double>(m_test.rows());
    }

    /// ‖x_i‖² + 1 of the training rows (inputNormsSquared), computed at the first call: the
    /// network's rounds and the diagnostics' gradient read them.
    const Eigen::VectorXd& inputNorms() {
        if (m_inputNormsSquared.size() != m_train.rows())
            m_inputNormsSquared = inputNormsSquared(m_train.X);
        return m_inputNormsSquared;
    }

    /// The metrics of an evaluation at round r (training loss and ‖∇f‖² only as diagnostics).
    EpochMetrics measure(const Eigen::VectorXd& x, long r, int epoch, bool diagnostics,
                         const TrainConfig& config) {
        EpochMetrics m;
        m.epoch = epoch;
        m.step = r;
        m.violation = m.dpGap = m.eoGap = m.eoppGap = m.ermiHard = m.ermiSoft = kNaN;
        if (diagnostics) {
            if (m_norms.size() != m_train.rows()) {
                // Once per run, at its first evaluation with diagnostics.
                m_norms.resize(m_train.rows());
                m_coef.resize(m_train.rows());
            }
            // ∇f(x) = Σ_i weight_i·g_i: the records' weighted sum, unclipped.
            const ClippedSum gradient(nullptr, inputNorms(), kInf, m_weight, m_norms, m_coef,
                                      m_fullGradient);
            m_model.pass(x, m_train.X, m_y, m_factors, &m_trainLoss, &gradient);
            m.trainLoss = m.trainObjective = m_weight.dot(m_trainLoss);
            m.gradientNormSquared = m_fullGradient.squaredNorm();
        } else {
            m.trainLoss = m.trainObjective = kNaN;
        }
        m.testError = testError(x);
        if (m_testEvaluator && x.allFinite()) {
            m_testEvaluator->predict(asTheta(x));
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
            m_testEvaluator->predict(result.theta);
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
    const Eigen::VectorXd& m_y;
    const Eigen::VectorXd m_ytest;
    GradientModel m_model, m_testModel;
    RecordFactors m_factors;
    Eigen::VectorXd m_trainLoss, m_fullGradient, m_testScores;
    Eigen::VectorXd m_inputNormsSquared;  // see inputNorms()
    Eigen::VectorXd m_norms, m_coef;      // the diagnostics' gradient
    std::unique_ptr<Model> m_classModel;
    std::shared_ptr<const DesignMatrix> m_testDesign;
    std::unique_ptr<Evaluator> m_testEvaluator;
};

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

namespace {

/// One run of the rounds, driven round by round: alone (the MLP: its gradients from the
/// factors of one pass, GradientModel) or, for the linear model, in lockstep with other linear
/// runs on the same rows, which share each pass over the rows (SharedBatchProducts: every
/// record's score for all runs, then all runs' clipped sums). The linear model takes the shared
/// pass also alone, so a run's results do not depend on the runs beside it.
class RoundRun {
public:
    /// `testDesign`: see RoundReadouts.
    RoundRun(const std::string& algorithm, const RoundSettings& settings, const TrainConfig& config,
             const DataSplit& data, std::shared_ptr<const DesignMatrix> testDesign,
             TrainingObserver& observer, const CancelToken& cancel)
        : m_algorithm(algorithm),
          m_settings(settings),
          m_config(config),
          m_data(data),
          m_n(data.train.rows()),
          m_lossKind(data.train.isRegression() ? LossKind::Squared : LossKind::Logistic),
          m_isPrivate(config.isPrivate()),
          m_diagnostics(recordsDiagnostics(config)),
          // The round's loss is a diagnostic shown only as it goes (a sweep shows none).
          m_roundLossShown(m_diagnostics && observer.showsBatchLoss()),
          m_period(std::max(1L, settings.period)),
          // Not private: no noise and no clipping, i.e. plain gradient descent (the DIFF2
          // estimate then telescopes to the full gradient).
          m_fullClip(m_isPrivate ? settings.fullClip : kInf),
          m_clipRatio(m_isPrivate ? settings.clipRatio : kInf),
          m_silos(siloSizes(data.train)),
          m_calibration(calibrate(config.epsilon, config.delta, settings.rounds, m_period,
                                  m_silos.smallest, m_silos.silos, settings.split)),
          m_weight(recordWeights(data.train, m_silos)),
          m_y(regressionTargets(data.train)),
          m_model(settings.model, m_lossKind, data.train.features()),
          m_accountant(roundAccounting(m_calibration, m_silos, settings.rounds, m_period,
                                       config.delta, data.train.unitName)),
          m_noise(noiseStream(config, data.train, m_period)),
          m_readouts(settings, m_lossKind, data, m_weight, m_y, std::move(testDesign)),
          m_session(observer, cancel, "rounds") {
        // Everything the rounds touch, allocated once.
        const Eigen::Index D = m_model.parameters();
        m_x = m_model.initial(config.seed);
        m_xPrev = m_x;
        m_v = Eigen::VectorXd::Zero(D);
        m_agg.resize(D);
        if (settings.model == ModelKind::Mlp) {
            m_model.reserve(m_n);
            m_model.reserve(m_now, m_n);
            m_model.reserve(m_before, m_n);
            m_readouts.inputNorms();  // computed here, before the rounds
            m_loss.resize(m_n);
            m_norms.resize(m_n);
            m_coef.resize(m_n);
        } else {
            m_scoreGradient = Eigen::VectorXd::Zero(m_n);
            m_theta.resize(1, D);
        }
        if (m_isPrivate) {
            m_session.setEpsilonSoFar(
                [this](long rounds) { return m_accountant.after(rounds).epsilon; });
        }
        m_session.result().config = config;
        m_session.result().dataset = data.train.name;
    }

    /// Starts the next round; false when the run is over (all rounds, a stop, cancelled).
    bool startRound() {
        if (m_over || m_round >= m_settings.rounds || m_session.cancelled(m_round)) {
            m_over = true;
            return false;
        }
        ++m_round;
        m_restart = (m_round - 1) % m_period == 0;
        m_bound = m_restart ? m_fullClip : m_clipRatio * (m_x - m_xPrev).norm();
        m_roundLoss = 0.0;
        m_clippedNow = 0;
        return true;
    }

    /// The MLP's round: one pass, the records' clipped gradients (or gradient differences) from
    /// its factors.
    void factoredRound() {
        const FeatureMatrix& X = m_data.train.X;
        const ClippedSum sum(m_restart ? nullptr : &m_before, m_readouts.inputNorms(), m_bound,
                             m_weight, m_norms, m_coef, m_agg);
        m_clippedNow = m_model.pass(m_x, X, m_y, m_now, m_roundLossShown ? &m_loss : nullptr, &sum);
        if (m_roundLossShown) m_roundLoss = m_weight.dot(m_loss);
        std::swap(m_now, m_before);  // ∇ℓ(x_r) is next round's ∇ℓ(x_{r−1}): one pass per round
        finishRound(m_agg);
    }

    /// The linear model's parameters as one row (w, b), for the shared pass.
    const RowMatrix& theta() {
        m_theta.row(0) = m_x.transpose();
        return m_theta;
    }
    /// Record i's coefficient in this round's sum, from its score s = x̃_iᵀ(w, b): the clipped,
    /// weighted loss derivative r_i (restart) or difference r_i − r'_i, since the record's
    /// gradient is r_i·x̃_i and its norm |r_i|·‖x̃_i‖ (`inputNorm` = ‖x̃_i‖).
    double linearCoefficient(Eigen::Index i, double s, double inputNorm) {
        const double target = m_y(i);
        const double r = m_lossKind == LossKind::Squared ? s - target : sigmoid(s) - target;
        if (m_roundLossShown) {
            m_roundLoss +=
                m_weight(i) * (m_lossKind == LossKind::Squared ? 0.5 * (s - target) * (s - target)
                                                               : softplus(s) - target * s);
        }
        const double difference = m_restart ? r : r - m_scoreGradient(i);
        m_scoreGradient(i) = r;  // next round's r'_i
        double scale = m_weight(i) * difference;
        if (clipScale(std::abs(difference) * inputNorm, m_bound, scale)) ++m_clippedNow;
        return scale;
    }

    /// The rest of the round once its clipped sum `agg` is known: the release, the step, the
    /// report and the evaluation.
    void finishRound(const Eigen::VectorXd& agg) {
        const long r = m_round;
        const double noiseStd =
            m_restart ? m_calibration.sigma1 * m_fullClip : m_calibration.sigma2 * m_bound;
        if (m_restart)
            m_v = agg;
        else
            m_v += agg;
        m_clipped += m_clippedNow;
        m_seen += m_n;
        {
            // v = v_prev (released) + this round's weighted clipped sum: a replaced record moves
            // it by twice its clip times its weight, at most 2·clip/(nmin·P).
            const privacy::ReleaseSpec release = privacy::ReleaseSpec::gaussian(
                m_restart ? "full-gradient" : "gradient-difference",
                2.0 * m_bound /
                    (static_cast<double>(m_silos.smallest) * static_cast<double>(m_silos.silos)),
                m_isPrivate ? noiseStd : 0.0);
            privacy::releaseGaussian(release, m_v, m_noise);
        }
        m_xPrev = m_x;
        m_x.noalias() -= m_settings.step * m_v;

        StepInfo info;
        info.step = r;
        const long every = std::max<long>(kEvaluateEvery, m_config.evaluateEvery);
        info.epoch = static_cast<int>((r - 1) / every) + 1;
        info.batchRows = static_cast<long>(m_n);
        info.batchLoss = m_roundLossShown ? m_roundLoss : kNaN;
        bool stop = m_session.stepped(info);
        // Divergence is judged on the released iterate only: a stop decided on the exact
        // training loss would itself be a release of the private rows.
        // (‖x‖² overflowing is where the exact loss used to become infinite.)
        const bool diverged = !std::isfinite(m_x.squaredNorm());
        const long R = m_settings.rounds;
        if (RunSession::dueEvery(r, R, every) || diverged) {
            EpochMetrics m =
                m_readouts.measure(m_x, r, static_cast<int>(m_session.result().history.size()) + 1,
                                   m_diagnostics, m_config);
            m.clipFraction = clippedShare(m_clipped, m_seen, m_diagnostics);
            m_clipped = m_seen = 0;
            stop = m_session.evaluated(m) || stop;
        }
        if (diverged) {
            m_session.diverge("the iterate diverged at round " + std::to_string(r) +
                              ": the step η = " + formatNumber(m_settings.step) +
                              " is too large; lower it");
            m_over = true;
        } else if (m_session.stopRequested(stop, r, R)) {
            m_over = true;
        }
    }

    /// The released model (the last iterate), its read-outs and the privacy statement.
    RunResult finish() {
        RunResult& result = m_session.result();
        // The display metrics are post-processing of the released iterate, but are computed on
        // the private rows and are not released.
        m_readouts.finish(result, m_x, m_settings.model == ModelKind::Linear, m_session.diverged(),
                          m_config);
        result.trainLoss = result.history.empty() ? kNaN : result.history.back().trainLoss;
        result.theoryInputs = {{"parameters", static_cast<double>(m_model.parameters())},
                               {"records_per_silo_min", static_cast<double>(m_silos.smallest)},
                               {"silos", static_cast<double>(m_silos.silos)},
                               {"rounds", static_cast<double>(m_settings.rounds)}};
        if (!m_isPrivate) {
            result.privacy = privacy::nonPrivateReport(m_algorithm, result.steps);
            return m_session.finish();
        }
        describeRoundRun(result, m_accountant, m_algorithm, m_settings, m_calibration, m_silos,
                         m_data.train, m_diagnostics);
        return m_session.finish();
    }

private:
    /// Noise keyed like dp-gd's when T = 1: restart-period 1 IS dp-gd, so both draw the same
    /// noise (the settings that do not act when T = 1 are left out of the key).
    static RandomStream noiseStream(const TrainConfig& config, const Dataset& train, long period) {
        TrainConfig keyed = config;
        if (period == 1) {
            keyed.algorithm = "dp-gd";
            keyed.extra.erase("restart-period");
            keyed.extra.erase("difference-clip-ratio");
            keyed.extra.erase("noise-split");
        }
        return RunStreams(keyed, train).stream(streams::kNoise);
    }

    const std::string m_algorithm;
    const RoundSettings m_settings;
    const TrainConfig& m_config;
    const DataSplit& m_data;
    const Eigen::Index m_n;
    const LossKind m_lossKind;
    const bool m_isPrivate, m_diagnostics, m_roundLossShown;
    const long m_period;
    const double m_fullClip, m_clipRatio;
    const SiloSizes m_silos;
    const Calibration m_calibration;
    const Eigen::VectorXd m_weight, m_y;
    GradientModel m_model;
    const privacy::RunAccountant m_accountant;
    RandomStream m_noise;
    RoundReadouts m_readouts;
    RunSession m_session;

    Eigen::VectorXd m_x, m_xPrev, m_v, m_agg;
    // MLP: the records' gradient factors at x_r and x_(r−1), and per-record buffers.
    RecordFactors m_now, m_before;
    Eigen::VectorXd m_loss, m_norms, m_coef;
    // Linear: each record's r_i of the last round, and (w, b) as a row.
    Eigen::VectorXd m_scoreGradient;
    RowMatrix m_theta;

    long m_round = 0, m_clipped = 0, m_seen = 0, m_clippedNow = 0;
    bool m_restart = true, m_over = false;
    double m_bound = 0.0, m_roundLoss = 0.0;
};

/// Linear runs in lockstep: each round one pass over the rows in chunks, every chunk's scores
/// for all runs at once, each run's clipped coefficients, then every run's sum.
void runLinearTogether(const std::vector<RoundRun*>& runs, const Dataset& train) {
    const auto designPtr = sharedDesignMatrix(train.X, 0.0);
    const DesignMatrix& design = *designPtr;
    const long n = static_cast<long>(train.rows());
    std::vector<long> rows(static_cast<std::size_t>(n));
    std::iota(rows.begin(), rows.end(), 0L);
    SharedBatchProducts products(design, static_cast<int>(runs.size()));
    RowMatrix gradient(1, design.X().cols());
    Eigen::VectorXd agg(design.X().cols());
    std::vector<RoundRun*> active;
    active.reserve(runs.size());
    for (;;) {
        active.clear();
        for (RoundRun* run : runs) {
            if (run->startRound()) active.push_back(run);
        }
        if (active.empty()) return;
        const int columns = static_cast<int>(active.size());
        products.begin(columns);
        for (int c = 0; c < columns; ++c) products.setParameters(c, active[c]->theta());
        for (long c0 = 0; c0 < n; c0 += SharedBatchProducts::kChunkRows) {
            const long count = std::min(SharedBatchProducts::kChunkRows, n - c0);
            products.forward(rows, n, c0, count);
            for (int c = 0; c < columns; ++c) {
                for (long k = 0; k < count; ++k) {
                    const long i = c0 + k;
                    products.setCoefficient(
                        k, c,
                        active[c]->linearCoefficient(i, products.score(k, c), design.norms(i)));
                }
            }
            products.backward();
        }
        for (int c = 0; c < columns; ++c) {
            products.getGradient(c, gradient);
            agg = gradient.row(0).transpose();
            active[c]->finishRound(agg);
        }
    }
}

}  // namespace

namespace {

/// Runs of `configs` (with `settings`) on `data`: the linear model's in lockstep sharing each
/// pass over the rows (a run alone is a group of one), the network's one after another; results
/// in their order.
std::vector<RunResult> trainRuns(const std::string& algorithm,
                                 const std::vector<RoundSettings>& settings,
                                 const std::vector<const TrainConfig*>& configs,
                                 const DataSplit& data,
                                 const std::vector<TrainingObserver*>& observers,
                                 const CancelToken& cancel) {
    std::vector<std::unique_ptr<RoundRun>> group;
    std::vector<RoundRun*> linear;
    // One copy of the test rows' design matrix for all linear classifiers (each run's own would
    // multiply memory; nothing else reads it).
    bool linearClassifier = false;
    for (const RoundSettings& s : settings) linearClassifier |= s.model == ModelKind::Linear;
    linearClassifier = linearClassifier && !data.train.isRegression() && data.test.rows() > 0;
    const std::shared_ptr<const DesignMatrix> testDesign =
        linearClassifier ? sharedDesignMatrix(data.test.X, 0.0) : nullptr;
    for (std::size_t k = 0; k < configs.size(); ++k) {
        group.push_back(std::make_unique<RoundRun>(algorithm, settings[k], *configs[k], data,
                                                   testDesign, *observers[k], cancel));
        if (settings[k].model == ModelKind::Linear) linear.push_back(group.back().get());
    }
    if (!linear.empty()) runLinearTogether(linear, data.train);
    std::vector<RunResult> results;
    for (std::size_t k = 0; k < group.size(); ++k) {
        if (settings[k].model == ModelKind::Mlp) {
            while (group[k]->startRound()) group[k]->factoredRound();
        }
        results.push_back(group[k]->finish());
    }
    return results;
}

}  // namespace

RunResult runRounds(const std::string& algorithm, const RoundSettings& settings,
                    const TrainConfig& config, const DataSplit& data, TrainingObserver& observer,
                    const CancelToken& cancel) {
    return trainRuns(algorithm, {settings}, {&config}, data, {&observer}, cancel).front();
}

std::vector<RunResult> runRoundsTogether(const std::string& algorithm,
                                         const std::vector<RoundSettings>& settings,
                                         const std::vector<PreparedConfig>& runs,
                                         const DataSplit& data,
                                         const std::vector<TrainingObserver*>& observers,
                                         const CancelToken& cancel) {
    std::vector<const TrainConfig*> configs;
    for (const PreparedConfig& run : runs) configs.push_back(&run.config());
    return trainRuns(algorithm, settings, configs, data, observers, cancel);
}

RunResult RoundsAlgorithm::run(const PreparedConfig& prepared, const DataSplit& data,
                               TrainingObserver& observer, const CancelToken& cancel) const {
    return runRounds(name(), settingsOf(prepared.config()), prepared.config(), data, observer,
                     cancel);
}

std::string RoundsAlgorithm::togetherKey(const TrainConfig& config, const Dataset&) const {
    // Full-batch rounds read every row in every round with no sampling: runs of the linear model
    // on the same rows share the pass whatever their seed, ε, step or clips.
    return settingsOf(config).model == ModelKind::Linear ? "full-batch-linear" : "";
}

std::vector<RunResult> RoundsAlgorithm::runTogether(const std::vector<PreparedConfig>& runs,
                                                    const DataSplit& data,
                                                    const std::vector<TrainingObserver*>& observers,
                                                    const CancelToken& cancel) const {
    std::vector<RoundSettings> settings;
    for (const PreparedConfig& run : runs) settings.push_back(settingsOf(run.config()));
    return runRoundsTogether(name(), settings, runs, data, observers, cancel);
}

}  // namespace pfa::diff2
