#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/privacy/dataset_ledger.h"
#include "core/sweep/run_record.h"
#include "core/train/run_result.h"
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

}  // namespace pfa
