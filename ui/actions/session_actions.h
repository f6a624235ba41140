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

    void openSession();
    void saveSession();
    void saveSessionAs();

private:
    void openSessionFile(const QString& path);
    void rebuildRecentMenu();

    SessionController* m_session;
    QWidget* m_window;
    QMenu* m_recent = nullptr;
};

}  // namespace pfa::ui
