#include "ui/controllers/session_controller.h"

#include <QFileInfo>
#include <QSettings>
#include <algorithm>

#include "ui/panels/experiment_panel.h"
#include "ui/runs/privacy_ledger_book.h"
#include "ui/runs/run_history_model.h"
#include "ui/runs/session_file.h"

namespace pfa::ui {

namespace {

constexpr int kMaxRecent = 8;
const QString kRecentKey = QStringLiteral("recentSessions");

}  // namespace

SessionController::SessionController(ExperimentPanel* panel, RunHistoryModel* history,
                                     LedgerBook* ledger, QObject* parent)
    : QObject(parent), m_panel(panel), m_history(history), m_ledger(ledger) {
    // New, deleted or restored runs and privacy spent are what a session saves.
    connect(m_history, &RunHistoryModel::entriesChanged, this, [this] { setModified(true); });
    connect(m_ledger, &LedgerBook::changed, this, [this] { setModified(true); });
}

QString SessionController::displayName() const {
    return m_path.isEmpty() ? tr("untitled session") : QFileInfo(m_path).fileName();
}

bool SessionController::hasUnsavedWork() const {
    return m_modified && (m_history->rowCount() > 0 || !m_ledger->ledgers().empty());
}

bool SessionController::saveTo(const QString& path, QString* error) {
    SessionData session;
    session.settings = m_panel->toJson();
    session.runs = m_history->entries();
    session.ledgerJson = m_ledger->toJson();
    QString problem;
    if (!saveSession(path, session, &problem)) {
        if (error) *error = problem;
        return false;
    }
    m_path = path;
    rememberRecent(path);
    setModified(false);
    emit stateChanged();
    return true;
}

bool SessionController::openFrom(const QString& path, QString* error) {
    SessionData session;
    QString problem;
    if (!loadSession(path, &session, &problem)) {
        if (error) *error = problem;
        return false;
    }
    emit aboutToOpen();
    m_panel->fromJson(session.settings);
    m_history->setEntries(session.runs);
    // What this session spent stays charged; the opened session's ledgers join it (sessions
    // saved before ledgers existed: their runs are charged).
    if (!session.ledgerJson.empty()) {
        try {
            m_ledger->mergeJson(session.ledgerJson);
        } catch (const std::exception& damaged) {
            if (error)
                *error = tr("the privacy ledger in %1 is damaged: %2").arg(path, damaged.what());
            return false;
        }
    }
    m_ledger->charge(session.runs);
    int highestRunId = 0;
    for (const RunEntryPtr& run : session.runs) highestRunId = std::max(highestRunId, run->id);
    m_path = path;
    rememberRecent(path);
    setModified(false);
    emit stateChanged();
    emit opened(highestRunId);
    return true;
}

QStringList SessionController::recentSessions() const {
    return QSettings().value(kRecentKey).toStringList();
}

void SessionController::rememberRecent(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent) recent.removeLast();
    settings.setValue(kRecentKey, recent);
    emit recentSessionsChanged();
}

void SessionController::setModified(bool modified) {
    if (m_modified == modified) return;
    m_modified = modified;
    emit stateChanged();
}

}  // namespace pfa::ui
