#pragma once

#include <QObject>
#include <QString>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/privacy/dataset_ledger.h"
#include "core/privacy/ledger_store.h"
#include "core/sweep/run_record.h"
#include "ui/runs/run_entry.h"
#include "ui/support/background.h"

namespace pfa::ui {

/// What the window shows of the persistent ledger of a data set's rows (see LedgerBook).
struct PersistentLedgerView {
    /// Every run charged to the rows so far, in any session or program: what the ledger file
    /// holds, plus the runs of this window still being written to it.
    pfa::privacy::DatasetLedger ledger;
    std::string path;                ///< the ledger file
    std::vector<std::string> names;  ///< the names the rows were charged under
    std::size_t resets = 0;
    std::string lastReset;      ///< UTC, "" when never reset
    std::size_t forgotten = 0;  ///< runs charged before the last reset
    bool read = false;          ///< false until the file has been read once
};

/// The privacy ledgers: the persistent ledger of each data set's rows, and this session's.
///
/// Persistent: every private run that executes in the window — finished, stopped, diverged,
/// superseded by a live-mode restart, run or cut short in a sweep, an auto-tune trial, an audit
/// model — is charged to the ledger of its data set's rows in the per-user ledger folder
/// (pfa::ledgerDirectory(), shared with pfa-cli), keyed by the rows' content fingerprint, so
/// closing or discarding a session refunds nothing and a renamed copy of a file shares its
/// ledger. Runs opened from sessions and results files are charged too, once their data set's
/// fingerprint is known (it is never stored in those files). All file work runs on a serial
/// background queue; what the window shows is updated at once.
///
/// The session's ledgers (one per pfa::ledgerKey) are saved with the session, as before.
/// Deleting a run from the history refunds nothing in either.
class LedgerBook : public QObject {
    Q_OBJECT
public:
    /// The persistent ledgers in `folder` ("" = pfa::ledgerDirectory()).
    explicit LedgerBook(QObject* parent = nullptr, const std::string& folder = {});
    ~LedgerBook() override;

    /// Charges the run of `entry` to its data set's ledgers (non-private runs are not charged).
    /// Returns true when the session had not charged it before.
    bool charge(const RunEntryPtr& entry);
    /// Charges several runs; emits one changed() per ledger that grew.
    void charge(const std::vector<RunEntryPtr>& entries);
    /// Charges executions that are not runs of the history (auto-tune trials) to the ledgers of
    /// the data set of `context`. With `stored`, they are already in the persistent ledger (a
    /// sweep's worker wrote them) and are only shown.
    void chargeEntries(const pfa::RunContext& context,
                       const std::vector<pfa::privacy::LedgerEntry>& entries, bool stored);

    /// The rows of the data set `key` (pfa::ledgerKey) have the content fingerprint
    /// `fingerprint` (the data set was loaded): its persistent ledger is read, and the runs of
    /// this session on `key` whose rows were not known yet are charged to it.
    void setDataFingerprint(const std::string& key, const std::string& fingerprint);
    /// The fingerprint last set for `key` ("" when none).
    std::string dataFingerprint(const std::string& key) const;

    /// The persistent ledger of the rows of `key`; nullopt while their fingerprint is unknown.
    std::optional<PersistentLedgerView> persistentLedger(const std::string& key) const;
    /// The folder of the persistent ledgers.
    const std::string& folder() const { return m_store->directory(); }
    /// Resets the persistent ledger of `key`'s rows (see pfa::privacy::LedgerStore::reset) in
    /// the background; changed(key) follows. False when their fingerprint is unknown.
    bool resetPersistent(const std::string& key);

    /// For training threads: charges a run to the persistent ledger of its rows at once, on the
    /// calling thread (so that a run the window never hears of — it was closed meanwhile — is
    /// charged all the same). Safe to call from any thread; errors are left to the GUI
    /// thread's charge of the same run.
    std::function<void(const pfa::RunResult&, const pfa::RunContext&)> backgroundCharger() const;
    /// For sweep threads: charges ledger entries of the rows of a context at once.
    std::function<void(const pfa::RunContext&, const std::vector<pfa::privacy::LedgerEntry>&)>
    backgroundEntryCharger() const;

    /// The session's ledger with `key`, or null.
    const pfa::privacy::DatasetLedger* ledger(const std::string& key) const;
    /// Every session ledger, by key.
    const std::map<std::string, pfa::privacy::DatasetLedger>& ledgers() const { return m_ledgers; }
    /// What the window says the data set `key` has spent: the persistent ledger's totals when
    /// its rows are known, else this session's; nullopt when neither has a run.
    std::optional<pfa::privacy::LedgerTotals> currentTotals(const std::string& key) const;

    /// The session ledgers as JSON text (an array of {key, title, entries}).
    std::string toJson() const;
    /// Adds the ledgers of `json` (from toJson) to this session, each run once (and to the
    /// persistent ledgers of rows already known). Throws InputError for malformed JSON.
    void mergeJson(const std::string& json);
    /// Forgets the session's ledgers (a new, empty session); the persistent ones stay.
    void clear();

    /// Waits for the ledger files to be written (closing the window).
    void flush();

signals:
    /// The session's ledger `key` changed (the session has something new to save).
    void changed(const QString& key);
    /// What the persistent ledger of `key`'s rows holds changed (read back, charged or reset);
    /// nothing for the session to save.
    void persistentChanged(const QString& key);
    /// A ledger file could not be read or written.
    void storeFailed(const QString& message);

private:
    struct Persistent {
        bool read = false;
        pfa::privacy::StoredLedger stored;
        /// Charged by this window, not yet confirmed by a read: (write number, entry).
        std::vector<std::pair<long, pfa::privacy::LedgerEntry>> pending;
    };

    /// What a read of a ledger file hands to the GUI thread.
    struct ReadOutcome {
        pfa::privacy::StoredLedger stored;
        QString error;
    };

    bool addToSession(const std::string& key, const pfa::privacy::LedgerEntry& entry,
                      const std::string& fingerprint);
    /// The fingerprint of the rows a context's runs touched ("" when unknown).
    std::string fingerprintOf(const pfa::RunContext& context, const std::string& key) const;
    void write(const std::string& fingerprint, const std::string& name,
               const std::vector<pfa::privacy::LedgerEntry>& entries);
    void read(const std::string& fingerprint);
    /// A read of `fingerprint`'s file that saw every write up to number `covered`.
    void readArrived(const std::string& fingerprint, long covered, const ReadOutcome& out);
    void emitChangedFor(const std::string& fingerprint);
    pfa::privacy::DatasetLedger& ledgerFor(const std::string& key);

    std::shared_ptr<const pfa::privacy::LedgerStore> m_store;
    std::map<std::string, pfa::privacy::DatasetLedger> m_ledgers;  ///< the session's, by key
    std::map<std::string, std::string> m_fingerprintOfKey;
    std::map<std::string, Persistent> m_persistent;  ///< by fingerprint
    /// Session runs (uid) whose rows are known: charged to that fingerprint, no other.
    std::map<std::string, std::string> m_fingerprintOfRun;
    long m_writes = 0;
    SerialQueue m_files{QStringLiteral("pfa-ledger")};  ///< last: destroyed (waited for) first
};

/// "run 12: dp-fermi dp, ε = 1, λ = 2, seed 0".
QString ledgerLabel(const RunEntry& entry);

}  // namespace pfa::ui
