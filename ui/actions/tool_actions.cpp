#include "ui/actions/tool_actions.h"

#include <QAction>
#include <QWidget>

#include "ui/dialogs/privacy_audit_dialog.h"
#include "ui/dialogs/public_mean_dialog.h"
#include "ui/runs/privacy_ledger_book.h"

namespace pfa::ui {

namespace {

/// The window's one `Dialog` (made by `make` the first time), shown and brought to the front.
template <typename Dialog, typename Make>
void showTheDialog(QWidget* window, Make&& make) {
    auto* dialog = window->findChild<Dialog*>();
    if (!dialog) dialog = make();
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

}  // namespace

ToolActions::ToolActions(LedgerBook* ledger, QWidget* window)
    : QObject(window), m_window(window), m_ledger(ledger) {
    m_publicMean = new QAction(tr("Mean estimation with &public data…"), this);
    m_publicMean->setObjectName(QStringLiteral("publicMeanAction"));
    m_publicMean->setToolTip(
        tr("How much a few public samples help a private mean estimate: the "
           "weighted-Gaussian estimator's error against its weight, ε and the public "
           "share, with a Monte-Carlo check"));
    m_publicMean->setStatusTip(m_publicMean->toolTip());
    connect(m_publicMean, &QAction::triggered, this, [this] {
        showTheDialog<PublicMeanDialog>(m_window,
                                        [this] { return new PublicMeanDialog(m_window); });
    });

    m_audit = new QAction(tr("&Privacy audit…"), this);
    m_audit->setObjectName(QStringLiteral("privacyAuditAction"));
    m_audit->setStatusTip(
        tr("Test a claimed ε empirically: a membership attack on many trained "
           "models proves a lower bound on ε"));
    connect(m_audit, &QAction::triggered, this, [this] { auditDialog(); });
}

PrivacyAuditDialog* ToolActions::auditDialog() {
    showTheDialog<PrivacyAuditDialog>(m_window, [this] {
        auto* dialog = new PrivacyAuditDialog(m_window);
        dialog->setLedgerCharger(m_ledger->backgroundEntryCharger());
        return dialog;
    });
    return m_window->findChild<PrivacyAuditDialog*>();
}

void ToolActions::auditRun(const AuditedRun& run) { auditDialog()->setAuditedRun(run); }

}  // namespace pfa::ui
