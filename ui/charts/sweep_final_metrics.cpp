#include "ui/charts/sweep_final_metrics.h"

#include <QObject>
#include <map>
#include <set>

namespace pfa::ui::sweep_final_metrics {

QString label(const QString& metric) {
    static const std::map<QString, QString> labels = {
        {QString(), QObject::tr("test error / excess risk")},
        {QStringLiteral("violation"), QObject::tr("fairness violation")},
        {QStringLiteral("train_loss"), QObject::tr("train loss")},
        {QStringLiteral("train_objective"), QObject::tr("training objective")},
        {QStringLiteral("excess_risk"), QObject::tr("excess risk")},
        {QStringLiteral("clip_fraction"), QObject::tr("clipped share")},
        {QStringLiteral("removed_fraction"), QObject::tr("removed share of units")},
        {QStringLiteral("gate_margin"), QObject::tr("gate margin")},
        {QStringLiteral("unit_error_spread"), QObject::tr("error spread across units")},
        {QStringLiteral("gradient_norm_squared"), QObject::tr("squared gradient norm ‖∇f‖²")},
        {QStringLiteral("dp_violation"), QObject::tr("demographic-parity gap")},
        {QStringLiteral("eo_violation"), QObject::tr("equalized-odds gap")},
        {QStringLiteral("eopp_violation"), QObject::tr("equal-opportunity gap")},
        {QStringLiteral("ermi"), QObject::tr("ERMI")},
        {QStringLiteral("ermi_soft"), QObject::tr("soft ERMI")},
    };
    const auto it = labels.find(metric);
    if (it != labels.end()) return it->second;
    QString text = metric;
    return text.replace(QLatin1Char('_'), QLatin1Char(' '));
}

std::vector<QString> offered(const std::vector<pfa::SweepCell>& cells) {
    std::set<QString> names;
    bool anyViolation = false;
    for (const pfa::SweepCell& cell : cells) {
        anyViolation = anyViolation || cell.violation.n > 0;
        for (const auto& [name, stats] : cell.finalMetrics) {
            if (stats.n > 0 && name != "test_error" && name != "violation")
                names.insert(QString::fromStdString(name));
        }
    }
    std::vector<QString> metrics{QString()};
    if (anyViolation) metrics.push_back(QStringLiteral("violation"));
    metrics.insert(metrics.end(), names.begin(), names.end());
    return metrics;
}

const pfa::MeanSd* valueOf(const pfa::SweepCell& cell, const QString& metric, bool excess) {
    if (metric.isEmpty()) return excess ? &cell.excessRisk : &cell.testError;
    if (metric == QLatin1String("violation")) return &cell.violation;
    const auto it = cell.finalMetrics.find(metric.toStdString());
    return it == cell.finalMetrics.end() ? nullptr : &it->second;
}

}  // namespace pfa::ui::sweep_final_metrics
