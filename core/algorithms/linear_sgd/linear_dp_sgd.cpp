#include "core/algorithms/linear_sgd/linear_dp_sgd.h"

#include <Eigen/QR>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "core/config/own_setting.h"
#include "core/config/parameters.h"
#include "core/data/linear_gaussian.h"
#include "core/data/row_key.h"
#include "core/engine/batch_sampler.h"
#include "core/engine/clipping.h"
#include "core/engine/design_matrix.h"
#include "core/engine/evaluator.h"
#include "core/engine/linear_rows.h"
#include "core/engine/private_run_report.h"
#include "core/engine/run_session.h"
#include "core/engine/run_streams.h"
#include "core/engine/shared_batch_products.h"
#include "core/privacy/noisy_release.h"
#include "core/privacy/run_accountant.h"
#include "core/util/format.h"
#include "core/util/recent_results.h"

namespace pfa {

namespace {

// The own settings this file reads (checked against the declarations at start).
const OwnNumber kDomainRadius{"domain-radius"};

/// Rows of a batch read together: their features stay in the first-level cache between the
/// pass that scores them and the pass that adds their clipped gradients.
constexpr long kChunkRows = 8;

/// The training rows' features as the batch loops read them.
LinearRows linearRowsOf(const Dataset& train) {
    return {train.X.data(), static_cast<long>(train.X.outerStride()),
            static_cast<long>(train.features())};
}

/// Requests the features, targets and squared norms of rows[0 … count − 1] ahead of their use.
void prefetchTrainingRows(const Dataset& train, const Eigen::VectorXd& y,
                          const Eigen::VectorXd& squaredNorms, const long* rows, long count) {
    for (long k = 0; k < count; ++k) {
        prefetchRow(train.X.withBias(), rows[k]);
        __builtin_prefetch(y.data() + rows[k]);
        __builtin_prefetch(squaredNorms.data() + rows[k]);
    }
}

/// The squared-loss gradients of a batch's rows rows[0 … count − 1] at w (d weights, bias
/// last), kChunkRows at a time: each row's residual xᵀw + b − y (linearRowScores), then
/// `scaleOf(k, residual)` gives its gradient's scale s_k (clipped or normalised by the caller),
/// and g += s_k·(x_k, 1) in batch order. `scales` holds at least `count` values.
template <typename ScaleOf>
void addBatchGradients(const Dataset& train, const Eigen::VectorXd& y,
                       const Eigen::VectorXd& squaredNorms, const long* rows, long count,
                       const Eigen::VectorXd& w, double* scales, Eigen::VectorXd& g,
                       ScaleOf&& scaleOf) {
    const LinearRows X = linearRowsOf(train);
    const Eigen::Index d = train.features();
    prefetchTrainingRows(train, y, squaredNorms, rows, std::min(count, kChunkRows));
    for (long c0 = 0; c0 < count; c0 += kChunkRows) {
        const long m = std::min(kChunkRows, count - c0);
        const long next = c0 + m;
        prefetchTrainingRows(train, y, squaredNorms, rows + next,
                             std::min(kChunkRows, count - next));
        double* chunkScales = scales + c0;
        linearRowScores(X, rows + c0, m, w.data(), chunkScales);
        for (long k = 0; k < m; ++k) {
            const long row = rows[c0 + k];
            const double residual = chunkScales[k] + w(d) - y(row);
            chunkScales[k] = scaleOf(c0 + k, residual);
        }
        addScaledRows(X, rows + c0, m, chunkScales, g.data());
        for (long k = 0; k < m; ++k) g(d) += chunkScales[k];
    }
}

/// Which rows a run reads: α = 1 never reads a public row, α = 0 never reads a private row.
struct RowsRead {
    bool usePrivate = true, usePublic = false;
};
RowsRead rowsRead(const LinearSgdSetup& s) {
    const bool autoWeight = std::isnan(s.alpha);
    RowsRead read;
    read.usePublic = !s.publicRows.empty() && s.publicBatch > 0 && (autoWeight || s.alpha < 1.0);
    read.usePrivate = !read.usePublic || autoWeight || s.alpha > 0.0;
    return read;
}

/// One step from the private estimate `gp` (released) and, for a run that mixes public rows
/// in, the public mean `gq` with the mean squared norm of the public rows' gradients:
/// g = α gp + (1 − α) gq (α fixed or automatic; `gp` becomes g), w ← w − η g, projected onto
/// the ball, the average updated. Returns the α used (1 without public rows). The loop of a
/// run alone and that of runs together take their steps here.
double takeStep(const LinearSgdSetup& s, bool usePrivate, bool usePublic, Eigen::VectorXd& gp,
                const Eigen::VectorXd& gq, double publicMeanSquaredNorm, long t, Eigen::VectorXd& w,
                Eigen::VectorXd& average) {
    double alpha = 1.0;
    if (usePublic) {
        const double k = static_cast<double>(s.publicBatch);
        const double dimension = static_cast<double>(w.size());
        alpha = s.alpha;
        if (std::isnan(alpha)) {
            // V² = mean_j ‖h_j − gq‖² = mean_j ‖h_j‖² − ‖gq‖² (public rows only: no privacy
            // cost).
            const double spread = std::max(0.0, publicMeanSquaredNorm - gq.squaredNorm());
            // Per run: the public rows are reused every step, so their error does not average
            // out over the steps while the private noise does (σ²/T on the run's average).
            alpha = s.runLevelWeight
                        ? autoAlpha(spread, s.privateRowsForWeight,
                                    static_cast<double>(s.publicRows.size()), dimension,
                                    s.sigma / std::sqrt(static_cast<double>(s.steps)))
                        : autoAlpha(spread, s.expectedBatch, k, dimension, s.sigma);
        }
        if (usePrivate) {
            gp *= alpha;
            gp.noalias() += (1.0 - alpha) * gq;
        } else {
            gp = gq;
        }
    }
    w.noalias() -= s.learningRate * gp;
    if (std::isfinite(s.radius)) {
        const double norm = w.norm();
        if (norm > s.radius) w *= s.radius / norm;
    }
    if (s.averageIterates) average += (4.0 / (static_cast<double>(t + 1) + 3.0)) * (w - average);
    return alpha;
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
          m_rows(s.privateRows.size()),
          m_scales(s.privateRows.size()),
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
        for (long k = 0; k < drawn; ++k)
            m_rows[static_cast<std::size_t>(k)] =
                m_s.privateRows[static_cast<std::size_t>(m_batch[static_cast<std::size_t>(k)])];
        addBatchGradients(m_train, m_y, m_squaredNorms, m_rows.data(), drawn, w, m_scales.data(),
                          gp, [&](long k, double residual) {
                              double scale = 2.0 * residual;
                              const double norm =
                                  std::abs(scale) *
                                  std::sqrt(m_squaredNorms(m_rows[static_cast<std::size_t>(k)]));
                              clipped += clipScale(norm, m_s.clip, scale);
                              loss += residual * residual;
                              return scale;
                          });
        rows += drawn;
        gp /= m_s.expectedBatch;
        privacy::releaseGaussian(m_release, gp, streams.noise);
    }

private:
    const LinearSgdSetup& m_s;
    const Dataset& m_train;
    const Eigen::VectorXd& m_y;
    const Eigen::VectorXd& m_squaredNorms;
    std::vector<long> m_batch;     ///< the drawn positions in privateRows
    std::vector<long> m_rows;      ///< their rows
    std::vector<double> m_scales;  ///< their gradients' scales
    double m_logOneMinusQ;
    privacy::ReleaseSpec m_release;
};

/// The public rows in reshuffled passes: each pass a fresh Fisher–Yates permutation of the
/// previous one (drawn from the stream given), the rows handed out one by one.
class PublicRowOrder {
public:
    explicit PublicRowOrder(std::vector<long> publicRows)
        : m_order(std::move(publicRows)), m_next(m_order.size()) {}

    /// The next public row (a new pass reshuffles first; the first call starts one).
    long next(RandomStream& sampling) {
        if (m_next >= m_order.size()) {
            for (std::size_t i = m_order.size() - 1; i > 0; --i)
                std::swap(m_order[i], m_order[sampling.uniformIndex(i + 1)]);
            m_next = 0;
        }
        return m_order[m_next++];
    }

private:
    std::vector<long> m_order;
    std::size_t m_next;  ///< m_order.size(): reshuffled before the next row
};

/// Public rows a step reads at a time (the buffers' size, whatever the public batch K).
constexpr long kPublicPiece = 1024;

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
          m_rows(static_cast<std::size_t>(std::clamp(s.publicBatch, 0L, kPublicPiece))),
          m_scales(m_rows.size()) {}

    /// The mean public gradient at `w` into `gq`; returns the mean squared norm of the rows'
    /// gradients (for the automatic weight).
    double gradient(const Eigen::VectorXd& w, RandomStream& sampling, Eigen::VectorXd& gq) {
        gq.setZero();
        double squaredNorms = 0.0;
        // The batch in pieces of at most kPublicPiece rows (a batch may be larger than the public
        // rows, which it then cycles through): the same rows in the same order as one piece.
        for (long first = 0; first < m_s.publicBatch; first += kPublicPiece) {
            const long count = std::min(kPublicPiece, m_s.publicBatch - first);
            for (long j = 0; j < count; ++j)
                m_rows[static_cast<std::size_t>(j)] = m_order.next(sampling);
            addBatchGradients(m_train, m_y, m_squaredNorms, m_rows.data(), count, w,
                              m_scales.data(), gq, [&](long k, double residual) {
                                  const double rowSquaredNorm =
                                      m_squaredNorms(m_rows[static_cast<std::size_t>(k)]);
                                  double scale = 2.0 * residual;
                                  if (m_s.normalisePublic) {
                                      const double norm =
                                          std::abs(scale) * std::sqrt(rowSquaredNorm);
                                      scale = norm > 0.0 ? scale * m_s.publicScale / norm : 0.0;
                                  }
                                  squaredNorms += scale * scale * rowSquaredNorm;
                                  return scale;
                              });
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
    PublicRowOrder m_order;
    std::vector<long> m_rows;      ///< a step's public rows
    std::vector<double> m_scales;  ///< their gradients' scales
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

namespace {

/// leastSquaresOnRows itself (rows not empty).
Eigen::VectorXd solveLeastSquaresOnRows(const Dataset& train, const std::vector<long>& rows) {
    const Eigen::Index d = train.features();
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

}  // namespace

Eigen::VectorXd leastSquaresOnRows(const Dataset& train, const std::vector<long>& rows) {
    if (rows.empty()) return Eigen::VectorXd::Zero(train.features() + 1);
    // Runs of a sweep on the same public rows (the warm start of each weight rule, the
    // public-only fit) solve it once: the same rows of the same data give the same fit.
    if (const std::uint64_t* fingerprint = KnownDataFingerprint::find(train)) {
        static RecentResults<std::pair<std::uint64_t, std::vector<long>>, Eigen::VectorXd> recent(
            16);
        return recent.get({*fingerprint, rows},
                          [&] { return solveLeastSquaresOnRows(train, rows); });
    }
    return solveLeastSquaresOnRows(train, rows);
}

namespace {

/// splitPublicRows itself.
PublicPrivateRows splitRows(const Dataset& train, double share, std::uint64_t seed) {
    PublicPrivateRows out;
    for (Eigen::Index row = 0; row < train.rows(); ++row) {
        // The row's own key (its raw values) decides: no other row moves it.
        const bool isPublic = share > 0.0 && rowUniform(rowKey(train, row), seed) < share;
        (isPublic ? out.publicRows : out.privateRows).push_back(static_cast<long>(row));
    }
    return out;
}

}  // namespace

PublicPrivateRows splitPublicRows(const Dataset& train, double share, std::uint64_t seed) {
    // The runs of a sweep with the same share and seed on the same rows (every weight rule,
    // every epsilon) split them once: the split reads nothing else.
    if (const std::uint64_t* fingerprint = KnownDataFingerprint::find(train)) {
        std::uint64_t shareBits = 0;
        std::memcpy(&shareBits, &share, sizeof shareBits);
        static RecentResults<std::array<std::uint64_t, 3>, PublicPrivateRows> recent(16);
        return recent.get({*fingerprint, shareBits, seed},
                          [&] { return splitRows(train, share, seed); });
    }
    return splitRows(train, share, seed);
}

namespace {

/// ‖(x_i, 1)‖² of every training row (each the features' squared norm plus one), once per run
/// rather than per row per step: each step's clip reads it. The runs of a sweep on the same rows
/// share one (the same rows give the same norms).
std::shared_ptr<const Eigen::VectorXd> rowSquaredNorms(const Dataset& train) {
    const auto compute = [&train] {
        auto norms = std::make_shared<Eigen::VectorXd>(train.rows());
        for (Eigen::Index i = 0; i < train.rows(); ++i)
            (*norms)(i) = train.X.row(i).squaredNorm() + 1.0;
        return std::shared_ptr<const Eigen::VectorXd>(std::move(norms));
    };
    if (const std::uint64_t* fingerprint = KnownDataFingerprint::find(train)) {
        static RecentResults<std::uint64_t, std::shared_ptr<const Eigen::VectorXd>> recent(4);
        return recent.get(*fingerprint, compute);
    }
    return compute();
}

}  // namespace

RunResult runLinearSgd(const LinearSgdSetup& s, const DataSplit& data, LinearSgdStreams streams,
                       const std::function<double(long)>& epsilonAfter, TrainingObserver& observer,
                       const CancelToken& cancel) {
    const Dataset& train = data.train;
    const Eigen::Index d = train.features();
    const Eigen::VectorXd y = regressionTargets(train);
    const auto [usePrivate, usePublic] = rowsRead(s);

    // Everything the steps touch is allocated here, once.
    Eigen::VectorXd w = s.start.size() == d + 1 ? s.start : Eigen::VectorXd::Zero(d + 1);
    Eigen::VectorXd average = w, gp(d + 1), gq(d + 1);
    const std::shared_ptr<const Eigen::VectorXd> squaredNormsOfRows = rowSquaredNorms(train);
    const Eigen::VectorXd& squaredNorms = *squaredNormsOfRows;
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
        const double meanSquaredNorm =
            usePublic ? publicBatches.gradient(w, streams.publicSampling, gq) : 0.0;
        alphaSum += takeStep(s, usePrivate, usePublic, gp, gq, meanSquaredNorm, t, w, average);
        ++alphaSteps;

        StepInfo info;
        info.step = t + 1;
        info.epoch = static_cast<int>(t / s.stepsPerEpoch) + 1;
        info.batchRows = batchRows;
        info.batchLoss = batchRows > 0 ? batchLoss / static_cast<double>(batchRows) : 0.0;
        bool stop = session.stepped(info);
        const bool diverged = !w.allFinite();
        if (s.evaluationDue(t + 1) || diverged) {
            const Eigen::VectorXd& reported = s.averageIterates ? average : w;
            EpochMetrics m;
            m.epoch = info.epoch;  // that of step t + 1 (in progress, at a divergence)
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

namespace {

/// One run of a group on shared batches: its own model, noise, weight and session; the group
/// computes the batches' products for all runs at once (runLinearSgdGroup).
class GroupRun {
public:
    GroupRun(const LinearSgdMember& member, const DataSplit& data, const CancelToken& cancel)
        : m_s(*member.setup),
          m_noise(*member.noise),
          m_session(*member.observer, cancel),
          m_read(rowsRead(m_s)),
          m_release(privacy::ReleaseSpec::gaussian(
              "private-gradient", (m_s.replaceAdjacency ? 2.0 : 1.0) * m_s.clip / m_s.expectedBatch,
              m_s.sigma)) {
        const Eigen::Index width = data.train.features() + 1;
        m_w = m_s.start.size() == width ? m_s.start : Eigen::VectorXd::Zero(width);
        m_average = m_w;
        m_theta.resize(1, width);
        m_sum.resize(1, width);
        m_gp.resize(width);
        m_gq.resize(width);
        m_session.setEpsilonSoFar(member.epsilonAfter);
        m_session.result().dataset = data.train.name;
    }

    bool usePrivate() const { return m_read.usePrivate; }
    bool usePublic() const { return m_read.usePublic; }
    bool over() const { return m_over; }
    /// Checks the cancel token before step t (0-based); false when the run ends here.
    bool startStep(long t) {
        if (m_over) return false;
        if (m_session.cancelled(t)) m_over = true;
        m_batchRows = 0;
        m_batchLoss = 0.0;
        return !m_over;
    }
    /// The parameters the step's products read (1 × (d + 1), bias last).
    const RowMatrix& parameters() {
        m_theta.row(0) = m_w.transpose();
        return m_theta;
    }

    /// A private row's clipped gradient coefficient 2·(score − y), with the counters.
    double privateCoefficient(double score, double target, double squaredNorm) {
        const double residual = score - target;
        double scale = 2.0 * residual;
        m_clipped += clipScale(std::abs(scale) * std::sqrt(squaredNorm), m_s.clip, scale);
        m_batchLoss += residual * residual;
        ++m_batchRows;
        ++m_seen;
        return scale;
    }
    /// A public row's coefficient (normalised to norm C when asked), with the squared norm sum.
    double publicCoefficient(double score, double target, double squaredNorm) {
        double scale = 2.0 * (score - target);
        if (m_s.normalisePublic) {
            const double norm = std::abs(scale) * std::sqrt(squaredNorm);
            scale = norm > 0.0 ? scale * m_s.publicScale / norm : 0.0;
        }
        m_publicSquaredNorms += scale * scale * squaredNorm;
        return scale;
    }
    /// The private sum of the step (from the shared products) into the noisy released mean.
    void setPrivateSum(const SharedBatchProducts& products, int column) {
        products.getGradient(column, m_sum);
        m_gp = m_sum.row(0).transpose() / m_s.expectedBatch;
        privacy::releaseGaussian(m_release, m_gp, m_noise);
    }
    void setPublicSum(const SharedBatchProducts& products, int column) {
        products.getGradient(column, m_sum);
        m_gq = m_sum.row(0).transpose() / static_cast<double>(m_s.publicBatch);
    }

    /// Mixes, steps, projects and averages; reports the step. True when the run evaluates now.
    bool finishStep(long t) {
        const double meanSquaredNorm =
            m_read.usePublic ? m_publicSquaredNorms / static_cast<double>(m_s.publicBatch) : 0.0;
        m_publicSquaredNorms = 0.0;
        m_alphaSum += takeStep(m_s, m_read.usePrivate, m_read.usePublic, m_gp, m_gq,
                               meanSquaredNorm, t, m_w, m_average);
        ++m_alphaSteps;
        StepInfo info;
        info.step = t + 1;
        info.epoch = static_cast<int>(t / m_s.stepsPerEpoch) + 1;
        info.batchRows = m_batchRows;
        info.batchLoss = m_batchRows > 0 ? m_batchLoss / static_cast<double>(m_batchRows) : 0.0;
        m_stop = m_session.stepped(info);
        m_diverged = !m_w.allFinite();
        return m_s.evaluationDue(t + 1) || m_diverged;
    }
    /// The model the run reports and evaluates (1 × (d + 1)).
    const RowMatrix& reported() {
        m_theta.row(0) = (m_s.averageIterates ? m_average : m_w).transpose();
        return m_theta;
    }
    bool diagnostics() const { return m_s.diagnostics; }
    RowMatrix& testScores() { return m_testScores; }
    RowMatrix& trainScores() { return m_trainScores; }

    /// After step t: the epoch's metrics from the scores of reported() (the training rows'
    /// only with diagnostics), the divergence and stop checks.
    void finishEpoch(long t, const DataSplit& data, const Eigen::VectorXd& trainTargets,
                     const Eigen::VectorXd& testTargets, bool evaluated) {
        if (evaluated) {
            EpochMetrics m;
            m.epoch = static_cast<int>(t / m_s.stepsPerEpoch) + 1;  // that of step t + 1
            m.step = t + 1;
            m.trainLoss = m_s.diagnostics ? meanSquaredError(m_trainScores, trainTargets) : NAN;
            m.trainObjective = m.trainLoss;
            // m_theta holds the evaluated model (reported()); a non-finite one has no metrics.
            const bool finite = m_theta.allFinite();
            if (!finite) m.trainLoss = m.trainObjective = m_s.diagnostics ? NAN : m.trainLoss;
            m.testError =
                data.test.rows() > 0 && finite ? meanSquaredError(m_testScores, testTargets) : NAN;
            if (std::isfinite(m_s.optimalMse)) m.excessRisk = m.testError - m_s.optimalMse;
            m.violation = m.dpGap = m.eoGap = m.eoppGap = m.ermiHard = m.ermiSoft = NAN;
            m.clipFraction = clippedShare(m_clipped, m_seen, m_s.diagnostics);
            m_clipped = m_seen = 0;
            m_stop = m_session.evaluated(m) || m_stop;
        }
        if (m_diverged) {
            m_session.diverge("the iterate is no longer finite after step " +
                              std::to_string(t + 1) + ": the step size " +
                              formatNumber(m_s.learningRate) + " is too large; lower lr-theta");
            m_over = true;
            return;
        }
        if (m_session.stopRequested(m_stop, t + 1, m_s.steps)) m_over = true;
    }

    RunResult finish(const DataSplit& data) {
        const Eigen::VectorXd reportedModel = m_s.averageIterates ? m_average : m_w;
        RunResult& result = m_session.result();
        const Eigen::Index width = reportedModel.size();
        result.theta = RowMatrix(1, width);
        result.theta.row(0) = reportedModel.transpose();
        result.regression = evaluateRegression(data.test, reportedModel);
        result.regression.known = true;
        result.test =
            fairnessNotApplicable(static_cast<long>(data.test.rows()), result.regression.testMse);
        result.trainLoss =
            m_s.diagnostics ? evaluateRegression(data.train, reportedModel).testMse : NAN;
        result.theoryInputs["alpha_mean"] =
            m_alphaSteps > 0 ? m_alphaSum / static_cast<double>(m_alphaSteps) : 1.0;
        return m_session.finish();
    }

private:
    static double meanSquaredError(const RowMatrix& scores, const Eigen::VectorXd& targets) {
        if (targets.size() == 0) return NAN;
        return (scores.col(0) - targets).squaredNorm() / static_cast<double>(targets.size());
    }

    const LinearSgdSetup& m_s;
    RandomStream& m_noise;
    RunSession m_session;
    const RowsRead m_read;
    privacy::ReleaseSpec m_release;
    Eigen::VectorXd m_w, m_average, m_gp, m_gq;
    RowMatrix m_theta, m_sum, m_testScores, m_trainScores;
    bool m_over = false, m_stop = false, m_diverged = false;
    long m_clipped = 0, m_seen = 0, m_batchRows = 0, m_alphaSteps = 0;
    double m_batchLoss = 0.0, m_publicSquaredNorms = 0.0, m_alphaSum = 0.0;
};

}  // namespace

std::vector<RunResult> runLinearSgdGroup(const std::vector<LinearSgdMember>& members,
                                         const DataSplit& data, RandomStream& sampling,
                                         RandomStream& publicSampling, const CancelToken& cancel) {
    if (members.empty()) return {};
    const LinearSgdSetup& lead = *members.front().setup;
    for (const LinearSgdMember& member : members) {
        const LinearSgdSetup& s = *member.setup;
        if (s.privateRows != lead.privateRows || s.publicRows != lead.publicRows ||
            s.samplingRate != lead.samplingRate || s.steps != lead.steps ||
            s.stepsPerEpoch != lead.stepsPerEpoch || s.publicBatch != lead.publicBatch) {
            throw std::logic_error("runs on shared batches must draw them alike");
        }
    }
    const Dataset& train = data.train;
    const auto designPtr = sharedDesignMatrix(train.X, 0.0);
    const auto testDesignPtr = sharedDesignMatrix(data.test.X, 0.0);
    const DesignMatrix& design = *designPtr;
    const DesignMatrix& testDesign = *testDesignPtr;
    const Eigen::VectorXd y = regressionTargets(train);
    const Eigen::VectorXd testY = regressionTargets(data.test);
    const int count = static_cast<int>(members.size());
    SharedBatchProducts products(design, count);

    std::vector<std::unique_ptr<GroupRun>> runs;
    for (const LinearSgdMember& member : members)
        runs.push_back(std::make_unique<GroupRun>(member, data, cancel));
    for (auto& run : runs) {
        run->testScores().resize(data.test.rows(), 1);
        if (run->diagnostics()) run->trainScores().resize(train.rows(), 1);
    }

    const long nPrivate = static_cast<long>(lead.privateRows.size());
    const double logOneMinusQ =
        lead.samplingRate >= 1.0 ? -INFINITY : std::log1p(-lead.samplingRate);
    std::vector<long> positions(static_cast<std::size_t>(nPrivate));
    std::vector<long> batch(static_cast<std::size_t>(std::max(nPrivate, lead.publicBatch)));
    PublicRowOrder publicOrder(lead.publicRows);
    std::vector<GroupRun*> stepping, privateRuns, publicRuns, evaluating;
    std::vector<const RowMatrix*> models, diagnosed;
    std::vector<RowMatrix*> testScores, trainScores;

    // Adds the coefficients of one batch of `size` rows (design rows in `batch`) for `group`.
    auto pass = [&](const std::vector<GroupRun*>& group, long size, bool isPrivate) {
        const int columns = static_cast<int>(group.size());
        products.begin(columns);
        for (int c = 0; c < columns; ++c) products.setParameters(c, group[c]->parameters());
        for (long c0 = 0; c0 < size; c0 += SharedBatchProducts::kChunkRows) {
            const long chunk = std::min(SharedBatchProducts::kChunkRows, size - c0);
            products.forward(batch, size, c0, chunk);
            for (int c = 0; c < columns; ++c) {
                for (long k = 0; k < chunk; ++k) {
                    const long row = batch[static_cast<std::size_t>(c0 + k)];
                    const double score = products.score(k, c);
                    products.setCoefficient(
                        k, c,
                        isPrivate
                            ? group[c]->privateCoefficient(score, y(row), design.squaredNorms(row))
                            : group[c]->publicCoefficient(score, y(row), design.squaredNorms(row)));
                }
            }
            products.backward();
        }
        for (int c = 0; c < columns; ++c) {
            if (isPrivate)
                group[c]->setPrivateSum(products, c);
            else
                group[c]->setPublicSum(products, c);
        }
    };

    for (long t = 0; t < lead.steps; ++t) {
        stepping.clear();
        privateRuns.clear();
        publicRuns.clear();
        for (auto& run : runs) {
            if (!run->startStep(t)) continue;
            stepping.push_back(run.get());
            if (run->usePrivate()) privateRuns.push_back(run.get());
            if (run->usePublic()) publicRuns.push_back(run.get());
        }
        if (stepping.empty()) break;
        // One Poisson sample of the private rows for every run (drawn even when no run reads
        // it, so the sample of a step does not depend on which runs are still going).
        long drawn = 0;
        drawPoisson(sampling, logOneMinusQ, nPrivate, [&](long position) {
            positions[static_cast<std::size_t>(drawn++)] = position;
        });
        privacy::observeBatch({"private-rows", nPrivate, lead.samplingRate}, positions, drawn);
        if (!privateRuns.empty()) {
            for (long k = 0; k < drawn; ++k) {
                batch[static_cast<std::size_t>(k)] = lead.privateRows[static_cast<std::size_t>(
                    positions[static_cast<std::size_t>(k)])];
            }
            pass(privateRuns, drawn, true);
        }
        // One public batch for every run that mixes public rows in: K rows of reshuffled
        // passes over the public rows.
        if (!publicRuns.empty()) {
            for (long j = 0; j < lead.publicBatch; ++j)
                batch[static_cast<std::size_t>(j)] = publicOrder.next(publicSampling);
            pass(publicRuns, lead.publicBatch, false);
        }
        evaluating.clear();
        for (GroupRun* run : stepping) {
            if (run->finishStep(t)) evaluating.push_back(run);
        }
        // The evaluated models scored in one pass over the test rows (and the training rows,
        // for diagnostics) for all of them.
        models.clear();
        diagnosed.clear();
        testScores.clear();
        trainScores.clear();
        for (GroupRun* run : evaluating) {
            models.push_back(&run->reported());
            testScores.push_back(&run->testScores());
            if (!run->diagnostics()) continue;
            diagnosed.push_back(models.back());
            trainScores.push_back(&run->trainScores());
        }
        if (!models.empty() && data.test.rows() > 0)
            products.scoreAllRows(testDesign, models, testScores);
        if (!diagnosed.empty()) products.scoreAllRows(design, diagnosed, trainScores);
        for (GroupRun* run : stepping) {
            const bool evaluated =
                std::find(evaluating.begin(), evaluating.end(), run) != evaluating.end();
            run->finishEpoch(t, data, y, testY, evaluated);
        }
    }
    std::vector<RunResult> results;
    for (auto& run : runs) results.push_back(run->finish(data));
    return results;
}

std::vector<RunResult> trainLinearSgdJobs(std::vector<LinearSgdJob>& jobs, const DataSplit& data,
                                          const std::vector<TrainingObserver*>& observers,
                                          const CancelToken& cancel) {
    std::vector<std::optional<RunResult>> results(jobs.size());
    // Runs on one shared sample with one public batch, in order of their first run.
    std::vector<std::pair<std::string, std::vector<std::size_t>>> groups;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        LinearSgdJob& job = jobs[i];
        if (job.trainOtherwise) {
            results[i] = job.trainOtherwise(job.plan, *observers[i], cancel);
        } else if (job.sharedBatches.empty()) {
            results[i] =
                runLinearSgd(job.plan.setup, data, {*job.sampling, *job.publicSampling, *job.noise},
                             job.epsilonAfter, *observers[i], cancel);
        } else {
            const std::string key =
                job.sharedBatches + "|public-batch=" + std::to_string(job.plan.setup.publicBatch);
            auto group = std::find_if(groups.begin(), groups.end(),
                                      [&](const auto& g) { return g.first == key; });
            if (group == groups.end()) group = groups.insert(groups.end(), {key, {}});
            group->second.push_back(i);
        }
    }
    for (const auto& [key, indices] : groups) {
        std::vector<LinearSgdMember> members;
        for (const std::size_t i : indices) {
            members.push_back(
                {&jobs[i].plan.setup, &*jobs[i].noise, jobs[i].epsilonAfter, observers[i]});
        }
        // Every member's shared streams are alike; the first one's serve the group.
        LinearSgdJob& first = jobs[indices.front()];
        std::vector<RunResult> trained =
            runLinearSgdGroup(members, data, *first.sampling, *first.publicSampling, cancel);
        for (std::size_t k = 0; k < indices.size(); ++k)
            results[indices[k]] = std::move(trained[k]);
    }
    std::vector<RunResult> out;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        RunResult result = std::move(*results[i]);
        if (jobs[i].describe) jobs[i].describe(result, jobs[i].plan);
        out.push_back(std::move(result));
    }
    return out;
}

RunResult LinearSgdAlgorithm::run(const PreparedConfig& prepared, const DataSplit& data,
                                  TrainingObserver& observer, const CancelToken& cancel) const {
    std::vector<LinearSgdJob> jobs;
    jobs.push_back(job(prepared.config(), data));
    return trainLinearSgdJobs(jobs, data, {&observer}, cancel).front();
}

std::vector<RunResult> LinearSgdAlgorithm::runTogether(
    const std::vector<PreparedConfig>& runs, const DataSplit& data,
    const std::vector<TrainingObserver*>& observers, const CancelToken& cancel) const {
    const KnownDataFingerprint fingerprint(data.train);  // read the rows once, not per run
    std::vector<LinearSgdJob> jobs;
    for (const PreparedConfig& run : runs) jobs.push_back(job(run.config(), data));
    return trainLinearSgdJobs(jobs, data, observers, cancel);
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
    s.evaluateEvery = config.evaluateEvery;
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
