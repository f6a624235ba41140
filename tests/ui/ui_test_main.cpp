// Catch2 runner for the UI tests: one QApplication on the offscreen platform, settings in
// Qt's test locations so the user's own settings are never touched.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <QApplication>
#include <QStandardPaths>

#include "ui/application.h"

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    pfa::ui::configureApplication(app);
    QApplication::setOrganizationName(QStringLiteral("PFA Explorer Tests"));
    return Catch::Session().run(argc, argv);
}
