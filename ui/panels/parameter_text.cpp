#include "ui/panels/parameter_text.h"

#include <QObject>
#include <QStringList>
#include <climits>

#include "core/algorithms/registry.h"
#include "core/util/format.h"

namespace pfa::ui {

namespace {

QString qs(const std::string& text) { return QString::fromStdString(text); }

QString html(const std::string& text) { return qs(text).toHtmlEscaped(); }

std::string choiceLabel(const pfa::ParamSpec& spec, const std::string& value) {
    for (const pfa::ParamChoice& choice : spec.choices) {
        if (choice.value == value) return choice.label;
    }
    return value;
}

std::string defaultText(const pfa::ParamSpec& spec) {
    if (spec.isAuto(spec.defaultValue)) return "auto (" + spec.autoMeaning + ")";
    switch (spec.kind) {
        case pfa::ParamKind::Flag:
            return spec.defaultValue == "true" ? "on" : "off";
        case pfa::ParamKind::Choice:
            return choiceLabel(spec, spec.defaultValue);
        case pfa::ParamKind::Text:
            return spec.defaultValue.empty() ? "none" : spec.defaultValue;
        default:
            return pfa::valueWithUnit(spec, spec.defaultValue);
    }
}

}  // namespace

/// The number `spec` stores for "automatic" (batch size 0), when it has one.
bool parameterAutoNumber(const pfa::ParamSpec& spec, double& number) {
    return spec.hasAuto() && spec.autoByNumber && pfa::parsePortable(spec.autoValue, number);
}

/// Whole numbers get a spin box when their range fits one, and their automatic value (if any)
/// can be the spin box's lowest step.
bool parameterUsesSpinBox(const pfa::ParamSpec& spec) {
    if (spec.kind != pfa::ParamKind::Integer) return false;
    if (!(spec.min >= INT_MIN && spec.max <= INT_MAX)) return false;
    if (!spec.hasAuto()) return true;
    double number = 0.0;
    return parameterAutoNumber(spec, number) && number <= spec.min && number >= INT_MIN;
}

/// The allowed values without the automatic one ("in (0, 1)").
std::string parameterRuleWithoutAuto(const pfa::ParamSpec& spec) {
    pfa::ParamSpec plain = spec;
    plain.autoMeaning.clear();
    return pfa::parameterRule(plain);
}

/// Why a parameter has no effect in this context ("private runs (finite ε)"); empty if it has.
QString parameterInapplicableReason(unsigned applies, bool isPrivate, pfa::Calibration calibration,
                                    bool fairnessOn) {
    QStringList needs;
    if ((applies & pfa::AppliesPrivate) && !isPrivate)
        needs << QObject::tr("private runs (finite ε)");
    if ((applies & pfa::AppliesConservative) && calibration != pfa::Calibration::Conservative) {
        needs << QObject::tr("the conservative calibration");
    }
    if ((applies & pfa::AppliesPublished) && calibration != pfa::Calibration::Published) {
        needs << QObject::tr("the published calibration");
    }
    if ((applies & pfa::AppliesFairness) && !fairnessOn)
        needs << QObject::tr("a fairness weight λ > 0");
    if (needs.isEmpty()) return {};
    return QObject::tr("Has no effect now: it applies only with %1.")
        .arg(needs.join(QObject::tr(" and ")));
}

QString parameterToolTip(const pfa::ParamSpec& spec, const QString& readBy) {
    QString tip = QStringLiteral("<p><b>%1</b>: %2.</p>").arg(html(spec.label), html(spec.help));
    if (spec.kind == pfa::ParamKind::Choice) {
        tip += QStringLiteral("<ul style=\"margin-left: 12px; -qt-list-indent: 0;\">");
        if (spec.hasAuto())
            tip += QStringLiteral("<li><b>auto</b>: %1</li>").arg(html(spec.autoMeaning));
        for (const pfa::ParamChoice& choice : spec.choices) {
            tip +=
                QStringLiteral("<li><b>%1</b>: %2</li>").arg(html(choice.label), html(choice.help));
        }
        tip += QStringLiteral("</ul>");
    }
    tip += QStringLiteral("<p>") + QObject::tr("Default: %1.").arg(html(defaultText(spec)));
    if (spec.kind == pfa::ParamKind::Real || spec.kind == pfa::ParamKind::Integer) {
        tip += QStringLiteral(" ") +
               QObject::tr("Allowed: %1").arg(html(parameterRuleWithoutAuto(spec)));
        if (spec.hasAuto()) {
            tip += parameterUsesSpinBox(spec)
                       ? QObject::tr(", or auto (%1: the lowest step)").arg(html(spec.autoMeaning))
                       : QObject::tr("; empty = auto (%1)").arg(html(spec.autoMeaning));
        }
        tip += QStringLiteral(".");
    }
    tip += QStringLiteral("</p><p>") +
           QObject::tr("Read by: %1. Command line, presets and sessions: <code>%2</code>.")
               .arg(readBy.isEmpty() ? html(pfa::algorithmsReading(spec.name))
                                     : readBy.toHtmlEscaped(),
                    html(spec.name)) +
           QStringLiteral("</p>");
    return tip;
}

QJsonValue savedValue(const QJsonObject& json, const pfa::ParamSpec& spec) {
    QJsonValue value = json.value(QString::fromStdString(spec.name));
    for (const std::string& former : spec.formerNames) {
        if (!value.isUndefined()) break;
        value = json.value(QString::fromStdString(former));
    }
    return value;
}

}  // namespace pfa::ui
