#pragma once

#include <QColor>
#include <QWidget>
#include <vector>

#include "ui/runs/run_entry.h"

class QLabel;
class QTableWidget;
class QTextBrowser;

namespace pfa::ui {

class UnitSpreadView;

/// The selected run: a one-paragraph summary and its per-group table (n, base rate,
/// selection rate, TPR, FPR, accuracy on the test set). Several runs (a comparison) are shown
/// side by side instead: one column per run, one row per setting or metric, each column
/// headed in the run's colour in the live charts.
class RunDetailsPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunDetailsPanel(QWidget* parent = nullptr);
    void showRun(const RunEntryPtr& run);  ///< null: empty state
    /// One run: as showRun; several: side by side. `colors[i]` (if given and valid) marks
    /// run i's column as in the live charts.
    void showRuns(const std::vector<RunEntryPtr>& runs, const std::vector<QColor>& colors = {});
    QTableWidget* groupTable() const { return m_table; }
    /// The side-by-side table (hidden unless several runs are shown).
    QTableWidget* comparisonTable() const { return m_compare; }
    QString summaryText() const;
    /// The box plot of the runs' test errors per silo or user (hidden for runs without units).
    UnitSpreadView* unitSpread() const { return m_units; }
    /// The one line shown instead of the box plot when no run shown has units.
    QLabel* unitNote() const { return m_unitNote; }

private:
    /// Shows the per-unit spread of `runs` (one box each), or the note why there is none.
    void showUnits(const std::vector<RunEntryPtr>& runs);

    QLabel* m_summary;
    QTableWidget* m_table;
    QTableWidget* m_compare;
    UnitSpreadView* m_units;
    QLabel* m_unitNote;
};

class LedgerBook;

/// The privacy statement of the selected run, exactly as the core generated it, followed by
/// the current total of its data set's privacy ledger (which the statement does not cover).
class PrivacyStatementView : public QWidget {
    Q_OBJECT
public:
    explicit PrivacyStatementView(QWidget* parent = nullptr);
    /// The ledgers whose totals are shown under the statement (and kept current).
    void setLedgerBook(LedgerBook* book);
    void showRun(const RunEntryPtr& run);
    QString text() const;

private:
    void refresh();

    QTextBrowser* m_text;
    LedgerBook* m_book = nullptr;
    RunEntryPtr m_run;
};

}  // namespace pfa::ui
