#pragma once

#include <QLabel>
#include <string>

namespace pfa::ui {

class LedgerBook;

/// The status-bar summary of one data set's privacy ledger ("Privacy ledger of adult: ε = …"):
/// the persistent ledger of its rows (every session and pfa-cli) once the data set is loaded,
/// this session's before; it follows the ledger book by itself. Its link asks for the full
/// ledger (ledgerRequested).
class LedgerStatusLabel : public QLabel {
    Q_OBJECT
public:
    explicit LedgerStatusLabel(const LedgerBook* book, QWidget* parent = nullptr);

    /// Summarises the ledger `key` (pfa::ledgerKey of the current data set).
    void showLedger(const std::string& key);

signals:
    void ledgerRequested();

private:
    void refresh();

    const LedgerBook* m_book;
    std::string m_key;
};

}  // namespace pfa::ui
