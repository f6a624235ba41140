#pragma once

// The game of "DP reductions (simplified)": a cost-sensitive learner (noisy least squares)
// against an auditor (exponentiated gradient on the signed fairness constraints), played for T
// rounds; the released classifier is the uniform mixture of the learner's plays. Sensitive
// attribute only (features and labels public), two groups, demographic parity or equalized
// odds. The loop lives here, apart from the algorithm's settings and privacy statement, so
// that its arithmetic can be tested on small inputs.

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/fairness/fairness_notion.h"
#include "core/privacy/noisy_release.h"
#include "core/util/random.h"

namespace pfa::reductions {

/// The constraint cells of a notion for two (or k) groups. Demographic parity: cell = group a,
/// parent set = all rows. Equalized odds: cell = (a, y) with index y·k + a, parent set = the
/// rows with that label y. A cell's constraint value is v_j = mean over the cell minus mean over
/// its parent set.
class Cells {
public:
    /// `notion` must be demographic parity or equalized odds (throws InputError otherwise).
    Cells(FairnessNotion notion, int groups, int classes = 2);

    bool equalizedOdds() const { return m_eo; }
    int groups() const { return m_groups; }
    int count() const { return m_eo ? m_groups * m_classes : m_groups; }
    /// Cell of a row with label y and group a.
    int cellOf(int y, int a) const { return m_eo ? y * m_groups + a : a; }
    /// Label of a cell's parent set; −1 for demographic parity (all rows).
    int parentLabel(int cell) const { return m_eo ? cell / m_groups : -1; }
    /// Group of a cell.
    int groupOf(int cell) const { return cell % m_groups; }

    /// Rows per cell.
    Eigen::VectorXd counts(const Eigen::VectorXi& y, const Eigen::VectorXi& s) const;

private:
    bool m_eo;
    int m_groups;
    int m_classes;
};

/// λ = B·exp(θ)/(1 + Σ_k exp(θ_k)) (the "1 +" is a slack coordinate: ‖λ‖₁ ≤ B), computed
/// without overflow. θ has 2·cells entries: first the (+γ) constraints, then the (−γ) ones.
Eigen::VectorXd lambdaFromTheta(const Eigen::VectorXd& theta, double bound);

/// λ̃_j = λ_{+j} − λ_{−j}.
Eigen::VectorXd signedLambda(const Eigen::VectorXd& lambda);

/// The public and privatised shares the signed weights divide by: p̃_j (cell shares, noisy
/// and floored in private runs) and P_y = n_y/n (label shares, public; unused for DP).
struct Shares {
    Eigen::VectorXd cell;   ///< p̃_j
    Eigen::VectorXd label;  ///< P_y
};

/// Signed weights r_i = n·(cost of predicting 0 − cost of predicting 1) for the Lagrangian
/// err(h) + Σ_k λ_k(γ_k(h) − c):
///   EO: r_i = (2y_i − 1) − λ̃_{(a_i,y_i)}/p̃_{(a_i,y_i)} + Σ_{a'} λ̃_{(a',y_i)}/P_{y_i};
///   DP: r_i = (2y_i − 1) − λ̃_{a_i}/p̃_{a_i} + Σ_{a'} λ̃_{a'}.
/// Writes into `r` (sized n), allocating nothing.
void signedWeights(const Cells& cells, const Eigen::VectorXd& lambdaTilde, const Shares& shares,
                   const Eigen::VectorXi& y, const Eigen::VectorXi& s, Eigen::VectorXd& r);

/// Exact constraint values γ_j(h) = mean_{i∈j} h_i − mean_{i∈P_j} h_i of predictions h
/// (0/1 or probabilities), per cell. A cell (or parent) without rows gives 0.
Eigen::VectorXd cellViolations(const Cells& cells, const Eigen::VectorXd& h,
                               const Eigen::VectorXi& y, const Eigen::VectorXi& s);

/// The design x̃ = (x, 1) of a data set (bias last): its stored rows with bias, column-major.
Eigen::MatrixXd designWithBias(const FeatureMatrix& X);

/// X₂ = max_i ‖x̃_i‖₂ and X₁ = max_i ‖x̃_i‖₁ over the rows of a design.
double maxRowNorm2(const Eigen::MatrixXd& design);

/// The learner: w = (X̃ᵀX̃ + μI)⁻¹(X̃ᵀr + N(0, S_l² I)), μ = 1e−6·trace(X̃ᵀX̃)/(d+1). X̃ᵀX̃ + μI
/// is factorised once (LDLT) and reused every round; X̃ᵀX̃ is public in the sensitive-only
/// scope. Keeps a reference to the design.
/// The factor of the learner's normal equations, X̃ᵀX̃ + µI with the small ridge
/// µ = 10⁻⁶·trace/(d+1), the same for every run on one design.
struct LearnerFactor {
    double mu = 0.0;
    Eigen::LDLT<Eigen::MatrixXd> factor;
};
/// LearnerFactor of `design`.
LearnerFactor learnerFactor(const Eigen::MatrixXd& design);

/// What every run on the same training and test rows reads alike: both designs, the largest
/// training row norm and the learner's factor.
struct ReductionsData {
    Eigen::MatrixXd design, testDesign;
    double rowNorm = 0.0;
    LearnerFactor learner;
};
/// ReductionsData of `train` and `test`, computed once for the runs of a sweep on the same rows:
/// while any caller holds the returned pointer, a call for rows with the same fingerprints
/// returns it. Thread-safe.
std::shared_ptr<const ReductionsData> reductionsData(const Dataset& train, const Dataset& test);

class NoisyLeastSquares {
public:
    explicit NoisyLeastSquares(const Eigen::MatrixXd& design);
    /// With the factor of `design` computed already (learnerFactor(design); referenced).
    NoisyLeastSquares(const Eigen::MatrixXd& design, const LearnerFactor& factor);

    double ridge() const { return m_factor.mu; }
    /// w for weights r with noise std `noiseStd` on every entry of X̃ᵀr (0: no draw).
    /// Allocates nothing after the first call.
    void solve(const Eigen::VectorXd& r, double noiseStd, RandomStream& random, Eigen::VectorXd& w);
    /// The same with the statistic released through `release` (its Δ and noise std).
    void solve(const Eigen::VectorXd& r, const privacy::ReleaseSpec& release, RandomStream& random,
               Eigen::VectorXd& w);
    /// The noisy statistic X̃ᵀr + noise of the last solve (for tests of the noise).
    const Eigen::VectorXd& lastStatistic() const { return m_stat; }

private:
    const Eigen::MatrixXd& m_design;
    LearnerFactor m_own;  // unless one was given
    const LearnerFactor& m_factor;
    Eigen::VectorXd m_stat;
};

/// The auditor's estimate of γ(h) from noisy cell sums: ũ_j = Σ_{i∈j} h_i + N(0, S_a²),
/// U_y = Σ_{y_i=y} h_i (public: h, X and y are), γ̃_j = ũ_j/(n p̃_j) − U_{y(j)}/(n P_{y(j)})
/// (DP: γ̃_j = ũ_j/(n p̃_j) − U/n). Writes into `gamma` (sized cells).
void auditorViolations(const Cells& cells, const Eigen::VectorXd& h, const Eigen::VectorXi& y,
                       const Eigen::VectorXi& s, const Shares& shares, double noiseStd,
                       RandomStream& random, Eigen::VectorXd& gamma);
/// The same with the cell sums released through `release` (its Δ and noise std).
void auditorViolations(const Cells& cells, const Eigen::VectorXd& h, const Eigen::VectorXi& y,
                       const Eigen::VectorXi& s, const Shares& shares,
                       const privacy::ReleaseSpec& release, RandomStream& random,
                       Eigen::VectorXd& gamma);
/// The releases of one round: the learner's statistic X̃ᵀr and the auditor's cell sums.
privacy::ReleaseSpec learnerRelease(double sensitivity, double noiseStd);
privacy::ReleaseSpec auditorRelease(double sensitivity, double noiseStd);

/// θ ← θ + η·((+γ̃, −γ̃) − c).
void updateTheta(Eigen::VectorXd& theta, const Eigen::VectorXd& gammaTilde, double step,
                 double tolerance);

/// Rounds of the reference formula:
/// T = max(1, ⌊B·√ln(4|A|−3)·n·ε / (2(2B|A|+1)·√ln(1/δ)·(V ln n + ln(2/β)))⌋), |A| = 2,
/// V = d + 1 (d features).
long referenceRounds(double bound, long n, long features, double epsilon, double delta,
                     double beta);
/// Rounds when not private and the rounds are automatic (the formula needs a finite ε).
inline constexpr long kNonPrivateRounds = 50;
/// η₀ of Fairlearn's exponentiated-gradient reduction: its step is η₀/B.
inline constexpr double kFairlearnStep = 2.0;
/// Step of the reference (private mode): η = 0.5·√(ln(4|A|−3)/T)/B, |A| = 2.
double referenceStep(long rounds, double bound);

/// Noise of a private run: z for 2T unsampled Gaussian releases at ε − ε_cnt, S_l = z·X₂·B/p̃_min
/// and S_a = z·√2.
struct Noise {
    double z = 0.0;
    double learnerStd = 0.0;          ///< S_l
    double auditorStd = 0.0;          ///< S_a
    double learnerSensitivity = 0.0;  ///< X₂·B/p̃_min (replace-one of a sensitive attribute)
    double auditorSensitivity = 0.0;  ///< √2 (a record leaves one cell and joins another)
};
/// ε_cnt = 0.05·ε (basic composition) for the cell counts.
inline constexpr double kCountShare = 0.05;
/// Floor of the noisy cell counts.
inline constexpr double kCountFloor = 10.0;
/// The multiplier z: solveNoiseMultiplierFor on 2T unsampled Gaussian releases for the
/// target `epsilonRounds` at δ. Throws InputError when the budget is too small.
double solveMultiplier(long rounds, double epsilonRounds, double delta);
/// S_l and S_a for z, X₂, B and p̃_min.
Noise noiseFor(double z, double rowNorm, double bound, double minShare);

/// Δ_t of the learner's statistic X̃ᵀr in a round with signed multipliers λ̃: changing one
/// row's sensitive attribute from a to a' (its label fixed) changes only r_i, by
/// λ̃_{(a',y)}/p̃_{(a',y)} − λ̃_{(a,y)}/p̃_{(a,y)} (DP: the groups' cells), so
/// Δ_t = X₂·max over labels and group pairs of that difference ≤ X₂·B/p̃_min. λ̃ and p̃ are
/// public when the round starts (functions of earlier noisy releases), so is Δ_t. It is 0 in
/// the first round (λ̃ = 0: the weights do not read the sensitive attribute).
double learnerSensitivity(const Cells& cells, const Eigen::VectorXd& lambdaTilde,
                          const Shares& shares, double rowNorm);

/// Everything one game needs.
struct GameSettings {
    long rounds = 1;
    double tolerance = 0.05;          ///< c
    double bound = 20.0;              ///< B
    double step = 0.01;               ///< η
    double learnerStd = 0.0;          ///< S_l (0: no noise)
    double auditorStd = 0.0;          ///< S_a (0: no noise)
    double learnerSensitivity = 0.0;  ///< Δ of the learner's statistic (0: none claimed)
    double auditorSensitivity = 0.0;  ///< Δ of the auditor's cell sums (0: none claimed)
    /// z of the learner's release: when > 0, each round's statistic gets noise z·Δ_t with
    /// Δ_t = learnerSensitivity(…, rowNorm) of that round (learnerStd and learnerSensitivity
    /// are then the worst case, unused).
    double learnerMultiplier = 0.0;
    double rowNorm = 0.0;  ///< X₂ = max_i ‖x̃_i‖₂
};

/// What the game leaves behind.
struct GameOutcome {
    long rounds = 0;                 ///< rounds played (fewer when stopped)
    Eigen::VectorXd theta;           ///< the auditor's final θ
    std::vector<Eigen::VectorXd> w;  ///< the learner's plays w_1..w_t (bias last)
    double largestLearnerStd = 0.0;  ///< the largest noise std the learner's releases had
    /// Per play: its training error (features and labels are public in this scope) and the
    /// auditor's released violations γ̃_t (noisy in a private game, exact otherwise).
    std::vector<double> trainErrors;
    std::vector<Eigen::VectorXd> violations;
};

/// Called after each round t (1-based) with the plays so far; returns true to stop.
using RoundHook = std::function<bool(long round, const GameOutcome& soFar)>;

/// Plays the game on the training rows (design X̃, labels, groups) with the given shares and
/// noise; the noise is drawn from `random` in a fixed order (per round: d+1 learner draws, then
/// one per cell). `stopBefore` is asked before each round (cancellation).
GameOutcome playGame(const Cells& cells, const GameSettings& settings,
                     const Eigen::MatrixXd& design, const Eigen::VectorXi& y,
                     const Eigen::VectorXi& s, const Shares& shares, RandomStream& random,
                     const std::function<bool()>& stopBefore, const RoundHook& afterRound,
                     const LearnerFactor* factor = nullptr);

/// h̄(x) = (1/T)·Σ_t 1[w_tᵀx̃ > 0] on the rows of `design`.
Eigen::VectorXd mixtureProbability(const std::vector<Eigen::VectorXd>& plays,
                                   const Eigen::MatrixXd& design);

/// The weights Q of the best mixture of the plays so far and the two constant classifiers
/// (Fairlearn's LP step, on what the game released): min Σ_t Q_t·err_t + B·s subject to
/// Σ_t Q_t·(±γ̃_{t,j}) − c ≤ s for every signed constraint, Σ_t Q_t = 1, Q ≥ 0, s ≥ 0. The
/// candidates are the T plays, then "always 0" and "always 1" (errors P(y = 1) and P(y = 0),
/// violations exactly 0), so the output is never worse than a constant on the training rows.
/// It reads only public training errors (features and labels are public in this scope) and
/// the released violations, so it is post-processing. Returns T + 2 weights; an optimal
/// vertex weights at most 2·cells + 1 candidates. Throws std::runtime_error if GLPK fails.
Eigen::VectorXd bestMixtureWeights(const GameOutcome& soFar, double tolerance, double bound,
                                   double positiveShare);

/// P(ŷ = 1 | x) = Σ_t Q_t·1[w_tᵀx̃ > 0] (+ Q_{T+2} for "always 1", when `weights` has the
/// two constants' entries) on the rows of `design`; plays with Q_t = 0 are skipped.
Eigen::VectorXd weightedMixtureProbability(const std::vector<Eigen::VectorXd>& plays,
                                           const Eigen::VectorXd& weights,
                                           const Eigen::MatrixXd& design);

/// weightedMixtureProbability from the plays' predictions 1[w_tᵀx̃ > 0] on `rows` rows, kept
/// one byte per row and play as the plays came (`predictions[t]`, one per play): the same
/// values, bit for bit, without scoring every play again after every round.
Eigen::VectorXd weightedMixtureOfPredictions(
    const std::vector<std::vector<std::uint8_t>>& predictions, const Eigen::VectorXd& weights,
    Eigen::Index rows);

}  // namespace pfa::reductions
