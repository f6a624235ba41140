#include "ui/panels/sensitive_chooser.h"

#include <QAction>
#include <QHBoxLayout>
#include <QMenu>
#include <QToolButton>
#include <algorithm>
#include <string>
#include <vector>

#include "core/data/catalog.h"
#include "ui/panels/eliding_combo_box.h"

namespace pfa::ui {

SensitiveChooser::SensitiveChooser(QWidget* parent) : QWidget(parent) {
    m_box = new ElidingComboBox();
    m_box->setToolTip(
        tr("Which attribute defines the groups whose treatment is compared "
           "(never used as a feature)"));
    // Long item texts must not force the dock wider than a laptop screen allows.
    m_box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_box->setMinimumContentsLength(13);
    // Further attributes for intersectional groups ("Female & non-White"): a checkable menu.
    m_intersect = new QToolButton();
    m_intersect->setObjectName(QStringLiteral("intersectButton"));
    m_intersect->setPopupMode(QToolButton::InstantPopup);
    // The arrow is part of the text: the style's menu indicator overlapped a longer text.
    m_intersect->setStyleSheet(QStringLiteral("QToolButton::menu-indicator { image: none; }"));
    m_intersect->setMenu(new QMenu(m_intersect));
    m_intersect->menu()->setToolTipsVisible(true);
    m_intersect->setToolTip(
        tr("Intersectional groups: also split the groups by further sensitive "
           "attributes. Each combination (e.g. “Female & non-White”) becomes "
           "its own group; small combinations are flagged in the group table "
           "and bars"));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(4);
    row->addWidget(m_box, 1);
    row->addWidget(m_intersect);
    connect(m_box, &QComboBox::currentIndexChanged, this, [this] {
        rebuildIntersectMenu(checkedExtras());
        emit changed();
    });
    updateIntersectButton();
}

void SensitiveChooser::showCatalog(const QString& catalog) {
    m_catalog = catalog;
    const QSignalBlocker block(m_box);
    m_box->clear();
    for (const pfa::SensitiveChoice& choice :
         pfa::findCatalogEntry(catalog.toStdString()).sensitiveChoices) {
        m_box->addItem(QString::fromStdString(choice.title), QString::fromStdString(choice.id));
    }
    m_box->setEnabled(m_box->count() > 1);
    rebuildIntersectMenu({});
}

void SensitiveChooser::showFixed(const QString& label) {
    m_catalog.clear();
    const QSignalBlocker block(m_box);
    m_box->clear();
    if (!label.isNull()) m_box->addItem(label, QString());
    m_box->setEnabled(false);
    rebuildIntersectMenu({});
}

QString SensitiveChooser::id() const {
    if (m_catalog.isEmpty()) return QString();
    QStringList ids{m_box->currentData().toString()};
    ids << checkedExtras();
    return ids.join(QLatin1Char('+'));
}

void SensitiveChooser::selectId(const QString& id) {
    const QStringList parts = id.split(QLatin1Char('+'));
    {
        const QSignalBlocker block(m_box);
        const int index = m_box->findData(parts.front());
        if (index >= 0) m_box->setCurrentIndex(index);
    }
    const QSignalBlocker block(m_intersect->menu());
    rebuildIntersectMenu(parts.mid(1));
}

QStringList SensitiveChooser::checkedExtras() const {
    QStringList checked;
    for (QAction* action : m_intersect->menu()->actions())
        if (action->isChecked()) checked << action->data().toString();
    return checked;
}

void SensitiveChooser::rebuildIntersectMenu(const QStringList& checked) {
    QMenu* menu = m_intersect->menu();
    menu->clear();
    if (!m_catalog.isEmpty()) {
        const pfa::CatalogEntry& entry = pfa::findCatalogEntry(m_catalog.toStdString());
        const QString current = m_box->currentData().toString();
        const pfa::SensitiveChoice& first = entry.sensitiveChoice(current.toStdString());
        // The columns in use: the chosen attribute's, then those of the checked ones that do
        // not read a column already in use (another reading of one column adds nothing: COMPAS
        // race, merged or not).
        const auto sharesColumn = [](const pfa::SensitiveChoice& choice,
                                     const std::vector<std::string>& columns) {
            return std::any_of(
                choice.columns.begin(), choice.columns.end(), [&](const std::string& c) {
                    return std::find(columns.begin(), columns.end(), c) != columns.end();
                });
        };
        std::vector<std::string> usedColumns = first.columns;
        QStringList kept;
        for (const pfa::SensitiveChoice& choice : entry.sensitiveChoices) {
            const QString id = QString::fromStdString(choice.id);
            if (choice.id == first.id || !checked.contains(id) || choice.hasThreshold ||
                first.hasThreshold || sharesColumn(choice, usedColumns))
                continue;
            kept << id;
            usedColumns.insert(usedColumns.end(), choice.columns.begin(), choice.columns.end());
        }
        for (const pfa::SensitiveChoice& choice : entry.sensitiveChoices) {
            if (choice.id == first.id) continue;
            QAction* action =
                menu->addAction(tr("and %1").arg(QString::fromStdString(choice.title)));
            action->setCheckable(true);
            action->setData(QString::fromStdString(choice.id));
            const bool isKept = kept.contains(action->data().toString());
            if (first.hasThreshold || choice.hasThreshold) {
                // A number split at a threshold forms two groups of its own.
                action->setEnabled(false);
                action->setToolTip(
                    tr("Cannot be combined: a number split at a threshold is used alone"));
            } else if (!isKept && sharesColumn(choice, usedColumns)) {
                action->setEnabled(false);
                action->setToolTip(tr("Cannot be combined: it reads a column already chosen"));
            } else {
                action->setToolTip(tr("Split every group further by %1")
                                       .arg(QString::fromStdString(choice.title)));
                action->setChecked(isKept);
            }
            connect(action, &QAction::toggled, this, [this] {
                // Choices reading the same column exclude each other: recompute what is enabled
                // (after the menu has finished with the action).
                const QStringList now = checkedExtras();
                QMetaObject::invokeMethod(
                    this,
                    [this, now] {
                        rebuildIntersectMenu(now);
                        emit changed();
                    },
                    Qt::QueuedConnection);
            });
        }
    }
    updateIntersectButton();
}

void SensitiveChooser::updateIntersectButton() {
    QStringList extra;
    bool any = false;
    for (QAction* action : m_intersect->menu()->actions()) {
        any = any || action->isEnabled();
        if (action->isChecked()) extra << action->data().toString();
    }
    m_intersect->setVisible(!m_intersect->menu()->actions().isEmpty());
    m_intersect->setEnabled(any);
    m_intersect->setText(extra.isEmpty() ? tr("and… ▾")
                                         : tr("× %1 ▾").arg(extra.join(QStringLiteral(" × "))));
}

}  // namespace pfa::ui
