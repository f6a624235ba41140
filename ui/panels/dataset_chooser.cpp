#include "ui/panels/dataset_chooser.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTextDocument>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>

#include "core/data/catalog.h"
#include "core/data/data_directory.h"
#include "core/generators/generator.h"
#include "core/generators/split_settings.h"
#include "core/util/error.h"
#include "core/util/json_value.h"
#include "ui/panels/data_units_form.h"
#include "ui/panels/eliding_combo_box.h"
#include "ui/panels/fitting_label.h"
#include "ui/panels/generator_knob_forms.h"
#include "ui/panels/parameter_text.h"
#include "ui/panels/sensitive_chooser.h"

namespace pfa::ui {

DatasetChooser::DatasetChooser(QFormLayout* mainForm, QFormLayout* advancedForm, QObject* parent)
    : QObject(parent) {
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
    // Long item texts must not force the dock wider than a laptop screen allows.
    m_dataset->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_dataset->setMinimumContentsLength(13);
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
    m_info = hintLabel(QString());

    // One above the other: side by side, the three would make the panel wider than a dock
    // beside the charts on a 1280-pixel screen.
    auto* buttons = new QVBoxLayout();
    buttons->setSpacing(2);
    for (QPushButton* button : {m_download, m_importFolder, m_importFile})
        buttons->addWidget(button, 0, Qt::AlignLeft);
    mainForm->insertRow(m_mainRows++, tr("Data set"), m_dataset);
    mainForm->insertRow(m_mainRows++, tr("Sensitive"), m_sensitive);
    mainForm->insertRow(m_mainRows++, QString(), buttons);
    mainForm->insertRow(m_mainRows++, QString(), m_info);

    const pfa::SplitOptions splitDefaults;
    m_splitMethod = new ElidingComboBox();
    for (const pfa::ParamChoice& choice : pfa::findSplitSetting("split-method")->spec.choices) {
        m_splitMethod->addItem(QString::fromStdString(choice.label),
                               QString::fromStdString(choice.value));
        m_splitMethod->setItemData(m_splitMethod->count() - 1, QString::fromStdString(choice.help),
                                   Qt::ToolTipRole);
    }
    m_splitMethod->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_splitMethod->setMinimumContentsLength(8);  // in the advanced section, as its other rows
    m_splitSeed = new QSpinBox();
    m_splitSeed->setRange(0, std::numeric_limits<int>::max());
    m_splitSeed->setValue(static_cast<int>(splitDefaults.seed));
    m_testFraction = new QDoubleSpinBox();
    m_testFraction->setDecimals(3);
    m_testFraction->setRange(0.01, 0.99);
    m_testFraction->setSingleStep(0.05);
    m_testFraction->setValue(splitDefaults.testFraction);
    // Reload only when a value is committed, not at every keystroke.
    m_splitSeed->setKeyboardTracking(false);
    m_testFraction->setKeyboardTracking(false);
    // The split's rows follow the generated ones in the same form, so their columns line up.
    // Labels and tooltips from the split's declarations (core/generators/split_settings.h).
    const QString readBy = tr("the train/test split");
    const std::pair<const char*, QWidget*> splitRows[] = {{"split-method", m_splitMethod},
                                                          {"split-seed", m_splitSeed},
                                                          {"test-fraction", m_testFraction}};
    for (const auto& [name, field] : splitRows) {
        const pfa::ParamSpec& spec = pfa::findSplitSetting(name)->spec;
        field->setToolTip(parameterToolTip(spec, readBy));
        advancedForm->addRow(QString::fromStdString(spec.label), field);
    }
    // Users and silos of the data, under the split they follow, in the same form.
    auto* unitsTitle = new QLabel(tr("<b>Users and silos</b>"));
    unitsTitle->setToolTip(
        tr("Who the rows belong to and who holds them, for algorithms that protect "
           "a whole person or a whole institution; the data-set card shows them"));
    advancedForm->addRow(unitsTitle);
    m_units = new DataUnitsForm(advancedForm, advancedForm->parentWidget());
    // The chosen generator's knobs under the data set's rows; its advanced ones (seed, people,
    // silos) at the end of the advanced section.
    m_knobs = new GeneratorKnobForms(mainForm, m_mainRows, advancedForm, this);
    m_mainRows += static_cast<int>(pfa::dataGenerators().size()) + 1;  // forms and their note

    connect(m_download, &QPushButton::clicked, this,
            [this] { emit downloadRequested(currentCatalogName()); });
    connect(m_importFolder, &QPushButton::clicked, this,
            [this] { emit importFolderRequested(currentCatalogName()); });
    connect(m_importFile, &QPushButton::clicked, this, &DatasetChooser::importFileRequested);
    connect(m_dataset, &QComboBox::currentIndexChanged, this, &DatasetChooser::onChoiceChanged);
    connect(m_sensitive, &SensitiveChooser::changed, this, &DatasetChooser::requestChanged);
    connect(m_splitMethod, &QComboBox::currentIndexChanged, this, &DatasetChooser::onSplitChanged);
    connect(m_splitSeed, &QSpinBox::valueChanged, this, &DatasetChooser::onSplitChanged);
    connect(m_testFraction, &QDoubleSpinBox::valueChanged, this, &DatasetChooser::onSplitChanged);
    connect(m_units, &DataUnitsForm::changed, this, &DatasetChooser::onSplitChanged);
    connect(m_knobs, &GeneratorKnobForms::changed, this, &DatasetChooser::onSplitChanged);
    onChoiceChanged();  // the first data set's sensitive attribute, knobs and buttons
}

QString DatasetChooser::currentCatalogName() const {
    const QString data = m_dataset->currentData().toString();
    if (pfa::findGenerator(data.toStdString()) || data.startsWith(QLatin1String("file:")))
        return {};
    return data;
}

bool DatasetChooser::catalogFilesPresent() const {
    const QString name = currentCatalogName();
    if (name.isEmpty()) return true;
    const pfa::CatalogEntry& entry = pfa::findCatalogEntry(name.toStdString());
    const QDir directory(QString::fromStdString(pfa::catalogDatasetDirectory(entry.name)));
    for (const pfa::DatasetFile& file : entry.files) {
        if (!QFileInfo::exists(directory.filePath(QString::fromStdString(file.name)))) return false;
    }
    return true;
}

QString DatasetChooser::sensitiveId() const { return m_sensitive->id(); }

void DatasetChooser::onChoiceChanged() {
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

void DatasetChooser::refreshAvailability() {
    const QString catalog = currentCatalogName();
    const bool present = catalogFilesPresent();
    m_download->setEnabled(!present);
    if (!present) {
        const pfa::CatalogEntry& entry = pfa::findCatalogEntry(catalog.toStdString());
        std::uint64_t bytes = 0;
        for (const pfa::DatasetFile& file : entry.files) bytes += file.bytes;
        m_info->setText(tr("Not downloaded yet (%1 MB): Download… fetches it from its source, "
                           "Import from folder… uses files you already have.")
                            .arg(static_cast<double>(bytes) / 1e6, 0, 'f', 1));
    }
    emit requestChanged();
}

void DatasetChooser::addUserFile(const QString& path, const pfa::Schema& schema) {
    m_userFiles.push_back({path, schema});
    const QString key = QStringLiteral("file:%1").arg(m_userFiles.size() - 1);
    m_dataset->addItem(tr("Your file: %1").arg(QFileInfo(path).fileName()), key);
    m_dataset->setItemData(m_dataset->count() - 1,
                           Qt::convertFromPlainText(path, Qt::WhiteSpaceNormal), Qt::ToolTipRole);
    m_dataset->setCurrentIndex(m_dataset->count() - 1);
}

pfa::DatasetRequest DatasetChooser::request() const {
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

void DatasetChooser::setSplit(const pfa::SplitOptions& split) {
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

bool DatasetChooser::select(const pfa::DatasetRequest& request) {
    const int index = m_dataset->findData(QString::fromStdString(request.name));
    if (index < 0) return false;
    m_dataset->setCurrentIndex(index);  // offers that data set's sensitive choices
    m_knobs->showRequest(request);
    const QString sensitiveBefore = sensitiveId();
    m_sensitive->selectId(QString::fromStdString(request.sensitive));
    if (sensitiveId() != sensitiveBefore) emit requestChanged();
    m_units->showRequest(request);  // a preset's silos (loaded with the split)
    setSplit(request.split);        // e.g. the published split a preset reproduces
    return true;
}

void DatasetChooser::updateGeneratedSilos() {
    // A generator's silos and a silo split of the same rows would contradict each other: with
    // generated silos the split is off.
    pfa::DatasetRequest request;
    request.name = m_dataset->currentData().toString().toStdString();
    m_knobs->applyTo(request);
    m_units->setGeneratedSilos(!pfa::generatedSilos(request).empty());
}

void DatasetChooser::onSplitChanged() {
    updateGeneratedSilos();
    emit requestChanged();  // other training rows: the loaded data no longer applies
}

void DatasetChooser::showLoaded(const pfa::PreparedDatasetPtr& data) {
    // The columns a silo split may follow: the data's categorical ones.
    QStringList columns;
    for (const std::string& column : data->split.encoding.categoricalColumns)
        columns << QString::fromStdString(column);
    m_units->setColumns(columns);
    const pfa::Dataset& train = data->split.train;
    QStringList groups;
    for (const std::string& g : train.groupNames) groups << QString::fromStdString(g);
    m_info->setText(tr("%1 training rows, %2 test rows, %3 features; sensitive "
                       "attribute “%4”: %5")
                        .arg(train.rows())
                        .arg(data->split.test.rows())
                        .arg(train.features())
                        .arg(QString::fromStdString(train.sensitiveDescription))
                        .arg(groups.join(QStringLiteral(", "))));
}

void DatasetChooser::showLoading() { m_info->setText(tr("Loading data…")); }

void DatasetChooser::showFailed() { m_info->setText(QString()); }

void DatasetChooser::writeJson(QJsonObject& json) const {
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
    // Under the split's declared names (the command line's spelling).
    json["split-method"] = m_splitMethod->currentData().toString();
    json["split-seed"] = m_splitSeed->value();
    json["test-fraction"] = m_testFraction->value();
    json["units"] = m_units->toJson();
    m_knobs->writeJson(json);  // each generator knob under its name
}

void DatasetChooser::readJson(const QJsonObject& json) {
    const auto select = [this](const QJsonValue& value) {
        const int index = m_dataset->findData(value.toString());
        if (index >= 0) m_dataset->setCurrentIndex(index);
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
    const QString choice = json["dataset"].toString();
    if (json.contains("user_files") && choice.startsWith(QLatin1String("file:"))) {
        // Map the saved "file:N" onto this panel's numbering (equal path).
        const QJsonArray saved = json["user_files"].toArray();
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
        select(json["dataset"]);
    }
    const QString sensitiveBefore = sensitiveId();
    m_sensitive->selectId(json["sensitive"].toString());
    if (sensitiveId() != sensitiveBefore) emit requestChanged();
    {
        // Settings saved before the split could be chosen: the default split. The data is
        // reloaded once, by the caller.
        const pfa::SplitOptions defaults;
        const QSignalBlocker blockMethod(m_splitMethod), blockSeed(m_splitSeed),
            blockShare(m_testFraction);
        // Under the declared name, or the one sessions of earlier versions wrote.
        const auto saved = [&json](const char* name) {
            return savedValue(json, pfa::findSplitSetting(name)->spec);
        };
        const int method = m_splitMethod->findData(saved("split-method").toString());
        m_splitMethod->setCurrentIndex(method >= 0 ? method : 0);
        m_splitSeed->setValue(saved("split-seed").toInt(static_cast<int>(defaults.seed)));
        m_testFraction->setValue(saved("test-fraction").toDouble(defaults.testFraction));
    }
    {
        // Settings saved before users and silos could be chosen: none.
        const QSignalBlocker blockUnits(m_units);
        m_units->fromJson(json["units"].toObject());
    }
    m_knobs->readJson(json);  // no signal: reloaded once, by the caller
    updateGeneratedSilos();
}

}  // namespace pfa::ui
