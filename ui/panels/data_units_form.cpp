#include "ui/panels/data_units_form.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSignalBlocker>
#include <QSpinBox>
#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <map>

#include "core/generators/generator.h"
#include "core/generators/silo_settings.h"
#include "core/util/format.h"
#include "ui/panels/parameter_form.h"
#include "ui/panels/parameter_text.h"

namespace pfa::ui {

namespace {

QString qs(const std::string& text) { return QString::fromStdString(text); }

const pfa::ParamSpec& declared(const char* name) { return pfa::findSiloSetting(name)->knob.spec; }

/// A whole-number setting's spin box: its declared range (within a spin box's) and default.
QSpinBox* spinBox(const pfa::ParamSpec& spec) {
    auto* box = new QSpinBox();
    box->setRange(static_cast<int>(spec.min),
                  static_cast<int>(std::min(spec.max, double(INT_MAX))));
    box->setValue(std::stoi(spec.defaultValue));
    box->setKeyboardTracking(false);  // reload at a committed value, not at every keystroke
    return box;
}

/// The setting's value as the widget shows it, as text.
std::string widgetText(const QWidget* field) {
    if (auto* box = qobject_cast<const QComboBox*>(field))
        return box->currentData().toString().toStdString();
    if (auto* box = qobject_cast<const QSpinBox*>(field)) return std::to_string(box->value());
    if (auto* box = qobject_cast<const QDoubleSpinBox*>(field)) return pfa::realText(box->value());
    return {};
}

/// A column the combo box does not list yet (one of another data set: kept chosen, and the
/// load says if it is missing).
int addColumn(QComboBox* box, const QString& column) {
    box->addItem(QObject::tr("column “%1”").arg(column), column);
    return box->count() - 1;
}

/// Shows canonical text (or a session's number) in the widget; values out of its range are
/// clamped, text it cannot show is ignored.
void showText(QWidget* field, const std::string& text) {
    if (auto* box = qobject_cast<QComboBox*>(field)) {
        if (const int index = box->findData(qs(text)); index >= 0) box->setCurrentIndex(index);
        return;
    }
    double number = 0.0;
    if (!pfa::parsePortable(text, number) || std::isnan(number)) return;
    if (auto* box = qobject_cast<QSpinBox*>(field))
        box->setValue(static_cast<int>(std::clamp<double>(number, box->minimum(), box->maximum())));
    if (auto* box = qobject_cast<QDoubleSpinBox*>(field))
        box->setValue(std::clamp(number, box->minimum(), box->maximum()));
}

}  // namespace

DataUnitsForm::DataUnitsForm(QFormLayout* form, QWidget* parent) : QWidget(parent) {
    const pfa::ParamSpec& method = declared("silo-split");
    m_method = new QComboBox();
    m_method->addItem(tr("none"), QStringLiteral("none"));
    for (const pfa::ParamChoice& choice : method.choices) {
        m_method->addItem(qs(choice.label), qs(choice.value));
        m_method->setItemData(m_method->count() - 1, qs(choice.help), Qt::ToolTipRole);
    }
    m_count = spinBox(declared("silos"));
    // The declaration allows any α > 0 and ∞. The box starts at silos of one class and has no
    // upper end, so a preset's ∞ (exactly equal mixes) is shown as "inf" and kept, not
    // clamped to a large number.
    m_alpha = new QDoubleSpinBox();
    m_alpha->setRange(0.01, std::numeric_limits<double>::infinity());
    m_alpha->setDecimals(2);
    m_alpha->setSingleStep(0.1);
    m_alpha->setValue(std::stod(declared("silo-alpha").defaultValue));
    m_alpha->setKeyboardTracking(false);
    // The data's categorical columns (setColumns), after the label and the group.
    m_column = new QComboBox();
    m_column->addItem(tr("the label"), QStringLiteral("label"));
    m_column->addItem(tr("the sensitive group"), QStringLiteral("group"));
    m_column->setCurrentIndex(1);
    m_minRows = spinBox(declared("silo-min-rows"));
    m_seed = spinBox(declared("silo-seed"));
    if (form) {
        m_form = form;
        setVisible(false);  // the rows live in `form`
    } else {
        m_form = new QFormLayout(this);
        m_form->setContentsMargins(0, 0, 0, 0);
    }
    m_form->addRow(qs(method.label), m_method);  // first: the rows below depend on it
    for (const auto& [setting, field] : rows()) {
        const pfa::ParamSpec& spec = setting->knob.spec;
        field->setToolTip(parameterToolTip(spec, tr("the silo split")));
        field->setObjectName(qs(spec.name));
        if (field != m_method) m_form->addRow(qs(spec.label), field);
    }
    m_method->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_method->setMinimumContentsLength(8);
    m_column->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_column->setMinimumContentsLength(8);

    const auto changedNow = [this] {
        updateRows();
        emit changed();
    };
    for (QComboBox* box : {m_method, m_column})
        connect(box, &QComboBox::currentIndexChanged, this, changedNow);
    for (QSpinBox* box : {m_count, m_minRows, m_seed})
        connect(box, &QSpinBox::valueChanged, this, changedNow);
    connect(m_alpha, &QDoubleSpinBox::valueChanged, this, changedNow);
    updateRows();
}

std::vector<std::pair<const pfa::SiloSetting*, QWidget*>> DataUnitsForm::rows() const {
    const std::map<std::string, QWidget*> fields = {
        {"silos", m_count},        {"silo-split", m_method},     {"silo-alpha", m_alpha},
        {"silo-column", m_column}, {"silo-min-rows", m_minRows}, {"silo-seed", m_seed}};
    std::vector<std::pair<const pfa::SiloSetting*, QWidget*>> rows;
    for (const pfa::SiloSetting& setting : pfa::siloSettings())
        rows.emplace_back(&setting, fields.at(setting.name()));
    return rows;
}

void DataUnitsForm::updateRows() {
    const QString method = m_method->currentData().toString();
    // The generator's silos and a silo split of the same rows would contradict each other.
    m_method->setEnabled(!m_generatedSilos);
    const bool split = !m_generatedSilos && method != QLatin1String("none");
    for (const auto& [setting, field] : rows()) {
        if (field == m_method) continue;
        setFormRowVisible(m_form, field,
                          split && setting->goesWith(pfa::parseSiloMethod(method.toStdString())));
    }
}

void DataUnitsForm::setGeneratedSilos(bool generated) {
    if (generated == m_generatedSilos) return;
    m_generatedSilos = generated;
    updateRows();
}

void DataUnitsForm::setColumns(const QStringList& columns) {
    const QString current = m_column->currentData().toString();
    const QSignalBlocker block(m_column);
    while (m_column->count() > 2) m_column->removeItem(2);
    for (const QString& column : columns) addColumn(m_column, column);
    const int index = m_column->findData(current);
    m_column->setCurrentIndex(index >= 0 ? index : addColumn(m_column, current));
}

void DataUnitsForm::applyTo(pfa::DatasetRequest& request) const {
    const QString method = m_method->currentData().toString();
    // Data that comes in silos (the generator's) is not split into silos again.
    request.silos.reset();
    if (method == QLatin1String("none") || !pfa::generatedSilos(request).empty()) return;
    // The rows shown: the settings that go with the method. Their boxes hold the declared
    // ranges, and the column chooser a column, so the rules hold.
    std::map<std::string, std::string> given;
    for (const auto& [setting, field] : rows()) {
        if (setting->goesWith(pfa::parseSiloMethod(method.toStdString())))
            given[setting->name()] = widgetText(field);
    }
    pfa::applySiloSettings(request, given, "");
}

void DataUnitsForm::showRequest(const pfa::DatasetRequest& request) {
    QJsonObject json;
    json["silo-split"] = QStringLiteral("none");
    if (request.silos) {
        for (const auto& [setting, field] : rows())
            json[qs(setting->name())] = qs(setting->knob.get(request));
    }
    const QSignalBlocker block(this);
    fromJson(json);
}

QJsonObject DataUnitsForm::toJson() const {
    QJsonObject json;
    for (const auto& [setting, field] : rows()) {
        if (auto* box = qobject_cast<const QSpinBox*>(field))
            json[qs(setting->name())] = box->value();
        else if (auto* box = qobject_cast<const QDoubleSpinBox*>(field);
                 box && std::isfinite(box->value()))
            json[qs(setting->name())] = box->value();
        else
            json[qs(setting->name())] = qs(widgetText(field));
    }
    return json;
}

void DataUnitsForm::fromJson(const QJsonObject& json) {
    {
        const QSignalBlocker blocks[] = {QSignalBlocker(m_method),  QSignalBlocker(m_count),
                                         QSignalBlocker(m_alpha),   QSignalBlocker(m_column),
                                         QSignalBlocker(m_minRows), QSignalBlocker(m_seed)};
        // No silo split unless the session names one.
        m_method->setCurrentIndex(0);
        for (const auto& [setting, field] : rows()) {
            const QJsonValue value = savedValue(json, setting->knob.spec);
            const QString text = value.toString();  // empty unless a string
            if (field == m_column && !text.isEmpty() && m_column->findData(text) < 0)
                addColumn(m_column, text);
            if (value.isDouble())
                showText(field, pfa::realText(value.toDouble()));
            else if (value.isString())
                showText(field, text.toStdString());
        }
    }
    updateRows();
    emit changed();
}

}  // namespace pfa::ui
