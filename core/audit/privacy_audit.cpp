#include "core/audit/privacy_audit.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>

#include "core/algorithms/registry.h"
#include "core/audit/audit_jobs.h"
#include "core/audit/clopper_pearson.h"
#include "core/audit/one_run_audit.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "core/util/random.h"
#include "core/util/utc_time.h"

namespace pfa::audit {

namespace {

/// Counts of `scores` the attack calls members: > threshold (or < threshold).
long countMembers(const std::vector<double>& sorted, double threshold, bool higher) {
    if (higher) {
        return static_cast<long>(sorted.end() -
                                 std::upper_bound(sorted.begin(), sorted.end(), threshold));
    }
    return static_cast<long>(std::lower_bound(sorted.begin(), sorted.end(), threshold) -
                             sorted.begin());
}

struct Trial {
    double score = 0.0;
    double epsilonSpent = 0.0;  // the accountant's ε of the run (claimed, for the broken one)
    double epsilonActual = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace

DataSplit withCanaries(const DataSplit& data, const std::vector<const Canary*>& canaries) {
    DataSplit split = data;
    Dataset& train = split.train;
    const Eigen::Index n = train.rows();
    const auto added = static_cast<Eigen::Index>(canaries.size());
    train.X.conservativeResize(n + added, Eigen::NoChange);
    train.y.conservativeResize(n + added);
    train.s.conservativeResize(n + added);
    for (Eigen::Index k = 0; k < added; ++k) {
        const Canary& canary = *canaries[static_cast<std::size_t>(k)];
        train.X.row(n + k) = canary.x.transpose();
        train.y(n + k) = canary.label;
        train.s(n + k) = canary.group;
    }
    return split;
}

std::string whiteBoxUnreachable(const std::string& algorithm) {
    return "the white-box audit reaches the clipped, noised gradient step of dp-sgd, dp-fermi "
           "and the other saddle-point methods; '" +
           algorithm + "' has no such step it can reach";
}

std::string auditApplicability(const AuditOptions& options, const DataSplit& data) {
    const TrainConfig& config = options.config;
    const Algorithm* algorithm = nullptr;
    try {
        algorithm = &findAlgorithm(config.algorithm);
    } catch (const InputError& error) {
        return error.what();
    }
    const AlgorithmCapabilities can = algorithm->capabilities();
    if (!can.privacy) {
        return "'" + config.algorithm +
               "' is not a private algorithm: it makes no ε claim an audit could test";
    }
    if (can.unit != PrivacyUnit::Record) {
        return "'" + config.algorithm + "' protects a whole " + privacyUnitName(can.unit) +
               "; the audit adds or removes a single record, which tests a record-level claim only";
    }
    if (can.task != Task::Classification) {
        return "'" + config.algorithm +
               "' is a regression method; the audit scores a canary's class margin and needs a "
               "classifier";
    }
    if (config.adjacency != privacy::Adjacency::AddRemove) {
        return "the run is analysed under replace-one adjacency; the audit adds or removes one "
               "record (add/remove adjacency), so it would test a claim the run does not make";
    }
    if (config.sampling && *config.sampling != Sampling::Poisson) {
        return samplingDescription(*config.sampling) +
               " are analysed under replace-one adjacency; the audit needs Poisson sampling "
               "(add/remove)";
    }
    if (data.train.userId.size() > 0 || data.train.silos) {
        return "the data set groups its rows by person or silo; the audit adds one anonymous "
               "record and needs data without people or silos";
    }
    if (data.train.isRegression()) return "the audit needs classification data";
    if (data.train.rows() < 10) return "the audit needs at least 10 training rows";
    if (!(options.brokenNoiseDivisor >= 1.0) || !std::isfinite(options.brokenNoiseDivisor)) {
        return "the broken-noise divisor must be a number ≥ 1 (1: the correct mechanism)";
    }
    if (options.brokenNoiseDivisor > 1.0 && config.algorithm != kAuditedAlgorithm) {
        return "the deliberately broken mechanism exists for dp-sgd only";
    }
    if (isOneRun(options.method)) {
        if (options.canaries < 10 || options.canaries > 1000000)
            return "a one-run audit needs between 10 and 1,000,000 canaries";
    } else if (options.modelsPerWorld < 4) {
        return "the audit needs at least 4 models per world (half choose the attack, half "
               "measure it)";
    }
    if (!(options.confidence > 0.0 && options.confidence < 1.0)) {
        return "the confidence must lie strictly between 0 and 1 (e.g. 0.95)";
    }
    if (options.epsilons.empty()) return "no target ε to audit";
    for (double epsilon : options.epsilons) {
        if (!(epsilon > 0.0) || !std::isfinite(epsilon)) {
            return "every audited ε must be a positive finite number (got " +
                   formatNumber(epsilon) + ")";
        }
    }
    return "";
}

CanaryLabeller::CanaryLabeller(const Dataset& train) : m_train(train) {
    m_counts.assign(static_cast<std::size_t>(std::max(1, train.numClasses())), 0);
    for (Eigen::Index i = 0; i < train.y.size(); ++i) {
        const int label = train.y(i);
        if (label >= 0 && label < static_cast<int>(m_counts.size()))
            ++m_counts[static_cast<std::size_t>(label)];
    }
    const Eigen::Index d = train.features();
    if (m_counts.size() != 2 || m_counts[0] == 0 || m_counts[1] == 0 || d == 0) return;
    Eigen::VectorXd mean0 = Eigen::VectorXd::Zero(d), mean1 = Eigen::VectorXd::Zero(d);
    for (Eigen::Index i = 0; i < train.rows(); ++i) {
        (train.y(i) == 1 ? mean1 : mean0) += train.X.row(i).transpose();
    }
    mean0 /= static_cast<double>(m_counts[0]);
    mean1 /= static_cast<double>(m_counts[1]);
    const Eigen::RowVectorXd mean = train.X.colwise().mean();
    const Eigen::MatrixXd centred = train.X.rowwise() - mean;
    Eigen::MatrixXd covariance =
        (centred.transpose() * centred) / static_cast<double>(train.rows());
    covariance.diagonal().array() += 1e-6;
    m_discriminant = covariance.ldlt().solve(mean1 - mean0);
    m_midpoint = 0.5 * (mean0 + mean1);
}

int CanaryLabeller::label(const Eigen::VectorXd& point) const {
    if (m_discriminant.size() > 0) return m_discriminant.dot(point - m_midpoint) > 0.0 ? 0 : 1;
    return static_cast<int>(std::min_element(m_counts.begin(), m_counts.end()) - m_counts.begin());
}

std::string CanaryLabeller::why() const {
    return m_discriminant.size() > 0
               ? "the class the rest of the data predicts against there (a flipped label)"
               : "the rarer class";
}

std::string CanaryLabeller::className(int label) const {
    return label < m_train.numClasses() ? m_train.classNames[static_cast<std::size_t>(label)]
                                        : std::to_string(label);
}

Canary makeCanary(const Dataset& train) {
    const Eigen::Index d = train.features();
    Canary canary;
    const Eigen::RowVectorXd mean = train.X.colwise().mean();
    Eigen::VectorXd direction = Eigen::VectorXd::Zero(d);
    if (d > 0) {
        const Eigen::MatrixXd centred = train.X.rowwise() - mean;
        const Eigen::MatrixXd covariance = (centred.transpose() * centred) /
                                           std::max<double>(1.0, static_cast<double>(train.rows()));
        const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(covariance);
        direction = solver.eigenvectors().col(0);  // eigenvalues ascending: least variance
        // Fix the eigenvector's sign so the canary does not depend on the solver's choice.
        Eigen::Index largest = 0;
        direction.cwiseAbs().maxCoeff(&largest);
        if (direction(largest) < 0.0) direction = -direction;
    }
    canary.x = mean.transpose() + kCanaryDistance * direction;
    // The label the rest of the data supports least at the canary's point, so that every
    // model keeps a large gradient on it.
    const CanaryLabeller labeller(train);
    canary.label = labeller.label(canary.x);
    canary.group = 0;
    canary.description = "one record far outside the data (distance " +
                         formatNumber(kCanaryDistance) +
                         " in standardised units, along the direction in which the training rows "
                         "vary least), labelled '" +
                         labeller.className(canary.label) + "': " + labeller.why();
    return canary;
}

double canaryScore(const RowMatrix& theta, const Canary& canary) {
    const Eigen::Index d = canary.x.size();
    if (theta.cols() != d + 1 || theta.rows() < 1) {
        throw InputError("canary score: the model has " + std::to_string(theta.cols()) +
                         " columns, the canary " + std::to_string(d) + " features + bias");
    }
    Eigen::VectorXd logits = theta.leftCols(d) * canary.x;
    if (logits.size() == 1) return (canary.label == 1 ? 1.0 : -1.0) * logits(0);
    double other = -std::numeric_limits<double>::infinity();
    for (Eigen::Index j = 0; j < logits.size(); ++j) {
        if (j != canary.label) other = std::max(other, logits(j));
    }
    return logits(canary.label) - other;
}

void evaluateAttack(const std::vector<double>& selectWith, const std::vector<double>& selectWithout,
                    const std::vector<double>& evalWith, const std::vector<double>& evalWithout,
                    double delta, double confidence, AuditPoint& point) {
    if (selectWith.empty() || selectWithout.empty() || evalWith.empty() || evalWithout.empty()) {
        throw InputError(
            "the attack needs scores of models with and without the canary in both halves");
    }
    // The error 1 − confidence is split between the two one-sided bounds (a union bound):
    // both hold together with probability ≥ confidence.
    const double alpha = (1.0 - confidence) / 2.0;
    auto sorted = [](std::vector<double> values) {
        std::sort(values.begin(), values.end());
        return values;
    };
    const std::vector<double> with = sorted(selectWith);
    const std::vector<double> without = sorted(selectWithout);
    std::vector<double> all = with;
    all.insert(all.end(), without.begin(), without.end());
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    std::vector<double> candidates;
    candidates.reserve(all.size() + 1);
    candidates.push_back(all.front() - 1.0);
    for (std::size_t i = 0; i + 1 < all.size(); ++i)
        candidates.push_back(0.5 * (all[i] + all[i + 1]));
    candidates.push_back(all.back() + 1.0);

    // The threshold that proves most on the selection half (ties: the larger TPR − FPR).
    const long nWith = static_cast<long>(with.size());
    const long nWithout = static_cast<long>(without.size());
    double bestBound = -1.0, bestGap = -2.0, bestThreshold = candidates.front();
    bool bestHigher = true;
    for (bool higher : {true, false}) {
        for (double threshold : candidates) {
            const long tp = countMembers(with, threshold, higher);
            const long fp = countMembers(without, threshold, higher);
            const double bound = epsilonLowerBound(clopperPearsonLower(tp, nWith, alpha),
                                                   clopperPearsonUpper(fp, nWithout, alpha), delta);
            const double gap = static_cast<double>(tp) / nWith - static_cast<double>(fp) / nWithout;
            if (bound > bestBound || (bound == bestBound && gap > bestGap)) {
                bestBound = bound;
                bestGap = gap;
                bestThreshold = threshold;
                bestHigher = higher;
            }
        }
    }

    // Measured once, on models the choice never saw: the bounds are valid for this threshold.
    const std::vector<double> testWith = sorted(evalWith);
    const std::vector<double> testWithout = sorted(evalWithout);
    point.selectionTrials = std::min(nWith, nWithout);
    point.evaluationTrials = static_cast<long>(std::min(testWith.size(), testWithout.size()));
    point.threshold = bestThreshold;
    point.higherMeansMember = bestHigher;
    point.truePositives = countMembers(testWith, bestThreshold, bestHigher);
    point.falsePositives = countMembers(testWithout, bestThreshold, bestHigher);
    const long n1 = static_cast<long>(testWith.size());
    const long n0 = static_cast<long>(testWithout.size());
    point.tpr = static_cast<double>(point.truePositives) / static_cast<double>(n1);
    point.fpr = static_cast<double>(point.falsePositives) / static_cast<double>(n0);
    point.tprLower = clopperPearsonLower(point.truePositives, n1, alpha);
    point.fprUpper = clopperPearsonUpper(point.falsePositives, n0, alpha);
    point.delta = delta;
    point.epsilonLower = epsilonLowerBound(point.tprLower, point.fprUpper, delta);
}

const char* auditMethodKey(AuditMethod method) {
    switch (method) {
        case AuditMethod::ManyModels:
            return "many-models";
        case AuditMethod::OneRunInput:
            return "one-run";
        case AuditMethod::OneRunGradient:
            return "white-box";
    }
    return "many-models";
}

std::string auditMethodName(AuditMethod method) {
    switch (method) {
        case AuditMethod::ManyModels:
            return "black box, many models, one canary";
        case AuditMethod::OneRunInput:
            return "black box, one run, many input canaries";
        case AuditMethod::OneRunGradient:
            return "white box, one run, gradient canaries";
    }
    return "";
}

AuditMethod auditMethodFromKey(const std::string& key) {
    for (AuditMethod method :
         {AuditMethod::ManyModels, AuditMethod::OneRunInput, AuditMethod::OneRunGradient}) {
        if (key == auditMethodKey(method)) return method;
    }
    throw InputError("unknown audit method '" + key + "' (known: many-models, one-run, white-box)");
}

AuditResult runPrivacyAudit(const AuditOptions& options, const DataSplit& data,
                            const CancelToken& cancel, const AuditProgress& progress) {
    if (isOneRun(options.method)) return runOneRunAudit(options, data, cancel, progress);
    const std::string problem = auditApplicability(options, data);
    if (!problem.empty()) throw InputError("privacy audit: " + problem);
    const Algorithm& algorithm = findAlgorithm(options.config.algorithm);

    AuditResult result = startAuditResult(options, algorithm, data.train);
    result.modelsPerWorld = options.modelsPerWorld;
    result.canary = makeCanary(data.train);
    result.score = "the canary's logit margin for its label under the released model";

    const DataSplit dataWith = withCanaries(data, {&result.canary});
    const int models = options.modelsPerWorld;
    const long perEpsilon = 2L * models;
    const unsigned threads = auditThreads(options);
    std::mutex progressMutex;
    AuditProgressCounter counter(progress, perEpsilon * static_cast<long>(options.epsilons.size()),
                                 progressMutex);

    for (double epsilon : options.epsilons) {
        if (cancel.cancelled()) break;
        // Resolved on D ∪ {canary}: both worlds train with the same batch size m, δ and
        // settings; only the data (and the seed) differ.
        const TrainConfig resolved = auditRunConfig(algorithm, options, epsilon, dataWith);

        std::vector<Trial> trials(static_cast<std::size_t>(perEpsilon));
        const auto start = std::chrono::steady_clock::now();
        runAuditJobs(perEpsilon, threads, cancel, [&](long job) {
            const int world = static_cast<int>(job % 2);  // 1: with the canary
            const long k = job / 2;
            TrainConfig config = resolved;
            config.seed = options.seed * 1000003ULL + 2ULL * static_cast<std::uint64_t>(k) +
                          static_cast<std::uint64_t>(world);
            const DataSplit& split = world == 1 ? dataWith : data;
            Trial& trial = trials[static_cast<std::size_t>(job)];
            TrainingObserver quiet;
            const AuditRun run =
                trainAuditRun(options, config, split, quiet, world == 1, cancel, progressMutex);
            trial.epsilonSpent = run.claimedEpsilon;
            trial.epsilonActual = run.actualEpsilon;
            if (run.cancelled) return;
            trial.score = canaryScore(run.result.theta, result.canary);
            counter.finished();
        });
        if (cancel.cancelled()) break;

        AuditPoint point = startAuditPoint(epsilon, start, perEpsilon);
        std::vector<double> selectWith, selectWithout, evalWith, evalWithout;
        const long half = models / 2;  // models 0 … half − 1 choose the attack
        for (long job = 0; job < perEpsilon; ++job) {
            const Trial& trial = trials[static_cast<std::size_t>(job)];
            const bool inWorld = job % 2 == 1;
            const bool selection = job / 2 < half;
            (inWorld ? point.scoresWith : point.scoresWithout).push_back(trial.score);
            auto& bucket = selection ? (inWorld ? selectWith : selectWithout)
                                     : (inWorld ? evalWith : evalWithout);
            bucket.push_back(trial.score);
            foldClaims(point, trial.epsilonSpent, trial.epsilonActual);
        }
        evaluateAttack(selectWith, selectWithout, evalWith, evalWithout, resolved.delta,
                       options.confidence, point);
        result.points.push_back(std::move(point));
    }
    result.cancelled = cancel.cancelled();
    result.finishedAt = utcNow();
    return result;
}

}  // namespace pfa::audit
