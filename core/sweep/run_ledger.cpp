#include "core/sweep/run_ledger.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "core/data/data_directory.h"
#include "core/sweep/prepared_dataset.h"
#include "core/util/format.h"

namespace pfa {

std::string runLabel(const TrainConfig& c) {
    std::string label = c.algorithm + " " + fairnessCode(c.fairness) +
                        ", ε = " + formatNumber(c.epsilon) + ", λ = " + formatNumber(c.lambda) +
                        ", seed " + std::to_string(c.seed);
    if (c.secureNoise) label += ", secure noise";
    return label;
}

std::optional<privacy::LedgerEntry> ledgerEntryForRun(const RunResult& result,
                                                      const RunContext& context,
                                                      const std::string& label) {
    const privacy::PrivacyReport& p = result.privacy;
    if (!p.isPrivate) return std::nullopt;
    privacy::LedgerEntry entry;
    entry.runUid = runChargeId(result, context);
    entry.label = label;
    entry.status = runStatusName(result.status);
    entry.epsilon = p.epsilonSpent;
    entry.delta = p.delta;
    entry.accountingKnown = p.accountingKnown;
    entry.accounting = p.accounting;
    return entry;
}

std::string runLedgerKey(const RunContext& context, const std::string& datasetName) {
    if (!context.ledgerKey.empty()) return context.ledgerKey;
    const std::string& runKey = context.runKey;
    if (runKey.rfind("dataset=", 0) == 0) {
        return ledgerKeyFromDatasetKey(runKey.substr(8, runKey.find(";algorithm=") - 8));
    }
    return datasetName;
}

std::string runChargeId(const RunResult& result, const RunContext& context) {
    if (!result.runUid.empty()) return result.runUid;
    return "record:" + context.runKey + "#" + formatNumber(result.privacy.epsilonSpent, 17) + "#" +
           formatNumber(result.seconds, 17);
}

std::string recordLedgerKey(const JsonValue& record) {
    RunContext context;
    context.ledgerKey = record.stringOr("ledger_key", "");
    context.runKey = record.stringOr("run_key", "");
    return runLedgerKey(context, record.stringOr("dataset", "unknown"));
}

std::vector<privacy::DatasetLedger> ledgersFromRecords(const std::vector<JsonValue>& records) {
    std::vector<privacy::DatasetLedger> ledgers;
    std::map<std::string, std::size_t> index;
    for (const JsonValue& record : records) {
        RunContext context;
        RunResult result;
        try {
            result = runResultFromJson(record, &context);
        } catch (const std::exception&) {
            continue;  // not a run record
        }
        const std::optional<privacy::LedgerEntry> entry =
            ledgerEntryForRun(result, context, runLabel(result.config));
        // An auto-tuned record: its trials ran on the rows before the run it records (also when
        // no trial survived and the record's own run never ran).
        const std::vector<privacy::LedgerEntry> trials = tuningTrialEntries(record);
        if (!entry && trials.empty()) continue;
        const std::string key = runLedgerKey(context, result.dataset);
        auto found = index.find(key);
        if (found == index.end()) {
            found = index.emplace(key, ledgers.size()).first;
            ledgers.emplace_back(key, ledgerTitle(key));
        }
        for (const privacy::LedgerEntry& trial : trials) ledgers[found->second].add(trial);
        if (entry) ledgers[found->second].add(*entry);
    }
    return ledgers;
}

std::vector<privacy::LedgerEntry> tuningTrialEntries(const JsonValue& record) {
    std::vector<privacy::LedgerEntry> entries;
    if (!record.isObject() || !record.has("tuning_trials")) return entries;
    for (const JsonValue& trial : record.at("tuning_trials").items()) {
        if (!trial.has("accounting")) continue;  // not a private trial
        privacy::LedgerEntry entry = privacy::ledgerEntryFromJson(trial);
        entry.status = trial.stringOr("outcome", entry.status);
        entries.push_back(std::move(entry));
    }
    return entries;
}

std::string ledgerDirectory() {
    if (const char* folder = std::getenv("PFA_LEDGER_DIR"); folder && *folder) return folder;
    return (std::filesystem::path(userDataDirectory()) / "ledgers").string();
}

std::string ledgerNameOf(const RunContext& context) {
    return context.ledgerKey.empty() ? std::string("unnamed data") : ledgerTitle(context.ledgerKey);
}

std::size_t chargeLedgerStore(const privacy::LedgerStore& store, const RunContext& context,
                              const std::vector<privacy::LedgerEntry>& entries,
                              const std::string& source) {
    if (context.dataFingerprint.empty() || entries.empty()) return 0;
    return store.charge(context.dataFingerprint, ledgerNameOf(context), entries, source);
}

LedgerChargeBatch::LedgerChargeBatch(Charge charge, std::size_t batchSize)
    : m_charge(std::move(charge)), m_batchSize(std::max<std::size_t>(1, batchSize)) {}

LedgerChargeBatch::~LedgerChargeBatch() {
    try {
        flush();
    } catch (...) {
        // Destruction must not throw; flush() before to see the error.
    }
}

void LedgerChargeBatch::add(const RunResult& result, const RunContext& context,
                            const std::string& label) {
    std::optional<privacy::LedgerEntry> entry = ledgerEntryForRun(result, context, label);
    if (!entry) return;
    std::vector<privacy::LedgerEntry> full;
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_pending.push_back(std::move(*entry));
        if (m_pending.size() < m_batchSize) return;
        full.swap(m_pending);
    }
    m_charge(full);
}

void LedgerChargeBatch::flush() {
    std::vector<privacy::LedgerEntry> pending;
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        pending.swap(m_pending);
    }
    if (!pending.empty()) m_charge(pending);
}

}  // namespace pfa
