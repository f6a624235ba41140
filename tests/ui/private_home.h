#pragma once
// A home of its own for a program run beside others (the UI tests, pfa-gui-bench): HOME and the
// XDG folders point into `home`, so Qt's test-mode settings and data folders (~/.qttest/…), the
// XDG folders and the user's own are never shared. Call before the QApplication exists.
#include <QDir>
#include <QString>
#include <QTemporaryDir>
#include <QtGlobal>

namespace pfa::test {

inline void usePrivateHome(const QTemporaryDir& home) {
    qputenv("HOME", home.path().toUtf8());
    for (const char* name :
         {"XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"}) {
        const QString folder = home.filePath(QLatin1String(name));
        QDir().mkpath(folder);
        qputenv(name, folder.toUtf8());
    }
}

}  // namespace pfa::test
