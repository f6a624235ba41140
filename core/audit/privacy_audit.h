#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "core/algorithms/saddle/dp_sgd.h"
#include "core/config/cancel_token.h"
#include "core/config/run_result.h"
#include "core/config/train_config.h"
#include "core/data/dataset.h"

namespace pfa::audit {

/// What an empirical privacy audit runs: a membership-inference experiment against one
/// private algorithm, in one of three designs (AuditMethod). The classic one, for each target
/// ε, trains `modelsPerWorld` models on the training rows D and as many on D ∪ {canary}
/// (add/remove adjacency at the row level), each with its own seed, scores the canary under
/// every released model and turns the attack's true- and false-positive rates into a lower
/// bound on ε (Clopper–Pearson, see clopper_pearson.h). The one-run designs (one_run_audit.h)
/// insert many canaries, each with probability ½, into few runs and bound ε from how many of
/// the attack's guesses are right (Steinke, Nasr and Jagielski 2023).

/// How the audit attacks.
enum class AuditMethod {
    /// Black box, many models: M models with and M without one input canary.
    ManyModels,
    /// Black box, one run: many input canaries (records far outside the data), each inserted
    /// with probability ½; only the released models are seen.
    OneRunInput,
    /// White box, one run: gradient canaries (one coordinate of the clipped θ-gradient sum, at
    /// the clip bound), each inserted with probability ½ and Poisson-sampled into steps like a
    /// record; the attack sees every released noisy gradient. The rows' gradients are removed
    /// from the sum: the data set on which the claim is hardest to keep.
    OneRunGradient,
};

/// Whether the method bounds ε from one run's (or a few runs') many canaries.
inline bool isOneRun(AuditMethod method) {
    return method == AuditMethod::OneRunInput || method == AuditMethod::OneRunGradient;
}

/// The method's command-line name ("many-models", "one-run", "white-box") and
/// its name in words.
const char* auditMethodKey(AuditMethod method);
std::string auditMethodName(AuditMethod method);
/// The method named `key` (a command-line name); throws InputError listing them otherwise.
AuditMethod auditMethodFromKey(const std::string& key);

/// The algorithm the audit offers first and the one its deliberately broken mechanism breaks:
/// DP-SGD, whose noise the canary attack is built to detect.
inline constexpr const char* kAuditedAlgorithm = kDpSgdName;

struct AuditOptions {
    /// The run's settings (algorithm, epochs, batch size, step size, clip, δ, ...); `epsilon`
    /// and `seed` are set by the audit. The algorithm must be private, protect single records
    /// and be analysed under add/remove adjacency (Poisson sampling for the step methods).
    TrainConfig config;
    std::vector<double> epsilons{1.0};  ///< the target ε of each audited configuration
    AuditMethod method = AuditMethod::ManyModels;
    int modelsPerWorld = 100;  ///< ManyModels: M models without and M with the canary (≥ 4)
    long canaries = 1000;      ///< one-run methods: m canaries in all (≥ 10), over as few runs
                               ///< as hold them
    double confidence = 0.95;  ///< of the lower bound, in (0, 1)
    /// > 1: audit a DELIBERATELY BROKEN DP-SGD (for demonstration and tests only) that claims
    /// the target ε but adds the calibrated noise divided by this factor. 1: the algorithm of
    /// `config` as registered. Only for config.algorithm == kAuditedAlgorithm.
    double brokenNoiseDivisor = 1.0;
    int threads = 0;         ///< training threads; 0: all hardware threads
    std::uint64_t seed = 1;  ///< model k of world w is trained with seed·1000003 + 2k + w
    /// Called for every model the audit trains, however its training ended (serialised, on a
    /// training thread; `withCanary`: trained on the rows plus the canary). Each model is a
    /// private run on the training rows, so the privacy ledger charges it. What it throws
    /// ends the audit with that error.
    std::function<void(const RunResult& model, bool withCanary)> onModelTrained;
};

/// How far an input canary lies from the training rows' mean, in standardised units.
inline constexpr double kCanaryDistance = 10.0;

/// The label a canary at a point gets: the one the rest of the data supports least there, so
/// that its gradient stays large in every model that contains it. Two classes: the class the
/// linear discriminant Σ⁻¹(μ₁ − μ₀) of the training rows does not predict at the point (a
/// flipped label); otherwise the rarest class.
class CanaryLabeller {
public:
    explicit CanaryLabeller(const Dataset& train);
    int label(const Eigen::VectorXd& point) const;
    std::string why() const;                 ///< the rule, in words
    std::string className(int label) const;  ///< the class's name in the data
private:
    const Dataset& m_train;
    std::vector<long> m_counts;
    Eigen::VectorXd m_discriminant, m_midpoint;  ///< empty unless two classes
};

/// The canary record the audit adds (in the encoded feature space of the training rows).
struct Canary {
    Eigen::VectorXd x;        ///< encoded features (no bias)
    int label = 0;            ///< class index
    int group = 0;            ///< sensitive group index
    std::string description;  ///< how it was chosen, in words
};

/// The audit of one target ε.
struct AuditPoint {
    double targetEpsilon = 0.0;
    /// The ε the accountant certifies for the trained configuration (the largest over every
    /// model trained, with and without the canary). For the broken mechanism: the ε it claims,
    /// i.e. the accountant's ε for the noise it pretends to add.
    double claimedEpsilon = 0.0;
    /// Broken mechanism only: the accountant's ε for the noise actually added (NaN otherwise).
    double actualEpsilon = std::numeric_limits<double>::quiet_NaN();
    double delta = 0.0;
    long modelsTrained = 0;         ///< both worlds, all halves
    long selectionTrials = 0;       ///< models per world used to choose the attack's threshold
    long evaluationTrials = 0;      ///< models per world the rates are measured on
    double threshold = 0.0;         ///< the attack says "member" when score > threshold …
    bool higherMeansMember = true;  ///< … (or < threshold when false)
    long truePositives = 0;         ///< of evaluationTrials models trained with the canary
    long falsePositives = 0;        ///< of evaluationTrials models trained without it
    double tpr = 0.0, fpr = 0.0;
    double tprLower = 0.0;  ///< one-sided Clopper–Pearson, error (1 − confidence)/2
    double fprUpper = 0.0;  ///< one-sided Clopper–Pearson, error (1 − confidence)/2
    double epsilonLower =
        0.0;  ///< ε ≥ this with probability ≥ confidence (if the mechanism is (ε, δ)-DP)
    double seconds = 0.0;               ///< wall time of this ε's training
    std::vector<double> scoresWith;     ///< canary scores of the models trained with it
    std::vector<double> scoresWithout;  ///< … and without it
    // One-run methods: the canaries, the runs that held them and the attack's guesses.
    long canaries = 0;                 ///< m
    long canariesIncluded = 0;         ///< how many the coin flips put in
    long runs = 0;                     ///< training runs the canaries were spread over
    long guesses = 0;                  ///< r: canaries the attack guessed (members or not)
    long guessedOut = 0;               ///< of those, called non-members (the lowest scores)
    long correctGuesses = 0;           ///< v: of those, the ones that were in
    long guessOptions = 0;             ///< how many r the attack tried (Bonferroni: error ÷ this)
    std::vector<double> canaryScores;  ///< every canary's score, in canary order …
    std::vector<bool> canaryIncluded;  ///< … and whether it was in

    /// Whether the audit contradicts the claim: the lower bound exceeds the claimed ε.
    bool contradictsClaim() const { return epsilonLower > claimedEpsilon; }
};

/// The whole audit.
struct AuditResult {
    AuditMethod method = AuditMethod::ManyModels;
    std::string algorithm;  ///< registry name
    std::string mechanism;  ///< "dp-sgd" or "dp-sgd, DELIBERATELY BROKEN: noise ÷ 10"
    bool broken = false;
    double confidence = 0.95;
    int modelsPerWorld = 0;
    long canaries = 0;  ///< one-run methods: m
    std::string score;  ///< what the attack scores, in words
    Canary canary;
    long trainingRows = 0;  ///< rows of D (D ∪ {canary} has one more)
    /// The audited run's settings (ε and the seed are set per model by the audit) and the
    /// audit's own seed: with the data set, what reproduces the audit.
    TrainConfig config;
    std::uint64_t seed = 0;
    std::string finishedAt;          ///< UTC, ISO 8601
    std::vector<AuditPoint> points;  ///< one per completed target ε, in the given order
    bool cancelled = false;
};

/// Progress: models trained so far and the total of the audit. Called from the training
/// threads, one call at a time.
using AuditProgress = std::function<void(long done, long total)>;

/// Why a white-box audit of `algorithm` failed: its runs have no step the canaries can reach.
std::string whiteBoxUnreachable(const std::string& algorithm);

/// Why the audit does not apply to `config` on `data` ("" when it does): a non-private or
/// unknown algorithm, a unit of privacy other than one record (users, silos), replace-one
/// adjacency or fixed-size batches (analysed under replace-one), a regression task, or data
/// with people or silos. Also checks the broken-mechanism option.
std::string auditApplicability(const AuditOptions& options, const DataSplit& data);

/// The canary the audit adds to `train`: a point far outside the data (norm 10 in the
/// standardised features) along the direction in which the training rows vary least, so
/// that the other rows hardly move the model there, labelled with the class the data predicts
/// against at that point (two classes: the linear discriminant's losing side; otherwise the
/// rarest class), so that its gradient stays large in every model that contains it.
Canary makeCanary(const Dataset& train);

/// D ∪ canaries: the training rows with the canaries appended (same encoding, same test rows).
DataSplit withCanaries(const DataSplit& data, const std::vector<const Canary*>& canaries);

/// The canary's score under a model Θ (p × (d+1), bias last): its logit margin for its own
/// label (binary: (2y − 1)·Θx̃; several classes: z_y − max_{j≠y} z_j).
double canaryScore(const RowMatrix& theta, const Canary& canary);

/// Chooses the attack on the selection scores and measures it on the evaluation scores:
/// the threshold and direction that maximise the ε bound on the selection half, then the
/// counts, rates, Clopper–Pearson bounds (each at error (1 − confidence)/2) and the ε bound
/// on the evaluation half. Fills those fields of `point` (and its trial counts).
void evaluateAttack(const std::vector<double>& selectWith, const std::vector<double>& selectWithout,
                    const std::vector<double>& evalWith, const std::vector<double>& evalWithout,
                    double delta, double confidence, AuditPoint& point);

/// Runs the audit (see AuditOptions; the one-run methods are runOneRunAudit's). Throws InputError
/// when it does not apply (auditApplicability) or a model's training fails; returns the completed ε
/// points with `cancelled` set when `cancel` fires.
AuditResult runPrivacyAudit(const AuditOptions& options, const DataSplit& data,
                            const CancelToken& cancel, const AuditProgress& progress = {});

}  // namespace pfa::audit
