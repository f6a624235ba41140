#pragma once

#include <QObject>
#include <QString>
#include <functional>
#include <vector>

#include "ui/runs/run_entry.h"

namespace pfa::ui {

class LedgerBook;
class RunHistoryModel;

/// Brings runs that were trained elsewhere into the session: JSON-lines results files (a sweep
/// from pfa-cli, a cluster job, an earlier GUI sweep) are read off the GUI thread, and their
/// runs — like every batch a running sweep delivers — are charged to the privacy ledger once
/// each and listed in the history unless already there.
class ResultsFileController : public QObject {
    Q_OBJECT
public:
    /// `allocateId` gives session-unique run ids (called on the GUI thread).
    ResultsFileController(RunHistoryModel* history, LedgerBook* ledger,
                          std::function<int()> allocateId, QObject* parent = nullptr);

    /// Reads `path` in the background and merges its runs; `opened` reports the outcome.
    void open(const QString& path);
    /// Charges `entries` (every run that executed, listed or not) and lists those not listed
    /// yet; returns how many were listed.
    int merge(const std::vector<RunEntryPtr>& entries);

signals:
    /// `path` is being read.
    void reading(const QString& path);
    /// `added` runs from `path` joined the history (`skipped` were already there, `damaged`
    /// lines could not be read); `error` is set when the file could not be read at all.
    void opened(const QString& path, int added, int skipped, int damaged, const QString& error);
    /// Something about `path` the user must know, in plain words for a dialog: it could not be
    /// read, it is not a results file at all, or some of its lines were skipped. `text` says
    /// what happened; `details` lists the skipped lines and why ("line 3: not a JSON record").
    void problem(const QString& title, const QString& text, const QString& details);
    /// A sharded sweep's manifest was opened: how far the sweep is ("120 of 540 run(s) of the
    /// sweep 'adult-dp' recorded, 9 of 15 shard(s) still incomplete"). Opening it again later
    /// adds the runs recorded since.
    void sweepProgress(const QString& text);

private:
    RunHistoryModel* m_history;
    LedgerBook* m_ledger;
    std::function<int()> m_allocateId;
};

}  // namespace pfa::ui
