#pragma once

#include <QJsonObject>
#include <QString>
#include <vector>

#include "ui/runs/run_entry.h"

namespace pfa::ui {

/// Everything a session (.pfa) file holds: the experiment settings and every run with its
/// history, so an experiment can be shared and reopened.
struct SessionData {
    QJsonObject settings;
    std::vector<RunEntryPtr> runs;
    /// The privacy ledgers (LedgerBook::toJson); empty in sessions saved before ledgers.
    std::string ledgerJson;
};

/// Writes `session` as JSON (format "pfa-explorer-session", version 1). Runs are stored with
/// their full per-epoch history at full precision, so reopening gives identical numbers.
bool saveSession(const QString& path, const SessionData& session, QString* error);

/// Reads a session file; on failure returns false with a message naming the problem.
bool loadSession(const QString& path, SessionData* session, QString* error);

/// Run history as CSV (one row per run) and as JSON (an array of run records).
bool exportHistoryCsv(const QString& path, const std::vector<RunEntryPtr>& runs, QString* error);
bool exportHistoryJson(const QString& path, const std::vector<RunEntryPtr>& runs, QString* error);

}  // namespace pfa::ui
