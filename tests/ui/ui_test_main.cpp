// Catch2 runner for the UI tests: one QApplication on the offscreen platform, settings in
// Qt's test locations so the user's own settings are never touched.
#include <QApplication>
#include <QDir>
#include <QStandardPaths>
#include <QTemporaryDir>

#include "../core/catch_session.h"
#include "private_home.h"
#include "ui/shell/application.h"

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    // A home of its own for each test process: Qt's test-mode settings and data folders
    // (~/.qttest/…) and the XDG folders are then never shared with a test program running
    // beside it, nor with the user's. Downloads and imports go to the throw-away data folder.
    QTemporaryDir home;
    pfa::test::usePrivateHome(home);
    // Tests run as separate processes in any order, and many save a screenshot: the folder
    // exists before the first one does, whichever it is.
    QDir().mkpath(QStringLiteral(PFA_SCREENSHOT_DIR));
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    pfa::ui::configureApplication(app);
    QApplication::setOrganizationName(QStringLiteral("PFA Explorer Tests"));
    return pfa::test::runCatchSession(argc, argv);
}
