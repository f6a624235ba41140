#include "ui/panels/ledger_status_label.h"

#include "core/util/format.h"
#include "ui/runs/privacy_ledger_book.h"

namespace pfa::ui {

LedgerStatusLabel::LedgerStatusLabel(const LedgerBook* book, QWidget* parent)
    : QLabel(parent), m_book(book) {
    setTextFormat(Qt::RichText);
    connect(this, &QLabel::linkActivated, this, &LedgerStatusLabel::ledgerRequested);
    connect(book, &LedgerBook::changed, this, &LedgerStatusLabel::refresh);
    connect(book, &LedgerBook::persistentChanged, this, &LedgerStatusLabel::refresh);
    refresh();
}

void LedgerStatusLabel::showLedger(const std::string& key) {
    m_key = key;
    refresh();
}

void LedgerStatusLabel::refresh() {
    const std::optional<PersistentLedgerView> persistent = m_book->persistentLedger(m_key);
    const pfa::privacy::DatasetLedger* ledger =
        persistent ? &persistent->ledger : m_book->ledger(m_key);
    setToolTip(
        persistent
            ? tr("Privacy spent on the current data set's rows by every private run in any "
                 "session or in pfa-cli (Rényi-DP composition), kept in %1. Click for the "
                 "ledger.")
                  .arg(QString::fromStdString(persistent->path))
            : tr("Privacy spent on the current data set by the private runs of this session "
                 "(Rényi-DP composition); its ledger across sessions shows once the data set "
                 "is loaded. Click for the ledger."));
    // The data set's name (the knobs of the synthetic data are in the ledger panel).
    const QString name = QString::fromStdString(m_key.substr(0, m_key.find('('))).toHtmlEscaped();
    if (!ledger || ledger->entries().empty()) {
        setText(tr("<a href=\"ledger\">Privacy ledger</a>: nothing spent on %1").arg(name));
        return;
    }
    const pfa::privacy::LedgerTotals t = ledger->totals();
    setText(tr("<a href=\"ledger\">Privacy ledger</a> of %1: <b>ε = %2</b> "
               "(RDP, %3 private run(s)%4; Σε = %5)")
                .arg(name)
                .arg(QString::fromStdString(pfa::formatNumber(t.epsilon)))
                .arg(t.runs)
                .arg(persistent ? tr(", all sessions") : tr(", this session"))
                .arg(QString::fromStdString(pfa::formatNumber(t.naiveEpsilon))));
}

}  // namespace pfa::ui
