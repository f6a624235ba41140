// pfa-explorer: the desktop application.
#include <QApplication>

#include "ui/shell/application.h"
#include "ui/shell/main_window.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    pfa::ui::configureApplication(app);
    pfa::ui::MainWindow window;
    window.show();
    return app.exec();
}
