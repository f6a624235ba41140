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
/// every charged run with its status, ε, δ, steps and mechanism. Shows the persistent ledger of
/// the data set's rows — every session and pfa-cli — once the data set is loaded (and says
/// where its file lives), this session's runs before. Follows the data set chosen in the
/// experiment panel unless the user picks another ledger; exports as CSV or JSON; Reset… asks
/// first and says what resetting means.
class LedgerPanel : public QWidget {
    Q_OBJECT
public:
    explicit LedgerPanel(LedgerBook* book, QWidget* parent = nullptr);

    /// Shows the ledger `key` (the current data set's); an empty ledger says nothing is spent.
    void showLedger(const std::string& key);
    std::string currentKey() const { return m_key; }
    QTableWidget* table() const { return m_table; }
    QPushButton* exportButton() const { return m_export; }
    QPushButton* resetButton() const { return m_reset; }
    /// The totals line as shown (plain text).
    QString totalsText() const;
    /// Where the shown ledger is kept, as shown (plain text).
    QString whereText() const;
    /// Writes the shown ledger as CSV (a path ending in .json: as JSON); false with a message
    /// on failure.
    bool exportTo(const QString& path, QString* error) const;
    /// The same, as CSV whatever the name.
    bool exportCsv(const QString& path, QString* error) const;

    /// Asks whether to reset the shown persistent ledger, saying what that means, and resets it
    /// when the answer is Reset. True when it was reset.
    bool requestReset();

private:
    void rebuildChoices();
    void refresh();
    bool writeFile(const QString& path, const QByteArray& bytes, QString* error) const;

    LedgerBook* m_book;
    std::string m_key;
    QComboBox* m_choice;
    QLabel* m_where;
    QLabel* m_totals;
    QTableWidget* m_table;
    QPushButton* m_export;
    QPushButton* m_reset;
};

}  // namespace pfa::ui
