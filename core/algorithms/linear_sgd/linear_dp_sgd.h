#pragma once

#include <Eigen/Core>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/config/algorithm.h"
#include "core/config/cancel_token.h"
#include "core/config/parameters.h"
#include "core/config/run_result.h"
#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/engine/run_session.h"
#include "core/privacy/accounting_inputs.h"
#include "core/util/random.h"

/// The training loop shared by dp-sgd-linear and semi-dp-sgd: DP-SGD for linear regression
/// with the squared loss (ŷ − y)² and an intercept, Poisson-sampled private batches, per-example
/// clipping and Gaussian noise on the private mean, optionally mixed with the mean gradient of a
/// batch of PUBLIC rows by the weighted-Gaussian estimator g = α g_priv + (1 − α) g_pub.
namespace pfa {

/// One linear DP-SGD run: which training rows play which part and how a step is formed.
struct LinearSgdSetup {
    /// Training rows that are protected: each joins a step's batch independently with
    /// probability `samplingRate` (Poisson), in this order.
    std::vector<long> privateRows;
    /// Training rows whose gradients enter un-noised (semi-DP); empty for plain DP-SGD.
    std::vector<long> publicRows;
    double samplingRate = 1.0;  ///< q of the private batches
    /// The private sum is divided by this (the expected batch q·n_priv), not by the batch drawn.
    double expectedBatch = 1.0;
    long steps = 0;          ///< T
    long stepsPerEpoch = 1;  ///< for the per-epoch metrics
    long evaluateEvery = 1;  ///< the metrics every this many epochs (and after the last step)
    /// Per-example clip norm C of the private gradients; +∞: none (non-private runs).
    double clip = std::numeric_limits<double>::infinity();
    double sigma = 0.0;  ///< std of the Gaussian noise on the private mean, per coordinate
    bool replaceAdjacency = false;  ///< neighbours replace a private row (else add/remove one)
    /// Record the training-set diagnostics (loss on the training rows, clip fraction).
    bool diagnostics = true;
    double learningRate = 0.1;  ///< η
    /// Iterates are projected onto the ball of this radius around 0 (+∞: none).
    double radius = std::numeric_limits<double>::infinity();
    bool averageIterates = false;  ///< report the polynomial-decay average (else the last iterate)
    /// Read the training rows from a single-precision copy (row-precision single): half the
    /// memory traffic; the arithmetic and the clip stay in double, on the rounded rows.
    bool singlePrecisionRows = false;
    /// With singlePrecisionRows, also compute each row's score xᵀw in single precision
    /// (row-precision single-scores), reading the rows as stored: the score only chooses the
    /// row's gradient scale, so the clip, the sum and the guarantee stay as in double.
    bool singlePrecisionScores = false;
    /// > 0 when the run's private batches come from a NESTED shared sample (shared-sample
    /// nested): at each step every training row joins an envelope sample with this probability
    /// (Poisson) and draws a level uniform on [0, envelopeRate); the run's batch is its private
    /// rows whose level falls below samplingRate (≤ envelopeRate). So each private row still
    /// joins independently with probability samplingRate, and runs at other rates on other
    /// private rows of the same data read one sample: a row in a lower-rate run's batch is in
    /// every higher-rate run's batch that it is private to. 0: the batches are drawn directly
    /// from the private rows.
    double envelopeRate = 0.0;
    /// Weight of the private estimate; NaN = automatic (autoAlpha on each step's public batch).
    /// 1 never reads a public row; 0 never reads a private row.
    double alpha = 1.0;
    /// Automatic α from the whole run's sizes (n_priv, n_pub, noise dσ²/T on the run's average)
    /// instead of one step's (K_priv, K_pub, dσ²); see autoAlpha.
    bool runLevelWeight = false;
    /// n_priv as the per-run weight reads it: n_pub·(1 − p)/p, from the public rows and the
    /// public share alone (under add/remove the true count of private rows is private).
    double privateRowsForWeight = 0.0;
    long publicBatch = 0;         ///< K_pub: public rows per step (cycling a permutation)
    bool normalisePublic = true;  ///< h(v) = C·v/‖v‖ for the public gradients
    /// The public gradient's scale when normalising (C of the private part; 1 when it is ∞).
    double publicScale = 1.0;
    Eigen::VectorXd start;  ///< warm start (d + 1 entries, bias last); empty: 0
    /// The best possible test MSE when the data's generator knows it (NaN otherwise): the
    /// per-epoch excess risk is the test MSE minus this.
    double optimalMse = std::numeric_limits<double>::quiet_NaN();
    /// Whether the model is evaluated after step `done`: at the end of every evaluateEvery-th
    /// epoch and after the last step.
    bool evaluationDue(long done) const {
        return RunSession::dueEvery(done, steps, stepsPerEpoch * evaluateEvery);
    }
};

/// The random streams of a run: private batches, public batches, privacy noise.
struct LinearSgdStreams {
    RandomStream& sampling;
    RandomStream& publicSampling;
    RandomStream& noise;
};

/// Runs `setup` on `data` (training rows from data.train, metrics on data.test). Fills theta
/// (1 × (d + 1), bias last), the regression metrics, history (one entry per epoch, with the
/// ε `epsilonAfter(steps)` reports), steps, status, trainLoss and, in theoryInputs, the mean α
/// used ("alpha_mean"). No allocation per step; checks `cancel` before every step. It is
/// runLinearSgdGroup with this run alone, on the run's own streams: one loop for both.
RunResult runLinearSgd(const LinearSgdSetup& setup, const DataSplit& data, LinearSgdStreams streams,
                       const std::function<double(long)>& epsilonAfter, TrainingObserver& observer,
                       const CancelToken& cancel);

/// One run of a group trained on shared batches (runLinearSgdGroup).
struct LinearSgdMember {
    const LinearSgdSetup* setup;
    RandomStream* noise;  ///< the run's own privacy noise
    /// The order of the run's public rows (runs with the same public rows and public batch read
    /// the first such member's).
    RandomStream* publicSampling;
    std::function<double(long)> epsilonAfter;
    TrainingObserver* observer;
};

/// Trains `members` in lockstep on shared batches (batch-sharing by-seed): at each step one
/// Poisson sample (from `sampling`) serves every run, and one batch of public rows (reshuffled
/// passes) every run with the same public rows; each chunk of a batch is read from memory
/// once for all of them; each run then scores the chunk and adds its clipped gradients with the
/// arithmetic of runLinearSgd (a run's result is the same alone, in a group of one, as with any
/// others, and as runLinearSgd's on the same batches). Each run clips, noises (its own stream),
/// weights and steps its own model. Either every setup draws its batches directly from the
/// private rows, and then they agree on those rows, the sampling rate, the steps and the public
/// rows and batch; or every setup has the same envelopeRate > 0 (a nested sample of all
/// training rows: each run then keeps its own private rows, rate, steps and public rows). The
/// setups agree on the row precision too (std::logic_error otherwise). Results in the order of
/// `members`.
std::vector<RunResult> runLinearSgdGroup(const std::vector<LinearSgdMember>& members,
                                         const DataSplit& data, RandomStream& sampling,
                                         const CancelToken& cancel);

/// The automatic weight of the private estimate (variance-minimising, clipping bias ignored):
/// α = (V²/K_pub) / (V²/K_priv + d σ² + V²/K_pub), with V² the spread of the public
/// gradients. It is the weighted-Gaussian mean estimator's r* (weighted_gaussian_mean.h) read as
/// α = r·K_priv. 1 when K_pub = 0.
double autoAlpha(double spread, double privateBatch, double publicBatch, double dimension,
                 double sigma);

/// The minimum-norm least-squares fit of the linear model with intercept (d + 1 entries, bias
/// last) on rows `rows` of `train` (complete orthogonal decomposition; exact for the squared
/// loss). Zero when `rows` is empty.
Eigen::VectorXd leastSquaresOnRows(const Dataset& train, const std::vector<long>& rows);

/// The public and private rows of `train`, both ascending. Each row is public when the keyed
/// uniform of its own key, rowUniform(rowKey(train, row), seed), falls below `share`: a
/// property of that row alone (its raw values and the public seed), so adding, removing or
/// changing another row never moves it from one side to the other. About share·n rows are
/// public (binomially many); share 0: none.
struct PublicPrivateRows {
    std::vector<long> publicRows;
    std::vector<long> privateRows;
};
PublicPrivateRows splitPublicRows(const Dataset& train, double share, std::uint64_t seed);

/// A run of the shared loop planned from resolved settings: the setup and the accounting of its
/// private releases.
struct LinearSgdPlan {
    LinearSgdSetup setup;
    /// One Poisson-subsampled Gaussian release per step over the PRIVATE rows (q = b/n_priv,
    /// z = σ·b/C, T = epochs·⌈n_priv/b⌉), add/remove or replace-one as the settings say; kind
    /// NoRelease when no private row is read (α = 0, or public rows only).
    privacy::AccountingInputs accounting;
};

/// Plans a run from the resolved common settings (epsilon, delta, epochs, batch-size b,
/// lr-theta, clip-theta C, adjacency, averaging) and the own setting "domain-radius", over
/// `rows`: σ = z·C/b on the private mean with z solved by the RDP accountant for the target ε
/// (none when ε = ∞: no noise and no clipping, plain SGD). The public part of the setup
/// (α, K_pub, normalisation, warm start) is left for the caller.
LinearSgdPlan planLinearSgd(const TrainConfig& config, const Dataset& train,
                            PublicPrivateRows rows);

/// The privacy statement of a private run of `plan` after result.steps steps (ε from the
/// accountant over `plan.accounting`); `protectedRows` says which rows are protected.
void describeLinearSgdRun(RunResult& result, const LinearSgdPlan& plan, const Dataset& train,
                          const std::string& algorithm, const std::string& protectedRows);

/// A planned run of the shared loop with its streams, ready to train alone or with the runs
/// that draw the same batches.
struct LinearSgdJob {
    LinearSgdPlan plan;
    std::optional<RandomStream> sampling, publicSampling, noise;
    std::function<double(long)> epsilonAfter;
    /// Non-empty when the run draws shared batches (RunStreams::sharedBatches): runs with the
    /// same value and public batch train together.
    std::string sharedBatches;
    /// When set, the run is trained by this instead of the loop (e.g. public rows only).
    std::function<RunResult(const LinearSgdPlan&, TrainingObserver&, const CancelToken&)>
        trainOtherwise;
    /// Completes the trained result: its settings and privacy statement.
    std::function<void(RunResult&, const LinearSgdPlan&)> describe;
};

/// Trains `jobs` (observers in the same order): a run with its own batches by runLinearSgd,
/// runs on one shared sample together by runLinearSgdGroup (a run alone on shared batches is a
/// group of one); then each job's describe. Results in the order of `jobs`.
std::vector<RunResult> trainLinearSgdJobs(std::vector<LinearSgdJob>& jobs, const DataSplit& data,
                                          const std::vector<TrainingObserver*>& observers,
                                          const CancelToken& cancel);

/// The base of dp-sgd-linear and semi-dp-sgd: a run is a LinearSgdJob (`job`), trained alone
/// or with the runs on the same shared batches (trainLinearSgdJobs). Each adds its name,
/// declarations, rules and `job`.
class LinearSgdAlgorithm : public Algorithm {
public:
    RunResult run(const PreparedConfig& prepared, const DataSplit& data, TrainingObserver& observer,
                  const CancelToken& cancel) const override;
    std::vector<RunResult> runTogether(const std::vector<PreparedConfig>& runs,
                                       const DataSplit& data,
                                       const std::vector<TrainingObserver*>& observers,
                                       const CancelToken& cancel) const override;
    /// dp-sgd-linear and semi-dp-sgd: a run of either draws the batches of any run of either
    /// with the same togetherKey (semi-dp-sgd without public rows is dp-sgd-linear's step).
    std::string togetherFamily() const override { return "linear-dp-sgd"; }

protected:
    /// The run of a prepared configuration: its plan, streams, training and statement.
    virtual LinearSgdJob job(const TrainConfig& config, const DataSplit& data) const = 0;
};

/// The projection radius D of the linear DP-SGD algorithms (dp-sgd-linear, semi-dp-sgd),
/// declared as the heavy-tail algorithms declare it: one setting, one meaning.
ParamSpec domainRadiusParameter();

/// Whether the training loop reads the rows as loaded (double) or from a single-precision copy
/// (single), declared once for both linear DP-SGD algorithms.
ParamSpec rowPrecisionParameter();

/// Which runs with batch-sharing by-seed draw one sample: those on the same private rows at the
/// same rate (per-population), or every run on the same data with the same seed, batch and
/// epochs whatever its public share (nested; add/remove only), declared once for both.
ParamSpec sharedSampleParameter();

/// The envelope rate of a run with `privateRows` of `trainingRows` training rows under
/// `config` (LinearSgdSetup::envelopeRate): with shared-sample nested, a private run drawing
/// shared batches gets min(1, 2^k·b/n) for the smallest k ≥ 1 at which it is at least the run's
/// rate b/n_priv, so every run with at least half the rows private (any public share up to
/// about 1/2, and dp-sgd-linear) has the same one; 0 otherwise.
double nestedEnvelopeRate(const TrainConfig& config, long trainingRows, long privateRows);

/// Refuses shared-sample nested under replace-one adjacency (InputError): the ledger's joint
/// bound for a nested sample is the add/remove one.
void validateSharedSample(const TrainConfig& config);

/// The population a nested shared sample is drawn from, named by its public settings (for
/// RunStreams and the run keys): every training row, at `envelopeRate`.
std::string nestedSamplePopulation(double envelopeRate);

}  // namespace pfa
