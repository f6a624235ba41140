#include "ui/runs/privacy_ledger_book.h"

#include <set>

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

LedgerBook::LedgerBook(QObject* parent) : QObject(parent) {}

bool LedgerBook::chargeQuietly(const RunEntryPtr& entry, std::string* key) {
    if (!entry) return false;
    std::optional<pfa::privacy::LedgerEntry> charged =
        pfa::ledgerEntryForRun(entry->result, entry->context, ledgerLabel(*entry).toStdString());
    if (!charged) return false;
    if (entry->stoppedByUser) charged->status = "stopped";
    *key = pfa::runLedgerKey(entry->context, entry->result.dataset);
    return ledgerFor(*key).add(*charged);
}

pfa::privacy::DatasetLedger& LedgerBook::ledgerFor(const std::string& key) {
    auto found = m_ledgers.find(key);
    if (found == m_ledgers.end()) {
        found = m_ledgers.emplace(key, pfa::privacy::DatasetLedger(key, pfa::ledgerTitle(key))).first;
    }
    return found->second;
}

bool LedgerBook::charge(const RunEntryPtr& entry) {
    std::string key;
    if (!chargeQuietly(entry, &key)) return false;
    emit changed(QString::fromStdString(key));
    return true;
}

void LedgerBook::charge(const std::vector<RunEntryPtr>& entries) {
    std::set<std::string> grown;
    for (const RunEntryPtr& entry : entries) {
        std::string key;
        if (chargeQuietly(entry, &key)) grown.insert(key);
    }
    for (const std::string& key : grown) emit changed(QString::fromStdString(key));
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
    for (const pfa::JsonValue& item : json.items()) {
        const pfa::privacy::DatasetLedger loaded = pfa::privacy::ledgerFromJson(item);
        pfa::privacy::DatasetLedger& ledger = ledgerFor(loaded.key());
        for (const pfa::privacy::LedgerEntry& entry : loaded.entries()) {
            if (ledger.add(entry)) grown.insert(loaded.key());
        }
    }
    for (const std::string& key : grown) emit changed(QString::fromStdString(key));
}

void LedgerBook::clear() {
    std::vector<std::string> keys;
    for (const auto& [key, ledger] : m_ledgers) keys.push_back(key);
    m_ledgers.clear();
    for (const std::string& key : keys) emit changed(QString::fromStdString(key));
}

}  // namespace pfa::ui
