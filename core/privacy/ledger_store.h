#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/privacy/dataset_ledger.h"

namespace pfa::privacy {

/// The persistent privacy ledger of one data set, as read from its file.
struct StoredLedger {
    std::string fingerprint;  ///< the data set's content fingerprint (the file's name)
    std::string path;         ///< the ledger file
    bool exists = false;      ///< false: nothing was ever charged to these rows (no file)
    /// The runs charged since the last reset, composed (key = fingerprint, title = the first
    /// name the data set was charged under).
    DatasetLedger ledger;
    /// Every name the rows were charged under ("adult", "file loans.csv", "file copy.csv"),
    /// in the order first seen: the same rows under another file name share the ledger.
    std::vector<std::string> names;
    std::size_t resets = 0;        ///< how often the ledger was reset
    std::string lastReset;         ///< when, UTC ("2025-01-31T12:00:00Z"); "" when never
    std::size_t forgotten = 0;     ///< runs charged before the last reset (no longer counted)
    std::size_t damagedLines = 0;  ///< lines that could not be read (e.g. cut by a crash)
};

/// The per-data-set privacy ledgers of a user, kept across sessions, sweeps and programs in one
/// folder: one file per data set, named by its content fingerprint (datasetFingerprint), so
/// that a renamed or row-shuffled copy of the same rows shares the ledger.
///
/// A file is append-only JSON lines: a header, one line per charged run (the exact accounting
/// inputs of its ε) and one line per reset. Nothing is ever rewritten, so a crash loses at
/// most the line being written (a cut line is skipped when read). Writers — the threads of a
/// sweep, the GUI and a `pfa-cli` process beside it — take an exclusive lock on the file
/// (flock) while they read it and append, and force each write to disk; readers take a shared
/// lock. Each executed run (its run uid) is charged at most once, ever: a run recorded twice,
/// or opened again after a reset, is not charged again. Removing runs from a history or a
/// results file never refunds anything. A process remembers what it read of each file, so each
/// charge or read takes only what was appended since its last one (by any writer), not the
/// whole file; a file replaced or rewritten meanwhile is read again from its start.
class LedgerStore {
public:
    /// The ledgers in `directory` (made when the first run is charged).
    explicit LedgerStore(std::string directory);

    const std::string& directory() const { return m_directory; }
    /// The file of the data set `fingerprint` (32 hex digits; InputError otherwise).
    std::string pathFor(const std::string& fingerprint) const;

    /// Charges `entries` to the ledger of `fingerprint`; `name` is what the data set is called
    /// where they ran ("adult", "file loans.csv") and `source` what ran them ("PFA Explorer",
    /// "pfa-cli train"). Run uids charged before (also before a reset) are skipped. Returns how
    /// many runs were charged now. Throws InputError naming the file when it cannot be written.
    std::size_t charge(const std::string& fingerprint, const std::string& name,
                       const std::vector<LedgerEntry>& entries, const std::string& source) const;

    /// Reads the ledger of `fingerprint` (an empty one when no file exists). Throws
    /// InputError naming the file when it exists but cannot be read.
    StoredLedger read(const std::string& fingerprint) const;

    /// Resets the ledger of `fingerprint`: the runs charged so far are no longer counted (they
    /// stay in the file, after which a reset line says when and by what). Resetting forgets
    /// spending; it does not make the data private again. Returns how many runs were
    /// forgotten (0 when there was nothing to forget: then nothing is written).
    std::size_t reset(const std::string& fingerprint, const std::string& source) const;

    /// The fingerprints of every ledger file in the folder, sorted.
    std::vector<std::string> fingerprints() const;

private:
    std::string m_directory;
};

/// Whether `text` is a fingerprint as the store names its files (32 lower-case hex digits).
bool isLedgerFingerprint(const std::string& text);

/// The ledger as CSV: a comment line with its totals, a header, one line per charged run with
/// its exact accounting inputs (run_uid, label, status, epsilon, delta, unit, adjacency, curve,
/// sampling_rate, noise_multiplier, steps_per_release, steps, extra_epsilon).
std::string ledgerCsv(const DatasetLedger& ledger);

/// The ledger as one JSON object: names, totals (RDP and simple sums), resets and every entry
/// with its accounting inputs. The fingerprint is left out: it is an exact function of the
/// private rows, and an export is meant to be shown to others.
std::string ledgerExportJson(const StoredLedger& stored);

}  // namespace pfa::privacy
