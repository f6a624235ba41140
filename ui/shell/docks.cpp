#include "ui/shell/docks.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QScrollArea>

namespace pfa::ui {

QDockWidget* makeDock(QMainWindow* window, const QString& title, const char* objectName,
                      QWidget* content) {
    auto* made = new QDockWidget(title, window);
    made->setObjectName(QLatin1String(objectName));  // needed by saveState/restoreState
    made->setWidget(content);
    made->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                      QDockWidget::DockWidgetClosable);
    return made;
}

QScrollArea* scrolled(QWidget* content) {
    auto* scroll = new QScrollArea();
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    return scroll;
}

}  // namespace pfa::ui
