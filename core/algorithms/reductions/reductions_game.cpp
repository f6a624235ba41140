#include "core/algorithms/reductions/reductions_game.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "core/engine/run_streams.h"
#include "core/privacy/accounting_inputs.h"
#include "core/util/error.h"
#include "core/util/linear_program.h"

namespace pfa::reductions {

namespace {

/// |A| of the reference formulas: the number of groups.
constexpr double kGroups = 2.0;

}  // namespace

Cells::Cells(FairnessNotion notion, int groups, int classes)
    : m_eo(notion == FairnessNotion::EqualizedOdds), m_groups(groups), m_classes(classes) {
    if (notion != FairnessNotion::DemographicParity && notion != FairnessNotion::EqualizedOdds) {
        throw InputError(
            "DP reductions constrain demographic parity (dp) or equalized odds (eo), "
            "not '" +
            fairnessCode(notion) + "'");
    }
    if (groups != 2) {
        throw InputError(
            "DP reductions support exactly 2 groups (as the method's sources); the "
            "data has " +
            std::to_string(groups) +
            " — merge groups or pick a two-valued "
            "sensitive attribute");
    }
    if (classes != 2) {
        throw InputError("DP reductions need a binary label; the data has " +
                         std::to_string(classes) + " classes");
    }
}

Eigen::VectorXd Cells::counts(const Eigen::VectorXi& y, const Eigen::VectorXi& s) const {
    Eigen::VectorXd n = Eigen::VectorXd::Zero(count());
    for (Eigen::Index i = 0; i < y.size(); ++i) n(cellOf(y(i), s(i))) += 1.0;
    return n;
}

Eigen::VectorXd lambdaFromTheta(const Eigen::VectorXd& theta, double bound) {
    // Shift by the largest exponent (at least the slack's 0) so that nothing overflows.
    const double top = std::max(0.0, theta.maxCoeff());
    const Eigen::VectorXd e = (theta.array() - top).exp().matrix();
    return bound * e / (std::exp(-top) + e.sum());
}

Eigen::VectorXd signedLambda(const Eigen::VectorXd& lambda) {
    const Eigen::Index cells = lambda.size() / 2;
    return lambda.head(cells) - lambda.tail(cells);
}

void signedWeights(const Cells& cells, const Eigen::VectorXd& lambdaTilde, const Shares& shares,
                   const Eigen::VectorXi& y, const Eigen::VectorXi& s, Eigen::VectorXd& r) {
    // The parent term Σ_{a'} λ̃_{(a',y)}/P_y per label (DP: Σ_a λ̃_a, one parent of share 1).
    double parent[2] = {0.0, 0.0};
    if (cells.equalizedOdds()) {
        for (int label = 0; label < 2; ++label) {
            double sum = 0.0;
            for (int a = 0; a < cells.groups(); ++a) sum += lambdaTilde(cells.cellOf(label, a));
            parent[label] = sum / shares.label(label);
        }
    } else {
        parent[0] = parent[1] = lambdaTilde.sum();
    }
    for (Eigen::Index i = 0; i < y.size(); ++i) {
        const int j = cells.cellOf(y(i), s(i));
        r(i) = (2.0 * y(i) - 1.0) - lambdaTilde(j) / shares.cell(j) + parent[y(i)];
    }
}

Eigen::VectorXd cellViolations(const Cells& cells, const Eigen::VectorXd& h,
                               const Eigen::VectorXi& y, const Eigen::VectorXi& s) {
    const int k = cells.count();
    Eigen::VectorXd cellSum = Eigen::VectorXd::Zero(k), cellRows = Eigen::VectorXd::Zero(k);
    double labelSum[2] = {0.0, 0.0}, labelRows[2] = {0.0, 0.0};
    for (Eigen::Index i = 0; i < y.size(); ++i) {
        const int j = cells.cellOf(y(i), s(i));
        cellSum(j) += h(i);
        cellRows(j) += 1.0;
        const int parent = cells.equalizedOdds() ? y(i) : 0;
        labelSum[parent] += h(i);
        labelRows[parent] += 1.0;
    }
    Eigen::VectorXd gamma(k);
    for (int j = 0; j < k; ++j) {
        const int parent = cells.equalizedOdds() ? cells.parentLabel(j) : 0;
        if (cellRows(j) == 0.0 || labelRows[parent] == 0.0) {
            gamma(j) = 0.0;
            continue;
        }
        gamma(j) = cellSum(j) / cellRows(j) - labelSum[parent] / labelRows[parent];
    }
    return gamma;
}

Eigen::MatrixXd designWithBias(const FeatureMatrix& X) { return X.withBias(); }

double maxRowNorm2(const Eigen::MatrixXd& design) {
    if (design.rows() == 0) return 0.0;
    return design.rowwise().norm().maxCoeff();
}

LearnerFactor learnerFactor(const Eigen::MatrixXd& design) {
    const Eigen::Index p = design.cols();
    Eigen::MatrixXd gram = Eigen::MatrixXd::Zero(p, p);
    gram.selfadjointView<Eigen::Lower>().rankUpdate(design.transpose());
    gram = gram.selfadjointView<Eigen::Lower>();
    LearnerFactor out;
    // A small ridge keeps the solve well posed when features are collinear (one-hot levels).
    out.mu = 1e-6 * gram.trace() / static_cast<double>(p);
    gram.diagonal().array() += out.mu;
    out.factor.compute(gram);
    return out;
}

std::shared_ptr<const ReductionsData> reductionsData(const Dataset& train, const Dataset& test) {
    // Kept while a run holds it (as the designs of sharedDesignMatrix), and the most recent
    // one also between runs when it is small (a sweep's runs follow one another), built under
    // the lock: runs starting at once on the same rows must not build it twice.
    using Key = std::pair<std::uint64_t, std::uint64_t>;
    constexpr double kKeptBytes = 256.0 * 1024 * 1024;
    static std::mutex mutex;
    static std::map<Key, std::weak_ptr<const ReductionsData>> held;
    static std::shared_ptr<const ReductionsData> lastSmall;
    const Key key{knownOrNewFingerprint(train), knownOrNewFingerprint(test)};
    const std::lock_guard<std::mutex> lock(mutex);
    for (auto it = held.begin(); it != held.end();)
        it = it->second.expired() ? held.erase(it) : std::next(it);
    if (const auto found = held.find(key); found != held.end()) {
        if (auto data = found->second.lock()) return data;
    }
    auto data = std::make_shared<ReductionsData>();
    data->design = designWithBias(train.X);
    data->testDesign = designWithBias(test.X);
    data->rowNorm = maxRowNorm2(data->design);
    data->learner = learnerFactor(data->design);
    std::shared_ptr<const ReductionsData> shared = std::move(data);
    held[key] = shared;
    const double bytes =
        8.0 * static_cast<double>(shared->design.size() + shared->testDesign.size());
    lastSmall = bytes <= kKeptBytes ? shared : nullptr;
    return shared;
}

NoisyLeastSquares::NoisyLeastSquares(const Eigen::MatrixXd& design)
    : m_design(design), m_own(learnerFactor(design)), m_factor(m_own) {
    m_stat.resize(design.cols());
}

NoisyLeastSquares::NoisyLeastSquares(const Eigen::MatrixXd& design, const LearnerFactor& factor)
    : m_design(design), m_factor(factor) {
    m_stat.resize(design.cols());
}

void NoisyLeastSquares::solve(const Eigen::VectorXd& r, double noiseStd, RandomStream& random,
                              Eigen::VectorXd& w) {
    solve(r, learnerRelease(0.0, noiseStd), random, w);
}

void NoisyLeastSquares::solve(const Eigen::VectorXd& r, const privacy::ReleaseSpec& release,
                              RandomStream& random, Eigen::VectorXd& w) {
    m_stat.noalias() = m_design.transpose() * r;
    privacy::releaseGaussian(release, m_stat, random);
    w = m_factor.factor.solve(m_stat);
}

privacy::ReleaseSpec learnerRelease(double sensitivity, double noiseStd) {
    return privacy::ReleaseSpec::gaussian("learner-statistic", sensitivity, noiseStd);
}

privacy::ReleaseSpec auditorRelease(double sensitivity, double noiseStd) {
    return privacy::ReleaseSpec::gaussian("auditor-cell-sums", sensitivity, noiseStd);
}

void auditorViolations(const Cells& cells, const Eigen::VectorXd& h, const Eigen::VectorXi& y,
                       const Eigen::VectorXi& s, const Shares& shares, double noiseStd,
                       RandomStream& random, Eigen::VectorXd& gamma) {
    auditorViolations(cells, h, y, s, shares, auditorRelease(0.0, noiseStd), random, gamma);
}

void auditorViolations(const Cells& cells, const Eigen::VectorXd& h, const Eigen::VectorXi& y,
                       const Eigen::VectorXi& s, const Shares& shares,
                       const privacy::ReleaseSpec& release, RandomStream& random,
                       Eigen::VectorXd& gamma) {
    const int k = cells.count();
    const double n = static_cast<double>(y.size());
    double cellSum[16] = {};
    double labelSum[2] = {0.0, 0.0};
    for (Eigen::Index i = 0; i < y.size(); ++i) {
        const int j = cells.cellOf(y(i), s(i));
        cellSum[j] += h(i);
        labelSum[cells.equalizedOdds() ? y(i) : 0] += h(i);
    }
    Eigen::Map<Eigen::VectorXd> noisySums(cellSum, k);
    privacy::releaseGaussian(release, noisySums, random);
    for (int j = 0; j < k; ++j) {
        const double noisy = cellSum[j];
        const double parent = cells.equalizedOdds() ? labelSum[cells.parentLabel(j)] /
                                                          (n * shares.label(cells.parentLabel(j)))
                                                    : labelSum[0] / n;
        gamma(j) = noisy / (n * shares.cell(j)) - parent;
    }
}

void updateTheta(Eigen::VectorXd& theta, const Eigen::VectorXd& gammaTilde, double step,
                 double tolerance) {
    const Eigen::Index cells = gammaTilde.size();
    theta.head(cells).array() += step * (gammaTilde.array() - tolerance);
    theta.tail(cells).array() += step * (-gammaTilde.array() - tolerance);
}

long referenceRounds(double bound, long n, long features, double epsilon, double delta,
                     double beta) {
    const double nn = static_cast<double>(n);
    const double V = static_cast<double>(features) + 1.0;
    const double numerator = bound * std::sqrt(std::log(4.0 * kGroups - 3.0)) * nn * epsilon;
    const double denominator = 2.0 * (2.0 * bound * kGroups + 1.0) *
                               std::sqrt(std::log(1.0 / delta)) *
                               (V * std::log(nn) + std::log(2.0 / beta));
    const double T = std::floor(numerator / denominator);
    if (!(T >= 1.0)) return 1;
    return T > 1e9 ? 1000000000L : static_cast<long>(T);
}

double referenceStep(long rounds, double bound) {
    return 0.5 * std::sqrt(std::log(4.0 * kGroups - 3.0) / static_cast<double>(rounds)) / bound;
}

double solveMultiplier(long rounds, double epsilonRounds, double delta) {
    privacy::AccountingInputs shape;
    shape.kind = privacy::ReleaseKind::Gaussian;
    shape.adjacency = privacy::Adjacency::Replace;
    shape.samplingRate = 1.0;
    shape.stepsPerRelease = 1;
    shape.steps = 2 * rounds;
    shape.delta = delta;
    return privacy::solveNoiseMultiplierFor(shape, 1.0, epsilonRounds);
}

Noise noiseFor(double z, double rowNorm, double bound, double minShare) {
    Noise noise;
    noise.z = z;
    noise.learnerSensitivity = rowNorm * bound / minShare;
    noise.auditorSensitivity = std::sqrt(2.0);
    noise.learnerStd = z * noise.learnerSensitivity;
    noise.auditorStd = z * noise.auditorSensitivity;
    return noise;
}

double learnerSensitivity(const Cells& cells, const Eigen::VectorXd& lambdaTilde,
                          const Shares& shares, double rowNorm) {
    double largest = 0.0;
    const int labels = cells.equalizedOdds() ? 2 : 1;
    for (int label = 0; label < labels; ++label) {
        for (int a = 0; a < cells.groups(); ++a) {
            for (int b = a + 1; b < cells.groups(); ++b) {
                const int j = cells.equalizedOdds() ? cells.cellOf(label, a) : a;
                const int k = cells.equalizedOdds() ? cells.cellOf(label, b) : b;
                largest = std::max(largest, std::abs(lambdaTilde(j) / shares.cell(j) -
                                                     lambdaTilde(k) / shares.cell(k)));
            }
        }
    }
    return rowNorm * largest;
}

GameOutcome playGame(const Cells& cells, const GameSettings& settings,
                     const Eigen::MatrixXd& design, const Eigen::VectorXi& y,
                     const Eigen::VectorXi& s, const Shares& shares, RandomStream& random,
                     const std::function<bool()>& stopBefore, const RoundHook& afterRound,
                     const LearnerFactor* factor) {
    const Eigen::Index n = design.rows();
    const int k = cells.count();
    GameOutcome out;
    out.theta = Eigen::VectorXd::Zero(2 * k);
    out.w.reserve(static_cast<std::size_t>(std::min<long>(settings.rounds, 100000)));
    std::optional<NoisyLeastSquares> ownLearner, sharedLearner;
    NoisyLeastSquares& learner =
        factor ? sharedLearner.emplace(design, *factor) : ownLearner.emplace(design);
    Eigen::VectorXd r(n), scores(n), h(n), gamma(k), w;
    for (long t = 1; t <= settings.rounds; ++t) {
        if (stopBefore && stopBefore()) break;
        const Eigen::VectorXd lambdaTilde =
            signedLambda(lambdaFromTheta(out.theta, settings.bound));
        signedWeights(cells, lambdaTilde, shares, y, s, r);
        double sensitivity = settings.learnerSensitivity, noiseStd = settings.learnerStd;
        if (settings.learnerMultiplier > 0.0) {
            sensitivity = learnerSensitivity(cells, lambdaTilde, shares, settings.rowNorm);
            noiseStd = settings.learnerMultiplier * sensitivity;
        }
        out.largestLearnerStd = std::max(out.largestLearnerStd, noiseStd);
        learner.solve(r, learnerRelease(sensitivity, noiseStd), random, w);
        scores.noalias() = design * w;
        h = (scores.array() > 0.0).cast<double>().matrix();
        auditorViolations(cells, h, y, s, shares,
                          auditorRelease(settings.auditorSensitivity, settings.auditorStd), random,
                          gamma);
        updateTheta(out.theta, gamma, settings.step, settings.tolerance);
        out.w.push_back(w);
        out.trainErrors.push_back((h - y.cast<double>()).cwiseAbs().mean());
        out.violations.push_back(gamma);
        out.rounds = t;
        if (afterRound && afterRound(t, out)) break;
    }
    return out;
}

Eigen::VectorXd mixtureProbability(const std::vector<Eigen::VectorXd>& plays,
                                   const Eigen::MatrixXd& design) {
    Eigen::VectorXd votes = Eigen::VectorXd::Zero(design.rows());
    if (plays.empty()) return votes;
    Eigen::VectorXd scores(design.rows());
    for (const Eigen::VectorXd& w : plays) {
        scores.noalias() = design * w;
        votes.array() += (scores.array() > 0.0).cast<double>();
    }
    return votes / static_cast<double>(plays.size());
}

Eigen::VectorXd bestMixtureWeights(const GameOutcome& soFar, double tolerance, double bound,
                                   double positiveShare) {
    const Eigen::Index plays = static_cast<Eigen::Index>(soFar.trainErrors.size());
    if (plays == 0) return {};
    const Eigen::Index cells = soFar.violations.front().size();
    // Variables: Q_1 … Q_T, "always 0", "always 1", then the slack s.
    const Eigen::Index candidates = plays + 2, slack = candidates;
    LinearProgram lp;
    lp.cost.resize(candidates + 1);
    for (Eigen::Index t = 0; t < plays; ++t) lp.cost(t) = soFar.trainErrors[t];
    lp.cost(plays) = positiveShare;
    lp.cost(plays + 1) = 1.0 - positiveShare;
    lp.cost(slack) = bound;
    lp.upperRows.resize(2 * cells, candidates + 1);
    for (Eigen::Index t = 0; t < plays; ++t) {
        const Eigen::VectorXd& gamma = soFar.violations[static_cast<std::size_t>(t)];
        lp.upperRows.col(t).head(cells) = gamma.array() - tolerance;
        lp.upperRows.col(t).tail(cells) = -gamma.array() - tolerance;
    }
    // A constant predicts the same in every cell: no violation.
    lp.upperRows.col(plays).setConstant(-tolerance);
    lp.upperRows.col(plays + 1).setConstant(-tolerance);
    lp.upperRows.col(slack).setConstant(-1.0);
    lp.upperBounds = Eigen::VectorXd::Zero(2 * cells);
    lp.equalRows = Eigen::RowVectorXd::Ones(candidates + 1);
    lp.equalRows(0, slack) = 0.0;
    lp.equalBounds = Eigen::VectorXd::Ones(1);
    lp.lower = Eigen::VectorXd::Zero(candidates + 1);
    lp.upper = Eigen::VectorXd::Constant(candidates + 1, INFINITY);
    Eigen::VectorXd x;
    if (solveLinearProgram(lp, x) != LinearProgramStatus::Optimal) {
        // Always feasible (any Q with a large enough slack) and bounded below (costs ≥ 0).
        throw std::runtime_error("the linear program of the reductions' mixture failed (GLPK)");
    }
    Eigen::VectorXd weights = x.head(candidates).cwiseMax(0.0);
    return weights / weights.sum();
}

Eigen::VectorXd weightedMixtureProbability(const std::vector<Eigen::VectorXd>& plays,
                                           const Eigen::VectorXd& weights,
                                           const Eigen::MatrixXd& design) {
    const Eigen::Index count = static_cast<Eigen::Index>(plays.size());
    Eigen::VectorXd probability = Eigen::VectorXd::Zero(design.rows());
    for (Eigen::Index t = 0; t < count; ++t) {
        const double q = weights(t);
        if (q > 0.0)
            probability.array() +=
                q * ((design * plays[static_cast<std::size_t>(t)]).array() > 0.0).cast<double>();
    }
    if (weights.size() == count + 2) probability.array() += weights(count + 1);  // always 1
    return probability;
}

Eigen::VectorXd weightedMixtureOfPredictions(
    const std::vector<std::vector<std::uint8_t>>& predictions, const Eigen::VectorXd& weights,
    Eigen::Index rows) {
    const Eigen::Index count = static_cast<Eigen::Index>(predictions.size());
    Eigen::VectorXd probability = Eigen::VectorXd::Zero(rows);
    for (Eigen::Index t = 0; t < count; ++t) {
        const double q = weights(t);
        if (!(q > 0.0)) continue;
        const std::uint8_t* predicted = predictions[static_cast<std::size_t>(t)].data();
        for (Eigen::Index i = 0; i < rows; ++i)
            probability(i) += q * static_cast<double>(predicted[i]);
    }
    if (weights.size() == count + 2) probability.array() += weights(count + 1);  // always 1
    return probability;
}

}  // namespace pfa::reductions
