#pragma once

#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/privacy/accounting_inputs.h"
#include "core/util/json_value.h"
#include "core/util/json_writer.h"

namespace pfa::privacy {

/// One private run charged to a data set's ledger.
struct LedgerEntry {
    std::string runUid;    ///< identity of the executed run (a run is charged once)
    std::string label;     ///< e.g. "run 12: dp-fermi, ε = 1, λ = 2, seed 0"
    std::string status;    ///< "completed", "cancelled", "diverged", …
    double epsilon = 0.0;  ///< the run's own certified ε
    double delta = 0.0;
    /// False for runs read from records older than the accounting inputs: they are composed
    /// by simple addition of their (ε, δ) only.
    bool accountingKnown = true;
    AccountingInputs accounting;  ///< the exact inputs of the run's ε (steps executed)
};

/// What a ledger has spent in all.
struct LedgerTotals {
    std::size_t runs = 0;
    /// RDP composition (privacy-accounting.md §3): the runs' curves added, converted at
    /// `delta`, plus every pure side release and the (ε, δ) of runs without known curves.
    double epsilon = 0.0;
    double delta = 0.0;  ///< the largest δ of the runs, plus Σ δ of runs without curves
    double order = 0.0;  ///< optimal order of the conversion (NaN when ε = ∞ or 0 runs)
    /// Σ of the runs' own ε (simple addition), a group of runs that shared batches counted once
    /// at its joint ε (for runs that shared randomness the sum of their own ε is no bound)
    double naiveEpsilon = 0.0;
    double naiveDelta = 0.0;             ///< Σ of the runs' own δ
    std::size_t withoutCurve = 0;        ///< runs composed by simple addition only
    std::size_t sharedSamples = 0;       ///< groups of runs that shared one Poisson sample
    std::size_t runsSharingSamples = 0;  ///< the runs in those groups
};

/// The privacy ledger of one data set (its training rows and split): every private run on it
/// — finished, stopped, diverged, superseded — composed with the Rényi-DP accountant.
class DatasetLedger {
public:
    DatasetLedger() = default;
    /// `key` identifies the training rows (data set, split); `title` is for display.
    DatasetLedger(std::string key, std::string title);

    /// Charges a run; false (and nothing changes) when its run uid is already charged.
    bool add(const LedgerEntry& entry);
    const std::vector<LedgerEntry>& entries() const { return m_entries; }
    const std::string& key() const { return m_key; }
    const std::string& title() const { return m_title; }

    /// The totals (RDP headline and simple sums), computed from the entries' inputs (once
    /// after each change: several views ask after every batch of a sweep).
    LedgerTotals totals() const;

private:
    LedgerTotals computeTotals() const;

    std::string m_key;
    std::string m_title;
    std::vector<LedgerEntry> m_entries;
    /// The run uids of m_entries: a ledger of many thousand runs is read whole (after every
    /// run in the GUI), so finding a uid must not scan the entries.
    std::unordered_set<std::string> m_runUids;
    mutable std::optional<LedgerTotals> m_totals;
};

/// JSON form of an entry and of a whole ledger ({key, title, entries: […]}).
void writeLedgerEntryJson(JsonWriter& json, const LedgerEntry& entry);
LedgerEntry ledgerEntryFromJson(const JsonValue& json);
void writeLedgerJson(JsonWriter& json, const DatasetLedger& ledger);
DatasetLedger ledgerFromJson(const JsonValue& json);

/// "ε = 4.21 at δ = 1.2e-09 by RDP composition of 12 runs (Σε = 11.9 by simple addition)".
std::string describeTotals(const LedgerTotals& totals);

}  // namespace pfa::privacy
