#pragma once

#include <QObject>

class QAction;
class QWidget;

namespace pfa::ui {

class LedgerBook;

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

private:
    QWidget* m_window;
    LedgerBook* m_ledger;
    QAction* m_publicMean;
    QAction* m_audit;
};

}  // namespace pfa::ui
