// The saddle-point trainer composed of its parts: a batch sampler over the training rows, the
// per-example gradient and clipping step, the step's Gaussian mechanism (θ- and W-noise, and the
// accountant composed from it), the descent step, the W-player's release and ascent step,
// iterate averaging, and the epoch reporter.
#include "core/algorithms/saddle/saddle_point_trainer.h"

#include <limits>
#include <optional>
#include <stdexcept>

#include "core/algorithms/saddle/adversary_step.h"
#include "core/algorithms/saddle/descent_step.h"
#include "core/algorithms/saddle/per_example_gradients.h"
#include "core/engine/batch_sampler.h"
#include "core/engine/design_matrix.h"
#include "core/engine/epoch_reporter.h"
#include "core/engine/evaluator.h"
#include "core/engine/gaussian_mechanism.h"
#include "core/engine/iterate_average.h"
#include "core/engine/run_session.h"
#include "core/engine/run_streams.h"
#include "core/fairness/ermi_penalty.h"
#include "core/model/model.h"
#include "core/util/error.h"
#include "core/util/random.h"

namespace pfa {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// θ₀ and W₀: zero (dp-fermi.md §6.1) or the plan's starting point, whose shapes must match.
void initialise(RunResult& result, const TrainerPlan& plan, int p, Eigen::Index width,
                const PenaltyLayout& layout, int classes) {
    result.theta = RowMatrix::Zero(p, width);
    if (plan.penalty) result.W = Eigen::MatrixXd::Zero(layout.cells(), classes);
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
}

}  // namespace

RunResult runSaddlePointTrainer(const TrainConfig& config, const TrainerPlan& plan,
                                const DataSplit& data, TrainingObserver& observer,
                                const CancelToken& cancel) {
    const Dataset& train = data.train;
    const std::unique_ptr<Model> model = makeModelForClasses(train.numClasses());
    const int p = model->scoreDimension();
    const int l = model->classes();
    const DesignMatrix trainDesign = makeDesignMatrix(train.X, plan.featureBound);
    const DesignMatrix testDesign = makeDesignMatrix(data.test.X, plan.featureBound);
    const Eigen::Index n = train.rows();
    const Eigen::Index width = trainDesign.X.cols();

    std::optional<RunStreams> ownStreams;
    if (!plan.streams) ownStreams.emplace(config, train);
    const RunStreams& runStreams = plan.streams ? *plan.streams : *ownStreams;
    if (plan.sampler.unit != SamplingUnit::Row || plan.sampler.population != static_cast<long>(n)) {
        throw std::logic_error("the plan's sampler does not draw this run's training rows");
    }
    // The noise is charged for q and T of one sampler: it must be the one that runs.
    if (plan.noise.isPrivate() && !(plan.noise.sampler() == plan.sampler)) {
        throw std::logic_error("the plan's noise was calibrated for another sampler");
    }
    BatchSampler sampler(plan.sampler, runStreams.stream(streams::kSampling));
    const PenaltyLayout layout(config.fairness, train.numGroups(), l, config.advantagedClass);
    std::optional<ErmiPenalty> penalty;
    if (plan.penalty) penalty.emplace(layout, plan.shares);

    RunSession session(observer, cancel);
    RunResult& result = session.result();
    result.config = config;
    result.dataset = train.name;
    result.featureBound = plan.featureBound;  // prediction must rescale rows the same way
    initialise(result, plan, p, width, layout, l);
    RowMatrix& theta = result.theta;
    Eigen::MatrixXd& W = result.W;
    if (penalty) penalty->setW(W);

    // The parts; every per-step buffer is allocated here, so no step allocates.
    PerExampleGradients gradients(train, trainDesign, *model, layout, plan.lambda, plan.clipping);
    // Always the fixed m, never the realised batch size: the noise is calibrated for a sum
    // normalised by m, and a short batch divided by its own size would receive only b/m of the
    // noise its release needs.
    const double batchSize = static_cast<double>(plan.sampler.batchSize);
    AdversaryStep adversary(plan.lambda, plan.noise, plan.clipping.wFromGroupMasses, batchSize,
                            config.lrW, layout.groups(), plan.radius, plan.projection, W.rows(),
                            W.cols());
    const DescentStep descent(config.lrTheta, config.l2);
    std::vector<long> batch(static_cast<std::size_t>(n));
    RowMatrix gradTheta(p, width);
    // Which model is reported is a setting of the run (resolved by the algorithm), like its
    // step sizes; unset means the last iterate.
    const bool averaging = config.averaging == IterateAveraging::PolynomialDecay;
    PolynomialDecayAverage average(theta);
    RandomStream noise = runStreams.stream(streams::kNoise);
    Evaluator trainEvaluator(train, trainDesign, *model);
    Evaluator testEvaluator(data.test, testDesign, *model);
    // ε so far, from the accountant composed of the mechanisms this loop runs.
    const std::optional<privacy::RunAccountant> accountant =
        planAccountant(plan, config.delta, train.unitName);
    if (accountant)
        session.setEpsilonSoFar([&](long steps) { return accountant->after(steps).epsilon; });
    EpochReporter reporter(config, trainEvaluator, testEvaluator, plan.penalty, plan.lambda);

    long step = 0;
    bool stop = false;
    const int epochs = plan.sampler.epochs;
    const long totalSteps = plan.sampler.steps();
    for (int epoch = 1; epoch <= epochs && !stop; ++epoch) {
        long clipped = 0, seen = 0;
        for (long t = 0; t < sampler.stepsPerEpoch(); ++t) {
            if (session.cancelled(step)) {
                stop = true;
                break;
            }
            const long b = sampler.next(t, batch);
            const BatchTotals totals =
                gradients.accumulate(batch, b, theta, penalty ? &*penalty : nullptr, gradTheta);
            clipped += totals.clipped;
            seen += b;
            // θ: noise on the batch mean, then the descent step.
            gradTheta /= batchSize;
            plan.noise.addNoise(GaussianMechanism::Stream::Theta, gradTheta, noise);
            descent.apply(theta, gradTheta);
            // W: ascent on the same iterate (simultaneous updates), then projection.
            if (penalty) adversary.apply(*penalty, W, noise);
            ++step;
            if (averaging) average.add(step, theta);

            if (!theta.allFinite() || (penalty && !W.allFinite())) {
                session.diverge("diverged at step " + std::to_string(step) +
                                " (non-finite parameters); try a smaller learning rate");
                stop = true;
                break;
            }
            StepInfo info;
            info.step = step;
            info.epoch = epoch;
            info.batchRows = b;
            info.batchLoss = b > 0 ? totals.lossSum / static_cast<double>(b) : kNaN;
            if (session.stopRequested(session.stepped(info), step, totalSteps)) {
                stop = true;
                break;
            }
        }
        if (session.diverged()) break;
        const bool lastEpoch = epoch == epochs || stop;
        if (!lastEpoch && config.evaluateEvery > 1 && epoch % config.evaluateEvery != 0) continue;
        if (stop && result.status == RunStatus::Cancelled && seen == 0 && epoch > 1) break;

        const bool stopAsked = session.evaluated(
            reporter.measure(epoch, step, averaging ? average.value() : theta, clipped, seen));
        if (!stop) stop = session.stopRequested(stopAsked, step, totalSteps);
    }

    result.steps = step;
    if (averaging) theta = average.value();  // the reported model
    reporter.finish(result);
    return session.finish();
}

}  // namespace pfa
