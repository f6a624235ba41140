#include "core/algorithms/linear_sgd/linear_dp_sgd.h"

#include <Eigen/QR>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "core/algorithms/registry.h"
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
#include "core/privacy/noisy_release.h"
#include "core/privacy/run_accountant.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "core/util/recent_results.h"

namespace pfa {

namespace {

// The own settings this file reads (checked against the declarations at start).
const OwnNumber kDomainRadius{"domain-radius"};
const OwnChoice kRowPrecision{"row-precision"};
const OwnChoice kSharedSample{"shared-sample"};

/// Rows of a batch read together: their features stay in the first-level cache between the
/// pass that scores them and the pass that adds their clipped gradients.
constexpr long kChunkRows = 8;
/// The chunk of a nested sample: each run takes about 4/5 of its rows, so twice as many rows keep
/// the kernels on full groups of eight for most of each run's part.
constexpr long kNestedChunkRows = 16;

/// The training rows' features as the batch loops read them.
LinearRows linearRowsOf(const Dataset& train) {
    return {train.X.data(), static_cast<long>(train.X.outerStride()),
            static_cast<long>(train.features())};
}

/// Requests the features, targets and squared norms of rows[0 … count − 1] ahead of their use
/// (rows of a Poisson batch are scattered, so the hardware prefetcher cannot guess them).
template <typename Value>
void prefetchTrainingRows(const LinearRowsOf<Value>& X, const Eigen::VectorXd& y,
                          const Eigen::VectorXd& squaredNorms, const long* rows, long count) {
    const long bytes = X.features * static_cast<long>(sizeof(Value));
    for (long k = 0; k < count; ++k) {
        const char* first = reinterpret_cast<const char*>(X.data + rows[k] * X.stride);
        for (long line = 0; line < bytes; line += 64) __builtin_prefetch(first + line);
        __builtin_prefetch(y.data() + rows[k]);
        __builtin_prefetch(squaredNorms.data() + rows[k]);
    }
}

/// Calls visit(first, m) for the chunks rows[first … first + m − 1] of rows[0 … count − 1],
/// chunkRows rows each, in order, having requested the next chunk's rows (features, targets,
/// squared norms) ahead of the visit.
template <typename Value, typename Visit>
void forEachChunk(const LinearRowsOf<Value>& X, const Eigen::VectorXd& y,
                  const Eigen::VectorXd& squaredNorms, const long* rows, long count, long chunkRows,
                  Visit&& visit) {
    prefetchTrainingRows(X, y, squaredNorms, rows, std::min(count, chunkRows));
    for (long c0 = 0; c0 < count; c0 += chunkRows) {
        const long m = std::min(chunkRows, count - c0);
        const long next = c0 + m;
        prefetchTrainingRows(X, y, squaredNorms, rows + next, std::min(chunkRows, count - next));
        visit(c0, m);
    }
}

/// One chunk of a batch as the kernels read it: training rows rows[0 … m − 1] (their targets
/// and norms), their features rows xRows[0 … m − 1] of X (the same rows of the training
/// features, or a copy of the chunk's rows).
struct Chunk {
    LinearRows X;
    const long* xRows;
    const long* rows;
    long m;
    /// Scores in single precision: the rows as stored (xRows are rows of S, X is not read).
    SingleLinearRows S{};
};

/// The squared-loss gradients of one chunk's rows at w (d weights, bias last): each row's
/// residual xᵀw + b − y (linearRowScores; with scores in single precision, c.S given,
/// linearRowScoresSingle at `wSingle`, w's weights rounded to float), then `scaleOf(k, residual)`
/// gives its gradient's scale s_k (clipped or normalised by the caller), and g += s_k·(x_k, 1) in
/// order, in double. `scales` holds at least m values.
template <typename ScaleOf>
void addChunkGradients(const Chunk& c, const Eigen::VectorXd& y, const Eigen::VectorXd& w,
                       const float* wSingle, double* scales, Eigen::VectorXd& g,
                       ScaleOf&& scaleOf) {
    const bool singleScores = c.S.data != nullptr;
    const long d = w.size() - 1;
    if (singleScores) {
        linearRowScoresSingle(c.S, c.xRows, c.m, wSingle, scales);
        // Beyond single precision's range (±∞, or NaN from ∞ − ∞): that row's score in double,
        // so the float arithmetic never adds a non-finite gradient to the released sum.
        for (long k = 0; k < c.m; ++k) {
            if (!std::isfinite(scales[k]))
                scales[k] = singleRowScoreInDouble(c.S, c.xRows[k], w.data());
        }
    } else {
        linearRowScores(c.X, c.xRows, c.m, w.data(), scales);
    }
    for (long k = 0; k < c.m; ++k) scales[k] = scaleOf(k, scales[k] + w(d) - y(c.rows[k]));
    if (singleScores)
        addScaledSingleRows(c.S, c.xRows, c.m, scales, g.data());
    else
        addScaledRows(c.X, c.xRows, c.m, scales, g.data());
    for (long k = 0; k < c.m; ++k) g(d) += scales[k];
}

/// A private row's gradient scale 2·residual, clipped so that ‖scale·(x, 1)‖ ≤ C (its squared
/// norm `squaredNorm`); a clip is counted in `clipped`.
inline double clippedPrivateScale(double residual, double squaredNorm, double clip, long& clipped) {
    double scale = 2.0 * residual;
    clipped += clipScale(std::abs(scale) * std::sqrt(squaredNorm), clip, scale);
    return scale;
}

/// A public row's gradient scale 2·residual, normalised to norm `publicScale` when asked
/// (public rows cost no privacy); its gradient's squared norm is added to `squaredNormSum`.
inline double publicScale(const LinearSgdSetup& s, double residual, double squaredNorm,
                          double& squaredNormSum) {
    double scale = 2.0 * residual;
    if (s.normalisePublic) {
        const double norm = std::abs(scale) * std::sqrt(squaredNorm);
        scale = norm > 0.0 ? scale * s.publicScale / norm : 0.0;
    }
    squaredNormSum += scale * scale * squaredNorm;
    return scale;
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

/// The training rows in single precision (row-precision single): each row's features rounded to
/// float, rows a whole number of 64-byte lines apart, and ‖(x̃_i, 1)‖² of the ROUNDED rows x̃_i in
/// double, so that each clip bounds the gradient actually added. Half the memory traffic of
/// the batch loop's row reads, which bound its speed.
class SingleRows {
public:
    explicit SingleRows(const Dataset& train)
        : m_features(train.features()),
          m_stride((m_features + 15) / 16 * 16),
          m_values(static_cast<float*>(std::aligned_alloc(
              64, static_cast<std::size_t>(train.rows() * m_stride) * sizeof(float) + 64))),
          m_squaredNorms(train.rows()) {
        if (!m_values) throw std::bad_alloc();
        Eigen::VectorXd rounded(m_features);
        for (Eigen::Index i = 0; i < train.rows(); ++i) {
            float* row = m_values.get() + i * m_stride;
            for (long j = 0; j < m_features; ++j) {
                // Saturated beyond single precision's range (±3.4·10³⁸), not infinite: a clip
                // of an infinite row would add NaN (0·∞) to the released sum.
                constexpr double kLargest = std::numeric_limits<float>::max();
                row[j] = static_cast<float>(std::clamp(train.X(i, j), -kLargest, kLargest));
                rounded(j) = row[j];
            }
            std::fill(row + m_features, row + m_stride, 0.0f);
            m_squaredNorms(i) = rounded.squaredNorm() + 1.0;
        }
    }
    SingleLinearRows rows() const { return {m_values.get(), m_stride, m_features}; }
    const Eigen::VectorXd& squaredNorms() const { return m_squaredNorms; }

private:
    struct Free {
        void operator()(float* p) const { std::free(p); }
    };
    long m_features, m_stride;
    std::unique_ptr<float[], Free> m_values;
    Eigen::VectorXd m_squaredNorms;
};

/// The training rows in single precision, made once for the runs of a sweep on the same rows.
std::shared_ptr<const SingleRows> singleRowsOf(const Dataset& train) {
    const auto make = [&train] { return std::make_shared<const SingleRows>(train); };
    if (const std::uint64_t* fingerprint = KnownDataFingerprint::find(train)) {
        // Two: a single-precision copy is half the size of the features.
        static RecentResults<std::uint64_t, std::shared_ptr<const SingleRows>> recent(2);
        return recent.get(*fingerprint, make);
    }
    return make();
}

/// One run of a group on shared batches: its own model, noise, weight and session; the group
/// reads each chunk of a batch once for all its runs (runLinearSgdGroup).
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
        m_gp.resize(width);
        m_gq.resize(width);
        if (m_s.singlePrecisionScores) m_wSingle.resize(static_cast<std::size_t>(width - 1));
        m_session.setEpsilonSoFar(member.epsilonAfter);
        m_session.result().dataset = data.train.name;
    }

    const LinearSgdSetup& setup() const { return m_s; }
    bool usePrivate() const { return m_read.usePrivate; }
    bool usePublic() const { return m_read.usePublic; }
    /// Nested sample: which training rows are the run's private rows (one flag per row).
    void setPrivateMask(const unsigned char* isPrivate) { m_isPrivate = isPrivate; }
    /// The public batch the run reads (an index into the group's).
    void setPublicGroup(std::size_t group) { m_publicGroup = group; }
    std::size_t publicGroup() const { return m_publicGroup; }
    /// Nested sample: whether the run takes training row `row` drawn at level `level`.
    bool takesNested(long row, double level) const {
        return level < m_s.samplingRate && m_isPrivate[row];
    }
    /// Nested sample: the run's rows of `chunk` (levels `levels`): its private rows whose level
    /// is below its rate, their places in the chunk into `ids` and their rows into `rows`, in
    /// order. Returns how many.
    long takeNested(const Chunk& chunk, const double* levels, long* ids, long* rows) const {
        long taken = 0;
        for (long k = 0; k < chunk.m; ++k) {
            if (takesNested(chunk.rows[k], levels[k])) {
                ids[taken] = chunk.xRows[k];
                rows[taken++] = chunk.rows[k];
            }
        }
        return taken;
    }
    bool over() const { return m_over; }
    /// Checks the cancel token before step t (0-based); false when the run ends here.
    bool startStep(long t) {
        if (m_over) return false;
        // Runs of a nested sample may take fewer steps than the group.
        if (t >= m_s.steps || m_session.cancelled(t)) m_over = true;
        m_batchRows = 0;
        m_batchLoss = 0.0;
        if (!m_over && m_s.singlePrecisionScores) {
            // The model's weights for this step's single-precision scores (private and public),
            // saturated as the rows are (an infinite weight would make 0·∞ = NaN of a zero
            // feature).
            constexpr double kLargest = std::numeric_limits<float>::max();
            const Eigen::Index d = m_w.size() - 1;  // m_wSingle's size, set once
            for (Eigen::Index j = 0; j < d; ++j)
                m_wSingle[static_cast<std::size_t>(j)] =
                    static_cast<float>(std::clamp(m_w(j), -kLargest, kLargest));
        }
        return !m_over;
    }
    /// Starts the step's private (or public) gradient sum.
    void beginSum(bool isPrivate) { (isPrivate ? m_gp : m_gq).setZero(); }
    /// Adds one chunk of the step's private (or public) batch, rows[0 … m − 1], at the run's
    /// model: the arithmetic of a run alone (runLinearSgd). `scales` holds m values.
    void addChunk(bool isPrivate, const Chunk& chunk, const Eigen::VectorXd& y,
                  const Eigen::VectorXd& squaredNorms, double* scales) {
        const long* rows = chunk.rows;
        if (isPrivate) {
            addChunkGradients(chunk, y, m_w, m_wSingle.data(), scales, m_gp,
                              [&](long k, double residual) {
                                  m_batchLoss += residual * residual;
                                  ++m_batchRows;
                                  ++m_seen;
                                  return clippedPrivateScale(residual, squaredNorms(rows[k]),
                                                             m_s.clip, m_clipped);
                              });
        } else {
            addChunkGradients(
                chunk, y, m_w, m_wSingle.data(), scales, m_gq, [&](long k, double residual) {
                    return publicScale(m_s, residual, squaredNorms(rows[k]), m_publicSquaredNorms);
                });
        }
    }
    /// Ends the step's sum: the private one into the noisy released mean, the public one into
    /// the public mean.
    void endSum(bool isPrivate) {
        if (isPrivate) {
            m_gp /= m_s.expectedBatch;
            privacy::releaseGaussian(m_release, m_gp, m_noise);
        } else {
            m_gq /= static_cast<double>(m_s.publicBatch);
        }
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
        m_stepsDone = t + 1;
        return m_s.evaluationDue(t + 1) || m_diverged;
    }
    /// The model the run reports and evaluates (d + 1 entries, bias last).
    const Eigen::VectorXd& reported() const { return m_s.averageIterates ? m_average : m_w; }

    /// After step t: the metrics of reported() when `evaluated` (the training rows' only with
    /// diagnostics), the divergence and stop checks.
    void finishEpoch(long t, const DataSplit& data, bool evaluated) {
        if (evaluated) {
            const Eigen::VectorXd& model = reported();
            EpochMetrics m;
            m.epoch = static_cast<int>(t / m_s.stepsPerEpoch) + 1;  // that of step t + 1
            m.step = t + 1;
            // Training-set diagnostic (private rows included): only when recorded.
            m.trainLoss = m_s.diagnostics ? evaluateRegression(data.train, model).testMse : NAN;
            m.trainObjective = m.trainLoss;
            m_lastTest = evaluateRegression(data.test, model);
            m_lastTrainLoss = m.trainLoss;
            m_evaluatedAfter = t + 1;
            m.testError = m_lastTest.testMse;
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
        const Eigen::VectorXd& reportedModel = reported();
        RunResult& result = m_session.result();
        const Eigen::Index width = reportedModel.size();
        result.theta = RowMatrix(1, width);
        result.theta.row(0) = reportedModel.transpose();
        // The model last evaluated is the one reported when no step followed (the usual end:
        // every run evaluates after its last step); otherwise evaluated now.
        const bool evaluated = m_evaluatedAfter == m_stepsDone;
        result.regression = evaluated ? m_lastTest : evaluateRegression(data.test, reportedModel);
        result.regression.known = true;
        result.test =
            fairnessNotApplicable(static_cast<long>(data.test.rows()), result.regression.testMse);
        result.trainLoss = !m_s.diagnostics ? NAN
                           : evaluated      ? m_lastTrainLoss
                                            : evaluateRegression(data.train, reportedModel).testMse;
        result.theoryInputs["alpha_mean"] =
            m_alphaSteps > 0 ? m_alphaSum / static_cast<double>(m_alphaSteps) : 1.0;
        return m_session.finish();
    }

private:
    const LinearSgdSetup& m_s;
    RandomStream& m_noise;
    RunSession m_session;
    const RowsRead m_read;
    privacy::ReleaseSpec m_release;
    Eigen::VectorXd m_w, m_average, m_gp, m_gq;
    std::vector<float> m_wSingle;  ///< m_w's weights in single precision (single scores)
    bool m_over = false, m_stop = false, m_diverged = false;
    long m_clipped = 0, m_seen = 0, m_batchRows = 0, m_alphaSteps = 0;
    double m_batchLoss = 0.0, m_publicSquaredNorms = 0.0, m_alphaSum = 0.0;
    long m_stepsDone = 0;
    const unsigned char* m_isPrivate = nullptr;
    std::size_t m_publicGroup = 0;
    /// The test metrics (and training loss) of the model evaluated after step m_evaluatedAfter
    /// (−1: none yet).
    RegressionMetrics m_lastTest;
    double m_lastTrainLoss = NAN;
    long m_evaluatedAfter = -1;
};

}  // namespace

namespace {

/// Whether two setups read the same private rows in their shared batches.
bool sameRows(const LinearSgdSetup& a, const LinearSgdSetup& b) {
    return &a.privateRows == &b.privateRows || a.privateRows == b.privateRows;
}

/// Checks that the setups of a group can draw one sample (runLinearSgdGroup).
void checkSharedDraws(const std::vector<LinearSgdMember>& members) {
    const LinearSgdSetup& lead = *members.front().setup;
    const bool nested = lead.envelopeRate > 0.0;
    for (const LinearSgdMember& member : members) {
        const LinearSgdSetup& s = *member.setup;
        const bool alike =
            nested
                ? s.envelopeRate == lead.envelopeRate && s.samplingRate <= s.envelopeRate
                : s.envelopeRate == 0.0 && sameRows(s, lead) && s.publicRows == lead.publicRows &&
                      s.samplingRate == lead.samplingRate && s.steps == lead.steps &&
                      s.stepsPerEpoch == lead.stepsPerEpoch && s.publicBatch == lead.publicBatch;
        if (!alike || s.singlePrecisionRows != lead.singlePrecisionRows ||
            s.singlePrecisionScores != lead.singlePrecisionScores)
            throw std::logic_error("runs on shared batches must draw them alike");
    }
}

/// The runs of a group that read one public batch per step: those with the same public rows
/// and public batch, in the order of their first run, with the first one's row order.
struct PublicBatchGroup {
    PublicBatchGroup(const LinearSgdSetup& setup, RandomStream& stream)
        : setup(&setup), order(setup.publicRows), stream(&stream) {}
    const LinearSgdSetup* setup;
    PublicRowOrder order;
    RandomStream* stream;
    std::vector<GroupRun*> runs;  ///< those stepping now
};

}  // namespace

std::vector<RunResult> runLinearSgdGroup(const std::vector<LinearSgdMember>& members,
                                         const DataSplit& data, RandomStream& sampling,
                                         const CancelToken& cancel) {
    if (members.empty()) return {};
    checkSharedDraws(members);
    const LinearSgdSetup& lead = *members.front().setup;
    const Dataset& train = data.train;
    const Eigen::VectorXd y = regressionTargets(train);
    std::vector<std::unique_ptr<GroupRun>> runs;
    for (const LinearSgdMember& member : members)
        runs.push_back(std::make_unique<GroupRun>(member, data, cancel));

    // Nested: one sample of every training row at the envelope rate serves runs at any rate on
    // any private rows (NestedPoissonSample); otherwise the private rows at the common rate.
    const bool nested = lead.envelopeRate > 0.0;
    const long population =
        nested ? static_cast<long>(train.rows()) : static_cast<long>(lead.privateRows.size());
    long steps = 0;
    for (const LinearSgdMember& member : members) steps = std::max(steps, member.setup->steps);
    std::optional<NestedPoissonSample> nestedSample;
    if (nested) nestedSample.emplace(population, lead.envelopeRate, sampling);
    // Nested: which training rows each distinct set of private rows holds (a mask's data stays
    // where it is when the list grows).
    std::vector<std::pair<const LinearSgdSetup*, std::vector<unsigned char>>> masks;
    if (nested) {
        for (auto& run : runs) {
            const LinearSgdSetup& s = run->setup();
            auto known = std::find_if(masks.begin(), masks.end(),
                                      [&](const auto& m) { return sameRows(*m.first, s); });
            if (known == masks.end()) {
                std::vector<unsigned char> mask(static_cast<std::size_t>(population), 0);
                for (const long row : s.privateRows) mask[static_cast<std::size_t>(row)] = 1;
                known = masks.insert(masks.end(), {&s, std::move(mask)});
            }
            run->setPrivateMask(known->second.data());
        }
    }
    std::vector<PublicBatchGroup> publicGroups;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const LinearSgdSetup& s = runs[i]->setup();
        if (!runs[i]->usePublic()) continue;
        auto known = std::find_if(publicGroups.begin(), publicGroups.end(), [&](const auto& g) {
            return g.setup->publicBatch == s.publicBatch && g.setup->publicRows == s.publicRows;
        });
        if (known == publicGroups.end())
            known = publicGroups.insert(publicGroups.end(),
                                        PublicBatchGroup(s, *members[i].publicSampling));
        runs[i]->setPublicGroup(static_cast<std::size_t>(known - publicGroups.begin()));
    }
    long largestPublicBatch = 0;
    for (const PublicBatchGroup& g : publicGroups)
        largestPublicBatch = std::max(largestPublicBatch, g.setup->publicBatch);

    std::vector<long> positions(static_cast<std::size_t>(nested ? 0 : population));
    std::vector<long> batch(static_cast<std::size_t>(std::max(population, largestPublicBatch)));
    // The sampling stream serves the private batches alone: their skips are drawn ahead.
    PoissonSkips skips(lead.samplingRate >= 1.0 ? -INFINITY : std::log1p(-lead.samplingRate));
    std::vector<GroupRun*> stepping, privateRuns;
    // Nested, under a release tap: one run's batch, and that run.
    std::vector<long> tapBatch(static_cast<std::size_t>(nested ? population : 0));
    std::vector<GroupRun*> alone(1);

    // The rows as stored (double), or their single-precision copy with its own norms.
    std::shared_ptr<const Eigen::VectorXd> doubleNorms;
    std::shared_ptr<const SingleRows> single;
    if (lead.singlePrecisionRows)
        single = singleRowsOf(train);
    else
        doubleNorms = rowSquaredNorms(train);
    const Eigen::VectorXd& squaredNorms = single ? single->squaredNorms() : *doubleNorms;
    const long chunkRows = nested ? kNestedChunkRows : kChunkRows;
    std::vector<double> scales(static_cast<std::size_t>(chunkRows));
    // Single precision: each chunk's rows are converted (exactly) into this block of double rows,
    // which every run then reads from the first-level cache with the double kernels.
    const long d = static_cast<long>(train.features());
    const long unpackedStride = (d + 3) / 4 * 4;
    std::vector<double> unpacked(static_cast<std::size_t>(chunkRows * unpackedStride));
    const LinearRows unpackedRows{unpacked.data(), unpackedStride, d};
    std::array<long, kNestedChunkRows> unpackedIds;
    std::iota(unpackedIds.begin(), unpackedIds.end(), 0L);
    // A run's part of a chunk of a nested sample: its rows' places in the chunk and their rows.
    std::array<long, kNestedChunkRows> partIds, partRows;
    const LinearRows storedRows = linearRowsOf(train);
    // Adds one batch of `size` rows (training rows in `batch`; nested private: with levels
    // `batchLevel`) to every run of `group`: a chunk is read from memory once, then each run
    // computes with its rows of it what it would alone.
    auto pass = [&](const std::vector<GroupRun*>& group, long size, bool isPrivate,
                    const double* batchLevel) {
        for (GroupRun* run : group) run->beginSum(isPrivate);
        const auto addChunks = [&](const auto& X) {
            forEachChunk(X, y, squaredNorms, batch.data(), size, chunkRows, [&](long c0, long m) {
                const long* rows = batch.data() + c0;
                Chunk chunk{storedRows, rows, rows, m};
                if (single && lead.singlePrecisionScores) {
                    // Read as stored by both kernels: no block of double rows.
                    chunk.S = single->rows();
                } else if (single) {
                    unpackRows(single->rows(), rows, m, unpacked.data(), unpackedStride);
                    chunk = {unpackedRows, unpackedIds.data(), rows, m};
                }
                for (GroupRun* run : group) {
                    if (!batchLevel) {
                        run->addChunk(isPrivate, chunk, y, squaredNorms, scales.data());
                        continue;
                    }
                    const long taken =
                        run->takeNested(chunk, batchLevel + c0, partIds.data(), partRows.data());
                    if (taken == 0) continue;
                    const Chunk part{chunk.X, partIds.data(), partRows.data(), taken, chunk.S};
                    run->addChunk(isPrivate, part, y, squaredNorms, scales.data());
                }
            });
        };
        if (single)
            addChunks(single->rows());
        else
            addChunks(storedRows);
        for (GroupRun* run : group) run->endSum(isPrivate);
    };

    for (long t = 0; t < steps; ++t) {
        stepping.clear();
        privateRuns.clear();
        for (PublicBatchGroup& g : publicGroups) g.runs.clear();
        double highestRate = 0.0;
        for (auto& run : runs) {
            if (!run->startStep(t)) continue;
            stepping.push_back(run.get());
            if (run->usePrivate()) {
                privateRuns.push_back(run.get());
                highestRate = std::max(highestRate, run->setup().samplingRate);
            }
            if (run->usePublic()) publicGroups[run->publicGroup()].runs.push_back(run.get());
        }
        if (stepping.empty()) break;
        // One Poisson sample for every run (drawn even when no run reads it, so the sample of a
        // step does not depend on which runs are still going).
        if (nested) {
            nestedSample->draw(sampling, "training-rows");
            if (!privateRuns.empty()) {
                // Rows no stepping run takes at its rate are not read.
                nestedSample->keepBelow(highestRate);
                if (privacy::activeReleaseTap()) {
                    // Under a release tap (the neighbour tests), each run's batch is shown to it
                    // as a sample of its private rows at its rate, which it may replace, and read
                    // for that run alone: the rows, in the order, the shared pass gives the run.
                    for (GroupRun* run : privateRuns) {
                        long size = 0;
                        for (long k = 0; k < nestedSample->size(); ++k) {
                            const long row = nestedSample->units()[k];
                            if (run->takesNested(row, nestedSample->levels()[k]))
                                tapBatch[static_cast<std::size_t>(size++)] = row;
                        }
                        privacy::observeBatch(
                            {"private-rows", population, run->setup().samplingRate}, tapBatch,
                            size);
                        std::copy_n(tapBatch.begin(), size, batch.begin());
                        alone.front() = run;
                        pass(alone, size, true, nullptr);
                    }
                } else {
                    std::copy_n(nestedSample->units(), nestedSample->size(), batch.begin());
                    pass(privateRuns, nestedSample->size(), true, nestedSample->levels());
                }
            }
        } else {
            long drawn = 0;
            drawPoissonBySkips(
                [&] { return skips.next(sampling); }, population,
                [&](long position) { positions[static_cast<std::size_t>(drawn++)] = position; });
            privacy::observeBatch({"private-rows", population, lead.samplingRate}, positions,
                                  drawn);
            if (!privateRuns.empty()) {
                for (long k = 0; k < drawn; ++k) {
                    batch[static_cast<std::size_t>(k)] = lead.privateRows[static_cast<std::size_t>(
                        positions[static_cast<std::size_t>(k)])];
                }
                pass(privateRuns, drawn, true, nullptr);
            }
        }
        // One public batch for each set of runs that mix the same public rows in: K rows of
        // reshuffled passes over them.
        for (PublicBatchGroup& g : publicGroups) {
            if (g.runs.empty()) continue;
            const long k = g.setup->publicBatch;
            for (long j = 0; j < k; ++j)
                batch[static_cast<std::size_t>(j)] = g.order.next(*g.stream);
            pass(g.runs, k, false, nullptr);
        }
        for (GroupRun* run : stepping) run->finishEpoch(t, data, run->finishStep(t));
    }
    std::vector<RunResult> results;
    for (auto& run : runs) results.push_back(run->finish(data));
    return results;
}

RunResult runLinearSgd(const LinearSgdSetup& s, const DataSplit& data, LinearSgdStreams streams,
                       const std::function<double(long)>& epsilonAfter, TrainingObserver& observer,
                       const CancelToken& cancel) {
    // A run on its own batches is a group of one on its own streams: the same steps.
    std::vector<RunResult> results =
        runLinearSgdGroup({{&s, &streams.noise, &streams.publicSampling, epsilonAfter, &observer}},
                          data, streams.sampling, cancel);
    return std::move(results.front());
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
            // A nested sample serves runs with any public rows; otherwise the public batch must
            // be alike too.
            const LinearSgdSetup& s = job.plan.setup;
            const std::string key =
                job.sharedBatches +
                (s.envelopeRate > 0.0 ? "" : "|public-batch=" + std::to_string(s.publicBatch)) +
                (s.singlePrecisionRows ? "|single" : "") +
                (s.singlePrecisionScores ? "|single-scores" : "");
            auto group = std::find_if(groups.begin(), groups.end(),
                                      [&](const auto& g) { return g.first == key; });
            if (group == groups.end()) group = groups.insert(groups.end(), {key, {}});
            group->second.push_back(i);
        }
    }
    for (const auto& [key, indices] : groups) {
        std::vector<LinearSgdMember> members;
        for (const std::size_t i : indices) {
            members.push_back({&jobs[i].plan.setup, &*jobs[i].noise, &*jobs[i].publicSampling,
                               jobs[i].epsilonAfter, observers[i]});
        }
        // Every member's sampling stream is alike; the first one's serves the group.
        LinearSgdJob& first = jobs[indices.front()];
        std::vector<RunResult> trained = runLinearSgdGroup(members, data, *first.sampling, cancel);
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
    // Each run planned by its own algorithm (dp-sgd-linear and semi-dp-sgd train together).
    for (const PreparedConfig& run : runs) {
        const auto* own =
            dynamic_cast<const LinearSgdAlgorithm*>(&findAlgorithm(run.config().algorithm));
        if (!own) throw std::logic_error("not a linear DP-SGD run: " + run.config().algorithm);
        jobs.push_back(own->job(run.config(), data));
    }
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
    s.singlePrecisionRows = kRowPrecision(config) != "double";
    s.singlePrecisionScores = kRowPrecision(config) == "single-scores";
    s.envelopeRate = nestedEnvelopeRate(config, static_cast<long>(train.rows()), nPrivate);
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
    in.nestedSample = s.envelopeRate > 0.0;
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

ParamSpec rowPrecisionParameter() {
    ParamDeclaration declaration =
        declare("row-precision", "Row precision", ParamKind::Choice,
                "how the training loop stores the training rows it reads at every step");
    declaration.defaultValue("double")
        .choices({{"double", "double (as loaded)", "the rows as loaded, 8 bytes per value"},
                  {"single", "single (faster)",
                   "a copy of the rows rounded to single precision (4 bytes per value, about 7 "
                   "significant digits, values beyond ±3.4e38 saturated; half the memory "
                   "traffic of each step, and half the features' memory more): scores and "
                   "gradients are still computed in double, "
                   "and each clip bounds the rounded row actually added, so the privacy "
                   "guarantee is unchanged"},
                  {"single-scores", "single scores (fastest)",
                   "the single-precision copy as above, and each row's score (its features times "
                   "the weights, which only sets how much of that row's gradient is added) "
                   "computed in single precision too: eight values per instruction, and the rows "
                   "read as stored; the gradients are still clipped and summed in double, so the "
                   "privacy guarantee is unchanged. Test errors move by about 1e-8 relative "
                   "(more in runs that do not settle), far less than between seeds. A score "
                   "beyond single precision's range (3.4e38) is computed in double"}})
        .advanced();
    // Added after run keys existed: in a key only when not double, so earlier runs keep theirs.
    declaration.spec().keyedWhenChanged = true;
    return declaration;
}

ParamSpec sharedSampleParameter() {
    ParamDeclaration declaration =
        declare("shared-sample", "Shared sample", ParamKind::Choice,
                "with batch-sharing by-seed: which runs draw one Poisson sample at each step");
    declaration.defaultValue("per-population")
        .choices({{"per-population", "per population",
                   "runs on the same private rows at the same rate (the same public share)"},
                  {"nested", "nested (faster)",
                   "every run on the same data with this seed, batch size and epochs, whatever its "
                   "public share: each training row draws one level per step, and a run's batch is "
                   "its private rows whose level falls below its own rate, so each run's batches "
                   "are still Poisson at its own rate over its own private rows and its ε is "
                   "unchanged; one pass over the rows serves the runs of every share. The ledger "
                   "charges such runs as one mechanism at the highest rate among them "
                   "(add/remove adjacency only)"}})
        .applies(AppliesPrivate)
        .advanced();
    // Added after run keys existed: in a key only when nested, so earlier runs keep theirs.
    declaration.spec().keyedWhenChanged = true;
    return declaration;
}

double nestedEnvelopeRate(const TrainConfig& config, long trainingRows, long privateRows) {
    if (kSharedSample(config) != "nested" || !drawsSharedBatches(config) ||
        config.adjacency != privacy::Adjacency::AddRemove || privateRows <= 0 || trainingRows <= 0)
        return 0.0;
    const long b = std::min<long>(config.batchSize, privateRows);
    const double rate = static_cast<double>(b) / static_cast<double>(privateRows);
    // Doublings of b/n are exact, so every run with the same batch and rows gets the same bits.
    double envelope =
        2.0 * static_cast<double>(config.batchSize) / static_cast<double>(trainingRows);
    while (envelope < rate && envelope < 1.0) envelope *= 2.0;
    return std::min(1.0, envelope);
}

void validateSharedSample(const TrainConfig& config) {
    if (kSharedSample(config) == "nested" && config.adjacency == privacy::Adjacency::Replace) {
        throw InputError(
            "shared-sample = nested needs adjacency add/remove: the joint accounting of runs on "
            "a nested sample is the add/remove one; use shared-sample = per-population");
    }
}

std::string nestedSamplePopulation(double envelopeRate) {
    return "nested sample of every training row at rate " + formatNumber(envelopeRate);
}

ParamSpec domainRadiusParameter() {
    return declare("domain-radius", "Domain radius D", ParamKind::Real,
                   "iterates are projected onto the ball of radius D around 0 (inf: none)")
        .above(0.0)
        .defaultValue("inf")
        .sweepable();
}

}  // namespace pfa
