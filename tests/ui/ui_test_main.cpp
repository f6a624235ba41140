// Catch2 runner for the UI tests: one QApplication on the offscreen platform, settings in
// Qt's test locations so the user's own settings are never touched.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <QApplication>
#include <QStandardPaths>
#include <QTemporaryDir>

#include "../core/test_skip.h"
#include "ui/shell/application.h"

PFA_REGISTER_SKIP_REPORTER()

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    // Downloads and imports go to a throw-away data folder, never the user's.
    QTemporaryDir dataHome;
    qputenv("XDG_DATA_HOME", dataHome.path().toUtf8());
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    pfa::ui::configureApplication(app);
    QApplication::setOrganizationName(QStringLiteral("PFA Explorer Tests"));
    return Catch::Session().run(argc, argv);
}
