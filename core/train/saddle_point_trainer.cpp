#include "core/train/saddle_point_trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

#include "core/fairness/ermi.h"
#include "core/fairness/ermi_penalty.h"
#include "core/model/model.h"
#include "core/train/batch_sampler.h"
#include "core/train/run_streams.h"
#include "core/util/error.h"
#include "core/util/random.h"

namespace pfa {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
/// Rows per chunk of a batch: 32 rows of ~100 features stay in L1/L2 between the forward
/// and the backward pass.
constexpr long kChunkRows = 32;
/// How many rows ahead of the forward pass to prefetch.
constexpr long kPrefetchRows = 4;

/// Features with the bias column appended (x̃), optionally rescaled to ‖x̃‖ ≤ B, and the row
/// norms used for per-example clipping.
struct DesignMatrix {
    RowMatrix X;
    Eigen::VectorXd norms;
    Eigen::VectorXd squaredNorms;
};

/// Requests every cache line of row i of X ahead of its use.
inline void prefetchRow(const RowMatrix& X, long i) {
    const char* begin = reinterpret_cast<const char*>(X.data() + i * X.cols());
    const char* end = begin + X.cols() * static_cast<long>(sizeof(double));
    for (const char* line = begin; line < end; line += 64) __builtin_prefetch(line);
}

DesignMatrix augment(const RowMatrix& features, double bound) {
    DesignMatrix design;
    design.X.resize(features.rows(), features.cols() + 1);
    design.X.leftCols(features.cols()) = features;
    design.X.col(features.cols()).setOnes();
    design.norms = design.X.rowwise().norm();
    if (bound > 0.0) {
        for (Eigen::Index i = 0; i < design.X.rows(); ++i) {
            if (design.norms(i) > bound) {
                design.X.row(i) *= bound / design.norms(i);
                design.norms(i) = bound;
            }
        }
    }
    design.squaredNorms = design.norms.array().square();
    return design;
}

/// Full-pass evaluation buffers for one data set (allocated once per run).
class Evaluator {
public:
    Evaluator(const Dataset& data, const DesignMatrix& design, const Model& model)
        : m_data(data),
          m_design(design),
          m_model(model),
          m_Z(data.rows(), model.scoreDimension()),
          m_F(data.rows(), model.classes()),
          m_loss(data.rows()),
          m_scoreGradient(data.rows(), model.scoreDimension()),
          m_predicted(data.rows()) {}

    /// Mean cross-entropy at θ (also leaves probabilities and predictions in the buffers).
    double meanLoss(const RowMatrix& theta) {
        if (m_data.rows() == 0) return kNaN;
        m_Z.noalias() = m_design.X * theta.transpose();
        m_model.probabilities(m_Z, m_F);
        m_model.lossAndScoreGradient(m_Z, m_F, m_data.y, m_loss, m_scoreGradient);
        Model::predict(m_F, m_predicted);
        return m_loss.mean();
    }

    FairnessMetrics fairness(int advantagedClass) const {
        return evaluateFairness(m_predicted, m_F, m_data.y, m_data.s, m_data.groupNames,
                                m_data.numClasses(), advantagedClass);
    }

    double softErmi(FairnessNotion notion, int advantagedClass) const {
        return Ermi::soft(notion, m_F, m_data.s, m_data.y, m_data.numGroups(), advantagedClass);
    }

private:
    const Dataset& m_data;
    const DesignMatrix& m_design;
    const Model& m_model;
    RowMatrix m_Z, m_F;
    Eigen::VectorXd m_loss;
    RowMatrix m_scoreGradient;
    Eigen::VectorXi m_predicted;
};

void project(Eigen::MatrixXd& W, int groups, double radius, Projection projection) {
    if (radius <= 0.0) return;
    if (projection == Projection::Box) {
        W = W.cwiseMax(-radius).cwiseMin(radius);
        return;
    }
    // Frobenius ball per block (one block per label for equalized odds).
    for (Eigen::Index start = 0; start < W.rows(); start += groups) {
        auto block = W.middleRows(start, groups);
        const double norm = block.norm();
        if (norm > radius) block *= radius / norm;
    }
}

void addGaussian(Eigen::Ref<RowMatrix> target, double sigma, RandomStream& random) {
    if (sigma <= 0.0) return;
    for (Eigen::Index i = 0; i < target.rows(); ++i) {
        for (Eigen::Index j = 0; j < target.cols(); ++j) target(i, j) += sigma * random.normal();
    }
}

void addGaussian(Eigen::MatrixXd& target, double sigma, RandomStream& random) {
    if (sigma <= 0.0) return;
    for (Eigen::Index j = 0; j < target.cols(); ++j) {
        for (Eigen::Index i = 0; i < target.rows(); ++i) target(i, j) += sigma * random.normal();
    }
}

}  // namespace

RunResult runSaddlePointTrainer(const TrainConfig& config, const TrainerPlan& plan,
                                const DataSplit& data, TrainingObserver& observer,
                                const CancelToken& cancel) {
    const auto started = Clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - started).count(); };

    const Dataset& train = data.train;
    const Dataset& test = data.test;
    const std::unique_ptr<Model> model = makeModelForClasses(train.numClasses());
    const int p = model->scoreDimension();
    const int l = model->classes();
    const DesignMatrix trainDesign = augment(train.X, plan.featureBound);
    const DesignMatrix testDesign = augment(test.X, plan.featureBound);
    const Eigen::Index n = train.rows();
    const Eigen::Index width = trainDesign.X.cols();

    std::optional<RunStreams> ownStreams;
    if (!plan.streams) ownStreams.emplace(config, train);
    const RunStreams& runStreams = plan.streams ? *plan.streams : *ownStreams;
    BatchSampler sampler(plan.sampling, static_cast<long>(n), config.batchSize,
                         runStreams.stream(streams::kSampling));
    const long stepsPerEpoch = sampler.stepsPerEpoch();
    const PenaltyLayout layout(config.fairness, train.numGroups(), l, config.advantagedClass);
    std::optional<ErmiPenalty> penalty;
    if (plan.penalty) penalty.emplace(layout, plan.shares);

    RunResult result;
    result.config = config;
    result.dataset = train.name;
    result.featureBound = plan.featureBound;  // prediction must rescale rows the same way
    result.theta = RowMatrix::Zero(p, width);
    if (plan.penalty) result.W = Eigen::MatrixXd::Zero(layout.cells(), l);
    if (plan.initialTheta) {
        if (plan.initialTheta->rows() != p || plan.initialTheta->cols() != width) {
            throw InputError("initial parameters have the wrong shape");
        }
        result.theta = *plan.initialTheta;
    }
    if (plan.penalty && plan.initialW) {
        if (plan.initialW->rows() != result.W.rows() || plan.initialW->cols() != result.W.cols()) {
            throw InputError("initial adversary matrix has the wrong shape");
        }
        result.W = *plan.initialW;
    }
    RowMatrix& theta = result.theta;
    Eigen::MatrixXd& W = result.W;
    if (penalty) penalty->setW(W);

    // Per-step buffers, sized for the largest possible batch (n rows) so no step allocates.
    std::vector<long> batch(static_cast<std::size_t>(n));
    RowMatrix Z(n, p), F(n, l), residual(n, p), classWeights(n, l), penaltyResidual(n, p);
    Eigen::VectorXd loss(n);
    Eigen::VectorXi batchLabels(n);
    std::vector<int> batchCells(static_cast<std::size_t>(n), -1);
    RowMatrix gradTheta(p, width);
    Eigen::MatrixXd gradW = Eigen::MatrixXd::Zero(W.rows(), W.cols());

    // Polynomial-decay average of the iterates (allocated once; only read when averaging).
    const bool averaging = plan.averaging == IterateAveraging::PolynomialDecay;
    RowMatrix thetaAverage = theta;
    const bool splitClip = plan.clipPerExample && plan.lossClipShare > 0.0;
    const double clipLoss = plan.lossClipShare * plan.clipTheta;
    const double clipPenalty = (1.0 - plan.lossClipShare) * plan.clipTheta;
    const bool wFromMasses = penalty && plan.wFromGroupMasses;

    RandomStream noise = runStreams.stream(streams::kNoise);
    // Training-set diagnostics are exact functions of the private rows (not covered by the
    // guarantee); a private run may skip them.
    const bool diagnostics = recordsDiagnostics(config);
    Evaluator trainEvaluator(train, trainDesign, *model);
    Evaluator testEvaluator(test, testDesign, *model);
    const double expectedBatch = static_cast<double>(config.batchSize);
    const double lambda = plan.lambda;
    const double clipThetaSquared = plan.clipTheta * plan.clipTheta;

    long step = 0;
    bool stop = false;
    for (int epoch = 1; epoch <= config.epochs && !stop; ++epoch) {
        long clipped = 0, seen = 0;
        for (long t = 0; t < stepsPerEpoch; ++t) {
            if (cancel.cancelled()) {
                result.status = RunStatus::Cancelled;
                result.message = "cancelled after " + std::to_string(step) + " steps";
                stop = true;
                break;
            }
            const long b = sampler.next(t, batch);
            gradTheta.setZero();
            if (penalty) penalty->beginAccumulation();
            double lossSum = 0.0;
            // Rows are processed in small chunks so that each row is still in cache when its
            // gradient is accumulated right after its forward pass (one memory pass per batch).
            for (long c0 = 0; c0 < b; c0 += kChunkRows) {
                const long cn = std::min(kChunkRows, b - c0);
                // Forward: z_i = Θ x̃_i. Rows of a Poisson batch are scattered, so the hardware
                // prefetcher cannot guess the next one: ask for it a few rows ahead.
                for (long bi = c0; bi < c0 + cn; ++bi) {
                    if (bi + kPrefetchRows < b) {
                        prefetchRow(trainDesign.X, batch[static_cast<std::size_t>(bi + kPrefetchRows)]);
                    }
                    const long i = batch[static_cast<std::size_t>(bi)];
                    for (int a = 0; a < p; ++a) Z(bi, a) = trainDesign.X.row(i).dot(theta.row(a));
                    batchLabels(bi) = train.y(i);
                }
                auto Zc = Z.middleRows(c0, cn);
                auto Fc = F.middleRows(c0, cn);
                auto Rc = residual.middleRows(c0, cn);
                model->probabilities(Zc, Fc);
                model->lossAndScoreGradient(Zc, Fc, batchLabels.segment(c0, cn), loss.segment(c0, cn), Rc);
                lossSum += loss.segment(c0, cn).sum();

                if (penalty) {
                    for (long bi = c0; bi < c0 + cn; ++bi) {
                        const long i = batch[static_cast<std::size_t>(bi)];
                        const int cell = layout.cellOf(train.y(i), train.s(i));
                        batchCells[static_cast<std::size_t>(bi)] = cell;
                        if (cell >= 0) {
                            penalty->classWeights(cell, classWeights.row(bi));
                        } else {
                            classWeights.row(bi).setZero();
                        }
                    }
                    model->weightedProbabilityScoreGradient(Fc, classWeights.middleRows(c0, cn),
                                                            penaltyResidual.middleRows(c0, cn));
                    // Split clipping keeps the two parts apart until each row is clipped.
                    if (!splitClip) Rc += lambda * penaltyResidual.middleRows(c0, cn);
                }

                // θ-stream: Σ_i κ_i r_i x̃_iᵀ with κ_i = min(1, C_θ/(‖r_i‖·‖x̃_i‖)).
                for (long bi = c0; bi < c0 + cn; ++bi) {
                    const long i = batch[static_cast<std::size_t>(bi)];
                    double scale = 1.0;
                    if (splitClip) {
                        // ‖r x̃ᵀ‖_F = ‖r‖·‖x̃‖ for each part; the sum of the two clipped parts
                        // has norm ≤ C_θ, so the sensitivity and the noise are unchanged.
                        const double lossNorm = residual.row(bi).norm() * trainDesign.norms(i);
                        const double lossScale = lossNorm > clipLoss ? clipLoss / lossNorm : 1.0;
                        double penaltyScale = 0.0;
                        if (penalty) {
                            const double penaltyNorm =
                                lambda * penaltyResidual.row(bi).norm() * trainDesign.norms(i);
                            penaltyScale = lambda * (penaltyNorm > clipPenalty ? clipPenalty / penaltyNorm : 1.0);
                            if (penaltyNorm > clipPenalty) ++clipped;
                        } else if (lossNorm > clipLoss) {
                            ++clipped;
                        }
                        for (int a = 0; a < p; ++a) {
                            const double combined = lossScale * residual(bi, a) +
                                                    (penalty ? penaltyScale * penaltyResidual(bi, a) : 0.0);
                            gradTheta.row(a) += combined * trainDesign.X.row(i);
                        }
                        continue;
                    }
                    if (plan.clipPerExample) {
                        // Compare squares; the square root is only needed for clipped rows.
                        const double squared = residual.row(bi).squaredNorm() * trainDesign.squaredNorms(i);
                        if (squared > clipThetaSquared) {
                            scale = plan.clipTheta / std::sqrt(squared);
                            ++clipped;
                        }
                    }
                    for (int a = 0; a < p; ++a) {
                        gradTheta.row(a) += (scale * residual(bi, a)) * trainDesign.X.row(i);
                    }
                }

                // W-stream: Σ_i κ'_i λ ∇_W ψ_i with κ'_i = min(1, C_W/‖λ∇_W ψ_i‖).
                if (penalty) {
                    for (long bi = c0; bi < c0 + cn; ++bi) {
                        const int cell = batchCells[static_cast<std::size_t>(bi)];
                        if (cell < 0) continue;
                        if (wFromMasses) {
                            // Unit weights: each row adds F_i (‖F_i‖ ≤ 1) to its cell's mass.
                            penalty->accumulate(cell, F.row(bi), 1.0);
                            continue;
                        }
                        double weight = lambda;
                        if (plan.clipPerExample) {
                            const double norm =
                                lambda * std::sqrt(penalty->wGradientNormSquared(cell, F.row(bi)));
                            if (norm > plan.clipW) weight = lambda * plan.clipW / norm;
                        }
                        penalty->accumulate(cell, F.row(bi), weight);
                    }
                }
            }
            seen += b;
            // Always the fixed m, never the realised batch size: the noise is calibrated for a
            // sum normalised by m, and a short batch divided by its own size would receive
            // only b/m of the noise its release needs.
            const double denominator = expectedBatch;
            gradTheta /= denominator;
            addGaussian(gradTheta, plan.sigmaTheta, noise);
            if (config.l2 > 0.0) gradTheta.leftCols(width - 1) += config.l2 * theta.leftCols(width - 1);
            theta -= config.lrTheta * gradTheta;

            // W ascent step on the same iterate (simultaneous updates), then projection.
            if (penalty) {
                if (wFromMasses) {
                    // Release the noisy masses (σ on the sum = σ_W·m); λ∇_W is computed from them.
                    penalty->perturbCellMasses(plan.sigmaW * denominator, [&noise] { return noise.normal(); });
                    penalty->finishAccumulation(gradW);
                    gradW *= lambda / denominator;
                } else {
                    penalty->finishAccumulation(gradW);
                    gradW /= denominator;
                    addGaussian(gradW, plan.sigmaW, noise);
                }
                W += config.lrW * gradW;
                project(W, layout.groups(), plan.radius, plan.projection);
                penalty->setW(W);
            }
            ++step;
            if (averaging) {
                // Shamir & Zhang (2013) polynomial-decay averaging with η = 3.
                const double weight = 4.0 / (static_cast<double>(step) + 3.0);
                thetaAverage += weight * (theta - thetaAverage);
            }

            if (!theta.allFinite() || (penalty && !W.allFinite())) {
                result.status = RunStatus::Diverged;
                result.message = "diverged at step " + std::to_string(step) +
                                 " (non-finite parameters); try a smaller learning rate";
                stop = true;
                break;
            }
            StepInfo info;
            info.step = step;
            info.epoch = epoch;
            info.batchRows = b;
            info.batchLoss = b > 0 ? lossSum / static_cast<double>(b) : kNaN;
            if (observer.onStep(info)) {
                result.status = RunStatus::Cancelled;
                result.message = "stopped by the observer after " + std::to_string(step) + " steps";
                stop = true;
                break;
            }
        }
        if (result.status == RunStatus::Diverged) break;
        const bool lastEpoch = epoch == config.epochs || stop;
        if (!lastEpoch && config.evaluateEvery > 1 && epoch % config.evaluateEvery != 0) continue;
        if (stop && result.status == RunStatus::Cancelled && seen == 0 && epoch > 1) break;

        EpochMetrics metrics;
        metrics.epoch = epoch;
        metrics.step = step;
        const RowMatrix& reported = averaging ? thetaAverage : theta;
        if (diagnostics) {
            metrics.trainLoss = trainEvaluator.meanLoss(reported);
            metrics.trainObjective =
                metrics.trainLoss +
                (plan.penalty ? lambda * trainEvaluator.softErmi(config.fairness, config.advantagedClass)
                              : 0.0);
        } else {
            metrics.trainLoss = metrics.trainObjective = kNaN;
        }
        testEvaluator.meanLoss(reported);
        const FairnessMetrics fairness = testEvaluator.fairness(config.advantagedClass);
        metrics.testError = fairness.error;
        metrics.violation = fairness.violation(config.fairness);
        metrics.dpGap = fairness.dpGap;
        metrics.eoGap = fairness.eoGap;
        metrics.eoppGap = fairness.eoppGap;
        metrics.ermiHard = fairness.ermiHard(config.fairness);
        metrics.ermiSoft = fairness.ermiSoft(config.fairness);
        metrics.epsilonSpent = plan.epsilonAfter ? plan.epsilonAfter(step)
                                                 : std::numeric_limits<double>::infinity();
        metrics.clipFraction = !diagnostics ? kNaN
                               : seen > 0   ? static_cast<double>(clipped) / static_cast<double>(seen)
                                            : 0.0;
        metrics.seconds = elapsed();
        result.history.push_back(metrics);
        if (observer.onEpochEnd(metrics) && !stop) {
            result.status = RunStatus::Cancelled;
            result.message = "stopped by the observer after epoch " + std::to_string(epoch);
            stop = true;
        }
    }

    result.steps = step;
    if (averaging) theta = thetaAverage;  // the reported model
    if (result.status == RunStatus::Diverged) {
        result.trainLoss = kNaN;
        result.test = FairnessMetrics{};
        result.test.error = kNaN;
    } else {
        result.trainLoss = diagnostics ? trainEvaluator.meanLoss(theta) : kNaN;
        testEvaluator.meanLoss(theta);
        result.test = testEvaluator.fairness(config.advantagedClass);
    }
    result.seconds = elapsed();
    return result;
}

}  // namespace pfa
