// dp-fermi: noisy stochastic descent–ascent on loss + λ·ERMI (dp-fermi.md §6.3, §7 and its
// "Decisions" block; accounting per privacy-accounting.md §8).
//
//  * conservative (default): whole-record mechanism of §7.5 — per-example clipping of both
//    streams, both noised, Poisson sampling, the joint noise multiplier solved by the RDP
//    accountant for ε − ε_π, W noise scaling with λ through C_W = 2λ(1/√ρ + R), and group
//    shares privatised once with Laplace noise (ε_π = 5% of ε, basic composition).
//  * published: the paper's closed-form constants (§7.4/§7.5), reproduced as published; the
//    ε the accountant certifies for those noise levels is reported next to the nominal one.
#include <algorithm>
#include <cmath>

#include "core/algorithms/saddle/saddle_point_trainer.h"
#include "core/config/algorithm.h"
#include "core/config/config_validation.h"
#include "core/engine/batch_sampler.h"
#include "core/engine/gaussian_mechanism.h"
#include "core/engine/laplace_mechanism.h"
#include "core/engine/private_run_report.h"
#include "core/engine/run_streams.h"
#include "core/fairness/penalty_layout.h"
#include "core/privacy/clipped_gaussian_calibration.h"
#include "core/privacy/closed_form_calibration.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "core/util/random.h"

namespace pfa {

namespace {

/// Public feature-norm bound used by `published` in the all-features scope when none is given
/// (the spec requires a constant chosen without looking at the data).
constexpr double kDefaultPublicFeatureBound = 5.0;

PenaltyLayout layoutFor(const TrainConfig& config, const Dataset& train) {
    return PenaltyLayout(config.fairness, train.numGroups(), train.numClasses(),
                         config.advantagedClass);
}

Eigen::VectorXd exactShares(const TrainConfig& config, const Dataset& train) {
    const PenaltyLayout layout = layoutFor(config, train);
    return layout.sharesFromCounts(layout.cellCounts(train.y, train.s));
}

/// dp-fermi.md §7.6: ñ = n + Laplace(2/ε_π) per cell (`mechanism`), π̃ = max(ρ, ñ / Σ_block ñ).
/// The block total is itself the sum of noisy counts, so no exact count is used under
/// add/remove. Cells whose share had to be raised to ρ are named in `warnings`.
Eigen::VectorXd privatisedShares(const TrainConfig& config, const Dataset& train,
                                 const LaplaceMechanism& mechanism, const RunStreams& runStreams,
                                 std::vector<std::string>& warnings) {
    const PenaltyLayout layout = layoutFor(config, train);
    Eigen::VectorXd noisy = layout.cellCounts(train.y, train.s);
    RandomStream random = runStreams.stream(streams::kShares);
    mechanism.addNoise(noisy, random);
    Eigen::VectorXd shares(noisy.size());
    const int k = layout.groups();
    for (int block = 0; block < layout.blocks(); ++block) {
        const double total = std::max(1.0, noisy.segment(block * k, k).sum());
        for (int r = 0; r < k; ++r) {
            const Eigen::Index cell = block * k + r;
            shares(cell) = std::max(config.minGroupShare, noisy(cell) / total);
            if (noisy(cell) / total < config.minGroupShare) {
                // The privatised share is public (post-processing), so naming it is safe.
                warnings.push_back(
                    layout.cellName(static_cast<int>(cell), train.classNames, train.groupNames) +
                    " has a privatised share of " + formatNumber(noisy(cell) / total, 3) +
                    ", below rho = " + formatNumber(config.minGroupShare) +
                    "; it was raised to rho (set a smaller public bound rho if you "
                    "know one)");
            }
        }
    }
    return shares;
}

/// The published analysis bounds 1/√π by 1/√ρ with the exact shares (dp-fermi.md §7.2
/// precondition 3): every group (cell) must hold at least the public share ρ of its rows.
/// Names the smallest group, its size and the minimum. (The conservative calibration needs no
/// such check: its privatised shares are floored at ρ and its clipping bounds every row.)
void requireGroupsAboveRho(const TrainConfig& config, const Dataset& train) {
    const PenaltyLayout layout = layoutFor(config, train);
    const Eigen::VectorXd counts = layout.cellCounts(train.y, train.s);
    const Eigen::VectorXd shares = layout.sharesFromCounts(counts);
    Eigen::Index cell = 0;
    const double smallest = shares.minCoeff(&cell);
    if (smallest >= config.minGroupShare) return;
    const int k = layout.groups();
    const double blockRows =
        counts.segment(layout.blockOfCell(static_cast<int>(cell)) * k, k).sum();
    const auto minimum = static_cast<long>(std::ceil(config.minGroupShare * blockRows));
    throw InputError(layout.cellName(static_cast<int>(cell), train.classNames, train.groupNames) +
                     " has " + std::to_string(static_cast<long>(counts(cell))) +
                     " training rows, too few for the published calibration's analysis: with the "
                     "public lower bound rho = " +
                     formatNumber(config.minGroupShare) +
                     " on group "
                     "shares it needs at least " +
                     std::to_string(minimum) +
                     " rows; lower rho "
                     "(--min-group-share) if a smaller public bound is justified, use the "
                     "conservative calibration (which has no such precondition), or use a coarser "
                     "sensitive attribute");
}

double maxRowNorm(const Dataset& train) {
    // ‖x̃‖ includes the bias coordinate 1.
    return std::sqrt((train.X.rowwise().squaredNorm().array() + 1.0).maxCoeff());
}

class DpFermi final : public Algorithm {
public:
    std::string name() const override { return "dp-fermi"; }
    std::string description() const override {
        return "Private fair training (DP-FERMI): loss + λ·ERMI by noisy descent–ascent with "
               "differential privacy at the chosen ε.";
    }
    AlgorithmCapabilities capabilities() const override {
        return {.privacy = true, .fairness = true};
    }
    std::vector<ParamSpec> parameters() const override {
        return commonParameters();  // every common setting is dp-fermi's
    }

    void validate(const TrainConfig& config, const DataSplit& data) const override {
        // A private run never refuses on the rows' counts (a refusal would itself tell about
        // them): its privatised shares are floored at ρ, so an empty cell is harmless.
        if (config.lambda > 0 && !config.isPrivate())
            requirePenaltyCellsPresent(config, data.train);
        if (!config.isPrivate()) return;
        requireShareableBatches(config);
        if (config.calibration == Calibration::Published) {
            if (config.lambda > 0) requireGroupsAboveRho(config, data.train);
            privacy::checkClosedFormPreconditions(closedFormInputs(config, data));
        }
    }

    AlgorithmPresentation presentation() const override {
        return {
            .marker = ChartMarker::Circle,
            .colour = 0x0072B2,
            .plainWords =
                "<b>DP-FERMI</b> is FERMI made differentially private. At every step it clips each "
                "row's gradient, so that no single person can move the model much, and adds "
                "Gaussian noise whose size the privacy accountant calibrates to the target ε and "
                "δ. The noise costs accuracy: a larger ε means less noise."};
    }

    RunResult run(const PreparedConfig& prepared, const DataSplit& data, TrainingObserver& observer,
                  const CancelToken& cancel) const override {
        const TrainConfig& config = prepared.config();
        if (const auto planned = planPrivate(config, data))
            return runPlanned(config, *planned, data, observer, cancel);
        return runNonPrivate(config, data, observer, cancel);
    }

private:
    static privacy::ClosedFormInputs closedFormInputs(const TrainConfig& config,
                                                      const DataSplit& data) {
        privacy::ClosedFormInputs in;
        in.epsilon = config.epsilon;
        in.delta = config.delta;
        in.rows = static_cast<double>(data.train.rows());
        in.batch = config.batchSize;
        in.steps = static_cast<double>(rowSampler(config, data.train).steps());
        in.minShare = config.minGroupShare;
        in.radius = config.wRadius;
        in.classes = data.train.numClasses();
        const double bound = publishedFeatureBound(config, data.train);
        in.lipschitz = data.train.numClasses() == 2 ? privacy::logisticLipschitz(bound)
                                                    : privacy::softmaxLipschitz(bound);
        return in;
    }

    static double publishedFeatureBound(const TrainConfig& config, const Dataset& train) {
        if (config.featureBound > 0) return config.featureBound;
        // Sensitive-only: features are public, so the observed bound is allowed (§7.3).
        return config.scope == ProtectionScope::SensitiveOnly ? maxRowNorm(train)
                                                              : kDefaultPublicFeatureBound;
    }

    std::vector<RunResult> runTogether(const std::vector<PreparedConfig>& runs,
                                       const DataSplit& data,
                                       const std::vector<TrainingObserver*>& observers,
                                       const CancelToken& cancel) const override {
        return runPlannedTogether(
            *this, runs, data, observers, cancel,
            [&](const TrainConfig& config) { return planPrivate(config, data); });
    }

    /// A private run's plan by its calibration, and its report; null for a non-private run.
    std::unique_ptr<PlannedSaddleRun> planPrivate(const TrainConfig& config,
                                                  const DataSplit& data) const {
        if (!config.isPrivate()) return nullptr;
        return config.calibration == Calibration::Published ? planPublished(config, data)
                                                            : planConservative(config, data);
    }

    RunResult runNonPrivate(const TrainConfig& config, const DataSplit& data,
                            TrainingObserver& observer, const CancelToken& cancel) const {
        TrainerPlan plan;
        plan.penalty = config.lambda > 0;
        plan.lambda = config.lambda;
        plan.shares = exactShares(config, data.train);
        plan.sampler = rowSampler(config, data.train);
        plan.radius = config.wRadius;
        plan.projection = config.projection;
        RunResult result = runSaddlePointTrainer(config, plan, data, observer, cancel);
        result.privacy = privacy::nonPrivateReport(name(), result.steps);
        return result;
    }

    /// The conservative run's plan, and its report for the result.
    std::unique_ptr<PlannedSaddleRun> planConservative(const TrainConfig& config,
                                                       const DataSplit& data) const {
        auto planned = std::make_unique<PlannedSaddleRun>();
        TrainerPlan& plan = planned->plan;
        const bool penalty = config.lambda > 0;
        // Shares are only needed (and only paid for) when the penalty is active.
        const double epsilonShares = penalty ? config.shareBudgetFraction * config.epsilon : 0.0;
        const double epsilonTrain = config.epsilon - epsilonShares;
        plan.sampler = rowSampler(config, data.train);
        // resolveDefaults made the adjacency replace-one for the sensitive-only scope.
        const privacy::ClippedGaussianCalibration calibration = privacy::calibrateClippedGaussian(
            plan.sampler, config.adjacency, epsilonTrain, config.delta);
        // The group-mass release has per-row sensitivity ‖F_i‖ ≤ 1 (no clipping); the clipped
        // gradient stream has C_W.
        const bool masses = penalty && config.wStream == WStream::GroupMasses;
        const double wSensitivity = masses ? 1.0 : config.clipW;
        // Equal split of the joint multiplier over the two streams (privacy-accounting §8
        // "rdp"): z_θ = z_W = √2·z gives 1/z_eff² = 1/z². Without a W-stream θ gets all of it.
        plan.noise =
            penalty ? GaussianMechanism::calibrated(calibration, config.clipTheta, wSensitivity)
                    : GaussianMechanism::calibrated(calibration, config.clipTheta);

        plan.penalty = penalty;
        plan.lambda = config.lambda;
        plan.clipping.enabled = true;
        plan.clipping.clipTheta = config.clipTheta;
        plan.clipping.clipW = config.clipW;
        plan.clipping.lossClipShare = config.lossClipShare;
        plan.clipping.wFromGroupMasses = masses;
        plan.radius = config.wRadius;
        plan.projection = Projection::Ball;  // required by the sensitivity bound (§7.4 (d))
        std::vector<std::string> shareWarnings;
        planned->streams = std::make_unique<RunStreams>(config, data.train);
        const RunStreams& runStreams = *planned->streams;
        plan.streams = &runStreams;
        if (penalty) {
            // ℓ1 sensitivity 2: a replaced record leaves one cell and joins another.
            const LaplaceMechanism sharesNoise(2.0, epsilonShares, "cell");
            plan.shares =
                privatisedShares(config, data.train, sharesNoise, runStreams, shareWarnings);
            plan.sideReleases.push_back(sharesNoise.release("group shares"));
        }

        planned->describe = [this, &plan, &train = data.train, penalty, epsilonShares, wSensitivity,
                             masses, shareWarnings](RunResult& result) {
            const TrainConfig& config = result.config;
            describeClippedGaussianRun(result, plan, train);
            privacy::PrivacyReport& report = result.privacy;
            report.algorithm = name();
            report.calibration = "conservative, RDP-calibrated";
            report.epsilonShares = epsilonShares;
            report.clipTheta = config.clipTheta;
            report.clipW = penalty ? wSensitivity : 0.0;
            report.clipDescription = "C_θ = " + formatNumber(config.clipTheta) + " per example";
            if (config.lossClipShare > 0) {
                report.clipDescription +=
                    " (loss part to " + formatNumber(config.lossClipShare * config.clipTheta) +
                    ", λ × penalty part to " +
                    formatNumber((1 - config.lossClipShare) * config.clipTheta) + ", separately)";
            }
            if (masses) {
                report.clipDescription +=
                    "; W-stream: noisy per-cell batch sums of predicted "
                    "probabilities (each row adds ‖F_i‖ ≤ 1 to one cell, no "
                    "clipping), from which λ·∇_W is computed";
            } else if (penalty) {
                report.clipDescription += ", C_W = " + formatNumber(config.clipW) + " per example";
            }
            if (penalty) {
                report.extraReleases =
                    "group shares via Laplace(2/ε₀), ε₀ = " + formatNumber(epsilonShares) +
                    ", floored at ρ = " + formatNumber(config.minGroupShare);
            }
            report.warnings.insert(report.warnings.end(), shareWarnings.begin(),
                                   shareWarnings.end());
            if (config.scope == ProtectionScope::SensitiveOnly) {
                // Neighbours differ in one record's sensitive attribute: a replacement. The
                // calibration clips and noises whole records, so it protects any replaced record.
                report.protectedData +=
                    " — this covers the 'sensitive attribute only' scope, whose "
                    "neighbouring data sets differ in one " +
                    train.unitName + "'s sensitive attribute (replace-one adjacency)";
            }
            report.statement = privacy::renderPrivacyStatement(report, "", "");
        };
        return planned;
    }

    /// The published run's plan, and its report for the result.
    std::unique_ptr<PlannedSaddleRun> planPublished(const TrainConfig& config,
                                                    const DataSplit& data) const {
        auto planned = std::make_unique<PlannedSaddleRun>();
        TrainerPlan& plan = planned->plan;
        const bool penalty = config.lambda > 0;
        const bool sensitiveOnly = config.scope == ProtectionScope::SensitiveOnly;
        const privacy::ClosedFormInputs in = closedFormInputs(config, data);
        const privacy::NoiseVariances variances =
            sensitiveOnly ? privacy::publishedSensitiveOnly(in) : privacy::publishedAllFeatures(in);
        const double sigmaTheta = std::sqrt(variances.theta);
        const double sigmaW = std::sqrt(variances.w);
        const double bound = publishedFeatureBound(config, data.train);

        // Published update: θ ← θ − η(gℓ + λ(gψ + u)), W ← Proj(W + η_w(λ gW + V)).
        plan.penalty = penalty;
        plan.lambda = config.lambda;
        plan.shares = exactShares(config, data.train);
        plan.sampler = rowSampler(config, data.train);
        plan.radius = config.wRadius;
        plan.projection = config.projection;
        plan.featureBound = bound;
        planned->streams = std::make_unique<RunStreams>(config, data.train);
        plan.streams = planned->streams.get();

        // What the accountant can certify for these noise levels (privacy-accounting.md §8).
        // The θ-noise u is drawn on g_ψ, whose batch sum the bound Δ_θ refers to, and scaled
        // with it by λ (post-processing); V is drawn on λ·g_W, bound λ·Δ_W.
        const double q = plan.sampler.samplingRate();
        NoiseStream theta{0.0, 0.0, sigmaTheta, config.lambda};
        NoiseStream w{0.0, 0.0, sigmaW, 1.0};
        privacy::AccountingInputs release;
        release.adjacency =
            sensitiveOnly ? privacy::Adjacency::Replace : privacy::Adjacency::AddRemove;
        std::string mechanism;
        if (sensitiveOnly && penalty) {
            // Difference bounds (no clipping) and an un-noised loss gradient: only the linear
            // amplification bound is certified.
            const double deltaTheta =
                std::sqrt(8.0) * in.lipschitz * in.radius / std::sqrt(in.minShare);
            const double deltaW = std::sqrt(8.0) / std::sqrt(in.minShare);
            theta.sensitivity = deltaTheta;
            w.sensitivity = config.lambda * deltaW;
            if (plan.sampler.mode == Sampling::Shuffle) {
                // Each row sits in one batch per epoch: one unamplified release per epoch.
                release.kind = privacy::ReleaseKind::Gaussian;
                release.stepsPerRelease = plan.sampler.stepsPerEpoch();
            } else {
                release.kind = privacy::ReleaseKind::LinearAmplification;
                release.samplingRate = q;
            }
            release.sensitivity =
                "difference bounds Δ_θ = √8·L_θ·R/√ρ = " + formatNumber(deltaTheta) +
                " and λ·Δ_W = λ·√8/√ρ = " + formatNumber(config.lambda * deltaW) + " (joint)";
            mechanism =
                "subsampled Gaussian, linear amplification bound (the un-noised batch loss "
                "gradient rules out the tighter subsampling analysis)";
        } else if (sensitiveOnly) {
            // λ = 0: nothing computed from the sensitive attribute is used or released.
            release.kind = privacy::ReleaseKind::NoRelease;
            mechanism = "no release depends on the sensitive attribute (λ = 0)";
        } else {
            // No bound is known for the streams (Δ = 0): the joint multiplier is +∞ and unused.
            release.kind = privacy::ReleaseKind::Uncertifiable;
            mechanism =
                "the loss gradient of private features and labels is released without "
                "noise, so no guarantee can be certified";
        }
        plan.noise = penalty
                         ? GaussianMechanism::withNoise(plan.sampler, release, mechanism, theta, w)
                         : GaussianMechanism::withNoise(plan.sampler, release, mechanism, theta);

        planned->describe = [this, &plan, &data, in, bound, sensitiveOnly, penalty,
                             q](RunResult& result) {
            const TrainConfig& config = result.config;
            privacy::PrivacyReport& report = result.privacy;
            report.algorithm = name();
            report.calibration = "published — as published, known accounting gaps";
            report.knownGaps = true;
            report.epsilonNominal = config.epsilon;
            describePrivateRun(result, *planAccountant(plan, config.delta, data.train.unitName),
                               data.train);
            describeNoise(report, plan.noise);
            report.accounting.sharedBatches = sharedBatchesOf(plan, config, data.train);
            report.samplingRate = q;
            report.expectedBatch = plan.sampler.batchSize;
            report.sampling = samplingDescription(plan.sampler.mode);
            report.mechanism = plan.noise.description();
            report.adjacency =
                sensitiveOnly ? "replace-one (one sensitive attribute changed)" : "add/remove-one";
            report.protectedData =
                sensitiveOnly ? "only the sensitive attribute '" + data.train.sensitiveDescription +
                                    "' — features and labels are treated as public"
                              : wholeRecordProtection(data.train) + " (nominally; see the caveat)";
            report.clipDescription =
                "none (Lipschitz bounds; feature norm bound B = " + formatNumber(bound) +
                ", L_θ = " + formatNumber(in.lipschitz) + ", R = " + formatNumber(in.radius) +
                ", ρ = " + formatNumber(in.minShare) + ")";
            if (report.epsilonSpent > config.epsilon) {
                report.warnings.push_back(
                    "the accountant certifies ε = " + formatNumber(report.epsilonSpent) +
                    ", more than the nominal ε = " + formatNumber(config.epsilon) +
                    " of the published calibration");
            }
            if (!sensitiveOnly) {
                report.warnings.push_back(
                    "published all-features calibration does not cover the loss "
                    "gradient (at λ = 0 it adds no noise at all)");
            }
            if (penalty) {
                report.uncoveredReleases.push_back(
                    "the exact group shares used in ψ (the published calibration uses them without "
                    "noise: a further release of the sensitive attribute that its ε does not "
                    "charge)");
            }
            report.statement = privacy::renderPrivacyStatement(report, "", "");
        };
        return planned;
    }
};

}  // namespace

std::unique_ptr<Algorithm> makeDpFermi() { return std::make_unique<DpFermi>(); }

}  // namespace pfa
