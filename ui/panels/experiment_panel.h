#pragma once

#include <QJsonObject>
#include <QWidget>
#include <string>
#include <vector>

#include "core/config/train_config.h"
#include "core/data/builtin_datasets.h"
#include "core/data/schema.h"
#include "core/sweep/prepared_dataset.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QDoubleSpinBox;
class QCheckBox;
class QPushButton;
class QToolButton;

namespace pfa::ui {

class SensitiveChooser;

/// Why runs of `config` are analysed under replace-one adjacency whatever its adjacency setting
/// says ("" when the setting holds): only the sensitive attribute is protected (a neighbouring
/// data set changes one record's sensitive value), or a private run samples fixed-size batches.
/// The rule of pfa::resolveDefaults, for algorithms that read those settings; the panel shows
/// "replace one" in the disabled adjacency row and the teaching panel explains it.
QString forcedAdjacencyReason(const pfa::TrainConfig& config);

class DataUnitsForm;
class DatasetChooser;
class GeneratorKnobForms;
class EpsilonControl;
class LambdaControl;
class ParameterForm;

/// The experiment controls: data set, algorithm, fairness notion, λ, ε, the settings (δ,
/// calibration, protection scope; the advanced ones in a collapsible section), the split and
/// live mode. The settings' rows are generated from the parameter declarations
/// (allParameters()), shown for the algorithms that declare them, so the GUI offers what the
/// command line does. Every control explains itself in a tooltip; invalid combinations are
/// explained inline (and disable Run) instead of failing a run.
class ExperimentPanel : public QWidget {
    Q_OBJECT
public:
    explicit ExperimentPanel(QWidget* parent = nullptr);

    /// Wide enough for the advanced section too, also while it is closed: opening it never
    /// clips the dock's content.
    QSize minimumSizeHint() const override;

    /// The configuration the controls describe (automatic values unresolved, δ = 0 means "auto:
    /// 1/n²"), with the algorithm's own parameters (withOwnParameters).
    pfa::TrainConfig config() const;
    /// Which data set to load, and how to split it.
    pfa::DatasetRequest datasetRequest() const;
    /// Shows `split` in the split controls (e.g. a preset's) and asks for the data to be loaded.
    void setSplit(const pfa::SplitOptions& split);
    /// Chooses the data set of `request` — its name, sensitive choice and split (a preset's
    /// data set) — and asks for it to be loaded; false when no such data set is offered.
    bool selectDataset(const pfa::DatasetRequest& request);
    /// Empty when the current settings can run; otherwise what is wrong, in plain words.
    QString problem() const { return m_problem; }
    bool liveMode() const;

    /// The data set the controller loaded (for validation and the summary line).
    void setDataset(const pfa::PreparedDatasetPtr& data);
    void setDatasetLoading();
    void setDatasetFailed(const QString& message);
    /// Adds the user's own file (as set up in the import wizard) and selects it.
    void addUserFile(const QString& path, const pfa::Schema& schema);
    /// The catalog data set selected ("" for synthetic or an own file).
    QString currentCatalogName() const;
    /// False while the selected catalog data set's files are not in the data folder.
    bool catalogFilesPresent() const;
    /// Re-checks whether the selected catalog data set's files are present (after a download
    /// or an import) and asks for it to be loaded.
    void refreshAvailability();

    /// Settings as JSON (sessions, QSettings) and back: the parameters under their declared
    /// names; sessions of earlier versions (former names, δ as text) still load.
    QJsonObject toJson() const;
    void fromJson(const QJsonObject& json);

    // Direct access for keyboard-free tests.
    EpsilonControl* epsilonControl() const { return m_epsilon; }
    LambdaControl* lambdaControl() const { return m_lambda; }
    QComboBox* algorithmBox() const { return m_algorithm; }
    QComboBox* datasetBox() const;
    QComboBox* sensitiveBox() const;
    /// The button whose checkable menu adds further sensitive attributes to the one chosen in
    /// sensitiveBox() (their intersections become the groups); hidden when the data set offers
    /// one attribute only.
    QToolButton* intersectButton() const;
    /// The sensitive choice of a catalog data set: the chosen id, or several joined by "+" in
    /// catalog order after the first ("sex+race"); "" for other data.
    QString sensitiveId() const;
    QComboBox* fairnessBox() const { return m_fairness; }
    QCheckBox* liveModeBox() const { return m_live; }
    QComboBox* splitMethodBox() const;
    /// The generated forms: the main one (its settings follow the rows above, in one column)
    /// and the advanced section's (followed by the split's rows).
    ParameterForm* settingsForm() const { return m_settings; }
    ParameterForm* advancedSettingsForm() const { return m_advancedSettings; }
    /// The widget editing parameter `name` in either form (nullptr when none).
    QWidget* parameterField(const std::string& name) const;
    QSpinBox* epochsBox() const;
    QLineEdit* deltaEdit() const;
    QCheckBox* secureNoiseBox() const;
    QCheckBox* diagnosticsBox() const;
    QComboBox* averagingBox() const;
    QComboBox* wStreamBox() const;
    QLineEdit* lossClipShareBox() const;
    QToolButton* advancedToggle() const { return m_advancedToggle; }
    QSpinBox* splitSeedBox() const;
    QDoubleSpinBox* testFractionBox() const;
    /// The data set's silo split (in the advanced section).
    DataUnitsForm* unitsForm() const;
    /// The chosen generator's knobs (main and advanced rows).
    GeneratorKnobForms* generatorKnobs() const;

signals:
    /// Any setting changed (validation has been redone).
    void configChanged();
    /// The data set choice changed: a new one must be loaded.
    void datasetRequestChanged();
    /// ε or λ moved (slider drag or typed value) — the live-mode trigger.
    void liveParameterChanged();
    /// The user asked to download the catalog data set `name`.
    void downloadRequested(const QString& name);
    /// The user asked to import `name`'s files from a folder they already have.
    void importFolderRequested(const QString& name);
    /// The user asked to import their own data file.
    void importFileRequested();

private:
    /// config(), and the first problem of the forms' values ("" if none).
    pfa::TrainConfig currentConfig(QString* problem) const;
    void revalidate();
    void updateAlgorithmDependentControls();

    QComboBox* m_algorithm;
    QLabel* m_algorithmInfo;
    QComboBox* m_fairness;
    EpsilonControl* m_epsilon;
    LambdaControl* m_lambda;
    ParameterForm* m_settings;
    QToolButton* m_advancedToggle;
    QWidget* m_advanced;
    ParameterForm* m_advancedSettings;
    DatasetChooser* m_chooser;
    QCheckBox* m_live;
    QLabel* m_problemLabel;

    pfa::PreparedDatasetPtr m_data;
    QString m_datasetError;
    bool m_loading = false;
    QString m_problem;
};

}  // namespace pfa::ui
