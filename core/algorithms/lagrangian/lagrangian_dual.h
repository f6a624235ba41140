#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "core/config/algorithm.h"
#include "core/config/cancel_token.h"
#include "core/config/parameters.h"
#include "core/config/run_result.h"
#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/engine/design_matrix.h"
#include "core/fairness/fairness_notion.h"
#include "core/fairness/penalty_layout.h"
#include "core/privacy/accounting_inputs.h"
#include "core/privacy/order_grid.h"
#include "core/privacy/rdp_accountant.h"
#include "core/privacy/rdp_mechanisms.h"

/// Lagrangian-dual fair training of a binary logistic model: f-ld (not private) and pf-ld
/// (private). The model minimises mean ℓ + Σ_j λ_j·|v_j| with one multiplier λ_j ≥ 0 per
/// constraint cell; after every epoch the multipliers move toward the violated constraints,
/// λ_j ← max(0, λ_j + s·(|v_j| − τ)). Both algorithms declare their shared settings here, once,
/// and run the same loop.
///
/// Cells: demographic parity has one cell per group a, whose parent set is every row;
/// equalized odds one per (a, y), parent = the rows with that y; equal opportunity one per
/// group among the rows with y = y*, parent = those rows. For a per-row value f_i,
/// v_j = mean_{i∈j} f_i − mean_{i∈P_j} f_i. The value is the predicted probability (rates), or
/// for accuracy parity the loss ℓ_i (cells of demographic parity); in the cell sums either is
/// clipped to C_d.
///
/// The private version (pf-ld) makes each row's gradient depend only on that row and on
/// released state: the multipliers, the signs ŝ_j of the released violations and privatised
/// cell counts ñ give every row the weight κ_i = n·Σ_j λ_j ŝ_j (1[i∈j]/ñ_j − 1[i∈P_j]/ñ_{P_j}),
/// so g_i = (σ_i − y_i + κ_i σ_i(1 − σ_i))·x̃_i (accuracy parity: (σ_i − y_i)(1 + κ_i)·x̃_i) is
/// clipped per row and noised as in DP-SGD. The dual step releases the per-cell sums of the
/// clipped values with Gaussian noise once per epoch; the counts are released once, with
/// Laplace noise.
namespace pfa::ld {

// ---- settings (declared once for both algorithms) ------------------------------------------

/// "adam-lr": the Adam learning rate (default 0.001).
ParamSpec adamLearningRateParameter();
/// "dual-step": s, the multipliers' step after each epoch (default 0.2; 0 = unconstrained).
ParamSpec dualStepParameter();
/// "dual-tolerance": τ, the slack each constraint |v_j| ≤ τ allows (default 0).
ParamSpec dualToleranceParameter();
/// "dual-clip": C_d, the clip of each row's value in the cell sums (default 1).
ParamSpec dualClipParameter();
/// "dual-share": φ_d, the share of ε the dual releases would spend alone (pf-ld; default 0.1).
ParamSpec dualShareParameter();
/// "count-share": ε_cnt/ε, the share spent on the cell counts (pf-ld; default 0.05).
ParamSpec countShareParameter();
/// "constraint": "rates" (the fairness notion's rates) or "accuracy-parity".
ParamSpec constraintParameter();

// ---- cells -----------------------------------------------------------------------------------

/// What the constraints compare across groups.
enum class Constraint {
    Rates,           ///< predicted probabilities in the cells of the fairness notion
    AccuracyParity,  ///< per-row losses in the cells of demographic parity
};
Constraint parseConstraint(const std::string& code);  ///< "rates" | "accuracy-parity"

/// The constraint cells of a notion and their parent sets (cells of one block of the notion's
/// PenaltyLayout share their parent: the block's rows).
class Cells {
public:
    /// Binary labels; accuracy parity always uses the cells of demographic parity.
    Cells(FairnessNotion notion, Constraint constraint, int groups, int advantagedClass);

    int count() const { return m_layout.cells(); }
    int parents() const { return m_layout.blocks(); }
    /// The cell of a row with label y and group s; −1 when the row is in no cell (equal
    /// opportunity, y ≠ y*).
    int cellOf(int y, int s) const { return m_layout.cellOf(y, s); }
    /// The parent (block) of a cell.
    int parentOf(int cell) const { return m_layout.blockOfCell(cell); }
    Constraint constraint() const { return m_constraint; }
    const PenaltyLayout& layout() const { return m_layout; }

    /// The cell of every row (−1: none).
    Eigen::VectorXi cellsOfRows(const Eigen::VectorXi& y, const Eigen::VectorXi& s) const;
    /// Rows per cell.
    Eigen::VectorXd counts(const Eigen::VectorXi& y, const Eigen::VectorXi& s) const;

    /// v_j = S_j/n_j − (Σ_{j'∈P_j} S_j')/(Σ_{j'∈P_j} n_j') for per-cell sums S and counts n
    /// (`out` sized count(); allocates nothing).
    void violations(const Eigen::VectorXd& sums, const Eigen::VectorXd& counts,
                    Eigen::VectorXd& out) const;
    /// The row weight κ of each cell (a row of cell c gets κ_c; rows in no cell get 0):
    /// κ_c = n·(λ_c ŝ_c/n_c − Σ_{j with c ∈ P_j} λ_j ŝ_j/n_{P_j}). With exact counts
    /// Σ_i κ_i = 0. `out` sized count(); allocates nothing.
    void weights(const Eigen::VectorXd& lambda, const Eigen::VectorXd& signs,
                 const Eigen::VectorXd& counts, double n, Eigen::VectorXd& out) const;

private:
    PenaltyLayout m_layout;
    Constraint m_constraint;
};

/// The dual step: ŝ_j = sign(v_j) (0 for v_j = 0), λ_j ← max(0, λ_j + step·(|v_j| − τ)).
void dualStep(const Eigen::VectorXd& violations, double step, double tolerance,
              Eigen::VectorXd& lambda, Eigen::VectorXd& signs);

/// The value row i adds to its cell's sum: min(σ_i, C_d) (rates) or min(ℓ_i, C_d) (accuracy
/// parity).
double rowValue(Constraint constraint, double score, int y, double clip);
/// The scalar r_i of row i's gradient g_i = r_i·x̃_i: σ − y + κ σ(1 − σ) (rates) or
/// (σ − y)(1 + κ) (accuracy parity).
double rowScoreGradient(Constraint constraint, double score, int y, double kappa);

/// Σ_{i∈rows} clip(g_i) into `sum` (d+1 entries, overwritten) for the model `theta` (d+1, bias
/// last) on the design rows `X` (x̃ = (x, 1)) with norms `norms`, the row cells `cellOfRow` and
/// the per-cell weights `kappa`; each g_i is scaled by min(1, clip/‖g_i‖) (clip = ∞: none).
/// Returns the number of clipped rows; `lossSum` gets Σ ℓ_i, unless `withLoss` is false (a
/// sweep shows no batch loss: the logarithm per row is skipped and `lossSum` is 0). With
/// `sparse` (X's nonzero entries, DesignMatrix::sparseRows()) the rows are read by their
/// nonzeros: scores summed in feature order (within rounding of the dense dot product), the
/// same sums. Allocates nothing.
long clippedGradientSum(Constraint constraint, const Eigen::VectorXd& theta, const RowMatrix& X,
                        const Eigen::VectorXd& norms, const Eigen::VectorXi& y,
                        const Eigen::VectorXi& cellOfRow, const Eigen::VectorXd& kappa,
                        const long* rows, long count, double clip, Eigen::VectorXd& sum,
                        double& lossSum, bool withLoss = true, const SparseRows* sparse = nullptr);

// ---- Adam ------------------------------------------------------------------------------------

/// Adam (β₁ = 0.9, β₂ = 0.999, ε = 1e−8) with bias correction, as in PyTorch.
class Adam {
public:
    Adam(Eigen::Index parameters, double learningRate);
    /// θ ← θ − lr·m̂/(√v̂ + ε) for gradient g. Allocates nothing.
    void step(Eigen::VectorXd& theta, const Eigen::VectorXd& gradient);

private:
    double m_learningRate;
    long m_t = 0;
    double m_beta1Power = 1.0, m_beta2Power = 1.0;
    Eigen::VectorXd m_m, m_v;
};

// ---- accounting ------------------------------------------------------------------------------

/// The releases of a pf-ld run (baselines spec §1.4): T_p Poisson-subsampled Gaussian primal
/// steps (rate q, multiplier z_p w.r.t. C_p), E unsampled Gaussian releases of the cell-sum
/// vector (z_d w.r.t. C_d; its ℓ2 bound is C_d under add/remove and √2·C_d under replace, a row
/// leaving one cell for another) and one Laplace release of the counts (ε_cnt, charged by
/// basic composition).
struct Ledger {
    double samplingRate = 1.0;
    double primalMultiplier = 0.0;  ///< z_p
    long primalSteps = 0;           ///< T_p
    double dualMultiplier = 0.0;    ///< z_d (std / C_d)
    long dualReleases = 0;          ///< E
    double countEpsilon = 0.0;      ///< ε_cnt
    privacy::Adjacency adjacency = privacy::Adjacency::AddRemove;

    /// The multiplier of a dual release w.r.t. its ℓ2 bound under `adjacency`: z_d (add/remove)
    /// or z_d/√2 (replace).
    double dualMultiplierFor(privacy::Adjacency adjacency) const;
    /// The RDP curve of the Gaussian releases (primal + dual; counts excluded).
    privacy::RdpCurve curve(const privacy::OrderGrid& grid, privacy::Adjacency adjacency) const;
    /// ε at δ under `adjacency`: the curve's conversion plus ε_cnt (basic composition).
    privacy::EpsilonResult epsilon(const privacy::OrderGrid& grid, double delta,
                                   privacy::Adjacency adjacency) const;
    /// The same ledger after `steps` primal steps and `dual` dual releases.
    Ledger after(long steps, long dual) const;
};

/// The calibration of §1.4 for a target (ε, δ): ε_cnt = countShare·ε; z_d such that the E dual
/// releases alone would cost dualShare·ε under `adjacency`; then z_p solved on the total curve
/// (primal + dual, z_d fixed) for ε − ε_cnt. Returns the full-run ledger.
Ledger calibrate(double epsilon, double delta, double samplingRate, long primalSteps,
                 long dualReleases, double dualShare, double countShare,
                 privacy::Adjacency adjacency, const privacy::OrderGrid& grid);

/// The accounting inputs a record stores for an executed `ledger`: the primal steps as the
/// main Poisson kind (add/remove or replace), the dual releases as one Gaussian release after
/// every `stepsPerEpoch` steps (z_d, or z_d/√2 under replace), the counts as a pure release.
privacy::AccountingInputs accountingInputs(const Ledger& ledger, long stepsPerEpoch, double delta,
                                           const std::string& unit);

// ---- the run ---------------------------------------------------------------------------------

/// Which algorithm the loop runs.
enum class Mode {
    NonPrivate,  ///< f-ld (§1.2): shuffled batches, batch-level |vB_j| term, exact dual step
    Private,     ///< pf-ld (§1.3): Poisson batches, released weights κ, clipping and noise
};

/// What the loop needs from the resolved settings.
struct Settings {
    Mode mode = Mode::Private;
    Constraint constraint = Constraint::Rates;
    double learningRate = 1e-3;  ///< Adam
    double dualStep = 0.2;       ///< s
    double tolerance = 0.0;      ///< τ
    double dualClip = 1.0;       ///< C_d
    double dualShare = 0.1;      ///< φ_d
    double countShare = 0.05;    ///< ε_cnt/ε
};

/// The settings of a resolved configuration (own parameters present).
Settings settingsOf(Mode mode, const TrainConfig& config);

/// Throws InputError unless `data` suits the loop: two classes, every cell of the constraints
/// among the training rows, and (private) dual-share + count-share < 1.
void validate(const std::string& algorithm, const Settings& settings, const TrainConfig& config,
              const DataSplit& data);

/// Runs f-ld or pf-ld (settings.mode) on `data` with the resolved `config`: history, final
/// metrics, accounting and the privacy statement. pf-ld at ε = ∞ runs the same loop with exact
/// counts, no clipping and no noise.
RunResult run(const std::string& algorithm, const Settings& settings, const TrainConfig& config,
              const DataSplit& data, TrainingObserver& observer, const CancelToken& cancel);

/// Runs of one algorithm together (`settings[k]` for `runs[k]`): private runs with
/// batch-sharing by-seed (which the sweep groups by seed and sampler: they draw the same
/// batches) in lockstep, one pass over each batch for all of them; the others one after
/// another. Each result is bit for bit what run() gives for it alone.
std::vector<RunResult> runTogether(const std::string& algorithm,
                                   const std::vector<Settings>& settings,
                                   const std::vector<PreparedConfig>& runs, const DataSplit& data,
                                   const std::vector<TrainingObserver*>& observers,
                                   const CancelToken& cancel);

}  // namespace pfa::ld
