#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/config/run_result.h"
#include "core/privacy/dataset_ledger.h"
#include "core/privacy/ledger_store.h"
#include "core/sweep/run_record.h"
#include "core/util/json_value.h"

namespace pfa {

/// "dp-fermi dp, ε = 1, λ = 2, seed 0" (ledger rows, CLI lines).
std::string runLabel(const TrainConfig& config);

/// The ledger entry of a run: its charge id (runChargeId), label, status, certified (ε, δ) and
/// accounting inputs. Nothing (nullopt) for a non-private run, which no ledger can charge.
std::optional<privacy::LedgerEntry> ledgerEntryForRun(const RunResult& result,
                                                      const RunContext& context,
                                                      const std::string& label);

/// The ledgers of the private runs among `records` (results-file lines), one per ledger key in
/// order of first appearance; each executed run (run_uid) is charged once. Records without a
/// run uid (older files) are identified by their run key and spent ε; without a ledger key
/// they are placed by the data-set part of their run key.
std::vector<privacy::DatasetLedger> ledgersFromRecords(const std::vector<JsonValue>& records);

/// The ledger key of a record (see ledgersFromRecords).
std::string recordLedgerKey(const JsonValue& record);

/// The ledger a run is charged to: its context's ledger key, or — for runs from files written
/// before ledger keys — the data-set part of its run key, or else the data set's name.
std::string runLedgerKey(const RunContext& context, const std::string& datasetName);

/// The identity under which a run is charged once: its run uid, or — for runs recorded before
/// run uids — its run key with its spent ε and duration.
std::string runChargeId(const RunResult& result, const RunContext& context);

/// The ledger entries of the auto-tune trials a record lists (`tuning_trials`, see
/// withTuningTrials in auto_tune.h), each under its own run uid; empty for other records.
std::vector<privacy::LedgerEntry> tuningTrialEntries(const JsonValue& record);

/// The folder of the persistent privacy ledgers: $PFA_LEDGER_DIR when set (tests, or a
/// folder shared on purpose), else "ledgers" in the per-user data folder (userDataDirectory()),
/// which the command line and the desktop application share.
std::string ledgerDirectory();

/// The name a data set is charged under in the persistent ledger: the title of its ledger key
/// ("adult", "file:loans.csv", "synthetic(n=2000,…)").
std::string ledgerNameOf(const RunContext& context);

/// Charges `entries` to the persistent ledger of the rows of `context` (its dataFingerprint),
/// each run uid once; `source` says what ran them ("pfa-cli train"). Nothing is charged when
/// the fingerprint is unknown (a run read back from a record). Returns how many were new.
/// Throws InputError when the ledger file cannot be written.
std::size_t chargeLedgerStore(const privacy::LedgerStore& store, const RunContext& context,
                              const std::vector<privacy::LedgerEntry>& entries,
                              const std::string& source);

/// Collects the ledger entries of many runs (from any thread) and charges them in batches, so
/// that charging thousands of runs (a privacy audit's) reads the ledger file a few times, not
/// once per run. What is still pending is charged by flush() and on destruction (errors there
/// are swallowed: call flush() to see them).
class LedgerChargeBatch {
public:
    using Charge = std::function<void(const std::vector<privacy::LedgerEntry>&)>;
    /// `charge` charges a batch (e.g. chargeLedgerStore on the runs' data set); `batchSize`
    /// entries are gathered before it is called.
    explicit LedgerChargeBatch(Charge charge, std::size_t batchSize = 256);
    ~LedgerChargeBatch();
    LedgerChargeBatch(const LedgerChargeBatch&) = delete;
    LedgerChargeBatch& operator=(const LedgerChargeBatch&) = delete;

    /// Adds the run's entry (ledgerEntryForRun with `label`; nothing for a non-private run).
    void add(const RunResult& result, const RunContext& context, const std::string& label);
    /// Charges every pending entry now.
    void flush();

private:
    Charge m_charge;
    std::size_t m_batchSize;
    std::mutex m_mutex;
    std::vector<privacy::LedgerEntry> m_pending;
};

}  // namespace pfa
