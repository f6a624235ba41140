#pragma once

#include <QString>

namespace pfa::ui {

/// The Help → About text: what the program does, every algorithm of the registry with its
/// one-line description (so a new algorithm appears without touching the window), and the
/// versions it was built with.
QString aboutText();

}  // namespace pfa::ui
