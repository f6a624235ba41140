#include "ui/panels/parameter_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QJsonValue>
#include <QLabel>
#include <QLineEdit>
#include <QScopedValueRollback>
#include <QSpinBox>
#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>

#include "core/algorithms/registry.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "ui/panels/eliding_combo_box.h"
#include "ui/panels/fitting_label.h"
#include "ui/panels/parameter_text.h"

namespace pfa::ui {

namespace {

/// The widest a label may be, in average characters, before it wraps.
constexpr int kLongestLabelLine = 20;

QString qs(const std::string& text) { return QString::fromStdString(text); }

/// A spin box's unit, plural ("epochs"); its suffix shows it, singular for 1.
constexpr const char* kUnitProperty = "pfaUnit";

void showUnitSuffix(QSpinBox* box) {
    const QString unit = QStringLiteral(" ") + box->property(kUnitProperty).toString();
    const QString single = unit.endsWith(QLatin1Char('s')) ? unit.chopped(1) : unit;
    box->setSuffix(box->value() == 1 ? single : unit);
}

/// A spin box whose minimum width fits six digits (and its unit), not the ten digits of its
/// largest value: a narrow dock keeps room for the labels, and larger values still fit once
/// the dock is wider.
class CompactSpinBox : public QSpinBox {
public:
    CompactSpinBox() {
        // A spin box may not shrink below its size hint otherwise (QSizePolicy::Minimum).
        setSizePolicy(QSizePolicy::Preferred, sizePolicy().verticalPolicy());
    }

    QSize minimumSizeHint() const override {
        QSize size = QSpinBox::minimumSizeHint();
        const QFontMetrics metrics = fontMetrics();
        auto width = [&](const QString& text) {
            return metrics.horizontalAdvance(prefix() + text + suffix());
        };
        const int widest =
            std::max({width(textFromValue(minimum())), width(textFromValue(maximum())),
                      metrics.horizontalAdvance(specialValueText())});
        const int compact = std::max(width(QStringLiteral("999999")),
                                     metrics.horizontalAdvance(specialValueText()));
        if (compact < widest) size.setWidth(size.width() - widest + compact);
        return size;
    }
};

/// A label that wraps only when its line is longer than the form allows: its size hint is its
/// one-line width (up to its maximum width), where QLabel's would suggest a narrow block.
class WrappingLabel : public FittingLabel {
public:
    explicit WrappingLabel(const QString& text) : FittingLabel(text) {}

    QSize sizeHint() const override {
        const QMargins margins = contentsMargins();
        const int most = maximumWidth();
        const int oneLine = heightForWidth(most);
        int width = fontMetrics().horizontalAdvance(text()) + margins.left() + margins.right() +
                    2 * margin();
        while (width < most && heightForWidth(width) > oneLine)
            ++width;  // rounding: a pixel or two
        width = std::min(width, most);
        return fitted({width, heightForWidth(width)});
    }
};

/// A label whose short last word (a symbol: "ρ", "y*", "η_W") stays with the word before it
/// when the label wraps.
QString labelText(const std::string& label) {
    QString text = qs(label);
    const qsizetype space = text.lastIndexOf(QLatin1Char(' '));
    if (space > 0 && text.size() - space - 1 <= 3) text[space] = QChar(0x00A0);
    return text;
}

}  // namespace

ParameterForm::ParameterForm(std::vector<pfa::ParamSpec> specs, QWidget* parent,
                             const QString& readBy)
    : QWidget(parent), m_specs(std::move(specs)) {
    m_layout = new QFormLayout(this);
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_rows.reserve(m_specs.size());
    for (const pfa::ParamSpec& spec : m_specs) {
        Row row;
        row.spec = &spec;
        row.field = makeField(spec);
        row.tooltip = parameterToolTip(spec, readBy);
        row.field->setObjectName(qs(spec.name));
        row.field->setAccessibleName(qs(spec.label));
        if (spec.kind == pfa::ParamKind::Flag) {
            // A check box carries its own label and spans the row (its text may be long).
            m_layout->addRow(row.field);
        } else {
            row.label = new WrappingLabel(labelText(spec.label));
            row.label->setBuddy(row.field);
            // A long label wraps onto a second line instead of taking the fields' room: the
            // form's label column narrows with the form (QFormLayout gives a wrapping label the
            // width of the labels that fit).
            row.label->setMaximumWidth(row.label->fontMetrics().averageCharWidth() *
                                       kLongestLabelLine);
            m_layout->addRow(row.label, row.field);
        }
        m_rows.push_back(row);
        updateRowState(m_rows.back(), QString());
    }
    showConfig(pfa::TrainConfig{});
}

QWidget* ParameterForm::makeField(const pfa::ParamSpec& spec) {
    switch (spec.kind) {
        case pfa::ParamKind::Flag: {
            auto* box = new QCheckBox(qs(spec.label));
            connect(box, &QCheckBox::toggled, this, &ParameterForm::onEdited);
            return box;
        }
        case pfa::ParamKind::Choice: {
            auto* box = new ElidingComboBox();
            if (spec.hasAuto()) {
                box->addItem(tr("auto (%1)").arg(qs(spec.autoMeaning)), qs(spec.autoValue));
                box->setItemData(0, qs(spec.autoMeaning), Qt::ToolTipRole);
            }
            for (const pfa::ParamChoice& choice : spec.choices) {
                box->addItem(qs(choice.label), qs(choice.value));
                box->setItemData(box->count() - 1, qs(choice.help), Qt::ToolTipRole);
            }
            // Long item texts must not force the dock wider than a laptop screen allows.
            box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
            box->setMinimumContentsLength(8);  // longer texts end in "…"
            connect(box, &QComboBox::currentIndexChanged, this, &ParameterForm::onEdited);
            return box;
        }
        case pfa::ParamKind::Integer:
            if (parameterUsesSpinBox(spec)) {
                auto* box = new CompactSpinBox();
                double lowest = spec.min;
                if (spec.hasAuto()) {
                    parameterAutoNumber(spec, lowest);
                    box->setSpecialValueText(tr("auto"));  // what it means: in the tooltip
                }
                box->setRange(static_cast<int>(lowest),
                              static_cast<int>(std::min(spec.max, double(INT_MAX))));
                // A unit the label does not already name ("Evaluate every 2 epochs"), singular
                // for 1 ("1 epoch"); an algorithm's progress unit follows the algorithm
                // (setAlgorithm).
                if (!spec.unit.empty() &&
                    !qs(spec.label).contains(qs(spec.unit), Qt::CaseInsensitive)) {
                    box->setProperty(kUnitProperty, qs(spec.unit));
                    connect(box, &QSpinBox::valueChanged, box, [box] { showUnitSuffix(box); });
                    showUnitSuffix(box);
                }
                connect(box, &QSpinBox::valueChanged, this, &ParameterForm::onEdited);
                return box;
            }
            [[fallthrough]];
        case pfa::ParamKind::Real: {
            auto* edit = new QLineEdit();
            edit->setProperty(kNumberFieldProperty, true);
            if (spec.hasAuto()) edit->setPlaceholderText(tr("auto: %1").arg(qs(spec.autoMeaning)));
            edit->setClearButtonEnabled(spec.hasAuto());
            connect(edit, &QLineEdit::textChanged, this, &ParameterForm::onEdited);
            return edit;
        }
        case pfa::ParamKind::Text: {
            auto* edit = new QLineEdit();
            connect(edit, &QLineEdit::textChanged, this, &ParameterForm::onEdited);
            return edit;
        }
    }
    return new QWidget();
}

std::string ParameterForm::rawText(const Row& row) const {
    if (row.held) return *row.held;
    return widgetText(row);
}

std::string ParameterForm::widgetText(const Row& row) const {
    const pfa::ParamSpec& spec = *row.spec;
    if (auto* box = qobject_cast<QCheckBox*>(row.field)) return box->isChecked() ? "true" : "false";
    if (auto* box = qobject_cast<QComboBox*>(row.field))
        return box->currentData().toString().toStdString();
    if (auto* box = qobject_cast<QSpinBox*>(row.field)) {
        if (spec.hasAuto() && box->value() == box->minimum()) return "auto";
        return std::to_string(box->value());
    }
    if (auto* edit = qobject_cast<QLineEdit*>(row.field)) {
        const std::string text = edit->text().trimmed().toStdString();
        if (text.empty() && spec.hasAuto()) return "auto";
        return text;
    }
    return spec.defaultValue;
}

void ParameterForm::showText(Row& row, const std::string& text) {
    if (row.held) {
        row.held = text;  // the row's value; the widget keeps showing the forced one
        return;
    }
    displayText(row, text);
}

void ParameterForm::displayText(Row& row, const std::string& text) {
    const pfa::ParamSpec& spec = *row.spec;
    std::string canonical;
    bool valid = true;
    try {
        canonical = parseParameter(spec, text);
    } catch (const std::exception&) {
        valid = false;
    }
    const bool automatic = valid && spec.isAuto(canonical);
    // One changed() for a whole showConfig/readJson, not one per row.
    const QScopedValueRollback<bool> quiet(m_quiet, true);
    if (auto* box = qobject_cast<QCheckBox*>(row.field)) {
        box->setChecked((valid ? canonical : spec.defaultValue) == "true");
    } else if (auto* box = qobject_cast<QComboBox*>(row.field)) {
        const int index = box->findData(qs(valid ? canonical : spec.defaultValue));
        if (index >= 0) box->setCurrentIndex(index);
    } else if (auto* box = qobject_cast<QSpinBox*>(row.field)) {
        if (automatic) {
            box->setValue(box->minimum());
        } else {
            double number = 0.0;
            pfa::parsePortable(valid ? canonical : spec.defaultValue, number);
            box->setValue(
                static_cast<int>(std::clamp<double>(number, box->minimum(), box->maximum())));
        }
    } else if (auto* edit = qobject_cast<QLineEdit*>(row.field)) {
        // Text that is not valid stays as it was typed, so its problem is shown, not hidden.
        edit->setText(automatic ? QString() : qs(valid ? canonical : text));
    }
}

void ParameterForm::onEdited() {
    if (m_quiet) return;
    // A forced row edited anyway (its widget is disabled, so by code): the edit is the row's own
    // value, and the widget goes on showing the forced one.
    for (Row& row : m_rows) {
        if (row.held && row.field == sender()) {
            row.held = widgetText(row);
            displayText(row, row.forcedValue);
        }
    }
    emit changed();
}

void setFormRowVisible(QFormLayout* form, QWidget* field, bool visible) {
    // The widgets, not QFormLayout::setRowVisible: Qt 6.4 lays a form out by heights for its
    // width that leave out rows shown again that way, squeezing them to nothing (the
    // heavy-tail settings at 1280x720). Hidden widgets take no room in a form either.
    if (QWidget* label = form->labelForField(field)) label->setVisible(visible);
    field->setVisible(visible);
}

void ParameterForm::setAlgorithm(const pfa::Algorithm& algorithm) {
    const std::vector<pfa::ParamSpec>& declared = algorithm.declaredParameters();
    const QString progressUnit = qs(algorithm.capabilities().progressUnit) + QStringLiteral("s");
    for (Row& row : m_rows) {
        row.shown = std::any_of(declared.begin(), declared.end(), [&](const pfa::ParamSpec& spec) {
            return spec.name == row.spec->name;
        });
        setFormRowVisible(m_layout, row.field, row.shown);
        auto* box = qobject_cast<QSpinBox*>(row.field);
        if (row.spec->unitIsProgress && box && box->property(kUnitProperty).isValid()) {
            box->setProperty(kUnitProperty, progressUnit);
            showUnitSuffix(box);
        }
    }
}

void ParameterForm::setContext(bool isPrivate, pfa::Calibration calibration, bool fairnessOn) {
    for (Row& row : m_rows) {
        row.inapplicable =
            parameterInapplicableReason(row.spec->applies, isPrivate, calibration, fairnessOn);
        row.applies = row.inapplicable.isEmpty();
        updateRowState(row, row.inapplicable);
    }
}

void ParameterForm::updateRowState(Row& row, const QString& why) {
    // A forced value says why first (it holds only where the row has an effect).
    const QString reason = row.held && row.applies ? row.forcedWhy : why;
    const QString tip =
        reason.isEmpty()
            ? row.tooltip
            : QStringLiteral("<p><i>%1</i></p>").arg(reason.toHtmlEscaped()) + row.tooltip;
    for (QWidget* widget : {static_cast<QWidget*>(row.label), row.field}) {
        if (!widget) continue;
        widget->setEnabled(row.applies && !row.held);
        widget->setToolTip(tip);
    }
}

void ParameterForm::forceValue(const std::string& name, const std::string& value,
                               const QString& why) {
    Row* forced = row(name);
    if (!forced) return;
    if (!forced->held) forced->held = rawText(*forced);
    forced->forcedWhy = why;
    forced->forcedValue = value;
    displayText(*forced, value);
    updateRowState(*forced, forced->inapplicable);
}

void ParameterForm::releaseValue(const std::string& name) {
    Row* forced = row(name);
    if (!forced || !forced->held) return;
    const std::string own = *forced->held;
    forced->held.reset();
    forced->forcedWhy.clear();
    displayText(*forced, own);
    updateRowState(*forced, forced->inapplicable);
}

bool ParameterForm::isForced(const std::string& name) const {
    const Row* found = row(name);
    return found && found->held.has_value();
}

QString ParameterForm::applyTo(pfa::TrainConfig& config) const {
    QString problem;
    for (const Row& row : m_rows) {
        const pfa::ParamSpec& spec = *row.spec;
        const std::string text = rawText(row);
        // Only a row the user sees and can edit reports a problem: a hidden or disabled one
        // has no effect on this run, and its text is kept for when it has.
        const bool reports = row.shown && row.applies && problem.isEmpty();
        if (text.empty()) {
            if (reports) {
                problem = tr("%1 is empty: it must be %2.")
                              .arg(qs(spec.label), qs(parameterRuleWithoutAuto(spec)));
            }
            continue;
        }
        try {
            spec.set(config, pfa::parseParameter(spec, text));
        } catch (const pfa::InputError&) {
            if (!reports) continue;
            QString rule = qs(parameterRuleWithoutAuto(spec));
            if (spec.hasAuto()) rule += tr(", or empty for auto (%1)").arg(qs(spec.autoMeaning));
            problem = tr("%1 = %2 is invalid: it must be %3.").arg(qs(spec.label), qs(text), rule);
        }
    }
    return problem;
}

void ParameterForm::showConfig(const pfa::TrainConfig& config) {
    for (Row& row : m_rows) {
        const std::string text = row.spec->get(config);
        showText(row, row.spec->isAuto(text) ? "auto" : text);
    }
    emit changed();
}

void ParameterForm::writeJson(QJsonObject& json) const {
    for (const Row& row : m_rows) {
        const pfa::ParamSpec& spec = *row.spec;
        const std::string text = rawText(row);
        const QString key = qs(spec.name);
        std::string canonical;
        try {
            canonical = pfa::parseParameter(spec, text);
        } catch (const std::exception&) {
            json[key] = qs(text);  // kept as typed
            continue;
        }
        if (spec.isAuto(canonical)) {
            json[key] = QStringLiteral("auto");
            continue;
        }
        switch (spec.kind) {
            case pfa::ParamKind::Flag:
                json[key] = canonical == "true";
                break;
            case pfa::ParamKind::Choice:
            case pfa::ParamKind::Text:
                json[key] = qs(canonical);
                break;
            case pfa::ParamKind::Integer: {
                // Exact as a JSON integer while it fits one (seeds may not).
                long long whole = 0;
                const auto result =
                    std::from_chars(canonical.data(), canonical.data() + canonical.size(), whole);
                if (result.ec == std::errc() && result.ptr == canonical.data() + canonical.size()) {
                    json[key] = static_cast<qint64>(whole);
                } else {
                    json[key] = qs(canonical);
                }
                break;
            }
            case pfa::ParamKind::Real: {
                double number = 0.0;
                pfa::parsePortable(canonical, number);
                if (std::isfinite(number))
                    json[key] = number;
                else
                    json[key] = qs(canonical);  // JSON has no infinity
                break;
            }
        }
    }
}

void ParameterForm::readJson(const QJsonObject& json) {
    for (Row& row : m_rows) {
        const pfa::ParamSpec& spec = *row.spec;
        const QJsonValue value = savedValue(json, spec);
        std::string text = spec.defaultValue;  // absent: saved before the parameter existed
        if (value.isBool()) {
            text = value.toBool() ? "true" : "false";
        } else if (value.isDouble()) {
            const double number = value.toDouble();
            if (spec.kind == pfa::ParamKind::Integer && number == std::floor(number) &&
                std::fabs(number) < 0x1p63) {
                text = std::to_string(value.toInteger());
            } else {
                text = pfa::realText(number);
            }
            // The stored automatic value (δ = 0) means automatic.
            if (spec.hasAuto() && text == spec.autoValue) text = "auto";
        } else if (value.isString()) {
            text = value.toString().trimmed().toStdString();
            if (text.empty() && spec.hasAuto()) text = "auto";  // earlier sessions: δ "" = auto
        }
        if (spec.isAuto(text)) text = "auto";
        showText(row, text);
    }
    emit changed();
}

const ParameterForm::Row* ParameterForm::row(const std::string& name) const {
    for (const Row& row : m_rows) {
        if (row.spec->name == name) return &row;
    }
    return nullptr;
}

ParameterForm::Row* ParameterForm::row(const std::string& name) {
    for (Row& row : m_rows) {
        if (row.spec->name == name) return &row;
    }
    return nullptr;
}

QWidget* ParameterForm::field(const std::string& name) const {
    const Row* found = row(name);
    return found ? found->field : nullptr;
}

QLabel* ParameterForm::label(const std::string& name) const {
    const Row* found = row(name);
    return found ? found->label : nullptr;
}

bool ParameterForm::isShown(const std::string& name) const {
    const Row* found = row(name);
    return found && found->shown;
}

bool ParameterForm::hasShownRows() const {
    return std::any_of(m_rows.begin(), m_rows.end(), [](const Row& row) { return row.shown; });
}

}  // namespace pfa::ui
