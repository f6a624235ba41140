#include "ui/runs/run_entry.h"

#include <QObject>
#include <cmath>

#include "core/algorithms/registry.h"
#include "core/config/algorithm.h"
#include "core/config/parameters.h"
#include "core/sweep/run_protection.h"
#include "core/util/format.h"
#include "ui/support/palette.h"

namespace pfa::ui {

double RunEntry::certifiedEpsilon() const {
    return result.privacy.isPrivate ? result.privacy.epsilonSpent : INFINITY;
}

QString RunEntry::statusText() const {
    if (stoppedByUser) return QStringLiteral("stopped");
    return QString::fromStdString(pfa::runStatusName(result.status));
}

QString RunEntry::outcomeMessage() const {
    if (stoppedByUser) {
        return QObject::tr("Run %1 stopped after %2 steps (ε spent is charged for them)")
            .arg(id)
            .arg(result.steps);
    }
    if (result.status == pfa::RunStatus::Diverged) {
        return QObject::tr("Run %1 diverged: %2")
            .arg(id)
            .arg(QString::fromStdString(result.message));
    }
    if (result.regression.known && !std::isnan(result.regression.excessRisk)) {
        return QObject::tr("Run %1 finished: test MSE %2, excess risk %3 over the exact optimum")
            .arg(id)
            .arg(result.regression.testMse, 0, 'g', 4)
            .arg(result.regression.excessRisk, 0, 'g', 4);
    }
    return QObject::tr("Run %1 finished: test error %2, violation %3")
        .arg(id)
        .arg(result.test.error, 0, 'f', 4)
        .arg(violation(), 0, 'f', 4);
}

QString RunEntry::summary() const {
    const pfa::TrainConfig& c = result.config;
    auto num = [](double v, int digits = 4) {
        return QString::fromStdString(pfa::formatNumber(v, digits));
    };
    QString text =
        QStringLiteral("Run %1 — %2 on %3\n")
            .arg(id)
            .arg(QString::fromStdString(c.algorithm), QString::fromStdString(result.dataset));
    text += QStringLiteral("%1, %2, seed %3, %4\n")
                .arg(QString::fromStdString(pfa::fairnessName(c.fairness)),
                     chart_style::curvePointText(c))
                .arg(c.seed)
                .arg(lengthText());
    // The algorithm's own choices (a trust model, a noise mode): what tells its runs apart.
    QStringList choices;
    for (const auto& [name, value] : c.extra) {
        const pfa::ParamSpec* spec = pfa::findParameter(name);
        if (spec && spec->kind == pfa::ParamKind::Choice)
            choices << QStringLiteral("%1 = %2").arg(QString::fromStdString(name),
                                                     QString::fromStdString(value));
    }
    if (!choices.isEmpty()) text += choices.join(QStringLiteral(", ")) + QLatin1Char('\n');
    if (result.privacy.isPrivate) {
        text += QStringLiteral("target ε = %1, certified ε = %2 (δ = %3, %4)\n")
                    .arg(num(c.epsilon), num(certifiedEpsilon()), num(c.delta, 3),
                         QString::fromStdString(result.privacy.accountant));
        text += QObject::tr("protects: %1\n").arg(protectionText());
    } else {
        text += QStringLiteral("not private (ε = ∞)\n");
    }
    if (result.regression.known && !std::isnan(result.regression.excessRisk)) {
        // Regression runs that know the exact non-private optimum of their training rows.
        text += QObject::tr("test MSE %1, excess risk %2 (the exact optimum's test MSE: %3) — %4")
                    .arg(num(result.regression.testMse), num(result.regression.excessRisk),
                         num(result.regression.optimumMse), statusText());
        return text;
    }
    text += QStringLiteral("test error %1, %2 violation %3 — %4")
                .arg(num(result.test.error), QString::fromStdString(pfa::fairnessCode(c.fairness)),
                     num(violation()), statusText());
    text += constantText();
    return text;
}

QString RunEntry::constantText() const {
    if (!result.constant.known || result.regression.known) return QString();
    const QString always = QObject::tr("always predicting “%1”")
                               .arg(QString::fromStdString(result.constant.className));
    const QString error = QString::fromStdString(pfa::formatNumber(result.constant.error, 4));
    if (pfa::nearConstant(result)) {
        return QObject::tr(
                   "\n⚠ No better than %1 (test error %2, violation 0): this model "
                   "has learned little, and its small violation is no achievement.")
            .arg(always, error);
    }
    return QObject::tr("\nbaseline: %1 has test error %2 and violation 0").arg(always, error);
}

long RunEntry::progressDone() const {
    if (result.history.empty()) return 0;
    const pfa::Algorithm* algorithm = pfa::findAlgorithmOrNull(result.config.algorithm);
    return algorithm ? pfa::progressAt(*algorithm, result.history.back())
                     : static_cast<long>(result.history.back().epoch);
}

QString RunEntry::progressText() const {
    const long done = progressDone();
    const pfa::Algorithm* algorithm = pfa::findAlgorithmOrNull(result.config.algorithm);
    if (!algorithm) return QObject::tr("%1 of %2 epochs").arg(done).arg(result.config.epochs);
    return QString::fromStdString(pfa::progressText(*algorithm, result.config, done));
}

QString RunEntry::lengthText() const {
    const pfa::Algorithm* algorithm = pfa::findAlgorithmOrNull(result.config.algorithm);
    if (!algorithm)
        return QObject::tr("%1 epochs, batch %2")
            .arg(result.config.epochs)
            .arg(result.config.batchSize);
    QString text = QString::fromStdString(pfa::lengthText(*algorithm, result.config));
    if (pfa::readsParameter(*algorithm, "batch-size"))
        text += QObject::tr(", batch %1").arg(result.config.batchSize);
    return text;
}

QString RunEntry::protectionText() const {
    return QString::fromStdString(pfa::runProtection(result).label());
}

RunEntryPtr makeRunEntry(int id, pfa::RunResult result, pfa::RunContext context,
                         const QDateTime& finished, std::optional<pfa::TrainConfig> requested) {
    auto entry = std::make_shared<RunEntry>();
    entry->requested = std::move(requested);
    entry->id = id;
    entry->finished = finished;
    entry->result = std::move(result);
    entry->context = std::move(context);
    return entry;
}

}  // namespace pfa::ui
