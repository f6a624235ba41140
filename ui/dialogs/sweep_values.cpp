#include "ui/dialogs/sweep_values.h"

#include <QDateTime>
#include <QDir>
#include <QObject>
#include <QStringList>
#include <cmath>

#include "core/config/train_config.h"
#include "core/data/data_directory.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "core/util/number_list.h"

namespace pfa::ui::sweep_values {

QString newResultsFile(const QString& stem) {
    return QDir(QString::fromStdString(pfa::userDataDirectory()))
        .filePath(QStringLiteral("sweeps/%1-%2.jsonl")
                      .arg(stem, QDateTime::currentDateTime().toString(
                                     QStringLiteral("yyyyMMdd-HHmmss"))));
}

QString joinNumbers(const std::vector<double>& values) {
    QStringList parts;
    for (double v : values)
        parts << (std::isinf(v) ? QStringLiteral("inf")
                                : QString::fromStdString(pfa::formatNumber(v, 6)));
    return parts.join(QStringLiteral(", "));
}

std::vector<double> logSpaced(double from, double to, int count) {
    std::vector<double> values;
    for (int i = 0; i < count; ++i) {
        const double raw =
            std::exp(std::log(from) + (std::log(to) - std::log(from)) * i / (count - 1));
        const double power = std::pow(10.0, std::floor(std::log10(raw)) - 1);
        values.push_back(std::round(raw / power) * power);  // two significant digits
    }
    return values;
}

std::vector<double> parseList(const QString& text, const QString& what, bool allowInfinity,
                              QString* problem) {
    try {
        return pfa::parseNumberList(text.toStdString(), allowInfinity);
    } catch (const pfa::InputError& error) {
        if (problem->isEmpty()) {
            *problem = QObject::tr("%1: %2.").arg(what, QString::fromStdString(error.what()));
        }
        return {};
    }
}

pfa::SweepAxis parseAxis(const QString& parameter, const QString& text, QString* problem) {
    pfa::SweepAxis axis;
    axis.parameter = parameter.toStdString();
    if (!pfa::isChoiceSweepParameter(axis.parameter)) {
        axis.values = parseList(text, parameter, false, problem);
        return axis;
    }
    // A choice setting (e.g. the trust model): its values' names, each checked.
    for (const QString& item : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const std::string name = item.trimmed().toStdString();
        try {
            pfa::TrainConfig probe;
            pfa::applySweepParameter(probe, axis.parameter, name);
            axis.choices.push_back(name);
        } catch (const pfa::InputError& error) {
            if (problem->isEmpty())
                *problem =
                    QObject::tr("%1: %2.").arg(parameter, QString::fromStdString(error.what()));
        }
    }
    if (axis.choices.empty() && problem->isEmpty())
        *problem = QObject::tr("%1: give at least one value.").arg(parameter);
    return axis;
}

QString axisText(const pfa::SweepAxis& axis) {
    if (axis.choices.empty()) return joinNumbers(axis.values);
    QStringList names;
    for (const std::string& choice : axis.choices) names << QString::fromStdString(choice);
    return names.join(QStringLiteral(","));
}

QString expansionText(const QString& text, const std::vector<double>& values) {
    if (values.empty() || !pfa::numberListHasGenerator(text.toStdString()))
        return QObject::tr(
            "Numbers, or log:FROM:TO:COUNT / lin:FROM:TO:COUNT for COUNT spaced values");
    // Long grids: the first and last few, which is what tells whether the range is right.
    QStringList shown;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (values.size() > 12 && i == 5) shown << QStringLiteral("…");
        if (values.size() <= 12 || i < 5 || i + 3 >= values.size()) {
            // Six digits as in joinNumbers: 4-digit values print as they are, 10000 not as 1e+04.
            shown << QString::fromStdString(pfa::formatNumber(values[i], 6));
        }
    }
    return QObject::tr("= %1 (%2 values)").arg(shown.join(QStringLiteral(", "))).arg(values.size());
}

}  // namespace pfa::ui::sweep_values
