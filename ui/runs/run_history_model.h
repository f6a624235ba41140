#pragma once

#include <QAbstractTableModel>
#include <map>
#include <vector>

#include "ui/runs/run_entry.h"
#include "ui/support/palette.h"

namespace pfa::ui {

/// Table model of every run in the session (sortable through a QSortFilterProxyModel: the
/// SortRole gives numbers for numeric columns). The Protects column names each run's unit and
/// adjacency (RunEntry::protectionText), so runs whose ε bound different things are told apart.
class RunHistoryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Id,
        Algorithm,
        Dataset,
        Notion,
        Epsilon,
        Lambda,
        Seed,
        Epochs,
        TestError,
        Violation,
        EpsilonSpent,
        Protects,
        Status,
        Finished,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int RunIdRole = Qt::UserRole + 2;

    explicit RunHistoryModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    void append(const RunEntryPtr& entry);
    /// Appends several runs at once (one change notification).
    void append(const std::vector<RunEntryPtr>& entries);
    /// Appends the runs not listed yet (by run key: a resumed sweep or a results file opened
    /// twice lists each run once; runs without a key are always new). Returns how many.
    int appendUnlisted(const std::vector<RunEntryPtr>& entries);
    /// Inserts at `row` (used by undo).
    void insert(int row, const RunEntryPtr& entry);
    /// Removes the run with `id`; returns its former row or −1.
    int remove(int id);
    void clear();
    void setEntries(std::vector<RunEntryPtr> entries);

    const std::vector<RunEntryPtr>& entries() const { return m_entries; }
    /// The ε column's colour squares follow `palette` (the tradeoff chart's).
    void setEpsilonPalette(const chart_style::EpsilonPalette& palette);
    RunEntryPtr entry(int id) const;
    int rowOf(int id) const;

signals:
    void entriesChanged();

private:
    std::vector<RunEntryPtr> m_entries;
    chart_style::EpsilonPalette m_palette;
    /// Runs named by their variant ("isrl-dp-sgd (trust = local)"), by id; the others by
    /// their algorithm.
    std::map<int, std::string> m_variants;
    /// Recomputes m_variants from the runs listed (after every change of them).
    void updateVariants();
};

}  // namespace pfa::ui
