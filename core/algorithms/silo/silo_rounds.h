#pragma once

// Shared pieces of the algorithms that train one binary logistic model across silos in
// communication rounds (isrl-dp-sgd, isrl-local-sgd): their common settings, the batches
// each silo draws from its own rows, per-silo noise calibration and accounting, and the
// per-silo test metrics.
#include <Eigen/Core>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/config/parameters.h"
#include "core/config/run_result.h"
#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/engine/design_matrix.h"
#include "core/engine/epoch_reporter.h"
#include "core/engine/evaluator.h"
#include "core/model/model.h"
#include "core/privacy/accounting_inputs.h"
#include "core/privacy/run_accountant.h"
#include "core/util/random.h"

namespace pfa {

/// Who must be trusted in a run across silos, i.e. where the privacy noise is added.
enum class SiloTrust {
    Central,  ///< a trusted server adds the noise to the average of the silos' updates
    Shuffle,  ///< a secure shuffler: simulated at the rate level with the central noise
    Isrl,     ///< inter-silo record-level DP: each silo noises its update before sending it
    Local,    ///< each record's clipped gradient is noised before it leaves the record
};

/// How the noise of a silo's releases is calibrated to the per-record (ε, δ).
enum class SiloCalibration {
    ZcdpEpoch,   ///< each silo walks through shuffled epochs; zCDP σ = Δ·√(u/(2ρ))
    RdpPoisson,  ///< each silo Poisson-samples its rows (rate K/n_i); σ solved by the RDP
                 ///< accountant
    /// Poisson sampling as RdpPoisson with the thesis experiments' σ² = 8C²·ln(1/δ)·R/(n²ε²);
    /// reproduction only: its certified ε may exceed the target.
    ThesisExperiment,
};

/// The settings of a run across silos, read from a prepared configuration.
struct SiloRoundSettings {
    long rounds = 35;          ///< R
    long localBatch = 0;       ///< K (resolved)
    long silosPerRound = 0;    ///< M (resolved: 1 … N)
    double stepSize = 0.1;     ///< η (resolved)
    double clip = 1.0;         ///< C
    double radius = 0.0;       ///< D (inf: no projection)
    bool lastIterate = false;  ///< report the last iterate instead of the uniform average
    long evaluateEvery = 1;    ///< evaluate every this many rounds (at most ~50 times a run)
    SiloCalibration calibration = SiloCalibration::ZcdpEpoch;
    SiloTrust trust = SiloTrust::Isrl;
};

/// The settings both algorithms declare (rounds, local batch, silos per round, step size,
/// clip, domain radius, reported iterate, evaluate-every), plus the noise calibration when
/// `withCalibration` and the trust model when `withTrust`.
std::vector<ParamSpec> siloRoundParameters(bool withTrust, bool withCalibration);

/// Reads the settings of a prepared configuration (undeclared trust: ISRL; undeclared
/// calibration: zCDP epochs).
SiloRoundSettings siloRoundSettings(const TrainConfig& config);

/// "central" … "local" and their statement wording.
std::string siloTrustName(SiloTrust trust);
/// Who must be trusted and who sees what, for PrivacyReport::trustModel.
std::string siloTrustDescription(SiloTrust trust);

/// Resolves the automatic values shared by both algorithms (K, M; δ as resolveDefaults) on `data`;
/// the step size is resolved by the caller, which knows its noise. Also fills resolveDefaults.
TrainConfig resolveSiloRoundDefaults(const TrainConfig& requested, const DataSplit& data,
                                     bool withTrust);

/// Throws InputError when `data` cannot be trained on across silos: no silos (says how to get
/// them), not a binary classification, a local batch larger than the smallest silo, more
/// silos per round than silos, δ refused after resolution.
void validateSiloRounds(const TrainConfig& config, const DataSplit& data, bool withTrust);

/// The per-record accounting of the rows of one silo (or of every silo, for a server-side
/// release): the release curve, the noise multiplier it is charged at, and what one release
/// is. Each record of the silo is charged releasesAfter(t) releases after t rounds.
struct SiloAccounting {
    privacy::AccountingInputs inputs;  ///< charged per round (stepsPerRelease rounds = 1 release)
    /// Noise std per coordinate, relative to the release's sensitivity: σ = z·Δ. For the
    /// zCDP mode z = √(u/(2ρ)).
    double noiseMultiplier = 0.0;
    long releases = 0;  ///< u: releases of one record over the whole run
};

/// The batch plan of a silo with `rows` records under epoch batching: ⌊rows/K⌋ rounds per
/// epoch, so a record is in u = ⌈R/⌊rows/K⌋⌉ releases (= ⌈RK/rows⌉ when K divides rows).
long epochReleases(long rows, long localBatch, long rounds);

/// Accounting of one silo with `rows` records at the target (ε, δ): zCDP epoch batching
/// (Gaussian, replace-one, `stepsPerRelease` = ⌊rows/K⌋ rounds) or Poisson sampling at
/// rate K/rows (replace-one, group-of-two bound, one release per round, z solved).
/// `sensitivity` names the bound z refers to.
SiloAccounting siloAccounting(const SiloRoundSettings& s, long rows, double epsilon, double delta,
                              const std::string& sensitivity);

/// The per-record accounting of every silo of a run: one accountant per distinct silo size
/// (the accounting depends on nothing else), or — for noise the server adds — the smallest
/// silo's accountant for every silo (its records are in the most releases).
class SiloNoise {
public:
    SiloNoise(const SiloRoundSettings& s, const UnitIndex& silos, double epsilon, double delta,
              const std::string& sensitivity, bool serverSide);
    /// z of silo `silo`'s releases (σ = z·Δ).
    double multiplier(long silo) const { return m_multiplier[static_cast<std::size_t>(silo)]; }
    /// The accountant of the silo whose records have spent the most after `rounds` rounds:
    /// its ε bounds every record's.
    const privacy::RunAccountant& worstAfter(long rounds) const { return *worst(rounds).first; }
    /// The largest certified ε of any record after `rounds` rounds: worstAfter(rounds)'s.
    double epsilonAfter(long rounds) const { return worst(rounds).second; }
    /// u: releases of one record of silo `silo` over the whole run.
    long releases(long silo) const { return m_releases[static_cast<std::size_t>(silo)]; }

private:
    /// worstAfter(rounds) and its ε after `rounds` rounds.
    std::pair<const privacy::RunAccountant*, double> worst(long rounds) const;

    std::vector<privacy::RunAccountant> m_accountants;
    std::vector<double> m_multiplier;
    std::vector<long> m_releases;
};

/// The SiloNoise(s, silos, epsilon, delta, sensitivity, serverSide) of the runs that ask for
/// the same one (a sweep's seeds and trust models, a run's step-size resolution and the run
/// itself): calibrated once, and its accountants answer each ε once. Shared between threads.
std::shared_ptr<const SiloNoise> sharedSiloNoise(const SiloRoundSettings& s, const UnitIndex& silos,
                                                 double epsilon, double delta,
                                                 const std::string& sensitivity, bool serverSide);

/// Each silo's rows in the order it uses them: a fresh data-independent permutation per epoch,
/// K consecutive rows per round (a partial epoch tail is skipped), or a Poisson sample.
class SiloBatcher {
public:
    SiloBatcher(const UnitIndex& silos, long localBatch, SiloCalibration calibration);
    /// The training rows silo `silo` uses in its next round (drawn with `sampling`).
    const std::vector<long>& next(long silo, RandomStream& sampling);

private:
    const UnitIndex& m_silos;
    long m_batch;
    SiloCalibration m_calibration;
    std::vector<std::vector<long>> m_order;  ///< per silo: current epoch permutation
    std::vector<long> m_position;            ///< per silo: next unused position
    std::vector<long> m_rows;                ///< the batch handed out
    std::vector<long> m_positions;           ///< Poisson draws: positions in the silo
};

/// Per-silo test metrics of θ (error rate and mean cross-entropy on each silo's test rows;
/// train rows from the training index).
std::vector<UnitMetrics> siloTestMetrics(const DataSplit& data, const Eigen::VectorXd& theta);

/// What a silo loop measures of the model it would release (w: d weights, bias last): at each
/// evaluation the epoch reporter's test metrics and training-set diagnostics plus the spread of
/// the silos' test errors; at the end the result's model, final metrics and per-silo rows.
/// Buffers are made once per run. `config` and `data` must outlive it.
class SiloEvaluation {
public:
    SiloEvaluation(const TrainConfig& config, const DataSplit& data);
    SiloEvaluation(const SiloEvaluation&) = delete;
    SiloEvaluation& operator=(const SiloEvaluation&) = delete;

    /// The metrics after round `round` (1-based) of `w`, with `clipped` of `seen` contributions
    /// clipped since the last evaluation.
    EpochMetrics measure(long round, const Eigen::VectorXd& w, long clipped, long seen);
    /// θ, the final training loss and test metrics, and the per-silo test metrics of the
    /// released `w`.
    void finish(RunResult& result, const Eigen::VectorXd& w);
    /// The training rows' design (x, 1), with each row's norm.
    const DesignMatrix& trainDesign() const { return *m_trainDesign; }

private:
    const RowMatrix& asRow(const Eigen::VectorXd& w);

    const DataSplit& m_data;
    std::unique_ptr<Model> m_model;
    std::shared_ptr<const DesignMatrix> m_trainDesign, m_testDesign;
    Evaluator m_train, m_test;
    EpochReporter m_reporter;
    RowMatrix m_row;
};

/// Heterogeneity υ*² = (1/N) Σ_i ‖∇F_i(w*)‖² at a non-private optimum w* of the pooled
/// training loss (Newton's method with a tiny ridge 1e-6): a training-set diagnostic.
double siloHeterogeneity(const Dataset& train);

/// One uniformly random subset of `m` of `n` silos, ascending (partial Fisher–Yates).
std::vector<long> sampleSilos(long n, long m, RandomStream& sampling);

}  // namespace pfa
