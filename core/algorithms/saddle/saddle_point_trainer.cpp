// The saddle-point trainer composed of its parts: a batch sampler over the training rows, the
// per-example gradient and clipping step, the step's Gaussian mechanism (θ- and W-noise, and the
// accountant composed from it), the descent step, the W-player's release and ascent step,
// iterate averaging, and the epoch reporter.
#include "core/algorithms/saddle/saddle_point_trainer.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <stdexcept>

#include "core/algorithms/saddle/adversary_step.h"
#include "core/algorithms/saddle/descent_step.h"
#include "core/algorithms/saddle/per_example_gradients.h"
#include "core/algorithms/saddle/shared_binary_rows.h"
#include "core/engine/batch_sampler.h"
#include "core/engine/design_matrix.h"
#include "core/engine/epoch_reporter.h"
#include "core/engine/evaluator.h"
#include "core/engine/gaussian_mechanism.h"
#include "core/engine/gradient_audit_hook.h"
#include "core/engine/iterate_average.h"
#include "core/engine/run_session.h"
#include "core/engine/run_streams.h"
#include "core/engine/shared_batch_products.h"
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

namespace {

/// One run of a group: its parts, its state and its session. Not movable (the session and the
/// parts reference each other).
class SaddleRun {
public:
    SaddleRun(const SaddleRunRequest& request, const DataSplit& data, const Model& model,
              const DesignMatrix& trainDesign, const DesignMatrix& testDesign,
              const CancelToken& cancel)
        : m_config(*request.config),
          m_plan(*request.plan),
          m_layout(m_config.fairness, data.train.numGroups(), model.classes(),
                   m_config.advantagedClass),
          m_session(*request.observer, cancel),
          m_trainEvaluator(data.train, trainDesign, model),
          m_testEvaluator(data.test, testDesign, model) {
        const Dataset& train = data.train;
        const Eigen::Index n = train.rows();
        if (!m_plan.streams) m_ownStreams.emplace(m_config, train);
        if (m_plan.sampler.unit != SamplingUnit::Row ||
            m_plan.sampler.population != static_cast<long>(n)) {
            throw std::logic_error("the plan's sampler does not draw this run's training rows");
        }
        // The noise is charged for q and T of one sampler: it must be the one that runs.
        if (m_plan.noise.isPrivate() && !(m_plan.noise.sampler() == m_plan.sampler)) {
            throw std::logic_error("the plan's noise was calibrated for another sampler");
        }
        if (m_plan.penalty) m_penalty.emplace(m_layout, m_plan.shares);
        RunResult& result = m_session.result();
        result.config = m_config;
        result.dataset = train.name;
        result.featureBound = m_plan.featureBound;  // prediction must rescale rows the same way
        initialise(result, m_plan, model.scoreDimension(), trainDesign.X().cols(), m_layout,
                   model.classes());
        if (m_penalty) m_penalty->setW(result.W);
        // The parts; every per-step buffer is allocated here, so no step allocates.
        m_gradients.emplace(train, trainDesign, model, m_layout, m_plan.lambda, m_plan.clipping);
        m_lossShown = request.observer->showsBatchLoss();
        m_gradients->setLossNeeded(m_lossShown);
        m_adversary.emplace(m_plan.lambda, m_plan.noise, m_plan.clipping.wFromGroupMasses,
                            batchSize(), m_config.lrW, m_layout.groups(), m_plan.radius,
                            m_plan.projection, result.W.rows(), result.W.cols());
        m_descent.emplace(m_config.lrTheta, m_config.l2);
        m_gradTheta.resize(model.scoreDimension(), trainDesign.X().cols());
        m_average.emplace(result.theta);
        m_noise.emplace(streams().stream(streams::kNoise));
        // ε so far, from the accountant composed of the mechanisms this loop runs.
        m_accountant = planAccountant(m_plan, m_config.delta, train.unitName);
        if (m_accountant)
            m_session.setEpsilonSoFar(
                [this](long steps) { return m_accountant->after(steps).epsilon; });
        m_reporter.emplace(m_config, m_trainEvaluator, m_testEvaluator, m_plan.penalty,
                           m_plan.lambda);
        // An audit's white-box access: only to a step that clips and noises (what it tests).
        if (m_plan.clipping.enabled && m_plan.noise.isPrivate()) {
            m_audit = request.observer->gradientAudit();
            if (m_audit)
                m_audit->start(m_plan.noise, m_plan.sampler, m_gradTheta.rows(),
                               m_gradTheta.cols());
        }
    }
    SaddleRun(const SaddleRun&) = delete;
    SaddleRun& operator=(const SaddleRun&) = delete;

    const RunStreams& streams() const { return m_plan.streams ? *m_plan.streams : *m_ownStreams; }
    const TrainerPlan& plan() const { return m_plan; }
    bool stopped() const { return m_stop; }

    /// Before a step: false (and stopped) when cancellation was requested.
    bool startStep() {
        if (m_session.cancelled(m_step)) {
            m_stop = true;
            return false;
        }
        m_gradients->begin(m_session.result().theta, m_penalty ? &*m_penalty : nullptr,
                           m_gradTheta);
        return true;
    }
    void addChunk(const std::vector<long>& batch, long b, long first, long count) {
        m_gradients->addChunk(batch, b, first, count);
    }
    void addSharedChunk(const std::vector<long>& batch, long first, long count,
                        SharedBatchProducts& products, int column) {
        m_gradients->addSharedChunk(batch, first, count, products, column);
    }
    PerExampleGradients& gradients() { return *m_gradients; }
    const PerExampleGradients& gradients() const { return *m_gradients; }
    const PenaltyLayout& layout() const { return m_layout; }
    const RowMatrix& theta() const { return m_session.result().theta; }
    RowMatrix& gradient() { return m_gradTheta; }
    /// After the batch's chunks: noise, the descent and ascent steps, the observer.
    void finishStep(int epoch, long b) {
        RunResult& result = m_session.result();
        RowMatrix& theta = result.theta;
        Eigen::MatrixXd& W = result.W;
        const BatchTotals& totals = m_gradients->totals();
        m_clipped += totals.clipped;
        m_seen += b;
        // θ: noise on the batch mean, then the descent step.
        if (m_audit) m_audit->beforeNoise(m_step + 1, m_gradTheta);
        m_gradTheta /= batchSize();
        m_plan.noise.addNoise(GaussianMechanism::Stream::Theta, m_gradTheta, *m_noise);
        if (m_audit) m_audit->released(m_step + 1, m_gradTheta);
        m_descent->apply(theta, m_gradTheta);
        // W: ascent on the same iterate (simultaneous updates), then projection.
        if (m_penalty) m_adversary->apply(*m_penalty, W, *m_noise);
        ++m_step;
        if (averaging()) m_average->add(m_step, theta);

        if (!theta.allFinite() || (m_penalty && !W.allFinite())) {
            m_session.diverge("diverged at step " + std::to_string(m_step) +
                              " (non-finite parameters); try a smaller learning rate");
            m_stop = true;
            return;
        }
        StepInfo info;
        info.step = m_step;
        info.epoch = epoch;
        info.batchRows = b;
        info.batchLoss = b > 0 && m_lossShown ? totals.lossSum / static_cast<double>(b) : kNaN;
        if (m_session.stopRequested(m_session.stepped(info), m_step, m_plan.sampler.steps()))
            m_stop = true;
    }

    /// Whether the run evaluates its model at the end of `epoch` (or now, when it stopped
    /// during it).
    bool evaluatesAt(int epoch) const {
        const bool lastEpoch = epoch == m_plan.sampler.epochs || m_stop;
        if (m_session.diverged()) return false;
        if (!lastEpoch && m_config.evaluateEvery > 1 && epoch % m_config.evaluateEvery != 0)
            return false;
        return !(m_stop && m_session.result().status == RunStatus::Cancelled && m_seen == 0 &&
                 epoch > 1);
    }
    /// The model it reports (and evaluates): the average or the last iterate.
    const RowMatrix& reported() const {
        return averaging() ? m_average->value() : m_session.result().theta;
    }
    bool trainScoresNeeded() const { return m_reporter->trainScoresNeeded(); }
    RowMatrix& testScores() { return m_testEvaluator.scores(); }
    RowMatrix& trainScores() { return m_trainEvaluator.scores(); }

    /// At the end of `epoch`, or when the run stopped during it: the evaluation, from the
    /// evaluators' scores when `scored` (filled for every run by one pass), else its own. Sets
    /// `done` when the run ends here.
    void finishEpoch(int epoch, bool scored, bool& done) {
        const bool lastEpoch = epoch == m_plan.sampler.epochs || m_stop;
        done = lastEpoch || m_session.diverged();
        const bool evaluate = evaluatesAt(epoch);
        const long clipped = m_clipped, seen = m_seen;
        m_clipped = m_seen = 0;
        if (!evaluate) return;
        const EpochMetrics metrics =
            scored ? m_reporter->measureScored(epoch, m_step, clipped, seen)
                   : m_reporter->measure(epoch, m_step, reported(), clipped, seen);
        const bool stopAsked = m_session.evaluated(metrics);
        if (!m_stop) m_stop = m_session.stopRequested(stopAsked, m_step, m_plan.sampler.steps());
        if (m_stop) done = true;
    }

    RunResult finish() {
        RunResult& result = m_session.result();
        result.steps = m_step;
        if (averaging()) result.theta = m_average->value();  // the reported model
        m_reporter->finish(result);
        return m_session.finish();
    }

private:
    // Always the fixed m, never the realised batch size: the noise is calibrated for a sum
    // normalised by m, and a short batch divided by its own size would receive only b/m of the
    // noise its release needs.
    double batchSize() const { return static_cast<double>(m_plan.sampler.batchSize); }
    // Which model is reported is a setting of the run (resolved by the algorithm), like its
    // step sizes; unset means the last iterate.
    bool averaging() const { return m_config.averaging == IterateAveraging::PolynomialDecay; }

    const TrainConfig& m_config;
    const TrainerPlan& m_plan;
    std::optional<RunStreams> m_ownStreams;
    const PenaltyLayout m_layout;
    std::optional<ErmiPenalty> m_penalty;
    RunSession m_session;
    Evaluator m_trainEvaluator, m_testEvaluator;
    std::optional<PerExampleGradients> m_gradients;
    std::optional<AdversaryStep> m_adversary;
    std::optional<DescentStep> m_descent;
    RowMatrix m_gradTheta;
    std::optional<PolynomialDecayAverage> m_average;
    std::optional<RandomStream> m_noise;
    std::optional<privacy::RunAccountant> m_accountant;
    std::optional<EpochReporter> m_reporter;
    GradientAuditHook* m_audit = nullptr;
    long m_step = 0, m_clipped = 0, m_seen = 0;
    bool m_stop = false;
    bool m_lossShown = true;
};

}  // namespace

std::vector<RunResult> runSaddlePointGroup(const std::vector<SaddleRunRequest>& requests,
                                           const DataSplit& data, const CancelToken& cancel) {
    if (requests.empty()) return {};
    const Dataset& train = data.train;
    const std::unique_ptr<Model> model = makeModelForClasses(train.numClasses());
    const TrainerPlan& lead = *requests.front().plan;
    // One copy of each design for every run on this data (sharedDesignMatrix).
    const auto trainDesignPtr = sharedDesignMatrix(train.X, lead.featureBound);
    const auto testDesignPtr = sharedDesignMatrix(data.test.X, lead.featureBound);
    const DesignMatrix& trainDesign = *trainDesignPtr;
    const DesignMatrix& testDesign = *testDesignPtr;

    std::vector<std::unique_ptr<SaddleRun>> runs;
    for (const SaddleRunRequest& request : requests) {
        runs.push_back(
            std::make_unique<SaddleRun>(request, data, *model, trainDesign, testDesign, cancel));
    }
    // One sampler for the group: the runs must draw exactly the batches each would alone.
    const RunStreams& leadStreams = runs.front()->streams();
    for (const auto& run : runs) {
        const bool sameSample =
            runs.size() == 1 || (!run->streams().sharedBatches().empty() &&
                                 run->streams().sharedBatches() == leadStreams.sharedBatches());
        if (!sameSample || !(run->plan().sampler == lead.sampler) ||
            run->plan().featureBound != lead.featureBound) {
            throw std::logic_error(
                "runs trained together must share their batches (batch-sharing "
                "by-seed), sampler and feature scaling");
        }
    }
    BatchSampler sampler(lead.sampler, leadStreams.stream(streams::kSampling));
    // Runs drawing a shared sample take their scores and gradient sums from one pass for all
    // of them (SharedBatchProducts, the same arithmetic for one run or many); a run with its
    // own sample keeps its own pass.
    const bool shared = !leadStreams.sharedBatches().empty();
    const int scores = model->scoreDimension();
    std::optional<SharedBatchProducts> products;
    if (shared) products.emplace(trainDesign, static_cast<int>(runs.size()) * scores);
    // Binary logistic runs step each row for all of them at once (the same bits as one by one).
    std::optional<SharedBinaryRows> lanes;
    std::vector<PerExampleGradients*> laneRuns;
    if (shared && !SharedBinaryRows::runsOneByOne()) {
        std::vector<const PerExampleGradients*> all;
        for (const auto& run : runs) all.push_back(&run->gradients());
        if (SharedBinaryRows::applies(all)) {
            lanes.emplace(train, trainDesign, runs.front()->layout(),
                          static_cast<int>(runs.size()));
            laneRuns.reserve(runs.size());
        }
    }
    std::vector<long> batch(static_cast<std::size_t>(train.rows()));
    // Lists of runs, with room for all of them from the start: no step or epoch allocates.
    std::vector<SaddleRun*> active, stepping, going;
    std::vector<const RowMatrix*> models, diagnosed;
    std::vector<RowMatrix*> testScores, trainScores;
    for (auto* list : {&active, &stepping, &going}) list->reserve(runs.size());
    models.reserve(runs.size());
    diagnosed.reserve(runs.size());
    testScores.reserve(runs.size());
    trainScores.reserve(runs.size());
    for (const auto& run : runs) active.push_back(run.get());

    const int epochs = lead.sampler.epochs;
    for (int epoch = 1; epoch <= epochs && !active.empty(); ++epoch) {
        for (long t = 0; t < sampler.stepsPerEpoch(); ++t) {
            stepping.clear();
            for (SaddleRun* run : active) {
                if (!run->stopped() && run->startStep()) stepping.push_back(run);
            }
            if (stepping.empty()) break;
            const long b = sampler.next(t, batch);
            const int columns = static_cast<int>(stepping.size()) * scores;
            if (shared) {
                products->begin(columns);
                for (std::size_t r = 0; r < stepping.size(); ++r)
                    products->setParameters(static_cast<int>(r) * scores, stepping[r]->theta());
                if (lanes) {
                    laneRuns.clear();
                    for (SaddleRun* run : stepping) laneRuns.push_back(&run->gradients());
                    lanes->begin(laneRuns);
                }
            }
            // Chunk by chunk, every run: the chunk's rows are read once for all of them.
            for (long c0 = 0; c0 < b; c0 += PerExampleGradients::kChunkRows) {
                const long count = std::min(PerExampleGradients::kChunkRows, b - c0);
                if (!shared) {
                    for (SaddleRun* run : stepping) run->addChunk(batch, b, c0, count);
                    continue;
                }
                products->forward(batch, b, c0, count);
                if (lanes) {
                    lanes->addChunk(batch, c0, count, *products);
                } else {
                    for (std::size_t r = 0; r < stepping.size(); ++r) {
                        stepping[r]->addSharedChunk(batch, c0, count, *products,
                                                    static_cast<int>(r) * scores);
                    }
                }
                products->backward();
            }
            if (lanes) lanes->finish();
            if (shared) {
                for (std::size_t r = 0; r < stepping.size(); ++r)
                    products->getGradient(static_cast<int>(r) * scores, stepping[r]->gradient());
            }
            for (SaddleRun* run : stepping) run->finishStep(epoch, b);
        }
        // Every run evaluates this epoch (those that stopped during it too); finished runs
        // leave the group. Shared runs score their models in one pass over the rows.
        if (shared) {
            models.clear();
            diagnosed.clear();
            testScores.clear();
            trainScores.clear();
            for (SaddleRun* run : active) {
                if (!run->evaluatesAt(epoch)) continue;
                models.push_back(&run->reported());
                testScores.push_back(&run->testScores());
                if (!run->trainScoresNeeded()) continue;
                diagnosed.push_back(&run->reported());
                trainScores.push_back(&run->trainScores());
            }
            products->scoreAllRows(testDesign, models, testScores);
            products->scoreAllRows(trainDesign, diagnosed, trainScores);
        }
        going.clear();
        for (SaddleRun* run : active) {
            bool done = false;
            run->finishEpoch(epoch, shared, done);
            if (!done) going.push_back(run);
        }
        std::swap(active, going);
    }

    std::vector<RunResult> results;
    for (const auto& run : runs) results.push_back(run->finish());
    return results;
}

RunResult runSaddlePointTrainer(const TrainConfig& config, const TrainerPlan& plan,
                                const DataSplit& data, TrainingObserver& observer,
                                const CancelToken& cancel) {
    return std::move(runSaddlePointGroup({{&config, &plan, &observer}}, data, cancel).front());
}

RunResult runPlanned(const TrainConfig& config, const PlannedSaddleRun& planned,
                     const DataSplit& data, TrainingObserver& observer, const CancelToken& cancel) {
    RunResult result = runSaddlePointTrainer(config, planned.plan, data, observer, cancel);
    if (planned.describe) planned.describe(result);
    return result;
}

std::vector<RunResult> runPlannedTogether(const Algorithm& algorithm,
                                          const std::vector<PreparedConfig>& runs,
                                          const DataSplit& data,
                                          const std::vector<TrainingObserver*>& observers,
                                          const CancelToken& cancel, const SaddlePlanner& planner) {
    std::vector<std::optional<RunResult>> results(runs.size());
    std::vector<std::unique_ptr<PlannedSaddleRun>> planned(runs.size());
    // Runs sharing one sample, in order of their first run.
    std::vector<std::pair<std::string, std::vector<std::size_t>>> groups;
    const KnownDataFingerprint fingerprint(data.train);  // read the rows once, not per run
    for (std::size_t i = 0; i < runs.size(); ++i) {
        planned[i] = planner(runs[i].config());
        const std::string sample = planned[i] && planned[i]->plan.streams
                                       ? planned[i]->plan.streams->sharedBatches()
                                       : std::string();
        if (!planned[i]) {
            results[i] = algorithm.run(runs[i], data, *observers[i], cancel);
            continue;
        }
        if (sample.empty()) {
            results[i] = runPlanned(runs[i].config(), *planned[i], data, *observers[i], cancel);
            continue;
        }
        auto group = std::find_if(groups.begin(), groups.end(),
                                  [&](const auto& g) { return g.first == sample; });
        if (group == groups.end()) group = groups.insert(groups.end(), {sample, {}});
        group->second.push_back(i);
    }
    for (const auto& [sample, members] : groups) {
        std::vector<SaddleRunRequest> requests;
        for (const std::size_t i : members)
            requests.push_back({&runs[i].config(), &planned[i]->plan, observers[i]});
        std::vector<RunResult> trained = runSaddlePointGroup(requests, data, cancel);
        for (std::size_t k = 0; k < members.size(); ++k) {
            const std::size_t i = members[k];
            if (planned[i]->describe) planned[i]->describe(trained[k]);
            results[i] = std::move(trained[k]);
        }
    }
    std::vector<RunResult> out;
    for (auto& result : results) out.push_back(std::move(*result));
    return out;
}

}  // namespace pfa
