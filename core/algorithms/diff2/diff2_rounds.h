#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "core/algorithms/diff2/network_rows.h"
#include "core/config/algorithm.h"
#include "core/config/cancel_token.h"
#include "core/config/parameters.h"
#include "core/config/run_result.h"
#include "core/config/theory_rate.h"
#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/privacy/accounting_inputs.h"

/// The round loop shared by diff2 (DP optimisation from gradient differences) and dp-gd (its
/// restart period T = 1 case): full-batch gradient descent on the silo-weighted objective
/// f(x) = (1/P) Σ_p mean_{z∈D_p} ℓ(x; z), released through a running noisy gradient estimate.
/// Both algorithms declare their shared settings here, once, and run the same loop, so that
/// diff2 with restart-period 1 is dp-gd bit for bit.
namespace pfa::diff2 {

// ---- settings (declared once for both algorithms) ------------------------------------------

/// "gd-rounds": R, full-batch rounds (default 2000).
ParamSpec roundsParameter();
/// "gd-step": η, the step of x ← x − η·v (default 0.25).
ParamSpec stepParameter();
/// "full-clip": C1, the clip of each record's full gradient (restart rounds; every dp-gd round).
ParamSpec fullClipParameter();
/// "model": "linear" (squared loss on regression data, logistic on two classes) or "mlp" (one
/// hidden layer of 10 softplus units, same losses on its output).
ParamSpec modelParameter();
/// "restart-period": T (diff2 only); automatic: max(1, round(0.01·R)).
ParamSpec restartPeriodParameter();
/// "difference-clip-ratio": C2 (diff2 only); a difference is clipped to C2·‖x_r − x_{r−1}‖.
ParamSpec clipRatioParameter();
/// "noise-split": u > 1 (diff2 only): ε/(2u) of the RDP budget to the restarts, the rest to the
/// differences.
ParamSpec noiseSplitParameter();

/// T of a resolved configuration's "restart-period" value (0: automatic) for R rounds.
long resolvedRestartPeriod(double requested, long rounds);

/// The family's theory rate of the squared gradient norm ‖∇f‖² (non-convex, constants unknown):
/// `bound(d, N, ε)` with d the model's parameters and N = nmin·P records (smallest silo ×
/// silos), both recorded by the run; 0 at ε = ∞. None when the run recorded no sizes.
std::optional<RateShape> gradientNormRate(const RateInputs& in, std::string label,
                                          double (*bound)(double d, double records, double eps));

// ---- noise calibration (closed form) ---------------------------------------------------------

/// σ1 (multiplier on C1 in restart rounds) and σ2 (multiplier on C2·‖Δx‖ in difference rounds)
/// of R rounds with restart period T, P silos of at least nmin records, at (ε, δ), split u:
///   A = 1 + ⌈2 ln(1/δ)/ε⌉, K = ⌈R/T⌉,
///   σ1 = √(4uAK/(nmin²P²ε)), σ2 = √(4u/(u−1)·A(R−K)/(nmin²P²ε)).
/// With T = 1 there are no difference rounds (σ2 = 0) and the whole budget goes to the
/// restarts: u = 1, σ1 = √(4AR/(nmin²P²ε)), DP-GD's σ. ε = ∞: σ1 = σ2 = 0.
struct Calibration {
    long order = 0;     ///< A, the RDP order the calibration spends its budget at
    long restarts = 0;  ///< K
    double sigma1 = 0.0;
    double sigma2 = 0.0;
};
Calibration calibrate(double epsilon, double delta, long rounds, long period, long nmin, long silos,
                      double split);

// ---- per-record gradients --------------------------------------------------------------------

enum class ModelKind { Linear, Mlp };
enum class LossKind { Squared, Logistic };

/// Hidden units of the MLP.
inline constexpr int kHiddenUnits = 10;

/// One pass of a model over the rows at an iterate: what every record's gradient is made of.
/// The loss's derivative by the score, r_i, and for the MLP the hidden activations h_ij and the
/// back-propagated δ_ij = r_i·w2_j·softplus'(a_ij). A record's gradient is a product of these
/// with its own inputs, so its norm and a weighted sum over records never need the
/// rows × parameters matrix of all gradients (GradientModel::pass with a ClippedSum).
struct RecordFactors {
    Eigen::VectorXd scoreGradient;  ///< r_i
    Eigen::MatrixXd hidden;         ///< h_ij (MLP; rows × hidden units)
    Eigen::MatrixXd delta;          ///< δ_ij (MLP; rows × hidden units)
};

/// The clipped weighted sum a pass can also compute (GradientModel::pass): agg = Σ_i coef_i·g_i
/// of the records' gradients at the pass's iterate, or Σ_i coef_i·(g_i − g'_i) with `before`
/// (the factors g' of another iterate on the same rows), coef_i = weight_i·min(1, bound/‖·‖).
struct ClippedSum {
    ClippedSum(const RecordFactors* before, const Eigen::VectorXd& inputNormsSquared, double bound,
               const Eigen::VectorXd& weight, Eigen::VectorXd& norms, Eigen::VectorXd& coef,
               Eigen::VectorXd& agg)
        : before(before),
          inputNormsSquared(&inputNormsSquared),
          bound(bound),
          weight(&weight),
          norms(&norms),
          coef(&coef),
          agg(&agg) {}

    const RecordFactors* before = nullptr;
    /// ‖x_i‖² + 1 (see inputNormsSquared): the inputs' share of a record's gradient norm.
    const Eigen::VectorXd* inputNormsSquared = nullptr;
    double bound = 0.0;  ///< +∞: no clipping
    const Eigen::VectorXd* weight = nullptr;
    Eigen::VectorXd* norms = nullptr;  ///< out: each record's norm (rows)
    Eigen::VectorXd* coef = nullptr;   ///< out: each record's coefficient (rows)
    Eigen::VectorXd* agg = nullptr;    ///< out: the sum (parameters)
};

/// A differentiable model with per-record gradients computed for all rows at once (every buffer
/// owned by the model or the caller's `RecordFactors` and allocated by `reserve`, so that the
/// round loop allocates nothing). Parameters are one flat vector: linear [w (d), b]; MLP
/// [W1 (H×d, row-major), b1 (H), w2 (H), b2]. The MLP's pass goes over the rows a block at a
/// time and computes everything a record gives in one go (network_rows.h); the linear model's
/// in matrix operations.
class GradientModel {
public:
    GradientModel(ModelKind model, LossKind loss, Eigen::Index features);

    Eigen::Index parameters() const { return m_parameters; }
    ModelKind model() const { return m_model; }
    LossKind loss() const { return m_loss; }

    /// Allocates the model's buffers and those of `factors` for `rows` rows.
    void reserve(Eigen::Index rows);
    void reserve(RecordFactors& factors, Eigen::Index rows) const;
    /// Scores (model outputs before the loss) of the rows of `X` (rows as reserved).
    void scores(const Eigen::VectorXd& x, const FeatureRows& X, Eigen::VectorXd& out);
    /// One pass at iterate x over the rows of `X` with targets `y` (regression value, or class
    /// 0/1): every record's gradient factors into `out`, its loss ℓ(x; z_i) into `*loss` unless
    /// `loss` is null (the loss is only a diagnostic; skipping it saves a logarithm per record)
    /// and, with `sum`, the records' clipped weighted sum. Returns the records clipped (0
    /// without a sum). A record's gradient is a product of its factors with its own inputs, so
    /// its norm and the sum never need the rows × parameters matrix of all gradients.
    long pass(const Eigen::VectorXd& x, const FeatureRows& X, const Eigen::VectorXd& y,
              RecordFactors& out, Eigen::VectorXd* loss, const ClippedSum* sum = nullptr);
    /// The plain form, for tests and checks: every record's loss into `loss` and its whole
    /// gradient into the rows of `G` (rows × parameters).
    void gradients(const Eigen::VectorXd& x, const FeatureRows& X, const Eigen::VectorXd& y,
                   Eigen::VectorXd& loss, Eigen::MatrixXd& G);
    /// Initial parameters: uniform ±1/√fan_in for the MLP, zero for the linear model.
    Eigen::VectorXd initial(std::uint64_t seed) const;

private:
    /// The network's rows (network_rows.h) at iterate x.
    NetworkRows networkJob(const Eigen::VectorXd& x, const FeatureRows& X) const;
    /// The linear model's clipped sum from its factors `now`.
    long linearClippedSum(const RecordFactors& now, const FeatureRows& X, const ClippedSum& sum);

    ModelKind m_model;
    LossKind m_loss;
    Eigen::Index m_features;
    Eigen::Index m_parameters;
    Eigen::ArrayXXd m_outputExp, m_outputOnePlusExp;
    Eigen::VectorXd m_linearScores, m_weightedScoreGradient;
    NetworkScratch m_network;
};

/// ‖x_i‖² + 1 for every row of `X`: the squared norm of a record's inputs with the bias, the
/// factor its gradient's norm shares with every layer that reads the inputs.
Eigen::VectorXd inputNormsSquared(const FeatureRows& X);

// ---- the run -------------------------------------------------------------------------------

/// What the round loop needs from the resolved settings.
struct RoundSettings {
    long rounds = 0;
    long period = 1;  ///< T; 1 = dp-gd
    double step = 0.0;
    double fullClip = 0.0;
    double clipRatio = 0.0;
    double split = 1.25;
    ModelKind model = ModelKind::Linear;
};

/// Rounds between two evaluations of the display metrics (the tuning protocol's 20): the
/// fewest, evaluate-every can space them further.
inline constexpr long kEvaluateEvery = 20;

/// Runs the rounds of `settings` for algorithm `algorithm` ("diff2" or "dp-gd") on `data` with
/// the resolved `config`; fills history, final metrics, accounting and the privacy statement.
RunResult runRounds(const std::string& algorithm, const RoundSettings& settings,
                    const TrainConfig& config, const DataSplit& data, TrainingObserver& observer,
                    const CancelToken& cancel);

/// Runs of the rounds together (one algorithm; `settings[k]` for `runs[k]`): the linear runs in
/// lockstep sharing each pass over the rows, the others one after another. Each result is bit
/// for bit what runRounds gives for the run alone. Results in the order of `runs`.
std::vector<RunResult> runRoundsTogether(const std::string& algorithm,
                                         const std::vector<RoundSettings>& settings,
                                         const std::vector<PreparedConfig>& runs,
                                         const DataSplit& data,
                                         const std::vector<TrainingObserver*>& observers,
                                         const CancelToken& cancel);

/// What diff2 and dp-gd share as algorithms: a run is the rounds of its settings, and runs of
/// the linear model on one data set train together (their rounds share each pass over the
/// rows; the network's runs train alone). Each adds its name, declarations, rules and
/// `settingsOf`.
class RoundsAlgorithm : public Algorithm {
public:
    RunResult run(const PreparedConfig& prepared, const DataSplit& data, TrainingObserver& observer,
                  const CancelToken& cancel) const override;
    std::string togetherKey(const TrainConfig& config, const Dataset& train) const override;
    std::vector<RunResult> runTogether(const std::vector<PreparedConfig>& runs,
                                       const DataSplit& data,
                                       const std::vector<TrainingObserver*>& observers,
                                       const CancelToken& cancel) const override;

protected:
    /// The rounds' settings of a configuration with this algorithm's parameters filled.
    virtual RoundSettings settingsOf(const TrainConfig& config) const = 0;
};

/// Throws InputError unless `data` suits the loop: a regression target or two classes.
void requireSuitableData(const std::string& algorithm, const DataSplit& data);

/// The silos of the training part as the calibration sees them: P (1 without silos) and nmin.
struct SiloSizes {
    long silos = 1;
    long smallest = 0;
};
SiloSizes siloSizes(const Dataset& train);

/// The accounting of R rounds at `calibration` (record unit `unit`, replace-one): the restart
/// rounds are Gaussian releases at z1 = σ1·nmin·P/2 (their vector moves by at most 2·C1/(nmin·P)
/// when one record is replaced), one every T steps; the difference rounds are the interim kind at
/// z2 = σ2·nmin·P/2. `steps` is left at 0 (RunAccountant queries name their own).
privacy::AccountingInputs roundAccounting(const Calibration& calibration, const SiloSizes& silos,
                                          long rounds, long period, double delta,
                                          const std::string& unit);

/// Throws InputError when the accountant's ε of the whole run of a private `config` exceeds its
/// budget (the closed form spends its budget at order A; an A beyond the accountant's order grid,
/// i.e. a very small ε, is not certified there).
void requireWithinBudget(const std::string& algorithm, const TrainConfig& config,
                         const Dataset& train, long rounds, long period, double split);

}  // namespace pfa::diff2
