#include "ui/panels/ledger_status_label.h"

#include "core/util/format.h"
#include "ui/runs/privacy_ledger_book.h"

namespace pfa::ui {

LedgerStatusLabel::LedgerStatusLabel(const LedgerBook* book, QWidget* parent)
    : QLabel(parent), m_book(book) {
    setTextFormat(Qt::RichText);
    setToolTip(
        tr("Privacy spent on the current data set by every private run of "
           "this session (Rényi-DP composition). Click for the ledger."));
    connect(this, &QLabel::linkActivated, this, &LedgerStatusLabel::ledgerRequested);
    connect(book, &LedgerBook::changed, this, &LedgerStatusLabel::refresh);
}

void LedgerStatusLabel::showLedger(const std::string& key) {
    m_key = key;
    refresh();
}

void LedgerStatusLabel::refresh() {
    const pfa::privacy::DatasetLedger* ledger = m_book->ledger(m_key);
    // The data set's name (the knobs of the synthetic data are in the ledger panel).
    const QString name = QString::fromStdString(m_key.substr(0, m_key.find('('))).toHtmlEscaped();
    if (!ledger || ledger->entries().empty()) {
        setText(tr("<a href=\"ledger\">Privacy ledger</a>: nothing spent on %1").arg(name));
        return;
    }
    const pfa::privacy::LedgerTotals t = ledger->totals();
    setText(tr("<a href=\"ledger\">Privacy ledger</a> of %1: <b>ε = %2</b> "
               "(RDP, %3 private run(s); Σε = %4)")
                .arg(name)
                .arg(QString::fromStdString(pfa::formatNumber(t.epsilon)))
                .arg(t.runs)
                .arg(QString::fromStdString(pfa::formatNumber(t.naiveEpsilon))));
}

}  // namespace pfa::ui
