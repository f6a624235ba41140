#pragma once

// One run of a loop across silos, everything but the round's own step, so that isrl-dp-sgd and
// isrl-local-sgd keep only how their silos step and release. A loop reads
//
//     SiloRoundRun run(s, config, data, observer, cancel);
//     run.account(noise);                       // the ε so far (private runs)
//     for (long r = 0; run.beginRound(r); ++r) {
//         for (const long silo : run.chosenSilos())
//             for (const long row : run.rows(silo)) run.clippedGradient(row, at, g); ...
//         ... the server's model run.w() updated ...
//         if (run.endRound(r)) break;
//     }
//     run.releaseModel();                       // the reported iterate into the result
#include <Eigen/Core>
#include <vector>

#include "core/algorithms/silo/silo_rounds.h"
#include "core/config/cancel_token.h"
#include "core/config/run_result.h"
#include "core/engine/run_session.h"
#include "core/engine/run_streams.h"
#include "core/model/logistic_functions.h"

namespace pfa {

/// The shared bookkeeping of a run across silos (see above). Lives for one run on its thread;
/// `s`, `config` and `data` must outlive it.
class SiloRoundRun {
public:
    SiloRoundRun(const SiloRoundSettings& s, const TrainConfig& config, const DataSplit& data,
                 TrainingObserver& observer, const CancelToken& cancel);
    SiloRoundRun(const SiloRoundRun&) = delete;
    SiloRoundRun& operator=(const SiloRoundRun&) = delete;

    /// Stamps each evaluated round with the ε `accounting` certifies so far; nullptr (a
    /// non-private run): no ε.
    void account(const SiloNoise* accounting);

    /// Before round `r`: false when the run is cancelled. Otherwise draws the round's silos
    /// (a uniformly random subset of M, from the sampling stream).
    bool beginRound(long r);
    /// The silos of the current round, ascending.
    const std::vector<long>& chosenSilos() const { return m_chosen; }
    /// The training rows silo `silo` uses in this round (drawn from the sampling stream).
    const std::vector<long>& rows(long silo) { return m_batcher.next(silo, m_sampling); }
    /// Row `row`'s logistic gradient r·x̃ at `at` (r = σ(score) − y, x̃ = (x, 1)), clipped to C,
    /// into `g`; its loss and whether it was clipped are counted for the round's step report and
    /// the clip fraction. The clip is a scalar factor: ‖r·x̃‖ = |r|·‖x̃‖, with the rows' norms
    /// computed once per run.
    void clippedGradient(long row, const Eigen::VectorXd& at, Eigen::VectorXd& g);
    /// Adds Σ clip(∇f(at, x_k), C) over `rows` to `sum`, with the counts of clippedGradient:
    /// the rows' scores first, their sigmoids four at a time, then each row's clipped
    /// coefficient times its row, without a gradient vector per record. Returns the rows.
    long addClippedSum(const std::vector<long>& rows, const Eigen::VectorXd& at,
                       Eigen::VectorXd& sum);
    /// Projects `v` onto the ball of radius D (no-op for D = ∞).
    void project(Eigen::VectorXd& v) const;

    /// The stream every Gaussian release of the run draws from.
    RandomStream& noise() { return m_noise; }
    /// The server's model: d weights, bias last.
    Eigen::VectorXd& w() { return m_w; }

    /// After the server updated w in round `r`: the running average, the step shown to the
    /// observer and, when due, the evaluation of the reported iterate. True when the loop stops.
    bool endRound(long r);

    /// The released model (the last iterate or the average) with its final and per-silo
    /// metrics into the result.
    void releaseModel();

    RunResult& result() { return m_session.result(); }
    /// The finished result (call once, last).
    RunResult finish() { return m_session.finish(); }

private:
    /// What records add to the round's step report and the clip fraction.
    struct RecordCounts {
        double loss = 0.0;  ///< their losses (when shown)
        long clipped = 0;
    };
    /// Row `row`'s residual σ(score) − y (its gradient is the residual times x̃), its loss added
    /// to `counts` when the observer shows it.
    double residualOf(long row, double score, double sigmoid, RecordCounts& counts) const;
    /// Adds `records` records' counts to the run's.
    void count(long records, const RecordCounts& counts);

    const SiloRoundSettings& m_s;
    const Dataset& m_train;
    RunSession m_session;
    bool m_lossShown;  // the observer shows each round's loss (a sweep's does not): NaN else
    RunStreams m_streams;
    RandomStream m_sampling;
    RandomStream m_noise;
    SiloBatcher m_batcher;
    SiloEvaluation m_evaluation;
    Eigen::VectorXd m_w, m_average;
    std::vector<long> m_chosen;
    double m_roundLoss = 0.0;
    long m_roundRows = 0;
    long m_clippedSince = 0, m_seenSince = 0;
    const Eigen::VectorXd& m_rowNorms;  // ‖x̃‖ of every training row (the design's)
    // A silo's rows (addClippedSum): scores, σ(scores), residuals, gradient norms, coefficients.
    std::vector<double> m_scores, m_sigmoids, m_residuals, m_norms, m_coefficients;
};

/// The automatic step size of a silo run: η = D/√(R(C² + dσ²)), with σ the noise std per
/// coordinate on the server's average and d the model's parameters; 0.1 when D = ∞.
double siloStepSize(const SiloRoundSettings& s, double parameters, double sigma);

/// The report fields both silo algorithms state alike: replace-one adjacency, the silos'
/// neighbouring relation and trust model, the noise multiplier, the clip and what is protected
/// (every silo's records get the run's ε or better), the averaged iterate's post-processing
/// (`averaged`: what is averaged).
void describeSiloRun(privacy::PrivacyReport& report, const privacy::RunAccountant& accountant,
                     const SiloRoundSettings& s, const TrainConfig& config, const Dataset& train,
                     const std::string& averaged);

}  // namespace pfa
