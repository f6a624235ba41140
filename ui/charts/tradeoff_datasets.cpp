#include "ui/charts/tradeoff_datasets.h"

#include <QObject>
#include <QRegularExpression>
#include <QStringList>
#include <map>

namespace pfa::ui::tradeoff_datasets {

QString keyOf(const RunEntry& run) {
    const std::string& key = run.context.runKey;
    const std::string prefix = "dataset=";
    if (key.rfind(prefix, 0) == 0) {
        // The data-set key ends with its split ("|split=…"), the settings follow after ';'.
        const std::size_t split = key.find("|split=");
        const std::size_t end = key.find(';', split == std::string::npos ? prefix.size() : split);
        return QString::fromStdString(key.substr(
            prefix.size(), end == std::string::npos ? std::string::npos : end - prefix.size()));
    }
    if (!run.context.ledgerKey.empty()) return QString::fromStdString(run.context.ledgerKey);
    if (!run.context.datasetDescription.empty())
        return QString::fromStdString(run.context.datasetDescription);
    return QString::fromStdString(run.result.dataset);
}

QString label(const QString& datasetKey) {
    const QString base = datasetKey.section(QStringLiteral("|split="), 0, 0);
    const int nameEnd = base.indexOf(QRegularExpression(QStringLiteral("[/(:]")));
    const QString name = nameEnd < 0 ? base : base.left(nameEnd);
    QString label = name;
    if (name == QLatin1String("file")) {
        const int colon = base.indexOf(QLatin1Char(':'));
        if (colon >= 0) label = base.mid(colon + 1).section(QLatin1Char(','), 0, 0);
    }
    if (nameEnd >= 0 && base[nameEnd] == QLatin1Char('/')) {
        const QString rest = base.mid(nameEnd + 1);
        const int end = rest.indexOf(QRegularExpression(QStringLiteral("[(:]")));
        label += QStringLiteral(" (%1)").arg(end < 0 ? rest : rest.left(end));
    }
    // Silos dealt out after the split: the same rows, but other runs ("|silos=dirichlet/n=8/…").
    if (const QString silos = datasetKey.section(QStringLiteral("|silos="), 1); !silos.isEmpty())
        label += QObject::tr(", silos %1").arg(silos.section(QLatin1Char('/'), 0, 1));
    return label.isEmpty() ? datasetKey : label;
}

std::vector<BoxItem> boxItems(const std::vector<RunEntryPtr>& runs, const QString& shown) {
    std::map<QString, int> counts;
    std::map<QString, QString> descriptions;
    for (const RunEntryPtr& run : runs) {
        const QString key = keyOf(*run);
        ++counts[key];
        if (!run->context.datasetDescription.empty())
            descriptions[key] = QString::fromStdString(run->context.datasetDescription);
    }
    if (!shown.isEmpty()) counts.emplace(shown, 0);
    // Same name on different splits: name the split; still the same (other knobs): number
    // them. The tooltip tells them apart in full.
    std::map<QString, QString> labels;
    std::map<QString, int> uses;
    for (const auto& [key, count] : counts) ++uses[labels[key] = label(key)];
    for (auto& [key, text] : labels) {
        const QStringList split = key.section(QStringLiteral("|split="), 1)
                                      .section(QLatin1Char('|'), 0, 0)
                                      .split(QLatin1Char(','));
        if (uses[text] > 1 && split.size() >= 2)
            text = QObject::tr("%1, split %2 (test %3)").arg(text, split[0], split[1]);
    }
    uses.clear();
    for (const auto& [key, text] : labels) ++uses[text];

    std::vector<BoxItem> items;
    std::map<QString, int> labelSeen;
    for (const auto& [key, count] : counts) {
        QString text = labels[key];
        if (uses[text] > 1) text += QStringLiteral(" #%1").arg(++labelSeen[text]);
        const QString description = descriptions.count(key) ? descriptions[key] : key;
        items.push_back({key, text,
                         description + QLatin1Char('\n') +
                             (count == 1 ? QObject::tr("1 finished run")
                                         : QObject::tr("%1 finished runs").arg(count))});
    }
    return items;
}

}  // namespace pfa::ui::tradeoff_datasets
