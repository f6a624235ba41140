#include "core/algorithms/linear_sgd/linear_dp_sgd.h"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/config/own_setting.h"
#include "core/config/parameters.h"
#include "core/data/linear_gaussian.h"
#include "core/data/row_key.h"
#include "core/engine/batch_sampler.h"
#include "core/engine/clipping.h"
#include "core/engine/evaluator.h"
#include "core/engine/private_run_report.h"
#include "core/engine/run_session.h"
#include "core/privacy/noisy_release.h"
#include "core/privacy/run_accountant.h"
#include "core/util/format.h"

namespace pfa {

namespace {

// The own settings this file reads (checked against the declarations at start).
const OwnNumber kDomainRadius{"domain-radius"};

/// The residual xᵀw + b − y of one row (w: d weights, bias last).
double residualOf(const Dataset& train, const Eigen::VectorXd& y, long row,
                  const Eigen::VectorXd& w) {
    const Eigen::Index d = train.features();
    return train.X.row(row).dot(w.head(d)) + w(d) - y(row);
}

/// Adds `scale`·(x, 1) of row `row` to `g`.
void addRow(const Dataset& train, long row, double scale, Eigen::VectorXd& g) {
    const Eigen::Index d = train.features();
    g.head(d).noalias() += scale * train.X.row(row).transpose();
    g(d) += scale;
}

/// The private rows' step: a Poisson batch (rate q) of their squared-loss gradients, each
/// clipped to C, summed, normalised by the expected batch and released with Gaussian noise.
class PrivateBatches {
public:
    /// `squaredNorms`: ‖(x_i, 1)‖² of every training row (rowSquaredNorms).
    PrivateBatches(const LinearSgdSetup& s, const Dataset& train, const Eigen::VectorXd& y,
                   const Eigen::VectorXd& squaredNorms)
        : m_s(s),
          m_train(train),
          m_y(y),
          m_squaredNorms(squaredNorms),
          m_batch(s.privateRows.size()),
          m_logOneMinusQ(s.samplingRate >= 1.0 ? -INFINITY : std::log1p(-s.samplingRate)),
          // One private row moves the normalised clipped sum by C/b (twice that when replaced).
          m_release(privacy::ReleaseSpec::gaussian(
              "private-gradient", (s.replaceAdjacency ? 2.0 : 1.0) * s.clip / s.expectedBatch,
              s.sigma)) {}

    /// The released noisy gradient at `w` into `gp`; the batch's rows, loss and clipped rows
    /// are added to the counters.
    void gradient(const Eigen::VectorXd& w, LinearSgdStreams& streams, Eigen::VectorXd& gp,
                  long& rows, double& loss, long& clipped) {
        const long nPrivate = static_cast<long>(m_s.privateRows.size());
        gp.setZero();
        long drawn = 0;
        drawPoisson(streams.sampling, m_logOneMinusQ, nPrivate,
                    [&](long position) { m_batch[static_cast<std::size_t>(drawn++)] = position; });
        privacy::observeBatch({"private-rows", nPrivate, m_s.samplingRate}, m_batch, drawn);
        for (long k = 0; k < drawn; ++k) {
            const long row =
                m_s.privateRows[static_cast<std::size_t>(m_batch[static_cast<std::size_t>(k)])];
            const double residual = residualOf(m_train, m_y, row, w);
            double scale = 2.0 * residual;
            const double norm = std::abs(scale) * std::sqrt(m_squaredNorms(row));
            clipped += clipScale(norm, m_s.clip, scale);
            addRow(m_train, row, scale, gp);
            loss += residual * residual;
            ++rows;
        }
        gp /= m_s.expectedBatch;
        privacy::releaseGaussian(m_release, gp, streams.noise);
    }

private:
    const LinearSgdSetup& m_s;
    const Dataset& m_train;
    const Eigen::VectorXd& m_y;
    const Eigen::VectorXd& m_squaredNorms;
    std::vector<long> m_batch;
    double m_logOneMinusQ;
    privacy::ReleaseSpec m_release;
};

/// The public rows' step: K rows a step from reshuffled passes over the public rows (no
/// privacy cost), their gradients (normalised to norm C when asked) averaged.
class PublicBatches {
public:
    PublicBatches(const LinearSgdSetup& s, const Dataset& train, const Eigen::VectorXd& y,
                  const Eigen::VectorXd& squaredNorms)
        : m_s(s),
          m_train(train),
          m_y(y),
          m_squaredNorms(squaredNorms),
          m_order(s.publicRows),
          m_next(m_order.size()) {}

    /// The mean public gradient at `w` into `gq`; returns the mean squared norm of the rows'
    /// gradients (for the automatic weight).
    double gradient(const Eigen::VectorXd& w, RandomStream& sampling, Eigen::VectorXd& gq) {
        gq.setZero();
        double squaredNorms = 0.0;
        for (long j = 0; j < m_s.publicBatch; ++j) {
            if (m_next >= m_order.size()) {
                for (std::size_t i = m_order.size() - 1; i > 0; --i)
                    std::swap(m_order[i], m_order[sampling.uniformIndex(i + 1)]);
                m_next = 0;
            }
            const long row = m_order[m_next++];
            double scale = 2.0 * residualOf(m_train, m_y, row, w);
            if (m_s.normalisePublic) {
                const double norm = std::abs(scale) * std::sqrt(m_squaredNorms(row));
                scale = norm > 0.0 ? scale * m_s.publicScale / norm : 0.0;
            }
            squaredNorms += scale * scale * m_squaredNorms(row);
            addRow(m_train, row, scale, gq);
        }
        const double k = static_cast<double>(m_s.publicBatch);
        gq /= k;
        return squaredNorms / k;
    }

private:
    const LinearSgdSetup& m_s;
    const Dataset& m_train;
    const Eigen::VectorXd& m_y;
    const Eigen::VectorXd& m_squaredNorms;
    std::vector<long> m_order;
    std::size_t m_next;  ///< reshuffled before first use
};

}  // namespace

double autoAlpha(double spread, double privateBatch, double publicBatch, double dimension,
                 double sigma) {
    if (!(publicBatch > 0.0)) return 1.0;
    const double publicVariance = spread / publicBatch;
    const double denominator = spread / privateBatch + dimension * sigma * sigma + publicVariance;
    // All public gradients equal and no noise: either weight is exact; keep the private one.
    if (!(denominator > 0.0)) return 1.0;
    return publicVariance / denominator;
}

Eigen::VectorXd leastSquaresOnRows(const Dataset& train, const std::vector<long>& rows) {
    const Eigen::Index d = train.features();
    Eigen::VectorXd w = Eigen::VectorXd::Zero(d + 1);
    if (rows.empty()) return w;
    const Eigen::VectorXd y = regressionTargets(train);
    Eigen::MatrixXd A(static_cast<Eigen::Index>(rows.size()), d + 1);
    Eigen::VectorXd b(A.rows());
    for (Eigen::Index i = 0; i < A.rows(); ++i) {
        const long row = rows[static_cast<std::size_t>(i)];
        A.row(i).head(d) = train.X.row(row);
        A(i, d) = 1.0;
        b(i) = y(row);
    }
    // Minimum-norm solution: also defined when there are fewer rows than coefficients.
    return A.completeOrthogonalDecomposition().solve(b);
}

PublicPrivateRows splitPublicRows(const Dataset& train, double share, std::uint64_t seed) {
    PublicPrivateRows out;
    for (Eigen::Index row = 0; row < train.rows(); ++row) {
        // The row's own key (its raw values) decides: no other row moves it.
        const bool isPublic = share > 0.0 && rowUniform(rowKey(train, row), seed) < share;
        (isPublic ? out.publicRows : out.privateRows).push_back(static_cast<long>(row));
    }
    return out;
}

RunResult runLinearSgd(const LinearSgdSetup& s, const DataSplit& data, LinearSgdStreams streams,
                       const std::function<double(long)>& epsilonAfter, TrainingObserver& observer,
                       const CancelToken& cancel) {
    const Dataset& train = data.train;
    const Eigen::Index d = train.features();
    const Eigen::VectorXd y = regressionTargets(train);
    const long nPrivate = static_cast<long>(s.privateRows.size());
    const long nPublic = static_cast<long>(s.publicRows.size());
    const bool autoWeight = std::isnan(s.alpha);
    // α = 1 never reads a public row, α = 0 never reads a private row.
    const bool usePublic = nPublic > 0 && s.publicBatch > 0 && (autoWeight || s.alpha < 1.0);
    const bool usePrivate = !usePublic || autoWeight || s.alpha > 0.0;

    // Everything the steps touch is allocated here, once.
    Eigen::VectorXd w = s.start.size() == d + 1 ? s.start : Eigen::VectorXd::Zero(d + 1);
    Eigen::VectorXd average = w, gp(d + 1), gq(d + 1);
    // ‖(x_i, 1)‖² of every row once, not per row per step (each step's clip reads it).
    Eigen::VectorXd squaredNorms(train.rows());
    for (Eigen::Index i = 0; i < train.rows(); ++i)
        squaredNorms(i) = train.X.row(i).squaredNorm() + 1.0;
    PrivateBatches privateBatches(s, train, y, squaredNorms);
    PublicBatches publicBatches(s, train, y, squaredNorms);

    RunSession session(observer, cancel);
    session.setEpsilonSoFar(epsilonAfter);
    RunResult& result = session.result();
    result.dataset = train.name;
    long clipped = 0, seen = 0;
    double alphaSum = 0.0;
    long alphaSteps = 0;
    for (long t = 0; t < s.steps; ++t) {
        if (session.cancelled(t)) break;
        long batchRows = 0;
        double batchLoss = 0.0;
        if (usePrivate) {
            long rows = 0;
            privateBatches.gradient(w, streams, gp, rows, batchLoss, clipped);
            batchRows += rows;
            seen += rows;
        }
        if (usePublic) {
            const double meanSquaredNorm = publicBatches.gradient(w, streams.publicSampling, gq);
            const double k = static_cast<double>(s.publicBatch);
            double alpha = s.alpha;
            if (autoWeight) {
                // V² = mean_j ‖h_j − gq‖² = mean_j ‖h_j‖² − ‖gq‖² (public rows only: no privacy
                // cost).
                const double spread = std::max(0.0, meanSquaredNorm - gq.squaredNorm());
                // Per run: the public rows are reused every step, so their error does not average
                // out over the steps while the private noise does (σ²/T on the run's average).
                alpha = s.runLevelWeight
                            ? autoAlpha(spread, static_cast<double>(nPrivate),
                                        static_cast<double>(nPublic), static_cast<double>(d + 1),
                                        s.sigma / std::sqrt(static_cast<double>(s.steps)))
                            : autoAlpha(spread, s.expectedBatch, k, static_cast<double>(d + 1),
                                        s.sigma);
            }
            alphaSum += alpha;
            ++alphaSteps;
            if (usePrivate) {
                gp *= alpha;
                gp.noalias() += (1.0 - alpha) * gq;
            } else {
                gp = gq;
            }
        } else {
            alphaSum += 1.0;
            ++alphaSteps;
        }
        w.noalias() -= s.learningRate * gp;
        if (std::isfinite(s.radius)) {
            const double norm = w.norm();
            if (norm > s.radius) w *= s.radius / norm;
        }
        if (s.averageIterates)
            average += (4.0 / (static_cast<double>(t + 1) + 3.0)) * (w - average);

        StepInfo info;
        info.step = t + 1;
        info.epoch = static_cast<int>(t / s.stepsPerEpoch) + 1;
        info.batchRows = batchRows;
        info.batchLoss = batchRows > 0 ? batchLoss / static_cast<double>(batchRows) : 0.0;
        bool stop = session.stepped(info);
        const bool diverged = !w.allFinite();
        if ((t + 1) % s.stepsPerEpoch == 0 || t + 1 == s.steps || diverged) {
            const Eigen::VectorXd& reported = s.averageIterates ? average : w;
            EpochMetrics m;
            m.epoch = static_cast<int>(result.history.size()) + 1;
            m.step = t + 1;
            // Training-set diagnostic (private rows included): only when recorded.
            m.trainLoss = s.diagnostics ? evaluateRegression(train, reported).testMse : NAN;
            m.trainObjective = m.trainLoss;
            m.testError = evaluateRegression(data.test, reported).testMse;
            if (std::isfinite(s.optimalMse)) m.excessRisk = m.testError - s.optimalMse;
            m.violation = m.dpGap = m.eoGap = m.eoppGap = m.ermiHard = m.ermiSoft = NAN;
            m.clipFraction = clippedShare(clipped, seen, s.diagnostics);
            clipped = seen = 0;
            stop = session.evaluated(m) || stop;
        }
        if (diverged) {
            session.diverge("the iterate is no longer finite after step " + std::to_string(t + 1) +
                            ": the step size " + formatNumber(s.learningRate) +
                            " is too large; lower lr-theta");
            break;
        }
        if (session.stopRequested(stop, t + 1, s.steps)) break;
    }

    const Eigen::VectorXd reported = s.averageIterates ? average : w;
    result.theta = RowMatrix(1, d + 1);
    result.theta.row(0) = reported.transpose();
    result.regression = evaluateRegression(data.test, reported);
    result.regression.known = true;
    result.test =
        fairnessNotApplicable(static_cast<long>(data.test.rows()), result.regression.testMse);
    result.trainLoss = s.diagnostics ? evaluateRegression(train, reported).testMse : NAN;
    result.theoryInputs["alpha_mean"] =
        alphaSteps > 0 ? alphaSum / static_cast<double>(alphaSteps) : 1.0;
    return session.finish();
}

LinearSgdPlan planLinearSgd(const TrainConfig& config, const Dataset& train,
                            PublicPrivateRows rows) {
    LinearSgdPlan plan;
    LinearSgdSetup& s = plan.setup;
    s.privateRows = std::move(rows.privateRows);
    s.publicRows = std::move(rows.publicRows);
    const long nPrivate = static_cast<long>(s.privateRows.size());
    const long b = std::min<long>(config.batchSize, std::max(1L, nPrivate));
    s.samplingRate = nPrivate > 0 ? static_cast<double>(b) / static_cast<double>(nPrivate) : 1.0;
    s.expectedBatch = static_cast<double>(b);
    s.stepsPerEpoch = std::max(1L, (nPrivate + b - 1) / b);
    s.steps = static_cast<long>(config.epochs) * s.stepsPerEpoch;
    s.learningRate = config.lrTheta;
    s.replaceAdjacency = config.adjacency == privacy::Adjacency::Replace;
    s.diagnostics = recordsDiagnostics(config);
    s.radius = kDomainRadius(config);
    s.averageIterates = config.averaging == IterateAveraging::PolynomialDecay;
    s.optimalMse = linearGaussianOptimalMse(train);

    privacy::AccountingInputs& in = plan.accounting;
    in.unit = train.unitName;
    in.adjacency = config.adjacency;
    in.kind = config.adjacency == privacy::Adjacency::Replace
                  ? privacy::ReleaseKind::PoissonReplace
                  : privacy::ReleaseKind::PoissonSubsampled;
    in.samplingRate = s.samplingRate;
    in.sensitivity = "C (clip norm of one private row's gradient)";
    in.stepsPerRelease = 1;
    in.steps = s.steps;
    in.delta = config.delta;
    if (config.isPrivate() && nPrivate > 0) {
        s.clip = config.clipTheta;
        const double z = privacy::solveNoiseMultiplierFor(in, 1.0, config.epsilon);
        in.noiseMultiplier = z;
        s.sigma = z * s.clip / s.expectedBatch;
        s.publicScale = s.clip;
    } else {
        s.clip = std::numeric_limits<double>::infinity();
        s.sigma = 0.0;
        s.publicScale = config.clipTheta;
        in.kind = privacy::ReleaseKind::NoRelease;
    }
    return plan;
}

void describeLinearSgdRun(RunResult& result, const LinearSgdPlan& plan, const Dataset& train,
                          const std::string& algorithm, const std::string& protectedRows) {
    const privacy::RunAccountant accountant(plan.accounting);
    describePrivateRun(result, accountant, train);
    privacy::PrivacyReport& report = result.privacy;
    const LinearSgdSetup& s = plan.setup;
    const bool releases = plan.accounting.kind != privacy::ReleaseKind::NoRelease;
    report.algorithm = algorithm;
    report.adjacency =
        plan.accounting.adjacency == privacy::Adjacency::Replace ? "replace-one" : "add/remove-one";
    report.protectedData = protectedRows;
    if (releases) {
        report.calibration =
            "noise multiplier z = " + formatNumber(plan.accounting.noiseMultiplier) +
            ", the smallest z the RDP accountant finds within the budget ε";
        report.mechanism =
            plan.accounting.adjacency == privacy::Adjacency::Replace
                ? "Poisson-subsampled Gaussian, replace-one via the group-of-two bound"
                : "Poisson-subsampled Gaussian, signed series";
        report.sampling = "Poisson: each private row joins a step with probability q = " +
                          formatNumber(s.samplingRate);
        report.samplingRate = s.samplingRate;
        report.expectedBatch = static_cast<long>(s.expectedBatch);
        report.noiseMultiplier = report.noiseMultiplierTheta = plan.accounting.noiseMultiplier;
        report.sigmaTheta = s.sigma;
        report.clipTheta = s.clip;
        report.clipDescription = "C = " + formatNumber(s.clip) +
                                 " per private row (squared-loss gradient, intercept included)";
    } else {
        report.calibration = "none needed: no private row is read";
        report.mechanism = "no release that depends on the private rows";
        report.sampling = "none";
    }
    report.statement = privacy::renderPrivacyStatement(report, "", "");
}

ParamSpec domainRadiusParameter() {
    return declare("domain-radius", "Domain radius D", ParamKind::Real,
                   "iterates are projected onto the ball of radius D around 0 (inf: none)")
        .above(0.0)
        .defaultValue("inf")
        .sweepable();
}

}  // namespace pfa
