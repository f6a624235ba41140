#include "ui/shell/about_text.h"

#include <Eigen/Core>
#include <QObject>
#include <QtGlobal>

#include "core/algorithms/registry.h"
#include "core/util/build_info.h"
#include "ui/shell/application.h"

namespace pfa::ui {

QString aboutText() {
    QString algorithms;
    for (const auto& algorithm : pfa::algorithmRegistry()) {
        algorithms += QStringLiteral("<li><b>%1</b>: %2</li>")
                          .arg(QString::fromStdString(algorithm->name()).toHtmlEscaped(),
                               QString::fromStdString(algorithm->description()).toHtmlEscaped());
    }
    return QObject::tr(
               "<h3>PFA Explorer %1</h3>"
               "<p>Explore the tradeoff between privacy, fairness and accuracy, with privacy "
               "accounting by a Rényi-DP accountant. Algorithms:</p><ul>%2</ul>"
               "<p>Qt %3 (built with %4), Eigen %5.%6.%7, C++ %8</p>")
        .arg(QString::fromStdString(pfa::versionString()).toHtmlEscaped(), algorithms,
             QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR))
        .arg(EIGEN_WORLD_VERSION)
        .arg(EIGEN_MAJOR_VERSION)
        .arg(EIGEN_MINOR_VERSION)
        .arg(__cplusplus);
}

}  // namespace pfa::ui
