// pfa-explorer: the desktop application.
#include <QApplication>

#include "core/util/build_info.h"
#include "ui/shell/application.h"
#include "ui/shell/guided_tour.h"
#include "ui/shell/main_window.h"

const char* pfaBuildCommit();  // generated (app/build_commit.cmake)

int main(int argc, char** argv) {
    pfa::setBuildCommit(pfaBuildCommit());
    QApplication app(argc, argv);
    pfa::ui::configureApplication(app);
    pfa::ui::MainWindow window;
    window.show();
    pfa::ui::GuidedTour::showOnFirstLaunch(&window);  // once, unless PFA_NO_TOUR is set
    return app.exec();
}
