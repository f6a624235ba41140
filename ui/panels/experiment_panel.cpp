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
#include "ui/panels/eliding_combo_box.h"
#include "ui/panels/epsilon_control.h"
#include "ui/panels/generator_knob_forms.h"
#include "ui/panels/lambda_control.h"
#include "ui/panels/parameter_form.h"
#include "ui/panels/sensitive_chooser.h"

namespace pfa::ui {

namespace {

/// How far the advanced section is indented under its toggle.
constexpr int kAdvancedIndent = 12;

/// A word-wrapped label that always gets the height its text needs at its width. A form whose
/// labels wrap too (the generated rows' labels) underestimates the height of wrapped text in
/// its field column, and the lines of the data set's and the algorithm's descriptions were
/// cut off.
class FittingLabel : public QLabel {
public:
    explicit FittingLabel(const QString& text = QString()) : QLabel(text) { setWordWrap(true); }

protected:
    void resizeEvent(QResizeEvent* event) override {
        QLabel::resizeEvent(event);
        const int needed = text().isEmpty() ? 0 : heightForWidth(width());
        if (needed != minimumHeight()) setMinimumHeight(needed);
    }
};

QLabel* hint(const QString& text) {
    auto* label = new FittingLabel(text);
    label->setTextFormat(Qt::PlainText);  // group names, file names: never markup
    QPalette palette = label->palette();
    palette.setColor(QPalette::WindowText, QColor(90, 90, 90));
    label->setPalette(palette);
    return label;
}

}  // namespace

ExperimentPanel::ExperimentPanel(QWidget* parent) : QWidget(parent) {
    m_dataset = new ElidingComboBox();
    for (const pfa::DataGenerator& generator : pfa::dataGenerators()) {
        m_dataset->addItem(tr("%1 (built-in)").arg(QString::fromStdString(generator.title)),
                           QString::fromStdString(generator.name));
        m_dataset->setItemData(m_dataset->count() - 1,
                               QString::fromStdString(generator.description), Qt::ToolTipRole);
    }
    for (const pfa::CatalogEntry& entry : pfa::datasetCatalog()) {
        m_dataset->addItem(QString::fromStdString(entry.title), QString::fromStdString(entry.name));
        m_dataset->setItemData(m_dataset->count() - 1, QString::fromStdString(entry.description),
                               Qt::ToolTipRole);
    }
    m_dataset->setToolTip(
        tr("The data to learn from: the built-in synthetic lending task, a "
           "standard fairness benchmark (downloaded on demand from its original "
           "source, checksums verified), or your own file"));
    m_sensitive = new SensitiveChooser();
    m_download = new QPushButton(tr("Download…"));
    m_download->setToolTip(
        tr("Download this data set from its original source into your data "
           "folder; every file's SHA-256 checksum is verified"));
    m_importFolder = new QPushButton(tr("Import from folder…"));
    m_importFolder->setToolTip(
        tr("Use files you already have: choose their folder; their "
           "checksums are verified, then they are copied into your data folder"));
    m_importFile = new QPushButton(tr("Your own file…"));
    m_importFile->setToolTip(
        tr("Import a CSV, TSV or ARFF file: choose the target, the "
           "sensitive column(s) and the columns to use"));
    m_datasetInfo = hint(QString());

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
    m_algorithmInfo = hint(QString());

    m_fairness = new ElidingComboBox();
    m_fairness->addItem(tr("Demographic parity"), QStringLiteral("dp"));
    m_fairness->addItem(tr("Equalized odds"), QStringLiteral("eo"));
    m_fairness->addItem(tr("Equal opportunity"), QStringLiteral("eopp"));
    m_fairness->setToolTip(
        tr("Demographic parity: every group is selected at the same rate.\n"
           "Equalized odds: equal true- and false-positive rates across groups.\n"
           "Equal opportunity: equal true-positive rates (qualified people are "
           "selected equally often)."));

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
    const pfa::SplitOptions splitDefaults;
    m_splitMethod = new ElidingComboBox();
    m_splitMethod->addItem(tr("random (seeded)"),
                           QString::fromStdString(pfa::splitMethodName(pfa::SplitMethod::Seeded)));
    m_splitMethod->addItem(
        tr("as pandas DataFrame.sample — reproduces published splits"),
        QString::fromStdString(pfa::splitMethodName(pfa::SplitMethod::PandasSample)));
    m_splitMethod->setToolTip(
        tr("How the rows are divided into training and test rows.\n"
           "Random (seeded): PFA Explorer's own seeded shuffle.\n"
           "As pandas: exactly the rows pandas' DataFrame.sample(frac = 1 − test share, "
           "random_state = split seed) picks for training, on the data file's rows in order — "
           "the split of experiments published that way (DP-FERMI: split seed 100). The split "
           "can change fairness gaps noticeably on small data sets."));
    m_splitSeed = new QSpinBox();
    m_splitSeed->setRange(0, std::numeric_limits<int>::max());
    m_splitSeed->setValue(static_cast<int>(splitDefaults.seed));
    m_splitSeed->setToolTip(
        tr("Seed of the train/test split (pandas: its random_state). Changing "
           "it reloads the data with other training rows."));
    m_testFraction = new QDoubleSpinBox();
    m_testFraction->setDecimals(3);
    m_testFraction->setRange(0.01, 0.99);
    m_testFraction->setSingleStep(0.05);
    m_testFraction->setValue(splitDefaults.testFraction);
    m_testFraction->setToolTip(
        tr("Share of the rows held out for testing; the model never sees "
           "them during training"));
    // Reload only when a value is committed, not at every keystroke.
    m_splitSeed->setKeyboardTracking(false);
    m_testFraction->setKeyboardTracking(false);
    // The split's rows follow the generated ones in the same form, so their columns line up.
    QFormLayout* advancedForm = m_advancedSettings->formLayout();
    advancedForm->addRow(tr("Split"), m_splitMethod);
    advancedForm->addRow(tr("Split seed"), m_splitSeed);
    advancedForm->addRow(tr("Test share"), m_testFraction);
    auto* advancedLayout = new QVBoxLayout(m_advanced);
    advancedLayout->setContentsMargins(kAdvancedIndent, 0, 0, 0);
    advancedLayout->addWidget(m_advancedSettings);
    // Users and silos of the data, under the split they follow, in the same form.
    auto* unitsTitle = new QLabel(tr("<b>Users and silos</b>"));
    unitsTitle->setToolTip(
        tr("Who the rows belong to and who holds them, for algorithms that protect "
           "a whole person or a whole institution; the data-set card shows them"));
    advancedForm->addRow(unitsTitle);
    m_units = new DataUnitsForm(advancedForm, m_advanced);
    const int knobRow = 4;  // under the data set's rows, above the algorithm (below)

    m_live = new QCheckBox(tr("Live mode: rerun while ε or λ moves"));
    m_live->setToolTip(
        tr("When on, moving the ε or λ slider stops the current run and starts "
           "a new one with the new value, so the point travels across the "
           "tradeoff chart while you drag"));

    m_problemLabel = new FittingLabel();
    m_problemLabel->setTextFormat(Qt::PlainText);  // messages quote class and group names
    m_problemLabel->setStyleSheet(QStringLiteral("color: #b00020; font-weight: 600;"));
    m_problemLabel->setVisible(false);

    // One above the other: side by side, the three would make the panel wider than a dock
    // beside the charts on a 1280-pixel screen.
    auto* datasetButtons = new QVBoxLayout();
    datasetButtons->setSpacing(2);
    for (QPushButton* button : {m_download, m_importFolder, m_importFile})
        datasetButtons->addWidget(button, 0, Qt::AlignLeft);
    // The main rows go above the generated settings, in the same form: one label column.
    QFormLayout* form = m_settings->formLayout();
    int row = 0;
    form->insertRow(row++, tr("Data set"), m_dataset);
    form->insertRow(row++, tr("Sensitive"), m_sensitive);
    form->insertRow(row++, QString(), datasetButtons);
    form->insertRow(row++, QString(), m_datasetInfo);
    form->insertRow(row++, tr("Algorithm"), m_algorithm);
    form->insertRow(row++, QString(), m_algorithmInfo);
    form->insertRow(row++, tr("Fairness"), m_fairness);
    form->insertRow(row++, tr("Fairness λ"), m_lambda);
    form->insertRow(row++, tr("Privacy ε"), m_epsilon);
    // Under ε and λ, which it is about, and never scrolled out of view (the settings follow);
    // across both columns, where its text fits.
    form->insertRow(row++, m_live);
    // The chosen generator's knobs under the data set's rows; its advanced ones (seed, people,
    // silos) under "Users and silos".
    m_knobs = new GeneratorKnobForms(form, knobRow, advancedForm, this);
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
    connect(m_download, &QPushButton::clicked, this,
            [this] { emit downloadRequested(currentCatalogName()); });
    connect(m_importFolder, &QPushButton::clicked, this,
            [this] { emit importFolderRequested(currentCatalogName()); });
    connect(m_importFile, &QPushButton::clicked, this, &ExperimentPanel::importFileRequested);
    connect(m_dataset, &QComboBox::currentIndexChanged, this,
            &ExperimentPanel::onDatasetChoiceChanged);
    connect(m_sensitive, &SensitiveChooser::changed, this, [this] {
        m_data.reset();
        emit datasetRequestChanged();
        revalidate();
    });
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
    connect(m_splitMethod, &QComboBox::currentIndexChanged, this, &ExperimentPanel::onSplitChanged);
    connect(m_splitSeed, &QSpinBox::valueChanged, this, &ExperimentPanel::onSplitChanged);
    connect(m_testFraction, &QDoubleSpinBox::valueChanged, this, &ExperimentPanel::onSplitChanged);
    connect(m_units, &DataUnitsForm::changed, this, &ExperimentPanel::onSplitChanged);
    connect(m_knobs, &GeneratorKnobForms::changed, this, &ExperimentPanel::onSplitChanged);
    // Long item texts must not force the dock wider than a laptop screen allows.
    for (QComboBox* box : {m_dataset, m_algorithm, m_fairness, m_splitMethod}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(14);
    }
    m_splitMethod->setMinimumContentsLength(8);  // in the advanced section, as its generated rows
    // The first Run's settings (pfa::firstRunConfig): a λ, epochs and step size under which the
    // built-in data shows the tradeoff plainly; saved settings replace them later.
    const pfa::TrainConfig first = pfa::firstRunConfig();
    m_algorithm->setCurrentIndex(m_algorithm->findData(QString::fromStdString(first.algorithm)));
    m_lambda->setValue(first.lambda);
    m_epsilon->setValue(first.epsilon);
    m_settings->showConfig(first);
    m_advancedSettings->showConfig(first);
    updateAlgorithmDependentControls();
    onDatasetChoiceChanged();
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

QString ExperimentPanel::currentCatalogName() const {
    const QString data = m_dataset->currentData().toString();
    if (pfa::findGenerator(data.toStdString()) || data.startsWith(QLatin1String("file:"))) {
        return {};
    }
    return data;
}

bool ExperimentPanel::catalogFilesPresent() const {
    const QString name = currentCatalogName();
    if (name.isEmpty()) return true;
    const pfa::CatalogEntry& entry = pfa::findCatalogEntry(name.toStdString());
    const QDir directory(QString::fromStdString(pfa::catalogDatasetDirectory(entry.name)));
    for (const pfa::DatasetFile& file : entry.files) {
        if (!QFileInfo::exists(directory.filePath(QString::fromStdString(file.name)))) return false;
    }
    return true;
}

void ExperimentPanel::onDatasetChoiceChanged() {
    const QString catalog = currentCatalogName();
    const QString data = m_dataset->currentData().toString();
    if (!catalog.isEmpty()) {
        m_sensitive->showCatalog(catalog);
    } else if (const pfa::DataGenerator* generator = pfa::findGenerator(data.toStdString())) {
        m_sensitive->showFixed(generator->task == pfa::GeneratorTask::Regression
                                   ? tr("none (regression data)")
                                   : tr("group (A majority / B minority)"));
    } else {
        const std::size_t index = data.mid(5).toULong();
        QString columns;
        if (index < m_userFiles.size()) {
            QStringList names;
            for (const std::string& c : m_userFiles[index].schema.sensitive)
                names << QString::fromStdString(c);
            columns = names.join(QStringLiteral(" & "));
        }
        m_sensitive->showFixed(columns);
    }
    m_download->setVisible(!catalog.isEmpty());
    m_importFolder->setVisible(!catalog.isEmpty());
    m_knobs->setGenerator(data.toStdString());
    updateGeneratedSilos();
    refreshAvailability();
}

void ExperimentPanel::refreshAvailability() {
    m_data.reset();
    m_datasetError.clear();
    const QString catalog = currentCatalogName();
    const bool present = catalogFilesPresent();
    m_download->setEnabled(!present);
    if (!present) {
        const pfa::CatalogEntry& entry = pfa::findCatalogEntry(catalog.toStdString());
        std::uint64_t bytes = 0;
        for (const pfa::DatasetFile& file : entry.files) bytes += file.bytes;
        m_datasetInfo->setText(
            tr("Not downloaded yet (%1 MB): Download… fetches it from its source, "
               "Import from folder… uses files you already have.")
                .arg(static_cast<double>(bytes) / 1e6, 0, 'f', 1));
    }
    emit datasetRequestChanged();
    revalidate();
}

void ExperimentPanel::addUserFile(const QString& path, const pfa::Schema& schema) {
    m_userFiles.push_back({path, schema});
    const QString key = QStringLiteral("file:%1").arg(m_userFiles.size() - 1);
    m_dataset->addItem(tr("Your file: %1").arg(QFileInfo(path).fileName()), key);
    m_dataset->setItemData(m_dataset->count() - 1,
                           Qt::convertFromPlainText(path, Qt::WhiteSpaceNormal), Qt::ToolTipRole);
    m_dataset->setCurrentIndex(m_dataset->count() - 1);
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

pfa::DatasetRequest ExperimentPanel::datasetRequest() const {
    pfa::DatasetRequest request;
    request.split.method =
        pfa::parseSplitMethod(m_splitMethod->currentData().toString().toStdString());
    request.split.seed = static_cast<std::uint64_t>(m_splitSeed->value());
    request.split.testFraction = m_testFraction->value();
    const QString data = m_dataset->currentData().toString();
    if (data.startsWith(QLatin1String("file:"))) {
        const std::size_t index = data.mid(5).toULong();
        if (index < m_userFiles.size()) {
            request.name = "file";
            request.filePath = m_userFiles[index].path.toStdString();
            request.schema = m_userFiles[index].schema;
        }
        m_units->applyTo(request);
        return request;
    }
    request.name = data.toStdString();
    m_knobs->applyTo(request);
    if (!currentCatalogName().isEmpty()) {
        request.sensitive = sensitiveId().toStdString();
        request.dataDirectory = pfa::catalogDatasetDirectory(request.name);
    }
    m_units->applyTo(request);
    return request;
}

void ExperimentPanel::setSplit(const pfa::SplitOptions& split) {
    {
        const QSignalBlocker blockMethod(m_splitMethod), blockSeed(m_splitSeed),
            blockShare(m_testFraction);
        m_splitMethod->setCurrentIndex(
            m_splitMethod->findData(QString::fromStdString(pfa::splitMethodName(split.method))));
        m_splitSeed->setValue(static_cast<int>(std::min<std::uint64_t>(
            split.seed, static_cast<std::uint64_t>(std::numeric_limits<int>::max()))));
        m_testFraction->setValue(split.testFraction);
    }
    onSplitChanged();
}

bool ExperimentPanel::selectDataset(const pfa::DatasetRequest& request) {
    const int index = m_dataset->findData(QString::fromStdString(request.name));
    if (index < 0) return false;
    m_dataset->setCurrentIndex(index);  // offers that data set's sensitive choices
    m_knobs->showRequest(request);
    const QString sensitiveBefore = sensitiveId();
    m_sensitive->selectId(QString::fromStdString(request.sensitive));
    if (sensitiveId() != sensitiveBefore) {
        m_data.reset();
        emit datasetRequestChanged();
        revalidate();
    }
    m_units->showRequest(request);  // a preset's silos and synthetic users (loaded with the split)
    setSplit(request.split);        // e.g. the published split a preset reproduces
    return true;
}

QString ExperimentPanel::sensitiveId() const { return m_sensitive->id(); }
QComboBox* ExperimentPanel::sensitiveBox() const { return m_sensitive->box(); }
QToolButton* ExperimentPanel::intersectButton() const { return m_sensitive->intersectButton(); }

void ExperimentPanel::updateGeneratedSilos() {
    // A generator's silos and a silo split of the same rows would contradict each other: with
    // generated silos the split is off.
    pfa::DatasetRequest request;
    request.name = m_dataset->currentData().toString().toStdString();
    m_knobs->applyTo(request);
    m_units->setGeneratedSilos(!pfa::generatedSilos(request).empty());
}

void ExperimentPanel::onSplitChanged() {
    updateGeneratedSilos();
    // Other training rows: the loaded data no longer applies.
    m_data.reset();
    emit datasetRequestChanged();
    revalidate();
}

bool ExperimentPanel::liveMode() const { return m_live->isChecked(); }

void ExperimentPanel::setDataset(const pfa::PreparedDatasetPtr& data) {
    m_loading = false;
    m_datasetError.clear();
    if (!data || data->key != datasetKey(datasetRequest())) return;  // an older choice
    m_data = data;
    {
        // The columns a silo split may follow: the data's categorical ones.
        QStringList columns;
        for (const std::string& column : data->split.encoding.categoricalColumns)
            columns << QString::fromStdString(column);
        m_units->setColumns(columns);
    }
    const pfa::Dataset& train = data->split.train;
    m_datasetInfo->setText(tr("%1 training rows, %2 test rows, %3 features; sensitive "
                              "attribute “%4”: %5")
                               .arg(train.rows())
                               .arg(data->split.test.rows())
                               .arg(train.features())
                               .arg(QString::fromStdString(train.sensitiveDescription))
                               .arg(QString::fromStdString([&] {
                                   std::string names;
                                   for (const std::string& g : train.groupNames) {
                                       names += (names.empty() ? "" : ", ") + g;
                                   }
                                   return names;
                               }())));
    revalidate();
}

void ExperimentPanel::setDatasetLoading() {
    m_loading = true;
    m_datasetInfo->setText(tr("Loading data…"));
    revalidate();
}

void ExperimentPanel::setDatasetFailed(const QString& message) {
    m_loading = false;
    m_datasetError = message;
    m_datasetInfo->setText(QString());
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
    m_fairness->setEnabled(true);  // metrics of every notion are always reported
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
                      .arg(m_dataset->currentText());
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
    json["dataset"] = m_dataset->currentData().toString();
    json["sensitive"] = sensitiveId();
    QJsonArray files;
    for (const UserFile& file : m_userFiles) {
        QJsonObject item;
        item["path"] = file.path;
        item["schema"] =
            QJsonDocument::fromJson(QByteArray::fromStdString(pfa::schemaToJson(file.schema)))
                .object();
        files.append(item);
    }
    json["user_files"] = files;
    json["algorithm"] = QString::fromStdString(c.algorithm);
    json["fairness"] = m_fairness->currentData().toString();
    json["epsilon"] = m_epsilon->infinityBox()->isChecked()
                          ? QJsonValue(QStringLiteral("inf"))
                          : QJsonValue(m_epsilon->spinBox()->value());
    json["lambda"] = c.lambda;
    // Every other parameter under its declared name.
    m_settings->writeJson(json);
    m_advancedSettings->writeJson(json);
    json["split_method"] = m_splitMethod->currentData().toString();
    json["split_seed"] = m_splitSeed->value();
    json["test_fraction"] = m_testFraction->value();
    json["units"] = m_units->toJson();
    m_knobs->writeJson(json);  // each generator knob under its name
    json["live_mode"] = liveMode();
    return json;
}

void ExperimentPanel::fromJson(const QJsonObject& json) {
    auto select = [](QComboBox* box, const QJsonValue& value) {
        const int index = box->findData(value.toString());
        if (index >= 0) box->setCurrentIndex(index);
    };
    // Own files first, so that a session's "file:N" choice exists before it is selected.
    for (const QJsonValue& item : json["user_files"].toArray()) {
        const QString path = item["path"].toString();
        const QByteArray schema =
            QJsonDocument(item["schema"].toObject()).toJson(QJsonDocument::Compact);
        try {
            const pfa::Schema parsed = pfa::schemaFromJson(pfa::parseJson(schema.toStdString()));
            const bool known =
                std::any_of(m_userFiles.begin(), m_userFiles.end(), [&](const UserFile& f) {
                    return f.path == path &&
                           pfa::schemaToJson(f.schema) == pfa::schemaToJson(parsed);
                });
            if (!known) addUserFile(path, parsed);
        } catch (const pfa::InputError&) {
            // A damaged entry is skipped; the rest of the settings still apply.
        }
    }
    if (json.contains("user_files")) {
        // Map the saved "file:N" onto this panel's numbering (equal path and schema).
        const QJsonArray saved = json["user_files"].toArray();
        const QString choice = json["dataset"].toString();
        if (choice.startsWith(QLatin1String("file:"))) {
            const int savedIndex = choice.mid(5).toInt();
            if (savedIndex >= 0 && savedIndex < saved.size()) {
                const QString path = saved[savedIndex]["path"].toString();
                for (std::size_t i = 0; i < m_userFiles.size(); ++i) {
                    if (m_userFiles[i].path == path)
                        m_dataset->setCurrentIndex(
                            m_dataset->findData(QStringLiteral("file:%1").arg(i)));
                }
            }
        } else {
            select(m_dataset, json["dataset"]);
        }
    } else {
        select(m_dataset, json["dataset"]);
    }
    const QString sensitiveBefore = sensitiveId();
    m_sensitive->selectId(json["sensitive"].toString());
    if (sensitiveId() != sensitiveBefore) {
        m_data.reset();
        emit datasetRequestChanged();
    }
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
    {
        // Settings saved before the split could be chosen: the default split. The data is
        // reloaded once, below.
        const pfa::SplitOptions defaults;
        const QSignalBlocker blockMethod(m_splitMethod), blockSeed(m_splitSeed),
            blockShare(m_testFraction);
        const int method = m_splitMethod->findData(json["split_method"].toString());
        m_splitMethod->setCurrentIndex(method >= 0 ? method : 0);
        m_splitSeed->setValue(json["split_seed"].toInt(static_cast<int>(defaults.seed)));
        m_testFraction->setValue(json["test_fraction"].toDouble(defaults.testFraction));
    }
    {
        // Settings saved before users and silos could be chosen: none.
        const QSignalBlocker blockUnits(m_units);
        m_units->fromJson(json["units"].toObject());
    }
    m_knobs->readJson(json);  // no signal: reloaded once, below
    updateAlgorithmDependentControls();
    emit datasetRequestChanged();
    revalidate();
}

}  // namespace pfa::ui
