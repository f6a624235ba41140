#include "ui/panels/experiment_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/algorithms/registry.h"
#include "core/config/config_validation.h"
#include "core/data/catalog.h"
#include "core/data/data_directory.h"
#include "core/generators/generator.h"
#include "core/sweep/sweep_spec.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "ui/panels/data_units_form.h"
#include "ui/panels/dataset_chooser.h"
#include "ui/panels/eliding_combo_box.h"
#include "ui/panels/epsilon_control.h"
#include "ui/panels/fitting_label.h"
#include "ui/panels/generator_knob_forms.h"
#include "ui/panels/lambda_control.h"
#include "ui/panels/parameter_form.h"
#include "ui/panels/sensitive_chooser.h"

namespace pfa::ui {

namespace {

/// How far the advanced section is indented under its toggle.
constexpr int kAdvancedIndent = 12;

}  // namespace

ExperimentPanel::ExperimentPanel(QWidget* parent) : QWidget(parent) {
    m_algorithm = new ElidingComboBox();
    for (const auto& algorithm : pfa::algorithmRegistry()) {
        m_algorithm->addItem(QString::fromStdString(algorithm->name()),
                             QString::fromStdString(algorithm->name()));
        m_algorithm->setItemData(m_algorithm->count() - 1,
                                 QString::fromStdString(algorithm->description()), Qt::ToolTipRole);
    }
    m_algorithm->setToolTip(
        tr("How the model is trained; hover over an entry for a one-line "
           "description"));
    m_algorithmInfo = hintLabel(QString());

    m_fairness = new ElidingComboBox();
    m_fairness->addItem(tr("Demographic parity"), QStringLiteral("dp"));
    m_fairness->addItem(tr("Equalized odds"), QStringLiteral("eo"));
    m_fairness->addItem(tr("Equal opportunity"), QStringLiteral("eopp"));
    // (Its tooltip follows the algorithm: updateAlgorithmDependentControls.)

    m_epsilon = new EpsilonControl();
    m_lambda = new LambdaControl();
    // The ε and λ spin boxes line up, one above the other.
    const int spinWidth =
        std::max(m_epsilon->spinBox()->sizeHint().width(), m_lambda->spinBox()->sizeHint().width());
    m_epsilon->spinBox()->setMinimumWidth(spinWidth);
    m_lambda->spinBox()->setMinimumWidth(spinWidth);

    // Every other parameter gets a generated row: the basic settings under ε, the advanced
    // ones (and the seed) in the collapsible section. Rows follow the declarations, so the
    // GUI offers every setting the command line does, an algorithm's own ones included.
    std::vector<pfa::ParamSpec> basic, advanced;
    for (const pfa::ParamSpec& spec : pfa::allParameters()) {
        if (spec.name == "fairness" || spec.name == "epsilon" || spec.name == "lambda")
            continue;  // above
        (spec.advanced ? advanced : basic).push_back(spec);
    }
    m_settings = new ParameterForm(std::move(basic));
    m_advancedSettings = new ParameterForm(std::move(advanced));

    m_advancedToggle = new QToolButton();
    m_advancedToggle->setText(tr("Advanced"));
    m_advancedToggle->setCheckable(true);
    m_advancedToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_advancedToggle->setArrowType(Qt::RightArrow);
    m_advancedToggle->setAutoRaise(true);
    m_advancedToggle->setToolTip(tr("Show the training hyper-parameters and the train/test split"));
    m_advanced = new QWidget();
    m_advanced->setVisible(false);
    auto* advancedLayout = new QVBoxLayout(m_advanced);
    advancedLayout->setContentsMargins(kAdvancedIndent, 0, 0, 0);
    advancedLayout->addWidget(m_advancedSettings);
    // The data set's rows: at the top of the main form, the split and silos in the advanced
    // section.
    m_chooser =
        new DatasetChooser(m_settings->formLayout(), m_advancedSettings->formLayout(), this);

    m_live = new QCheckBox(tr("Live mode: rerun while ε or λ moves"));
    m_live->setToolTip(
        tr("When on, moving the ε or λ slider stops the current run and starts "
           "a new one with the new value, so the point travels across the "
           "tradeoff chart while you drag"));

    m_problemLabel = new FittingLabel();
    m_problemLabel->setTextFormat(Qt::PlainText);  // messages quote class and group names
    m_problemLabel->setStyleSheet(QStringLiteral("color: #b00020; font-weight: 600;"));
    m_problemLabel->setVisible(false);

    // The main rows go under the data set's, above the generated settings, in the same form:
    // one label column.
    QFormLayout* form = m_settings->formLayout();
    int row = m_chooser->mainRowCount();
    form->insertRow(row++, tr("Algorithm"), m_algorithm);
    form->insertRow(row++, QString(), m_algorithmInfo);
    form->insertRow(row++, tr("Fairness"), m_fairness);
    // λ's slider spans seven decades: it gets the form's whole width under its label and spin
    // box, so that a short drag is a small step.
    m_lambda->setStacked(tr("Fairness λ"));
    form->insertRow(row++, m_lambda);
    form->insertRow(row++, tr("Privacy ε"), m_epsilon);
    // Under ε and λ, which it is about, and never scrolled out of view (the settings follow);
    // across both columns, where its text fits.
    form->insertRow(row++, m_live);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_settings);
    layout->addWidget(m_advancedToggle);
    layout->addWidget(m_advanced);
    layout->addWidget(m_problemLabel);
    layout->addStretch(1);

    connect(m_advancedToggle, &QToolButton::toggled, this, [this](bool open) {
        m_advanced->setVisible(open);
        m_advancedToggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
    });
    connect(m_chooser, &DatasetChooser::requestChanged, this, [this] {
        m_data.reset();
        m_datasetError.clear();
        emit datasetRequestChanged();
        revalidate();
    });
    connect(m_chooser, &DatasetChooser::downloadRequested, this,
            &ExperimentPanel::downloadRequested);
    connect(m_chooser, &DatasetChooser::importFolderRequested, this,
            &ExperimentPanel::importFolderRequested);
    connect(m_chooser, &DatasetChooser::importFileRequested, this,
            &ExperimentPanel::importFileRequested);
    connect(m_algorithm, &QComboBox::currentIndexChanged, this, [this] {
        updateAlgorithmDependentControls();
        revalidate();
    });
    connect(m_fairness, &QComboBox::currentIndexChanged, this, &ExperimentPanel::revalidate);
    connect(m_settings, &ParameterForm::changed, this, &ExperimentPanel::revalidate);
    connect(m_advancedSettings, &ParameterForm::changed, this, &ExperimentPanel::revalidate);
    connect(m_epsilon, &EpsilonControl::valueChanged, this, [this] {
        revalidate();
        emit liveParameterChanged();
    });
    connect(m_lambda, &LambdaControl::valueChanged, this, [this] {
        revalidate();
        emit liveParameterChanged();
    });
    // Long item texts must not force the dock wider than a laptop screen allows.
    for (QComboBox* box : {m_algorithm, m_fairness}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(13);
    }
    // The first Run's settings (pfa::firstRunConfig): a λ, epochs and step size under which the
    // built-in data shows the tradeoff plainly; saved settings replace them later.
    const pfa::TrainConfig first = pfa::firstRunConfig();
    m_algorithm->setCurrentIndex(m_algorithm->findData(QString::fromStdString(first.algorithm)));
    m_lambda->setValue(first.lambda);
    m_epsilon->setValue(first.epsilon);
    m_settings->showConfig(first);
    m_advancedSettings->showConfig(first);
    updateAlgorithmDependentControls();
    m_chooser->refreshAvailability();
    // Tab goes down the rows: the generated settings (made first) after the rows above them,
    // that is after the last control inside ε's.
    QWidget* previous = m_fairness;
    for (QWidget* widget = m_epsilon->nextInFocusChain(); m_epsilon->isAncestorOf(widget);
         widget = widget->nextInFocusChain()) {
        if (widget->focusPolicy() & Qt::TabFocus) previous = widget;
    }
    QWidget::setTabOrder(previous, m_live);
    previous = m_live;
    for (const pfa::ParamSpec& spec : m_settings->specs()) {
        QWidget* field = m_settings->field(spec.name);
        QWidget::setTabOrder(previous, field);
        previous = field;
    }
}

QSize ExperimentPanel::minimumSizeHint() const {
    QSize size = QWidget::minimumSizeHint();
    const QMargins margins = layout()->contentsMargins();
    size.setWidth(std::max(
        size.width(), m_advanced->minimumSizeHint().width() + margins.left() + margins.right()));
    return size;
}

QString ExperimentPanel::currentCatalogName() const { return m_chooser->currentCatalogName(); }

bool ExperimentPanel::catalogFilesPresent() const { return m_chooser->catalogFilesPresent(); }

void ExperimentPanel::refreshAvailability() { m_chooser->refreshAvailability(); }

void ExperimentPanel::addUserFile(const QString& path, const pfa::Schema& schema) {
    m_chooser->addUserFile(path, schema);
}

pfa::TrainConfig ExperimentPanel::config() const { return currentConfig(nullptr); }

pfa::TrainConfig ExperimentPanel::currentConfig(QString* problem) const {
    pfa::TrainConfig c;
    c.algorithm = m_algorithm->currentData().toString().toStdString();
    c.fairness = pfa::parseFairnessNotion(m_fairness->currentData().toString().toStdString());
    c.epsilon = m_epsilon->value();
    c.lambda = m_lambda->value();
    QString first = m_settings->applyTo(c);
    const QString advanced = m_advancedSettings->applyTo(c);
    if (first.isEmpty()) first = advanced;
    if (problem) *problem = first;
    // The algorithm's own parameters (defaults where unset) belong to the run's key.
    return pfa::withOwnParameters(pfa::findAlgorithm(c.algorithm), c);
}

QWidget* ExperimentPanel::parameterField(const std::string& name) const {
    if (QWidget* field = m_settings->field(name)) return field;
    return m_advancedSettings->field(name);
}

QSpinBox* ExperimentPanel::epochsBox() const {
    return qobject_cast<QSpinBox*>(parameterField("epochs"));
}
QLineEdit* ExperimentPanel::deltaEdit() const {
    return qobject_cast<QLineEdit*>(parameterField("delta"));
}
QCheckBox* ExperimentPanel::secureNoiseBox() const {
    return qobject_cast<QCheckBox*>(parameterField("secure-noise"));
}
QCheckBox* ExperimentPanel::diagnosticsBox() const {
    return qobject_cast<QCheckBox*>(parameterField("diagnostics"));
}
QComboBox* ExperimentPanel::averagingBox() const {
    return qobject_cast<QComboBox*>(parameterField("averaging"));
}
QComboBox* ExperimentPanel::wStreamBox() const {
    return qobject_cast<QComboBox*>(parameterField("w-stream"));
}
QLineEdit* ExperimentPanel::lossClipShareBox() const {
    return qobject_cast<QLineEdit*>(parameterField("loss-clip-share"));
}

pfa::DatasetRequest ExperimentPanel::datasetRequest() const { return m_chooser->request(); }

void ExperimentPanel::setSplit(const pfa::SplitOptions& split) { m_chooser->setSplit(split); }

bool ExperimentPanel::selectDataset(const pfa::DatasetRequest& request) {
    return m_chooser->select(request);
}

QString ExperimentPanel::sensitiveId() const { return m_chooser->sensitiveId(); }
QComboBox* ExperimentPanel::sensitiveBox() const { return m_chooser->sensitive()->box(); }
QToolButton* ExperimentPanel::intersectButton() const {
    return m_chooser->sensitive()->intersectButton();
}
QComboBox* ExperimentPanel::datasetBox() const { return m_chooser->datasetBox(); }
QComboBox* ExperimentPanel::splitMethodBox() const { return m_chooser->splitMethodBox(); }
QSpinBox* ExperimentPanel::splitSeedBox() const { return m_chooser->splitSeedBox(); }
QDoubleSpinBox* ExperimentPanel::testFractionBox() const { return m_chooser->testFractionBox(); }
DataUnitsForm* ExperimentPanel::unitsForm() const { return m_chooser->unitsForm(); }
GeneratorKnobForms* ExperimentPanel::generatorKnobs() const { return m_chooser->generatorKnobs(); }

bool ExperimentPanel::liveMode() const { return m_live->isChecked(); }

void ExperimentPanel::setDataset(const pfa::PreparedDatasetPtr& data) {
    m_loading = false;
    m_datasetError.clear();
    if (!data || data->key != datasetKey(datasetRequest())) return;  // an older choice
    m_data = data;
    m_chooser->showLoaded(data);
    revalidate();
}

void ExperimentPanel::setDatasetLoading() {
    m_loading = true;
    m_chooser->showLoading();
    revalidate();
}

void ExperimentPanel::setDatasetFailed(const QString& message) {
    m_loading = false;
    m_datasetError = message;
    m_chooser->showFailed();
    revalidate();
}

QString forcedAdjacencyReason(const pfa::TrainConfig& config) {
    // The rules of pfa::resolveDefaults, which apply whether or not the algorithm shows the
    // settings they read.
    if (!config.isPrivate()) return {};
    const pfa::Algorithm* algorithm = nullptr;
    try {
        algorithm = &pfa::findAlgorithm(config.algorithm);
    } catch (const pfa::InputError&) {
        return {};
    }
    if (!pfa::readsParameter(*algorithm, "adjacency")) return {};
    if (config.scope == pfa::ProtectionScope::SensitiveOnly) {
        if (!pfa::readsParameter(*algorithm, "scope")) {
            return QObject::tr(
                "Replace one: 'Protected' is set to 'Sensitive attribute only' "
                "(a setting of other algorithms, hidden for this one), and every "
                "private run with that setting is analysed under replace-one. Set "
                "it back to 'Whole records' with an algorithm that shows it.");
        }
        return QObject::tr(
            "Replace one: only the sensitive attribute is protected, so a "
            "neighbouring data set changes one record's sensitive value. Under "
            "replace-one the noise is about twice that of add/remove-one at the "
            "same ε.");
    }
    if (config.sampling && *config.sampling != pfa::Sampling::Poisson) {
        return QObject::tr(
            "Replace one: fixed-size batches (shuffled or a uniform subsample) "
            "are analysed with the number of records public, i.e. under "
            "replace-one adjacency.");
    }
    return {};
}

void ExperimentPanel::updateAlgorithmDependentControls() {
    const auto& algorithm = pfa::findAlgorithm(m_algorithm->currentData().toString().toStdString());
    m_algorithmInfo->setText(QString::fromStdString(algorithm.description()));
    m_epsilon->setPrivacyAvailable(algorithm.supportsPrivacy());
    m_lambda->setFairnessAvailable(algorithm.usesFairness());
    // Metrics of every notion are reported for classifiers; regression has no fairness notion.
    const bool regression = algorithm.capabilities().task == pfa::Task::Regression;
    m_fairness->setEnabled(!regression);
    m_fairness->setToolTip(
        regression ? tr("This algorithm fits a regression: it has no fairness notion (its runs "
                        "report the test MSE and, where known, the excess risk)")
                   : tr("Demographic parity: every group is selected at the same rate.\n"
                        "Equalized odds: equal true- and false-positive rates across groups.\n"
                        "Equal opportunity: equal true-positive rates (qualified people are "
                        "selected equally often)."));
    // The rows of the parameters the algorithm declares.
    m_settings->setAlgorithm(algorithm);
    m_advancedSettings->setAlgorithm(algorithm);
}

void ExperimentPanel::revalidate() {
    // Rows without effect in this context (δ of a non-private run, …) are disabled first: they
    // report no problem.
    {
        const pfa::TrainConfig context = config();
        for (ParameterForm* form : {m_settings, m_advancedSettings}) {
            form->setContext(context.isPrivate(), context.calibration, context.lambda > 0);
        }
        // The adjacency the run will have, where a setting decides it for the user.
        const QString forced = forcedAdjacencyReason(context);
        for (ParameterForm* form : {m_settings, m_advancedSettings}) {
            if (forced.isEmpty())
                form->releaseValue("adjacency");
            else
                form->forceValue("adjacency", "replace", forced);
        }
    }
    QString problem;
    QString formProblem;
    const pfa::TrainConfig c = currentConfig(&formProblem);
    // A typed value that is refused comes first: it is what the user just did.
    const QString epsilonProblem = m_epsilon->problem();
    if (!epsilonProblem.isEmpty()) {
        problem = epsilonProblem;
    } else if (!catalogFilesPresent()) {
        problem = tr("%1 is not downloaded yet: click Download… or Import from folder….")
                      .arg(m_chooser->datasetBox()->currentText());
    } else if (!m_datasetError.isEmpty()) {
        problem = tr("The data set could not be loaded: %1").arg(m_datasetError);
    } else if (!formProblem.isEmpty()) {
        problem = formProblem;
    } else if (const std::string delta = pfa::deltaProblem(c, "δ"); !delta.empty()) {
        // The δ field is left empty for automatic.
        problem = QString::fromStdString(delta).replace(QStringLiteral("or auto (1/n²)"),
                                                        tr("or leave it empty for auto (1/n²)")) +
                  QLatin1Char('.');
    } else if (!m_data) {
        problem = m_loading ? tr("Loading data…") : tr("Waiting for the data set…");
    } else {
        try {
            pfa::prepareRun(pfa::findAlgorithm(c.algorithm), c, m_data->split);
        } catch (const pfa::InputError& error) {
            problem = QString::fromStdString(error.what());
        }
    }
    // Notes that allow the run: the published calibration (when the algorithm reads it) and a
    // δ that is not below 1/n.
    QStringList notes;
    if (problem.isEmpty() && c.calibration == pfa::Calibration::Published && c.isPrivate() &&
        m_settings->isShown("calibration")) {
        notes << tr(
            "As published: the accountant may certify a larger ε than the nominal one; "
            "both are shown.");
    }
    if (problem.isEmpty() && m_data) {
        const std::string warning =
            pfa::deltaWarning(c, static_cast<long>(m_data->split.train.rows()), "δ");
        if (!warning.empty()) notes << tr("Warning: %1.").arg(QString::fromStdString(warning));
    }
    if (!notes.isEmpty()) {
        m_problemLabel->setStyleSheet(QStringLiteral("color: #8a5a00;"));
        m_problemLabel->setText(notes.join(QLatin1Char('\n')));
        m_problemLabel->setVisible(true);
    } else {
        m_problemLabel->setStyleSheet(QStringLiteral("color: #b00020; font-weight: 600;"));
        m_problemLabel->setText(problem);
        m_problemLabel->setVisible(!problem.isEmpty());
    }
    m_problem = problem;
    emit configChanged();
}

QJsonObject ExperimentPanel::toJson() const {
    const pfa::TrainConfig c = config();
    QJsonObject json;
    m_chooser->writeJson(json);
    json["algorithm"] = QString::fromStdString(c.algorithm);
    json["fairness"] = m_fairness->currentData().toString();
    json["epsilon"] = m_epsilon->infinityBox()->isChecked()
                          ? QJsonValue(QStringLiteral("inf"))
                          : QJsonValue(m_epsilon->spinBox()->value());
    json["lambda"] = c.lambda;
    // Every other parameter under its declared name.
    m_settings->writeJson(json);
    m_advancedSettings->writeJson(json);
    json["live_mode"] = liveMode();
    return json;
}

void ExperimentPanel::fromJson(const QJsonObject& json) {
    auto select = [](QComboBox* box, const QJsonValue& value) {
        const int index = box->findData(value.toString());
        if (index >= 0) box->setCurrentIndex(index);
    };
    m_chooser->readJson(json);  // the data is reloaded once, below
    select(m_algorithm, json["algorithm"]);
    select(m_fairness, json["fairness"]);
    if (json.contains("epsilon")) {
        m_epsilon->setValue(json["epsilon"].isString() ? INFINITY : json["epsilon"].toDouble(1.0));
    }
    if (json.contains("lambda")) m_lambda->setValue(json["lambda"].toDouble(1.0));
    {
        // Also under the parameters' former names (sessions of earlier versions); revalidated
        // once, below.
        const QSignalBlocker blockSettings(m_settings), blockAdvanced(m_advancedSettings);
        m_settings->readJson(json);
        m_advancedSettings->readJson(json);
    }
    m_live->setChecked(json["live_mode"].toBool(false));
    updateAlgorithmDependentControls();
    emit datasetRequestChanged();
    revalidate();
}

}  // namespace pfa::ui
