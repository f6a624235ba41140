#pragma once

#include <QTableView>
#include <vector>

#include "ui/runs/run_entry.h"

class QSortFilterProxyModel;

namespace pfa::ui {

class RunHistoryModel;

/// The run-history table: sortable by any column (numbers sort as numbers), rows selected
/// whole, several at a time; selection in terms of runs rather than rows.
class RunHistoryView : public QTableView {
    Q_OBJECT
public:
    explicit RunHistoryView(RunHistoryModel* history, QWidget* parent = nullptr);

    /// The selected runs, in the order shown.
    std::vector<RunEntryPtr> selectedRuns() const;
    /// Selects the runs `ids` (others are deselected) and scrolls to the first.
    void selectRuns(const std::vector<int>& ids);

private:
    RunHistoryModel* m_history;
    QSortFilterProxyModel* m_sorted;
};

}  // namespace pfa::ui
