#include "core/algorithms/silo/silo_round_run.h"

#include <cmath>
#include <limits>

#include "core/engine/clipping.h"
#include "core/engine/private_run_report.h"
#include "core/util/format.h"

namespace pfa {

SiloRoundRun::SiloRoundRun(const SiloRoundSettings& s, const TrainConfig& config,
                           const DataSplit& data, TrainingObserver& observer,
                           const CancelToken& cancel)
    : m_s(s),
      m_train(data.train),
      m_session(observer, cancel, "rounds"),
      m_lossShown(observer.showsBatchLoss()),
      m_streams(config, data.train),
      m_sampling(m_streams.stream(streams::kSampling)),
      m_noise(m_streams.stream(streams::kNoise)),
      m_batcher(*data.train.silos, s.localBatch, s.calibration),
      m_evaluation(config, data),
      m_w(Eigen::VectorXd::Zero(data.train.features() + 1)),
      m_average(m_w),
      m_rowNorms(m_evaluation.trainDesign().norms),
      // A silo's batch never has more rows than the silo: no round allocates.
      m_scores(static_cast<std::size_t>(data.train.silos->maxRowsPerUnit())),
      m_sigmoids(m_scores.size()),
      m_residuals(m_scores.size()),
      m_norms(m_scores.size()),
      m_coefficients(m_scores.size()) {
    RunResult& result = m_session.result();
    result.config = config;
    result.dataset = data.train.name;
    result.unitKind = "silo";
}

void SiloRoundRun::account(const SiloNoise* accounting) {
    if (!accounting) return;
    m_session.setEpsilonSoFar(
        [accounting](long rounds) { return accounting->epsilonAfter(rounds); });
}

bool SiloRoundRun::beginRound(long r) {
    if (m_session.cancelled(r)) return false;
    m_chosen = sampleSilos(m_train.silos->units(), m_s.silosPerRound, m_sampling);
    m_roundLoss = 0.0;
    m_roundRows = 0;
    return true;
}

namespace {

/// x̃·w for a row x̃ = (x, 1) of `size` doubles.
double rowScore(const double* row, const double* w, Eigen::Index size) {
    return Eigen::Map<const Eigen::VectorXd>(row, size).dot(
        Eigen::Map<const Eigen::VectorXd>(w, size));
}

}  // namespace

void SiloRoundRun::clippedGradient(long row, const Eigen::VectorXd& at, Eigen::VectorXd& g) {
    const double* x = m_train.X.withBias().row(row).data();
    const double z = rowScore(x, at.data(), at.size());
    RecordCounts counts;
    const double residual = residualOf(row, z, sigmoid(z), counts);
    // ‖r·x̃‖ = |r|·‖x̃‖: the gradient is clipped as its scalar.
    double coefficient = residual;
    counts.clipped = clipScale(std::abs(residual) * m_rowNorms(row), m_s.clip, coefficient);
    g = coefficient * Eigen::Map<const Eigen::VectorXd>(x, at.size());
    count(1, counts);
}

long SiloRoundRun::addClippedSum(const std::vector<long>& rows, const Eigen::VectorXd& at,
                                 Eigen::VectorXd& sum) {
    const long records = static_cast<long>(rows.size());
    if (m_scores.size() < rows.size()) {  // not for a silo's batch (sized at construction)
        for (std::vector<double>* buffer :
             {&m_scores, &m_sigmoids, &m_residuals, &m_norms, &m_coefficients})
            buffer->resize(rows.size());
    }
    const RowMatrix& x = m_train.X.withBias();
    const Eigen::Index size = at.size();
    for (long k = 0; k < records; ++k)
        m_scores[static_cast<std::size_t>(k)] =
            rowScore(x.row(rows[static_cast<std::size_t>(k)]).data(), at.data(), size);
    sigmoids(m_scores.data(), m_sigmoids.data(), records);
    RecordCounts counts;
    for (long k = 0; k < records; ++k) {
        const auto i = static_cast<std::size_t>(k);
        m_residuals[i] = residualOf(rows[i], m_scores[i], m_sigmoids[i], counts);
        // ‖r·x̃‖ = |r|·‖x̃‖: each gradient is clipped as its scalar.
        m_norms[i] = std::abs(m_residuals[i]) * m_rowNorms(rows[i]);
    }
    counts.clipped = clippedCoefficients(m_norms.data(), records, m_s.clip, m_residuals.data(),
                                         m_coefficients.data());
    for (long k = 0; k < records; ++k) {
        const auto i = static_cast<std::size_t>(k);
        sum += m_coefficients[i] * Eigen::Map<const Eigen::VectorXd>(x.row(rows[i]).data(), size);
    }
    count(records, counts);
    return records;
}

double SiloRoundRun::residualOf(long row, double score, double sigmoid,
                                RecordCounts& counts) const {
    const int label = m_train.y(row);
    // −log σ(±score), only where the observer shows it (not a logarithm per record of a sweep).
    if (m_lossShown) counts.loss += softplus(label == 1 ? -score : score);
    return sigmoid - static_cast<double>(label);
}

void SiloRoundRun::count(long records, const RecordCounts& counts) {
    // A sweep's observer shows no loss: NaN.
    m_roundLoss += m_lossShown ? counts.loss : std::numeric_limits<double>::quiet_NaN();
    m_roundRows += records;
    m_seenSince += records;
    m_clippedSince += counts.clipped;
}

void SiloRoundRun::project(Eigen::VectorXd& v) const {
    if (std::isfinite(m_s.radius) && v.norm() > m_s.radius) v *= m_s.radius / v.norm();
}

bool SiloRoundRun::endRound(long r) {
    m_average += (m_w - m_average) / static_cast<double>(r + 1);
    StepInfo info;
    info.step = r + 1;
    info.epoch = static_cast<int>(r + 1);
    info.batchRows = m_roundRows;
    info.batchLoss = m_roundRows ? m_roundLoss / static_cast<double>(m_roundRows) : 0.0;
    bool stop = m_session.stepped(info);
    if (RunSession::evaluationDue(r + 1, m_s.rounds, m_s.evaluateEvery)) {
        const Eigen::VectorXd& reported = m_s.lastIterate ? m_w : m_average;
        const EpochMetrics m = m_evaluation.measure(r + 1, reported, m_clippedSince, m_seenSince);
        m_clippedSince = m_seenSince = 0;
        stop = m_session.evaluated(m) || stop;
    }
    return m_session.stopRequested(stop, r + 1, m_s.rounds);
}

void SiloRoundRun::releaseModel() {
    RunResult& result = m_session.result();
    m_evaluation.finish(result, m_s.lastIterate || result.steps == 0 ? m_w : m_average);
}

double siloStepSize(const SiloRoundSettings& s, double parameters, double sigma) {
    if (!std::isfinite(s.radius)) return 0.1;
    return s.radius / std::sqrt(static_cast<double>(s.rounds) *
                                (s.clip * s.clip + parameters * sigma * sigma));
}

void describeSiloRun(privacy::PrivacyReport& report, const privacy::RunAccountant& accountant,
                     const SiloRoundSettings& s, const TrainConfig& config, const Dataset& train,
                     const std::string& averaged) {
    report.adjacency = "replace-one";
    report.neighbouring = siloNeighbouring(train);
    report.trustModel = siloTrustDescription(s.trust);
    report.noiseMultiplier = report.noiseMultiplierTheta = accountant.inputs().noiseMultiplier;
    report.clipTheta = s.clip;
    report.protectedData =
        wholeRecordProtection(train) +
        ", per silo: every silo's records get the same (ε = " + formatNumber(report.epsilonSpent) +
        ", δ = " + formatNumber(config.delta) + ") or better";
    report.postProcessing = s.lastIterate ? "" : "the uniform average of " + averaged;
}

}  // namespace pfa
