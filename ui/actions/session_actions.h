#pragma once

#include <QObject>

class QAction;
class QMenu;
class QWidget;

namespace pfa::ui {

class SessionController;

/// The File menu's session entries — Open session…, Open recent, Save session, Save session
/// as… — and the question before closing with unsaved runs: the file dialogs and messages
/// over the SessionController.
class SessionActions : public QObject {
    Q_OBJECT
public:
    /// `window` parents the dialogs.
    SessionActions(SessionController* session, QWidget* window);

    /// Adds the session entries to `menu`.
    void fillMenu(QMenu* menu);
    /// Asks whether to save a session with unsaved runs before closing; false when the user
    /// cancels (or the save did not happen).
    bool mayClose();

    /// Asks as mayClose does (the runs would be replaced), then offers the file dialog.
    void openSession();
    /// Opens the session in `path` (Open recent), after asking as mayClose does; false when
    /// the user cancelled or the file could not be opened (a message said why).
    bool openSessionFile(const QString& path);
    void saveSession();
    void saveSessionAs();

private:
    /// Save / Discard / Cancel for unsaved runs, asked as `question`; true to go on.
    bool mayReplace(const QString& question);
    /// Opens `path` without asking; a message says why it could not.
    bool load(const QString& path);
    void rebuildRecentMenu();

    SessionController* m_session;
    QWidget* m_window;
    QMenu* m_recent = nullptr;
};

}  // namespace pfa::ui
