#include "ui/actions/session_actions.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QMenu>
#include <QMessageBox>
#include <QTextDocument>

#include "ui/controllers/session_controller.h"

namespace pfa::ui {

SessionActions::SessionActions(SessionController* session, QWidget* window)
    : QObject(window), m_session(session), m_window(window) {
    connect(session, &SessionController::recentSessionsChanged, this,
            &SessionActions::rebuildRecentMenu);
}

void SessionActions::fillMenu(QMenu* menu) {
    menu->addAction(tr("&Open session…"), this, &SessionActions::openSession)
        ->setShortcut(QKeySequence::Open);
    m_recent = menu->addMenu(tr("Open &recent"));
    menu->addAction(tr("&Save session"), this, &SessionActions::saveSession)
        ->setShortcut(QKeySequence::Save);
    menu->addAction(tr("Save session &as…"), this, &SessionActions::saveSessionAs)
        ->setShortcut(QKeySequence::SaveAs);
    rebuildRecentMenu();
}

bool SessionActions::mayClose() {
    return mayReplace(
        tr("This session has runs that are not saved. Save them before closing? "
           "(The privacy they spent stays in the data set's privacy ledger either "
           "way: discarding refunds nothing.)"));
}

bool SessionActions::mayReplace(const QString& question) {
    if (!m_session->hasUnsavedWork()) return true;
    const auto answer = QMessageBox::question(
        m_window, tr("Unsaved runs"), question,
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Save) {
        saveSession();
        return !m_session->isModified();  // still modified: the save was cancelled or failed
    }
    return true;
}

namespace {

QString openQuestion() {
    return SessionActions::tr(
        "This session has runs that are not saved. Save them before "
        "opening another session? (Privacy already spent stays in the data "
        "set's privacy ledger either way: discarding refunds nothing.)");
}

}  // namespace

void SessionActions::openSession() {
    // Asked first, as before closing: the file dialog comes only when the runs are safe.
    if (!mayReplace(openQuestion())) return;
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open session"), QString(),
                                                      tr("PFA Explorer sessions (*.pfa)"));
    if (!path.isEmpty()) load(path);
}

bool SessionActions::openSessionFile(const QString& path) {
    if (!mayReplace(openQuestion())) return false;
    return load(path);
}

void SessionActions::saveSession() {
    if (m_session->path().isEmpty()) {
        saveSessionAs();
        return;
    }
    QString error;
    if (!m_session->saveTo(m_session->path(), &error))
        QMessageBox::warning(m_window, tr("Save session"),
                             Qt::convertFromPlainText(error, Qt::WhiteSpaceNormal));
}

void SessionActions::saveSessionAs() {
    const QString path = QFileDialog::getSaveFileName(
        m_window, tr("Save session"),
        m_session->path().isEmpty() ? tr("experiment.pfa") : m_session->path(),
        tr("PFA Explorer sessions (*.pfa)"));
    if (path.isEmpty()) return;
    QString error;
    if (!m_session->saveTo(path.endsWith(QLatin1String(".pfa")) ? path : path + ".pfa", &error)) {
        QMessageBox::warning(m_window, tr("Save session"),
                             Qt::convertFromPlainText(error, Qt::WhiteSpaceNormal));
    }
}

bool SessionActions::load(const QString& path) {
    QString error;
    if (m_session->openFrom(path, &error)) return true;
    QMessageBox::warning(m_window, tr("Open session"),
                         Qt::convertFromPlainText(error, Qt::WhiteSpaceNormal));
    return false;
}

void SessionActions::rebuildRecentMenu() {
    if (!m_recent) return;
    m_recent->clear();
    const QStringList recent = m_session->recentSessions();
    for (const QString& path : recent) {
        m_recent
            ->addAction(QFileInfo(path).fileName(), this, [this, path] { openSessionFile(path); })
            ->setToolTip(Qt::convertFromPlainText(path, Qt::WhiteSpaceNormal));
    }
    m_recent->setEnabled(!recent.isEmpty());
}

}  // namespace pfa::ui
