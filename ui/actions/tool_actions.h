#pragma once

#include <QObject>

class QAction;
class QWidget;

namespace pfa::ui {

class LedgerBook;
struct AuditedRun;

/// The tools that open a window of their own beside the main one — mean estimation with public
/// data (View menu) and the privacy audit (Tools menu). Each opens one dialog, made on first
/// use and brought to the front after.
class ToolActions : public QObject {
    Q_OBJECT
public:
    /// `window` parents the dialogs; the audit charges its training runs to `ledger`.
    ToolActions(LedgerBook* ledger, QWidget* window);

    QAction* publicMeanAction() const { return m_publicMean; }
    QAction* privacyAuditAction() const { return m_audit; }
    /// Opens the privacy audit on `run` (its settings, on its data). Nothing changes while an
    /// audit is running: the dialog comes to the front with it.
    void auditRun(const AuditedRun& run);

private:
    class PrivacyAuditDialog* auditDialog();

    QWidget* m_window;
    LedgerBook* m_ledger;
    QAction* m_publicMean;
    QAction* m_audit;
};

}  // namespace pfa::ui
