#include "ui/runs/privacy_ledger_book.h"

#include <algorithm>

#include "core/sweep/prepared_dataset.h"
#include "core/sweep/run_ledger.h"
#include "core/util/format.h"
#include "core/util/json_value.h"
#include "core/util/json_writer.h"

namespace pfa::ui {

QString ledgerLabel(const RunEntry& entry) {
    return QStringLiteral("run %1: %2")
        .arg(entry.id)
        .arg(QString::fromStdString(pfa::runLabel(entry.result.config)));
}

LedgerBook::LedgerBook(QObject* parent, const std::string& folder)
    : QObject(parent),
      m_store(std::make_shared<const pfa::privacy::LedgerStore>(
          folder.empty() ? pfa::ledgerDirectory() : folder)) {}

LedgerBook::~LedgerBook() { flush(); }

void LedgerBook::flush() { m_files.waitForDone(); }

std::string LedgerBook::fingerprintOf(const pfa::RunContext& context,
                                      const std::string& key) const {
    if (!context.dataFingerprint.empty()) return context.dataFingerprint;
    // A run read back from a file: the rows of its data set, once they are loaded.
    return dataFingerprint(key);
}

std::string LedgerBook::dataFingerprint(const std::string& key) const {
    const auto found = m_fingerprintOfKey.find(key);
    return found == m_fingerprintOfKey.end() ? std::string() : found->second;
}

pfa::privacy::DatasetLedger& LedgerBook::ledgerFor(const std::string& key) {
    auto found = m_ledgers.find(key);
    if (found == m_ledgers.end()) {
        found =
            m_ledgers.emplace(key, pfa::privacy::DatasetLedger(key, pfa::ledgerTitle(key))).first;
    }
    return found->second;
}

bool LedgerBook::addToSession(const std::string& key, const pfa::privacy::LedgerEntry& entry,
                              const std::string& fingerprint) {
    if (!fingerprint.empty()) m_fingerprintOfRun.emplace(entry.runUid, fingerprint);
    return ledgerFor(key).add(entry);
}

bool LedgerBook::charge(const RunEntryPtr& entry) {
    if (!entry) return false;
    std::optional<pfa::privacy::LedgerEntry> charged =
        pfa::ledgerEntryForRun(entry->result, entry->context, ledgerLabel(*entry).toStdString());
    if (!charged) return false;
    if (entry->stoppedByUser) charged->status = "stopped";
    const std::string key = pfa::runLedgerKey(entry->context, entry->result.dataset);
    const std::string fingerprint = fingerprintOf(entry->context, key);
    if (!addToSession(key, *charged, fingerprint)) return false;
    if (!fingerprint.empty()) write(fingerprint, pfa::ledgerTitle(key), {*charged});
    emit changed(QString::fromStdString(key));
    return true;
}

void LedgerBook::charge(const std::vector<RunEntryPtr>& entries) {
    std::set<std::string> grown;
    // One write per data set's rows for the whole batch (a sweep delivers dozens at once).
    std::map<std::string, std::pair<std::string, std::vector<pfa::privacy::LedgerEntry>>> toWrite;
    for (const RunEntryPtr& entry : entries) {
        if (!entry) continue;
        std::optional<pfa::privacy::LedgerEntry> charged = pfa::ledgerEntryForRun(
            entry->result, entry->context, ledgerLabel(*entry).toStdString());
        if (!charged) continue;
        if (entry->stoppedByUser) charged->status = "stopped";
        const std::string key = pfa::runLedgerKey(entry->context, entry->result.dataset);
        const std::string fingerprint = fingerprintOf(entry->context, key);
        if (!addToSession(key, *charged, fingerprint)) continue;
        grown.insert(key);
        if (!fingerprint.empty()) {
            auto& batch = toWrite[fingerprint];
            batch.first = pfa::ledgerTitle(key);
            batch.second.push_back(*charged);
        }
    }
    for (const auto& [fingerprint, batch] : toWrite) write(fingerprint, batch.first, batch.second);
    for (const std::string& key : grown) emit changed(QString::fromStdString(key));
}

void LedgerBook::chargeEntries(const pfa::RunContext& context,
                               const std::vector<pfa::privacy::LedgerEntry>& entries, bool stored) {
    const std::string key = pfa::runLedgerKey(context, "unknown");
    const std::string fingerprint = fingerprintOf(context, key);
    std::vector<pfa::privacy::LedgerEntry> added;
    for (const pfa::privacy::LedgerEntry& entry : entries) {
        if (addToSession(key, entry, fingerprint)) added.push_back(entry);
    }
    if (added.empty()) return;
    if (!fingerprint.empty()) {
        if (stored) {
            // Already in the file: shown at once, confirmed by the next read.
            Persistent& persistent = m_persistent[fingerprint];
            for (const pfa::privacy::LedgerEntry& entry : added)
                persistent.pending.emplace_back(m_writes, entry);
            read(fingerprint);
        } else {
            write(fingerprint, pfa::ledgerTitle(key), added);
        }
    }
    emit changed(QString::fromStdString(key));
}

void LedgerBook::setDataFingerprint(const std::string& key, const std::string& fingerprint) {
    if (key.empty() || fingerprint.empty()) return;
    m_fingerprintOfKey[key] = fingerprint;
    // This session's runs on `key` whose rows were unknown (opened from a session or a results
    // file) touched these rows as far as anyone can tell: charged to them (each run once).
    std::vector<pfa::privacy::LedgerEntry> unknownRows;
    if (const pfa::privacy::DatasetLedger* session = ledger(key)) {
        for (const pfa::privacy::LedgerEntry& entry : session->entries()) {
            if (m_fingerprintOfRun.emplace(entry.runUid, fingerprint).second)
                unknownRows.push_back(entry);
        }
    }
    if (!unknownRows.empty()) {
        write(fingerprint, pfa::ledgerTitle(key), unknownRows);
    } else {
        read(fingerprint);  // every load: another program may have charged these rows since
    }
    emit persistentChanged(QString::fromStdString(key));
}

void LedgerBook::write(const std::string& fingerprint, const std::string& name,
                       const std::vector<pfa::privacy::LedgerEntry>& entries) {
    const long number = ++m_writes;
    Persistent& persistent = m_persistent[fingerprint];
    for (const pfa::privacy::LedgerEntry& entry : entries)
        persistent.pending.emplace_back(number, entry);
    // Written, then read back in the same task: what the window shows is what the file holds.
    m_files.run(
        this,
        [store = m_store, fingerprint, name, entries]() {
            LedgerBook::ReadOutcome out;
            try {
                store->charge(fingerprint, name, entries, "PFA Explorer");
                out.stored = store->read(fingerprint);
            } catch (const std::exception& error) {
                out.error = QString::fromStdString(error.what());
            }
            return out;
        },
        [this, fingerprint, number](const ReadOutcome& out) {
            readArrived(fingerprint, number, out);
        });
}

void LedgerBook::read(const std::string& fingerprint) {
    const long covered = m_writes;  // the queue is serial: this read sees every write so far
    m_files.run(
        this,
        [store = m_store, fingerprint]() {
            LedgerBook::ReadOutcome out;
            try {
                out.stored = store->read(fingerprint);
            } catch (const std::exception& error) {
                out.error = QString::fromStdString(error.what());
            }
            return out;
        },
        [this, fingerprint, covered](const ReadOutcome& out) {
            readArrived(fingerprint, covered, out);
        });
}

void LedgerBook::readArrived(const std::string& fingerprint, long covered, const ReadOutcome& out) {
    if (!out.error.isEmpty()) {
        // Still shown as charged (pending): the runs did touch the rows.
        emit storeFailed(out.error);
        return;
    }
    Persistent& persistent = m_persistent[fingerprint];
    persistent.read = true;
    persistent.stored = out.stored;
    auto& pending = persistent.pending;
    pending.erase(std::remove_if(pending.begin(), pending.end(),
                                 [covered](const auto& p) { return p.first <= covered; }),
                  pending.end());
    emitChangedFor(fingerprint);
}

bool LedgerBook::resetPersistent(const std::string& key) {
    const std::string fingerprint = dataFingerprint(key);
    if (fingerprint.empty()) return false;
    const long covered = m_writes;
    m_files.run(
        this,
        [store = m_store, fingerprint]() -> QString {
            try {
                store->reset(fingerprint, "PFA Explorer (Privacy ledger → Reset)");
                return {};
            } catch (const std::exception& error) {
                return QString::fromStdString(error.what());
            }
        },
        [this, fingerprint, covered](const QString& error) {
            if (!error.isEmpty()) emit storeFailed(error);
            // The runs written before the reset are forgotten with the others.
            auto& pending = m_persistent[fingerprint].pending;
            pending.erase(std::remove_if(pending.begin(), pending.end(),
                                         [covered](const auto& p) { return p.first <= covered; }),
                          pending.end());
            emitChangedFor(fingerprint);
        });
    read(fingerprint);
    return true;
}

void LedgerBook::emitChangedFor(const std::string& fingerprint) {
    for (const auto& [key, known] : m_fingerprintOfKey) {
        if (known == fingerprint) emit persistentChanged(QString::fromStdString(key));
    }
}

std::optional<PersistentLedgerView> LedgerBook::persistentLedger(const std::string& key) const {
    const std::string fingerprint = dataFingerprint(key);
    if (fingerprint.empty()) return std::nullopt;
    PersistentLedgerView view;
    view.path = m_store->pathFor(fingerprint);
    const auto found = m_persistent.find(fingerprint);
    if (found == m_persistent.end()) {
        view.ledger = pfa::privacy::DatasetLedger(fingerprint, pfa::ledgerTitle(key));
        return view;
    }
    const Persistent& persistent = found->second;
    const pfa::privacy::StoredLedger& stored = persistent.stored;
    view.read = persistent.read;
    view.names = stored.names;
    view.resets = stored.resets;
    view.lastReset = stored.lastReset;
    view.forgotten = stored.forgotten;
    view.ledger = pfa::privacy::DatasetLedger(
        fingerprint, stored.names.empty() ? pfa::ledgerTitle(key) : stored.names.front());
    for (const pfa::privacy::LedgerEntry& entry : stored.ledger.entries()) view.ledger.add(entry);
    for (const auto& [number, entry] : persistent.pending) view.ledger.add(entry);
    return view;
}

std::optional<pfa::privacy::LedgerTotals> LedgerBook::currentTotals(const std::string& key) const {
    if (const std::optional<PersistentLedgerView> view = persistentLedger(key)) {
        if (view->ledger.entries().empty()) return std::nullopt;
        return view->ledger.totals();
    }
    const pfa::privacy::DatasetLedger* session = ledger(key);
    if (!session || session->entries().empty()) return std::nullopt;
    return session->totals();
}

std::function<void(const pfa::RunResult&, const pfa::RunContext&)> LedgerBook::backgroundCharger()
    const {
    return [store = m_store](const pfa::RunResult& result, const pfa::RunContext& context) {
        const std::optional<pfa::privacy::LedgerEntry> entry =
            pfa::ledgerEntryForRun(result, context, pfa::runLabel(result.config));
        if (!entry) return;
        try {
            pfa::chargeLedgerStore(*store, context, {*entry}, "PFA Explorer");
        } catch (const std::exception&) {
            // The GUI thread charges the same run again and says what went wrong.
        }
    };
}

std::function<void(const pfa::RunContext&, const std::vector<pfa::privacy::LedgerEntry>&)>
LedgerBook::backgroundEntryCharger() const {
    return [store = m_store](const pfa::RunContext& context,
                             const std::vector<pfa::privacy::LedgerEntry>& entries) {
        pfa::chargeLedgerStore(*store, context, entries, "PFA Explorer");
    };
}

const pfa::privacy::DatasetLedger* LedgerBook::ledger(const std::string& key) const {
    const auto found = m_ledgers.find(key);
    return found == m_ledgers.end() ? nullptr : &found->second;
}

std::string LedgerBook::toJson() const {
    pfa::JsonWriter json;
    json.beginArray();
    for (const auto& [key, ledger] : m_ledgers) pfa::privacy::writeLedgerJson(json, ledger);
    json.endArray();
    return json.text();
}

void LedgerBook::mergeJson(const std::string& text) {
    const pfa::JsonValue json = pfa::parseJson(text);
    std::set<std::string> grown;
    std::map<std::string, std::vector<pfa::privacy::LedgerEntry>> toWrite;
    for (const pfa::JsonValue& item : json.items()) {
        const pfa::privacy::DatasetLedger loaded = pfa::privacy::ledgerFromJson(item);
        const std::string fingerprint = dataFingerprint(loaded.key());
        for (const pfa::privacy::LedgerEntry& entry : loaded.entries()) {
            if (!addToSession(loaded.key(), entry, fingerprint)) continue;
            grown.insert(loaded.key());
            if (!fingerprint.empty()) toWrite[loaded.key()].push_back(entry);
        }
    }
    for (const auto& [key, entries] : toWrite)
        write(dataFingerprint(key), pfa::ledgerTitle(key), entries);
    for (const std::string& key : grown) emit changed(QString::fromStdString(key));
}

void LedgerBook::clear() {
    std::vector<std::string> keys;
    for (const auto& [key, ledger] : m_ledgers) keys.push_back(key);
    m_ledgers.clear();
    for (const std::string& key : keys) emit changed(QString::fromStdString(key));
}

}  // namespace pfa::ui
