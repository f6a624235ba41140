#include "core/engine/epoch_reporter.h"

#include <limits>

#include "core/engine/clipping.h"

namespace pfa {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

EpochReporter::EpochReporter(const TrainConfig& config, Evaluator& train, Evaluator& test,
                             bool penalty, double lambda)
    : m_config(config),
      m_train(train),
      m_test(test),
      m_penalty(penalty),
      m_lambda(lambda),
      // Training-set diagnostics are exact functions of the private rows (not covered by the
      // guarantee); a private run may skip them.
      m_diagnostics(recordsDiagnostics(config)) {}

EpochMetrics EpochReporter::measure(int epoch, long step, const RowMatrix& reported, long clipped,
                                    long seen) {
    return measureWith(epoch, step, &reported, clipped, seen);
}

EpochMetrics EpochReporter::measureScored(int epoch, long step, long clipped, long seen) {
    return measureWith(epoch, step, nullptr, clipped, seen);
}

EpochMetrics EpochReporter::measureWith(int epoch, long step, const RowMatrix* reported,
                                        long clipped, long seen) {
    EpochMetrics metrics;
    metrics.epoch = epoch;
    metrics.step = step;
    if (m_diagnostics) {
        metrics.trainLoss = reported ? m_train.meanLoss(*reported) : m_train.meanLossOfScores();
        metrics.trainObjective =
            metrics.trainLoss +
            (m_penalty ? m_lambda * m_train.softErmi(m_config.fairness, m_config.advantagedClass)
                       : 0.0);
    } else {
        metrics.trainLoss = metrics.trainObjective = kNaN;
    }
    // The test rows' probabilities and predictions; their loss is not reported.
    if (reported)
        m_test.predict(*reported);
    else
        m_test.predictFromScores();
    const FairnessMetrics fairness = m_test.fairness(m_config.advantagedClass);
    metrics.testError = fairness.error;
    metrics.setTestGaps(fairness, m_config.fairness);
    metrics.ermiHard = fairness.ermiHard(m_config.fairness);
    metrics.ermiSoft = fairness.ermiSoft(m_config.fairness);
    metrics.clipFraction = clippedShare(clipped, seen, m_diagnostics);
    return metrics;
}

void EpochReporter::finish(RunResult& result) {
    if (result.status == RunStatus::Diverged) {
        result.trainLoss = kNaN;
        result.test = FairnessMetrics{};
        result.test.error = kNaN;
        return;
    }
    result.trainLoss = m_diagnostics ? m_train.meanLoss(result.theta) : kNaN;
    m_test.predict(result.theta);
    result.test = m_test.fairness(m_config.advantagedClass);
}

}  // namespace pfa
