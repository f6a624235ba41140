#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

namespace pfa::ui {

class ExperimentPanel;
class LedgerBook;
class RunHistoryModel;

/// The session: which file it lives in, whether it has changes that are not saved, saving it
/// and opening another (experiment settings, every run with its history, the privacy ledgers),
/// and the list of recently used session files.
class SessionController : public QObject {
    Q_OBJECT
public:
    SessionController(ExperimentPanel* panel, RunHistoryModel* history, LedgerBook* ledger,
                      QObject* parent = nullptr);

    /// Writes the session to `path`, which becomes its file; false with the reason.
    bool saveTo(const QString& path, QString* error = nullptr);
    /// Replaces the session by the one in `path` (the ledgers it spent are merged, never
    /// dropped); false with the reason, the current session untouched.
    bool openFrom(const QString& path, QString* error = nullptr);

    /// The session's file ("" until it is saved or opened).
    QString path() const { return m_path; }
    /// The file name, or "untitled session".
    QString displayName() const;
    /// Something changed since the session was last saved or opened.
    bool isModified() const { return m_modified; }
    /// Runs or privacy spent that would be lost by closing now.
    bool hasUnsavedWork() const;
    /// Session files used recently, most recent first.
    QStringList recentSessions() const;

signals:
    /// Another session is about to replace this one: stop and clear what shows its runs.
    void aboutToOpen();
    /// A session was opened; its runs have ids up to `highestRunId`.
    void opened(int highestRunId);
    /// The file or the modified state changed.
    void stateChanged();
    void recentSessionsChanged();

private:
    void setModified(bool modified);
    void rememberRecent(const QString& path);

    ExperimentPanel* m_panel;
    RunHistoryModel* m_history;
    LedgerBook* m_ledger;
    QString m_path;
    bool m_modified = false;
};

}  // namespace pfa::ui
