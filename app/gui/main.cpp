// pfa-explorer: the desktop application.
#include <QApplication>

#include "ui/shell/application.h"
#include "ui/shell/guided_tour.h"
#include "ui/shell/main_window.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    pfa::ui::configureApplication(app);
    pfa::ui::MainWindow window;
    window.show();
    pfa::ui::GuidedTour::showOnFirstLaunch(&window);  // once, unless PFA_NO_TOUR is set
    return app.exec();
}
