#pragma once

#include <QString>

class QDockWidget;
class QMainWindow;
class QScrollArea;
class QWidget;

namespace pfa::ui {

/// A movable, floatable, closable dock of `window` titled `title` holding `content`;
/// `objectName` lets the window save and restore its place (saveState, restoreState).
QDockWidget* makeDock(QMainWindow* window, const QString& title, const char* objectName,
                      QWidget* content);

/// `content` in a frameless scroll area that resizes it.
QScrollArea* scrolled(QWidget* content);

}  // namespace pfa::ui
