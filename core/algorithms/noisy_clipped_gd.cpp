// noisy-clipped-gd: noisy clipped gradient descent for ridge-regularised linear regression on
// heavy-tailed data (thesis-algorithms.md §4.1, strongly convex version): one pass over
// disjoint batches of s = ⌊n/T⌋ rows, per-example gradients of the squared loss clipped to C,
// Gaussian noise on the batch mean, ridge term added after clipping, step sizes and weighted
// averaging as §4.1 [ours]. σ is calibrated in zCDP (§2.3A); the ε reported is the RDP
// accountant's for what ran (privacy-accounting.md §2.1, §4.1): each row is in one release.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/privacy/rdp_mechanisms.h"
#include "core/privacy/run_accountant.h"
#include "core/train/algorithm.h"
#include "core/train/config_validation.h"
#include "core/train/evaluator.h"
#include "core/train/private_run_report.h"
#include "core/train/run_streams.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

namespace {

/// Norm of an iterate that counts as diverged (standardised features: sensible models have
/// norms of order 1–100).
constexpr double kDivergedNorm = 1e6;

ParamSpec realParameter(const char* name, const char* label, const char* help, const char* defaultValue,
                        double min, bool minExclusive, double max = std::numeric_limits<double>::infinity()) {
    ParamSpec spec;
    spec.name = name;
    spec.label = label;
    spec.kind = ParamKind::Real;
    spec.help = help;
    spec.min = min;
    spec.minExclusive = minExclusive;
    spec.max = max;
    spec.defaultValue = defaultValue;
    spec.sweepable = true;
    spec.advanced = false;
    return ownParameter(std::move(spec));
}

class NoisyClippedGd final : public Algorithm {
public:
    std::string name() const override { return "noisy-clipped-gd"; }
    std::string description() const override {
        return "Ridge linear regression for heavy-tailed data: one pass of noisy clipped gradient "
               "descent over disjoint batches (differentially private per training row).";
    }
    AlgorithmCapabilities capabilities() const override {
        AlgorithmCapabilities can;
        can.privacy = true;
        can.task = Task::Regression;
        return can;
    }
    std::vector<ParamSpec> parameters() const override {
        std::vector<ParamSpec> list = commonParameters({"epsilon", "delta", "seed", "secure-noise"});
        list.push_back(realParameter("tail-index", "Tail index k",
                                     "k: the k-th moment of the per-example gradient norms is bounded (k ≥ 2)",
                                     "2.5", 2.0, false));
        list.push_back(realParameter("moment-bound", "Moment bound r_k",
                                     "r_k = (E‖∇f‖^k)^{1/k}: a PUBLIC bound given by the user, never estimated "
                                     "from the private rows",
                                     "1", 0.0, true));
        list.push_back(realParameter("ridge", "Ridge µ", "strong convexity: (µ/2)‖w‖² is added after clipping",
                                     "0.1", 0.0, true));
        list.push_back(realParameter("smoothness", "Smoothness β",
                                     "smoothness of the loss (2 for the squared loss on standardised features)",
                                     "2", 0.0, true));
        list.push_back(realParameter("domain-radius", "Domain radius D",
                                     "iterates are projected onto the ball of radius D around 0 (inf: none)",
                                     "inf", 0.0, true));
        ParamSpec steps;
        steps.name = "steps";
        steps.label = "Steps T";
        steps.kind = ParamKind::Integer;
        steps.help = "gradient steps, each on a fresh disjoint batch of ⌊n/T⌋ rows";
        steps.min = 1;
        steps.autoMeaning = "clamp(⌈4κ ln n⌉, 1, n), κ = β/µ";
        steps.autoValue = "0";
        steps.defaultValue = "0";
        steps.advanced = false;
        list.push_back(ownParameter(std::move(steps)));
        ParamSpec clip = realParameter("clip-norm", "Clip C", "per-example gradient norm bound", "0", 0.0, true);
        clip.autoMeaning = "private: r_k·(2ρ n²/(d T))^{1/(2k)}; not private: no clipping";
        clip.autoValue = "0";
        list.push_back(clip);
        return list;
    }

    void validate(const TrainConfig& config, const DataSplit& data) const override {
        requireNoFairness(config);
        const long n = static_cast<long>(data.train.rows());
        if (static_cast<long>(ownNumber(config, "steps")) > n) {
            throw InputError("steps = " + formatNumber(ownNumber(config, "steps")) +
                             " is invalid: at most one step per training row (" + std::to_string(n) + ")");
        }
    }

    TrainConfig resolve(const TrainConfig& requested, const DataSplit& data) const override {
        TrainConfig c = resolveDefaults(requested, data);
        const double n = static_cast<double>(data.train.rows());
        const double d = static_cast<double>(data.train.features() + 1);  // with the intercept
        if (ownNumber(c, "steps") == 0) {
            const double kappa = ownNumber(c, "smoothness") / ownNumber(c, "ridge");
            const double t = std::clamp(std::ceil(4.0 * kappa * std::log(n)), 1.0, n);
            c.extra["steps"] = std::to_string(static_cast<long>(t));
        }
        if (ownNumber(c, "clip-norm") == 0) {
            const double t = ownNumber(c, "steps");
            const double k = ownNumber(c, "tail-index");
            const double clip = c.isPrivate() ? ownNumber(c, "moment-bound") *
                                                    std::pow(2.0 * privacy::zcdpRho(c.epsilon, c.delta) * n * n / (d * t),
                                                             1.0 / (2.0 * k))
                                              : std::numeric_limits<double>::infinity();
            c.extra["clip-norm"] = realText(clip);
        }
        return c;
    }

    RunResult run(const PreparedConfig& prepared, const DataSplit& data, TrainingObserver& observer,
                  const CancelToken& cancel) const override {
        const auto start = std::chrono::steady_clock::now();
        const TrainConfig& config = prepared.config();
        const Dataset& train = data.train;
        const Eigen::Index n = train.rows(), d = train.features();
        const long T = static_cast<long>(ownNumber(config, "steps"));
        const long s = static_cast<long>(n) / T;
        const double mu = ownNumber(config, "ridge");
        const double kappa = ownNumber(config, "smoothness") / mu;
        const double radius = ownNumber(config, "domain-radius");
        const double C = ownNumber(config, "clip-norm");
        const bool isPrivate = config.isPrivate();
        const double rho = isPrivate ? privacy::zcdpRho(config.epsilon, config.delta) : INFINITY;
        // Replace-one: the mean of s clipped gradients moves by at most 2C/s; one release per row.
        const double sigma = isPrivate ? 2.0 * C / (static_cast<double>(s) * std::sqrt(2.0 * rho)) : 0.0;

        privacy::AccountingInputs inputs;
        inputs.unit = train.unitName;
        inputs.adjacency = privacy::Adjacency::Replace;
        inputs.kind = privacy::ReleaseKind::Gaussian;
        inputs.samplingRate = 1.0;
        inputs.noiseMultiplier = sigma * static_cast<double>(s) / (2.0 * C);  // = 1/√(2ρ)
        inputs.sensitivity = "2C (replace-one difference of a batch's clipped gradient sums)";
        inputs.stepsPerRelease = T;  // disjoint batches: each row is in one release (parallel composition)
        inputs.delta = config.delta;
        const privacy::RunAccountant accountant(inputs);
        const double epsilonPerStep = isPrivate ? accountant.after(1).epsilon : INFINITY;

        RunResult result;
        result.config = config;
        result.dataset = train.name;
        const Eigen::VectorXd y = regressionTargets(train);
        const RunStreams streams(config, train);
        RandomStream sampling = streams.stream(streams::kSampling);
        RandomStream noise = streams.stream(streams::kNoise);
        // A data-independent permutation cut into T disjoint batches of s rows.
        std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
        std::iota(order.begin(), order.end(), Eigen::Index{0});
        for (std::size_t i = order.size() - 1; i > 0; --i) std::swap(order[i], order[sampling.uniformIndex(i + 1)]);

        const double a = std::max(1.0, 4.0 * kappa);
        Eigen::VectorXd w = Eigen::VectorXd::Zero(d + 1), average = w, g(d + 1), xi(d + 1);
        double weightSum = 0.0;
        const long reportEvery = std::max(1L, T / 50);
        long clippedSince = 0, seenSince = 0;
        auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };

        for (long t = 0; t < T; ++t) {
            if (cancel.cancelled()) {
                result.status = RunStatus::Cancelled;
                result.message = "cancelled after " + std::to_string(t) + " steps";
                break;
            }
            g.setZero();
            double batchLoss = 0.0;
            for (long j = 0; j < s; ++j) {
                const Eigen::Index row = order[static_cast<std::size_t>(t * s + j)];
                xi.head(d) = train.X.row(row).transpose();
                xi(d) = 1.0;
                const double residual = w.dot(xi) - y(row);
                batchLoss += residual * residual;
                const double norm = 2.0 * std::abs(residual) * xi.norm();
                double scale = 2.0 * residual;
                if (norm > C) {
                    scale *= C / norm;
                    ++clippedSince;
                }
                g += scale * xi;
            }
            seenSince += s;
            g /= static_cast<double>(s);
            if (sigma > 0.0) {
                for (Eigen::Index i = 0; i <= d; ++i) g(i) += sigma * noise.normal();
            }
            g += mu * w;  // ridge after clipping, never clipped (w₀ = 0)
            const double eta = 2.0 / (mu * (static_cast<double>(t) + a));
            w -= eta * g;
            if (std::isfinite(radius) && w.norm() > radius) w *= radius / w.norm();
            const double zeta = static_cast<double>(t) + a;
            average += zeta * w;
            weightSum += zeta;
            result.steps = t + 1;

            // A check on the released iterate alone (post-processing, no privacy cost). The
            // step sizes assume β-smoothness; unclipped heavy-tailed rows break it and the
            // iterates then grow without bound long before they overflow.
            if (!w.allFinite() || w.norm() > kDivergedNorm) {
                result.status = RunStatus::Diverged;
                result.message = "the iterate's norm exceeded " + formatNumber(kDivergedNorm) + " at step " +
                                 std::to_string(t + 1) +
                                 ": the step sizes 2/(mu(t + a)) assume a beta-smooth loss, which rows with "
                                 "huge norms break when they are not clipped; set clip-norm or domain-radius, "
                                 "or raise smoothness";
                break;
            }
            StepInfo info;
            info.step = t + 1;
            info.epoch = 1;
            info.batchRows = s;
            info.batchLoss = batchLoss / static_cast<double>(s);
            bool stop = observer.onStep(info);
            if ((t + 1) % reportEvery == 0 || t + 1 == T) {
                const Eigen::VectorXd reported = average / weightSum;
                EpochMetrics m;
                m.epoch = static_cast<int>(result.history.size()) + 1;
                m.step = t + 1;
                m.trainLoss = evaluateRegression(train, reported).testMse;  // diagnostic: private rows
                m.trainObjective = m.trainLoss + 0.5 * mu * reported.squaredNorm();
                m.testError = evaluateRegression(data.test, reported).testMse;
                m.violation = m.dpGap = m.eoGap = m.eoppGap = m.ermiHard = m.ermiSoft = NAN;
                m.epsilonSpent = epsilonPerStep;
                m.clipFraction = seenSince ? static_cast<double>(clippedSince) / static_cast<double>(seenSince) : 0.0;
                m.seconds = elapsed();
                clippedSince = seenSince = 0;
                result.history.push_back(m);
                stop = observer.onEpochEnd(m) || stop;
            }
            if (stop && t + 1 < T) {
                result.status = RunStatus::Cancelled;
                result.message = "stopped after " + std::to_string(t + 1) + " steps";
                break;
            }
        }

        const Eigen::VectorXd reported = weightSum > 0 ? Eigen::VectorXd(average / weightSum) : w;
        result.theta = RowMatrix(1, d + 1);
        result.theta.row(0) = reported.transpose();
        if (result.status == RunStatus::Diverged) {
            result.regression.known = true;
        } else {
            result.regression = evaluateRegression(data.test, reported);
        }
        result.test = fairnessNotApplicable(static_cast<long>(data.test.rows()), result.regression.testMse);
        result.trainLoss = evaluateRegression(train, reported).testMse;
        result.seconds = elapsed();

        if (!isPrivate) {
            result.privacy = privacy::nonPrivateReport(name(), result.steps);
            return result;
        }
        describePrivateRun(result, accountant, train);
        privacy::PrivacyReport& report = result.privacy;
        report.algorithm = name();
        report.calibration = "σ = 2C/(s·√(2ρ)) from the zCDP calibration ρ(ε, δ) of the target ε; the ε stated is "
                             "the RDP accountant's for that σ (≤ target); r_k = " +
                             formatNumber(ownNumber(config, "moment-bound")) + " is a public constant given by the user";
        report.mechanism = "Gaussian, one release per row (disjoint batches, parallel composition)";
        report.sampling = "one pass over a data-independent permutation in " + std::to_string(T) +
                          " disjoint batches of " + std::to_string(s) + " rows";
        report.samplingRate = 1.0;
        report.expectedBatch = s;
        report.adjacency = "replace-one";
        report.noiseMultiplier = report.noiseMultiplierTheta = inputs.noiseMultiplier;
        report.sigmaTheta = sigma;
        report.clipTheta = C;
        report.clipDescription = "C = " + formatNumber(C) + " per example (squared-loss gradient, intercept included)";
        report.protectedData = "every column of each training row (features and target)";
        report.postProcessing = "the weighted average Σ ζ_t w_{t+1} / Σ ζ_t of the iterates, ζ_t = t + " +
                                formatNumber(a);
        report.statement = privacy::renderPrivacyStatement(report, "", "");
        return result;
    }
};

}  // namespace

std::unique_ptr<Algorithm> makeNoisyClippedGd() { return std::make_unique<NoisyClippedGd>(); }

}  // namespace pfa
