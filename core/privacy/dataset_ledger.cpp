#include "core/privacy/dataset_ledger.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/privacy/accounting_json.h"
#include "core/util/format.h"

namespace pfa::privacy {

DatasetLedger::DatasetLedger(std::string key, std::string title)
    : m_key(std::move(key)), m_title(std::move(title)) {}

bool DatasetLedger::add(const LedgerEntry& entry) {
    if (!m_runUids.insert(entry.runUid).second) return false;
    m_entries.push_back(entry);
    m_totals.reset();
    return true;
}

LedgerTotals DatasetLedger::totals() const {
    if (!m_totals) m_totals = computeTotals();
    return *m_totals;
}

LedgerTotals DatasetLedger::computeTotals() const {
    LedgerTotals totals;
    totals.order = std::numeric_limits<double>::quiet_NaN();
    totals.runs = m_entries.size();
    if (m_entries.empty()) return totals;
    // Every curve on the standard grid, whatever grid the run reported with: the curves are
    // recomputed from their inputs, so composition never mixes grids.
    const OrderGrid grid = OrderGrid::standard();
    PrivacyLedger composed(grid);
    double legacyEpsilon = 0.0, legacyDelta = 0.0, rdpDelta = 0.0;
    // Runs that drew one shared Poisson sample are one mechanism (sharedBatchesCurve), in
    // order of their first entry.
    std::vector<std::pair<std::string, std::vector<AccountingInputs>>> shared;
    // Per group: the Σ of its runs' own ε and δ (in the simple sum until the group replaces it).
    std::vector<std::pair<double, double>> sharedOwn;
    for (const LedgerEntry& entry : m_entries) {
        totals.naiveEpsilon += entry.epsilon;
        totals.naiveDelta += entry.delta;
        if (!entry.accountingKnown) {
            legacyEpsilon += entry.epsilon;
            legacyDelta += entry.delta;
            ++totals.withoutCurve;
            continue;
        }
        rdpDelta = std::max(rdpDelta, entry.accounting.delta);
        const std::string& sample = entry.accounting.sharedBatches;
        if (!sample.empty()) {
            auto group = std::find_if(shared.begin(), shared.end(),
                                      [&](const auto& g) { return g.first == sample; });
            if (group == shared.end()) {
                group = shared.insert(shared.end(), {sample, {}});
                sharedOwn.emplace_back(0.0, 0.0);
            }
            group->second.push_back(entry.accounting);
            auto& own = sharedOwn[static_cast<std::size_t>(group - shared.begin())];
            own.first += entry.epsilon;
            own.second += entry.delta;
            continue;
        }
        composed.addRun(runCurve(grid, entry.accounting), 0.0, entry.accounting.pureEpsilon(), 0.0);
    }
    for (std::size_t g = 0; g < shared.size(); ++g) {
        const std::vector<AccountingInputs>& runs = shared[g].second;
        double pure = 0.0;
        for (const AccountingInputs& run : runs) pure += run.pureEpsilon();
        // The name says which settings drew the sample, not which rows: runs on other rows of
        // the same size (another split) share the name without sharing the sample. The larger
        // of the joint and the independent composition is valid either way.
        RdpCurve curve = sharedBatchesCurve(grid, runs);
        RdpCurve independent(grid.size(), 0.0);
        for (const AccountingInputs& run : runs) {
            const RdpCurve own = runCurve(grid, run);
            for (std::size_t k = 0; k < independent.size(); ++k) independent[k] += own[k];
        }
        for (std::size_t k = 0; k < curve.size(); ++k)
            curve[k] = std::max(curve[k], independent[k]);
        composed.addRun(curve, 0.0, pure, 0.0);
        // Simple addition holds only between mechanisms with independent randomness: runs that
        // shared a sample are one mechanism, counted once at its own ε (at the Σδ of its runs),
        // never as the sum of their ε, which can be smaller than the joint ε.
        PrivacyLedger group(grid);
        group.addRun(curve, 0.0, pure, 0.0);
        totals.naiveEpsilon += group.total(sharedOwn[g].second).epsilon - sharedOwn[g].first;
        totals.sharedSamples += 1;
        totals.runsSharingSamples += runs.size();
    }
    if (composed.runCount() > 0) {
        const EpsilonResult rdp = composed.total(rdpDelta);
        totals.epsilon = rdp.epsilon;
        totals.order = rdp.order;
    }
    totals.epsilon += legacyEpsilon;
    totals.delta = rdpDelta + legacyDelta;
    return totals;
}

void writeLedgerEntryJson(JsonWriter& json, const LedgerEntry& entry) {
    json.beginObject();
    json.key("run_uid").value(entry.runUid);
    json.key("label").value(entry.label);
    json.key("status").value(entry.status);
    json.key("epsilon").value(entry.epsilon);
    json.key("delta").value(entry.delta);
    if (entry.accountingKnown) {
        json.key("accounting");
        writeAccountingJson(json, entry.accounting);
    }
    json.endObject();
}

LedgerEntry ledgerEntryFromJson(const JsonValue& json) {
    LedgerEntry entry;
    entry.runUid = json.at("run_uid").asString();
    entry.label = json.stringOr("label", "");
    entry.status = json.stringOr("status", "");
    entry.epsilon = json.at("epsilon").asNumber();
    entry.delta = json.at("delta").asNumber();
    entry.accountingKnown = json.has("accounting");
    if (entry.accountingKnown) entry.accounting = accountingFromJson(json.at("accounting"));
    return entry;
}

void writeLedgerJson(JsonWriter& json, const DatasetLedger& ledger) {
    json.beginObject();
    json.key("key").value(ledger.key());
    json.key("title").value(ledger.title());
    json.key("entries").beginArray();
    for (const LedgerEntry& entry : ledger.entries()) writeLedgerEntryJson(json, entry);
    json.endArray();
    json.endObject();
}

DatasetLedger ledgerFromJson(const JsonValue& json) {
    DatasetLedger ledger(json.at("key").asString(), json.stringOr("title", ""));
    for (const JsonValue& item : json.at("entries").items()) ledger.add(ledgerEntryFromJson(item));
    return ledger;
}

std::string describeTotals(const LedgerTotals& t) {
    if (t.runs == 0) return "nothing spent yet (no private run on this data set)";
    std::string text = "ε = " + formatNumber(t.epsilon) + " at δ = " + formatNumber(t.delta, 3) +
                       " by RDP composition of " + std::to_string(t.runs) + " run" +
                       (t.runs == 1 ? "" : "s");
    if (t.withoutCurve > 0) {
        text += " (" + std::to_string(t.withoutCurve) + " from older records added as (ε, δ))";
    }
    if (t.sharedSamples > 0) {
        text += " (" + std::to_string(t.runsSharingSamples) + " of them charged as " +
                std::to_string(t.sharedSamples) + " mechanism" + (t.sharedSamples == 1 ? "" : "s") +
                " of runs that shared batches)";
    }
    text += "; Σε = " + formatNumber(t.naiveEpsilon) + ", Σδ = " + formatNumber(t.naiveDelta, 3) +
            " by simple addition" +
            (t.sharedSamples > 0 ? std::string(" (each group that shared batches counted once)")
                                 : std::string());
    return text;
}

}  // namespace pfa::privacy
