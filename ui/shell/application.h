#pragma once

class QApplication;

namespace pfa::ui {

/// Application-wide setup shared by the executable and the UI tests: names used by QSettings,
/// the Fusion style and a font large enough to read on a projector.
void configureApplication(QApplication& app);

/// "0.1.0"
const char* applicationVersion();

}  // namespace pfa::ui
