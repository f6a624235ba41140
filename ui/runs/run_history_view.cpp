#include "ui/runs/run_history_view.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QSortFilterProxyModel>

#include "ui/runs/run_history_model.h"

namespace pfa::ui {

RunHistoryView::RunHistoryView(RunHistoryModel* history, QWidget* parent)
    : QTableView(parent), m_history(history), m_sorted(new QSortFilterProxyModel(this)) {
    m_sorted->setSourceModel(history);
    m_sorted->setSortRole(RunHistoryModel::SortRole);
    setModel(m_sorted);
    setSortingEnabled(true);
    sortByColumn(RunHistoryModel::Id, Qt::AscendingOrder);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    verticalHeader()->setVisible(false);
    // Column widths are fitted once (first run), not on every insert: ResizeToContents would
    // measure every row each time the history grows.
    horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    horizontalHeader()->setStretchLastSection(true);
    setAlternatingRowColors(true);
    setToolTip(
        tr("Every run of this session. Select one to see its curves, groups "
           "and privacy statement; select two to compare their curves. "
           "Delete removes runs (undo with Ctrl+Z)."));
    connect(history, &QAbstractItemModel::rowsInserted, this, [this] {
        if (m_history->rowCount() == 1) resizeColumnsToContents();
    });
}

std::vector<RunEntryPtr> RunHistoryView::selectedRuns() const {
    std::vector<RunEntryPtr> runs;
    for (const QModelIndex& index : selectionModel()->selectedRows()) {
        const int id = index.data(RunHistoryModel::RunIdRole).toInt();
        if (RunEntryPtr entry = m_history->entry(id)) runs.push_back(entry);
    }
    return runs;
}

void RunHistoryView::selectRuns(const std::vector<int>& ids) {
    QItemSelection selection;
    for (int id : ids) {
        const int row = m_history->rowOf(id);
        if (row < 0) continue;
        selection.select(
            m_sorted->mapFromSource(m_history->index(row, 0)),
            m_sorted->mapFromSource(m_history->index(row, RunHistoryModel::ColumnCount - 1)));
    }
    selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    if (!ids.empty()) {
        const int row = m_history->rowOf(ids.front());
        if (row >= 0) scrollTo(m_sorted->mapFromSource(m_history->index(row, 0)));
    }
}

}  // namespace pfa::ui
