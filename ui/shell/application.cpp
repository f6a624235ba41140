#include "ui/shell/application.h"

#include <QApplication>
#include <QFont>
#include <QIcon>
#include <QStyleFactory>
#include <clocale>

#include "ui/support/wheel_guard.h"

// Q_INIT_RESOURCE must be used outside any namespace.
static void initialisePfaResources() { Q_INIT_RESOURCE(pfa); }

namespace pfa::ui {

const char* applicationVersion() { return PFA_VERSION; }

void configureApplication(QApplication& app) {
    // QApplication adopts the user's C locale; numbers in records, statements and run keys must
    // not turn into "0,5" under a decimal-comma locale (the GUI formats its own numbers with
    // QLocale where it means to).
    std::setlocale(LC_NUMERIC, "C");
    QApplication::setOrganizationName("PFA Explorer");
    QApplication::setApplicationName("PFA Explorer");
    QApplication::setApplicationVersion(applicationVersion());
    // Resources live in the static pfa_ui library: register them explicitly.
    initialisePfaResources();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/pfa-explorer.svg")));
    app.setStyle(QStyleFactory::create("Fusion"));
    // Readable from the back of a lecture hall, still compact on a laptop.
    QFont font = QApplication::font();
    if (font.pointSizeF() < 10.5) font.setPointSizeF(10.5);
    QApplication::setFont(font);
    // Scrolling the settings panel must not change ε, λ or any other value under the mouse.
    app.installEventFilter(new WheelGuard(&app));
}

}  // namespace pfa::ui
