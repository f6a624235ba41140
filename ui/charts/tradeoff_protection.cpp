#include "ui/charts/tradeoff_protection.h"

#include <QLabel>
#include <QObject>
#include <QStringList>
#include <algorithm>

namespace pfa::ui {

TradeoffProtections::TradeoffProtections(const std::vector<pfa::RunProtection>& runs)
    : m_warning(pfa::mixedProtectionWarning(runs)) {
    for (const pfa::RunProtection& protection : runs) {
        if (protection.isPrivate &&
            std::find(m_kinds.begin(), m_kinds.end(), protection.label()) == m_kinds.end())
            m_kinds.push_back(protection.label());
    }
}

int TradeoffProtections::kindOf(const RunEntry& run) const {
    const pfa::RunProtection protection = pfa::runProtection(run.result);
    if (!protection.isPrivate) return -1;
    const auto it = std::find(m_kinds.begin(), m_kinds.end(), protection.label());
    return it == m_kinds.end() ? -1 : static_cast<int>(it - m_kinds.begin());
}

QString TradeoffProtections::kindText(int kind) const {
    return QString::fromStdString(m_kinds[static_cast<std::size_t>(kind)]);
}

void TradeoffProtections::describeOn(QLabel* line) const {
    if (!m_warning.empty()) {
        QStringList outlined;
        for (std::size_t k = 1; k < m_kinds.size(); ++k)
            outlined << QString::fromStdString(m_kinds[k]);
        line->setText(
            QObject::tr("⚠ %1 Dark red outline: %2.")
                .arg(QString::fromStdString(m_warning), outlined.join(QStringLiteral("; "))));
        line->setStyleSheet(QStringLiteral("color: #8a1c00; font-weight: 600;"));
    } else if (!m_kinds.empty()) {
        line->setText(QObject::tr("Protects: %1 (every private run shown).")
                          .arg(QString::fromStdString(m_kinds.front())));
        line->setStyleSheet(QStringLiteral("color: #555;"));
    }
    line->setToolTip(
        QObject::tr("The unit of privacy and the adjacency of each run's guarantee. Runs that "
                    "differ here bound different things, so their ε and points are not "
                    "comparable one to one."));
    line->setVisible(!m_kinds.empty());
}

QString TradeoffProtections::captionNote() const {
    // A figure says what its private runs protect (or that they differ).
    if (mixed()) return QObject::tr(" · runs of different protection (see the legend)");
    if (!m_kinds.empty())
        return QObject::tr(" · protects: %1").arg(QString::fromStdString(m_kinds.front()));
    return {};
}

QPen TradeoffProtections::outlinePen() { return QPen(QColor(150, 0, 24), 2.5); }

}  // namespace pfa::ui
