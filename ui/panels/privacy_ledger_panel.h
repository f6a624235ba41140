#pragma once

#include <QWidget>
#include <string>

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace pfa::ui {

class LedgerBook;

/// The privacy ledger of a data set: the composed total (RDP headline and the simple sum) and
/// every charged run with its status, ε, δ, steps and mechanism. Follows the data set chosen
/// in the experiment panel unless the user picks another ledger; exports as CSV.
class LedgerPanel : public QWidget {
    Q_OBJECT
public:
    explicit LedgerPanel(LedgerBook* book, QWidget* parent = nullptr);

    /// Shows the ledger `key` (the current data set's); an empty ledger says nothing is spent.
    void showLedger(const std::string& key);
    std::string currentKey() const { return m_key; }
    QTableWidget* table() const { return m_table; }
    /// The totals line as shown (plain text).
    QString totalsText() const;
    /// Writes the shown ledger as CSV; false with a message on failure.
    bool exportCsv(const QString& path, QString* error) const;

private:
    void rebuildChoices();
    void refresh();

    LedgerBook* m_book;
    std::string m_key;
    QComboBox* m_choice;
    QLabel* m_totals;
    QTableWidget* m_table;
    QPushButton* m_export;
};

}  // namespace pfa::ui
