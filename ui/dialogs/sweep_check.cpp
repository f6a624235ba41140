#include "ui/dialogs/sweep_check.h"

#include <QObject>
#include <algorithm>
#include <cmath>

#include "core/algorithms/registry.h"
#include "core/config/config_validation.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa::ui::sweep_check {

namespace {

QString duration(double seconds) {
    if (seconds < 90) return QObject::tr("%1 s").arg(std::ceil(seconds));
    if (seconds < 5400) return QObject::tr("%1 min").arg(std::ceil(seconds / 60));
    return QObject::tr("%1 h").arg(seconds / 3600, 0, 'f', 1);
}

}  // namespace

void checkEpsilons(const std::vector<double>& epsilons, QString* problem) {
    for (double epsilon : epsilons) {
        // The budgets offered are the experiment panel's and the command line's.
        if (!pfa::offeredEpsilonProblem(epsilon).empty() && problem->isEmpty()) {
            *problem =
                QObject::tr(
                    "ε = %1 is refused: every ε must lie from %2 to %3 (tick ∞ for runs "
                    "without privacy).")
                    .arg(QString::fromStdString(pfa::formatNumber(epsilon, 6)),
                         QString::fromStdString(pfa::formatNumber(pfa::kSmallestOfferedEpsilon)),
                         QString::fromStdString(pfa::formatNumber(pfa::kLargestOfferedEpsilon)));
        }
    }
}

void checkLambdas(const std::vector<double>& lambdas, QString* problem) {
    for (double lambda : lambdas) {
        if (lambda < 0 && problem->isEmpty()) {
            *problem = QObject::tr("λ: %1 is not allowed; the fairness weight must be 0 or more.")
                           .arg(QString::fromStdString(pfa::formatNumber(lambda)));
        }
    }
}

QString checkDelta(const pfa::SweepSpec& spec, const pfa::TrainConfig& base, long trainRows,
                   QString* problem) {
    const bool privateRuns = std::any_of(spec.algorithms.begin(), spec.algorithms.end(),
                                         [](const std::string& name) {
                                             return pfa::findAlgorithm(name).supportsPrivacy();
                                         }) &&
                             std::any_of(spec.epsilons.begin(), spec.epsilons.end(),
                                         [](double e) { return std::isfinite(e); });
    pfa::TrainConfig privateBase = base;
    privateBase.epsilon = privateRuns ? 1.0 : INFINITY;
    if (const std::string delta = pfa::deltaProblem(privateBase, "δ");
        !delta.empty() && problem->isEmpty()) {
        *problem = QString::fromStdString(delta) + QLatin1Char('.');
    }
    return QString::fromStdString(pfa::deltaWarning(privateBase, trainRows, "δ"));
}

GridSize sizeOf(const pfa::SweepSpec& spec, QString* problem) {
    GridSize size;
    try {
        for (const pfa::SweepRun& run : spec.expand()) {
            ++size.runs;
            size.epochs += run.config.epochs;
        }
    } catch (const pfa::InputError& error) {
        *problem = QString::fromStdString(error.what());
    }
    return size;
}

double estimateSeconds(double epochs, double secondsPerEpoch, long trainRows, long features,
                       int threads) {
    // Per-epoch cost: measured on earlier runs of this data set, else a guess from its size
    // (~3 ns per feature value and pass, two passes per step plus evaluation).
    const double perEpoch = secondsPerEpoch > 0 ? secondsPerEpoch
                                                : 1.2e-8 * static_cast<double>(trainRows) *
                                                      static_cast<double>(features + 1);
    return epochs * perEpoch / std::max(1, threads) * 1.15;  // cores share memory bandwidth
}

QString problemHtml(const QString& problem) {
    return QStringLiteral("<span style='color:#b00020; font-weight:600'>%1</span>")
        .arg(problem.toHtmlEscaped());
}

QString summaryHtml(std::size_t runs, double seconds, int threads, bool measured, bool autoTune,
                    const QString& deltaWarning) {
    return QObject::tr(
               "<b>%1 runs</b> · estimated <b>%2</b> on %3 thread(s) (%4). Results "
               "stream into the charts while the sweep runs.")
               .arg(runs)
               .arg(duration(seconds))
               .arg(threads)
               .arg(measured ? QObject::tr("measured on earlier runs of this data set")
                             : QObject::tr("rough guess from the data size")) +
           (autoTune ? QStringLiteral("<br>") +
                           QObject::tr("Auto-tune: the runs of each ε and seed are candidates, "
                                       "each tried at steps from 1 down until one survives, plus "
                                       "one final run: one result per ε and seed, and more time "
                                       "than the estimate.")
                               .toHtmlEscaped()
                     : QString()) +
           (deltaWarning.isEmpty()
                ? QString()
                : QStringLiteral("<br><span style='color:#8a5a00'>%1</span>")
                      .arg(QObject::tr("Warning: %1.").arg(deltaWarning).toHtmlEscaped()));
}

}  // namespace pfa::ui::sweep_check
