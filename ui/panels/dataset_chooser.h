#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>
#include <vector>

#include "core/data/builtin_datasets.h"
#include "core/data/schema.h"
#include "core/sweep/prepared_dataset.h"

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QSpinBox;
class QToolButton;
class QWidget;

namespace pfa::ui {

class DataUnitsForm;
class GeneratorKnobForms;
class SensitiveChooser;

/// The experiment panel's data-set controls: which data set (a generator, a catalog data set or
/// the user's own files), its sensitive attribute, download and import, the generator's knobs,
/// the train/test split and the silo split. Its rows go into the panel's forms (the main rows
/// at the top of `mainForm`, the split and silo rows into `advancedForm`) so that the label
/// columns line up; it turns them into the DatasetRequest to load.
class DatasetChooser : public QObject {
    Q_OBJECT
public:
    DatasetChooser(QFormLayout* mainForm, QFormLayout* advancedForm, QObject* parent = nullptr);

    /// How many rows it put at the top of the main form (the panel's rows follow).
    int mainRowCount() const { return m_mainRows; }

    /// Which data set to load, and how to split it.
    pfa::DatasetRequest request() const;
    /// Shows `split` in the split controls and asks for the data to be loaded.
    void setSplit(const pfa::SplitOptions& split);
    /// Chooses the data set of `request` (name, knobs, sensitive choice, silos, split); false
    /// when no such data set is offered.
    bool select(const pfa::DatasetRequest& request);
    /// Adds the user's own file (as set up in the import wizard) and selects it.
    void addUserFile(const QString& path, const pfa::Schema& schema);
    /// The catalog data set selected ("" for a generator or an own file).
    QString currentCatalogName() const;
    /// False while the selected catalog data set's files are not in the data folder.
    bool catalogFilesPresent() const;
    /// Re-checks whether the catalog data set's files are present and asks for it to be loaded.
    void refreshAvailability();
    /// The sensitive choice of a catalog data set ("sex+race"); "" for other data.
    QString sensitiveId() const;

    /// What the loaded data is (rows, features, groups) under the data set's row, and the
    /// columns a silo split may follow.
    void showLoaded(const pfa::PreparedDatasetPtr& data);
    void showLoading();
    void showFailed();

    /// The data-set choice, own files, split, silos and knobs as JSON (sessions) and back.
    void writeJson(QJsonObject& json) const;
    void readJson(const QJsonObject& json);

    QComboBox* datasetBox() const { return m_dataset; }
    SensitiveChooser* sensitive() const { return m_sensitive; }
    QComboBox* splitMethodBox() const { return m_splitMethod; }
    QSpinBox* splitSeedBox() const { return m_splitSeed; }
    QDoubleSpinBox* testFractionBox() const { return m_testFraction; }
    DataUnitsForm* unitsForm() const { return m_units; }
    GeneratorKnobForms* generatorKnobs() const { return m_knobs; }

signals:
    /// The request changed: the data must be loaded again.
    void requestChanged();
    void downloadRequested(const QString& name);
    void importFolderRequested(const QString& name);
    void importFileRequested();

private:
    void onChoiceChanged();
    void onSplitChanged();
    /// Tells the silo split whether the chosen data already comes in silos.
    void updateGeneratedSilos();

    QComboBox* m_dataset;
    SensitiveChooser* m_sensitive;
    QPushButton* m_download;
    QPushButton* m_importFolder;
    QPushButton* m_importFile;
    QLabel* m_info;
    GeneratorKnobForms* m_knobs;
    QComboBox* m_splitMethod;
    QSpinBox* m_splitSeed;
    QDoubleSpinBox* m_testFraction;
    DataUnitsForm* m_units;
    int m_mainRows = 0;

    struct UserFile {
        QString path;
        pfa::Schema schema;
    };
    std::vector<UserFile> m_userFiles;
};

}  // namespace pfa::ui
