#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <string>

#include "core/config/parameters.h"

namespace pfa::ui {

// How a parameter declaration is put into words and widgets: its tooltip, its allowed values,
// why it has no effect in a context, and whether a whole number fits a spin box.

/// The number `spec` stores for "automatic" (batch size 0), when it has one.
bool parameterAutoNumber(const pfa::ParamSpec& spec, double& number);

/// Whole numbers get a spin box when their range fits one, and their automatic value (if any)
/// can be the spin box's lowest step.
bool parameterUsesSpinBox(const pfa::ParamSpec& spec);

/// The allowed values without the automatic one ("in (0, 1)").
std::string parameterRuleWithoutAuto(const pfa::ParamSpec& spec);

/// Why a parameter has no effect in this context ("… applies only with private runs (finite
/// ε)"); empty if it has.
QString parameterInapplicableReason(unsigned applies, bool isPrivate, pfa::Calibration calibration,
                                    bool fairnessOn);

/// The tooltip of a parameter (rich text): help, choices, default, allowed values and what
/// reads it (`readBy`, or the algorithms that declare it when empty).
QString parameterToolTip(const pfa::ParamSpec& spec, const QString& readBy = QString());

/// The value a saved session holds for `spec`: under its name, else under the first of its
/// former names it holds (what earlier versions wrote); undefined when under none.
QJsonValue savedValue(const QJsonObject& json, const pfa::ParamSpec& spec);

}  // namespace pfa::ui
