#pragma once

#include <QObject>
#include <QString>
#include <map>
#include <string>
#include <vector>

#include "core/privacy/dataset_ledger.h"
#include "ui/runs/run_entry.h"

namespace pfa::ui {

/// The privacy ledgers of a session, one per data set (pfa::ledgerKey: the same rows whatever
/// split or sensitive attribute). Every private run that executed — finished, stopped,
/// diverged, superseded by a live-mode restart, cut short in a sweep, resumed from a results
/// file — is charged once (by its run uid), and deleting a run from the history does not
/// refund it. Saved with the session.
class LedgerBook : public QObject {
    Q_OBJECT
public:
    explicit LedgerBook(QObject* parent = nullptr);

    /// Charges the run of `entry` to its data set's ledger (non-private runs are not charged).
    /// Returns true when it was not charged before.
    bool charge(const RunEntryPtr& entry);
    /// Charges several runs; emits one changed() per ledger that grew.
    void charge(const std::vector<RunEntryPtr>& entries);

    /// The ledger with `key`, or null.
    const pfa::privacy::DatasetLedger* ledger(const std::string& key) const;
    /// Every ledger, by key.
    const std::map<std::string, pfa::privacy::DatasetLedger>& ledgers() const { return m_ledgers; }

    /// The ledgers as JSON text (an array of {key, title, entries}).
    std::string toJson() const;
    /// Adds the ledgers of `json` (from toJson) to this book, each run once. Throws InputError
    /// for malformed JSON.
    void mergeJson(const std::string& json);
    /// Forgets everything (a new, empty session).
    void clear();

signals:
    /// The ledger `key` changed.
    void changed(const QString& key);

private:
    bool chargeQuietly(const RunEntryPtr& entry, std::string* key);
    /// The ledger `key`, made (empty, titled from the key) when new.
    pfa::privacy::DatasetLedger& ledgerFor(const std::string& key);

    std::map<std::string, pfa::privacy::DatasetLedger> m_ledgers;
};

/// "run 12: dp-fermi dp, ε = 1, λ = 2, seed 0".
QString ledgerLabel(const RunEntry& entry);

}  // namespace pfa::ui
