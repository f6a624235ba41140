#include "ui/panels/generator_knob_forms.h"

#include <QFormLayout>
#include <QLabel>
#include <QTimer>

#include "core/config/parameters.h"
#include "core/generators/generator.h"
#include "ui/panels/fitting_label.h"
#include "ui/panels/parameter_form.h"

namespace pfa::ui {

namespace {

/// A knob's declaration as a form row: its value lives in a scratch TrainConfig's `extra`
/// (ownParameter), which carries it between the form and the request.
std::vector<pfa::ParamSpec> rowSpecs(const pfa::DataGenerator& generator, bool advanced) {
    std::vector<pfa::ParamSpec> specs;
    for (const pfa::GeneratorKnob& knob : generator.knobs) {
        if (knob.spec.advanced == advanced) specs.push_back(pfa::ownParameter(knob.spec));
    }
    return specs;
}

/// The generator's knobs of `request` as a scratch configuration for its forms.
pfa::TrainConfig knobConfig(const pfa::DataGenerator& generator,
                            const pfa::DatasetRequest& request) {
    pfa::TrainConfig config;
    for (const pfa::GeneratorKnob& knob : generator.knobs)
        config.extra[knob.spec.name] = knob.get(request);
    return config;
}

}  // namespace

GeneratorKnobForms::GeneratorKnobForms(QFormLayout* mainForm, int mainRow,
                                       QFormLayout* advancedForm, QObject* parent)
    : QObject(parent) {
    m_commit = new QTimer(this);
    m_commit->setSingleShot(true);
    m_commit->setInterval(400);
    connect(m_commit, &QTimer::timeout, this, &GeneratorKnobForms::changed);
    for (const pfa::DataGenerator& generator : pfa::dataGenerators()) {
        const QString readBy = tr("the %1 data set").arg(QString::fromStdString(generator.name));
        Forms forms;
        forms.generator = generator.name;
        forms.main = new ParameterForm(rowSpecs(generator, false), nullptr, readBy);
        forms.advanced = new ParameterForm(rowSpecs(generator, true), nullptr, readBy);
        forms.main->setObjectName(QString::fromStdString(generator.name + "-knobs"));
        forms.advanced->setObjectName(QString::fromStdString(generator.name + "-advanced-knobs"));
        mainForm->insertRow(mainRow++, forms.main);
        // The advanced knobs under a title of their own: they shape the generated rows.
        forms.title = new QLabel(tr("<b>Generated data</b>"));
        forms.title->setToolTip(
            QString::fromStdString(generator.title + ": " + generator.description));
        advancedForm->addRow(forms.title);
        advancedForm->addRow(forms.advanced);
        forms.title->setVisible(false);
        for (ParameterForm* form : {forms.main, forms.advanced}) {
            form->setVisible(false);
            // Dependent rows and the note follow at once; the data is generated after a pause.
            connect(form, &ParameterForm::changed, this, [this] {
                updateNote();
                m_commit->start();
            });
        }
        m_forms.push_back(forms);
    }
    m_note = new FittingLabel();  // wraps; no height-for-width in the form (fitting_label.h)
    m_note->setTextFormat(Qt::PlainText);
    m_note->setObjectName(QStringLiteral("generator-note"));
    QPalette palette = m_note->palette();
    palette.setColor(QPalette::WindowText, QColor(90, 90, 90));
    m_note->setPalette(palette);
    m_note->setVisible(false);
    mainForm->insertRow(mainRow, m_note);
}

const GeneratorKnobForms::Forms* GeneratorKnobForms::formsOf(const std::string& generator) const {
    for (const Forms& forms : m_forms) {
        if (forms.generator == generator) return &forms;
    }
    return nullptr;
}

void GeneratorKnobForms::setGenerator(const std::string& name) {
    m_current = name;
    for (const Forms& forms : m_forms) {
        const bool shown = forms.generator == name;
        forms.main->setVisible(shown && forms.main->hasShownRows());
        const bool advancedShown = shown && forms.advanced->hasShownRows();
        forms.advanced->setVisible(advancedShown);
        forms.title->setVisible(advancedShown);
    }
    updateNote();
}

QString GeneratorKnobForms::applyTo(pfa::DatasetRequest& request) const {
    const pfa::DataGenerator* generator = pfa::findGenerator(request.name);
    const Forms* forms = formsOf(request.name);
    if (!generator || !forms) return {};
    pfa::TrainConfig config = knobConfig(*generator, request);
    QString problem = forms->main->applyTo(config);
    const QString advancedProblem = forms->advanced->applyTo(config);
    if (problem.isEmpty()) problem = advancedProblem;
    for (const pfa::GeneratorKnob& knob : generator->knobs)
        knob.set(request, config.extra.at(knob.spec.name));
    // A knob whose companion is zero (the users' skew without users) keeps its default, as the
    // command line requires.
    for (const pfa::GeneratorKnob& knob : generator->knobs) {
        if (pfa::unmetNeed(request, knob)) knob.set(request, knob.spec.defaultValue);
    }
    return problem;
}

void GeneratorKnobForms::showRequest(const pfa::DatasetRequest& request) {
    const pfa::DataGenerator* generator = pfa::findGenerator(request.name);
    const Forms* forms = formsOf(request.name);
    if (!generator || !forms) return;
    const pfa::TrainConfig config = knobConfig(*generator, request);
    const QSignalBlocker blockMain(forms->main), blockAdvanced(forms->advanced);
    forms->main->showConfig(config);
    forms->advanced->showConfig(config);
    updateNote();
}

void GeneratorKnobForms::writeJson(QJsonObject& json) const {
    for (const Forms& forms : m_forms) {
        forms.main->writeJson(json);
        forms.advanced->writeJson(json);
    }
}

void GeneratorKnobForms::readJson(const QJsonObject& json) {
    // Earlier sessions kept the heavy-tailed knobs in the object presets once used (its former
    // names) and the synthetic users and silos in "units", spelt with underscores
    // ("synthetic_users"): read those first, the knobs' own names over them.
    const QJsonObject units = json.value(QLatin1String("units")).toObject();
    for (const Forms& forms : m_forms) {
        const pfa::DataGenerator* generator = pfa::findGenerator(forms.generator);
        QJsonObject own;
        if (!generator->formerPresetObject.empty()) {
            const QJsonObject earlier =
                json.value(QString::fromStdString(generator->formerPresetObject)).toObject();
            for (auto it = earlier.begin(); it != earlier.end(); ++it) {
                if (const pfa::GeneratorKnob* knob = generator->findKnob(it.key().toStdString()))
                    own.insert(QString::fromStdString(knob->spec.name), it.value());
            }
        }
        for (const pfa::GeneratorKnob& knob : generator->knobs) {
            const QString name = QString::fromStdString(knob.spec.name);
            QString underscored = name;
            underscored.replace(QLatin1Char('-'), QLatin1Char('_'));
            if (units.contains(underscored)) own.insert(name, units.value(underscored));
            if (json.contains(name)) own.insert(name, json.value(name));
        }
        const QSignalBlocker blockMain(forms.main), blockAdvanced(forms.advanced);
        forms.main->readJson(own);
        forms.advanced->readJson(own);
    }
    updateNote();
}

QWidget* GeneratorKnobForms::field(const std::string& name) const {
    for (const Forms& forms : m_forms) {
        for (ParameterForm* form : {forms.main, forms.advanced}) {
            if (QWidget* widget = form->field(name)) return widget;
        }
    }
    return nullptr;
}

QString GeneratorKnobForms::noteText() const { return m_note->text(); }

void GeneratorKnobForms::updateNote() {
    const pfa::DataGenerator* generator = pfa::findGenerator(m_current);
    const Forms* forms = formsOf(m_current);
    if (!generator || !forms) {
        m_note->clear();
        m_note->setVisible(false);
        return;
    }
    pfa::DatasetRequest request;
    request.name = m_current;
    applyTo(request);
    // A knob whose companion is zero shows its default, disabled, saying what it needs.
    for (const pfa::GeneratorKnob& knob : generator->knobs) {
        if (knob.needs.empty()) continue;
        ParameterForm* form = knob.spec.advanced ? forms->advanced : forms->main;
        if (const pfa::GeneratorKnob* needed = pfa::unmetNeed(request, knob)) {
            if (!form->isForced(knob.spec.name)) {
                form->forceValue(
                    knob.spec.name, knob.spec.defaultValue,
                    tr("Needs %1 above 0.").arg(QString::fromStdString(needed->spec.label)));
            }
        } else {
            form->releaseValue(knob.spec.name);
        }
    }
    m_note->setVisible(static_cast<bool>(generator->note));
    m_note->setText(generator->note ? QString::fromStdString(generator->note(request)) : QString());
}

}  // namespace pfa::ui
