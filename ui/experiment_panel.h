#pragma once

#include <QJsonObject>
#include <QWidget>

#include "core/data/builtin_datasets.h"
#include "core/train/train_config.h"
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

class EpsilonControl;
class LambdaControl;

/// The experiment controls: data set, algorithm, fairness notion, ε, δ, λ, calibration,
/// protection scope, advanced hyper-parameters and live mode. Every control explains itself in
/// a tooltip; invalid combinations are explained inline (and disable Run) instead of failing
/// a run.
class ExperimentPanel : public QWidget {
    Q_OBJECT
public:
    explicit ExperimentPanel(QWidget* parent = nullptr);

    /// The configuration the controls describe (δ = 0 means "auto: 1/n²").
    pfa::TrainConfig config() const;
    /// Which data set to load.
    pfa::DatasetRequest datasetRequest() const;
    /// Empty when the current settings can run; otherwise what is wrong, in plain words.
    QString problem() const { return m_problem; }
    bool liveMode() const;

    /// The data set the controller loaded (for validation and the summary line).
    void setDataset(const pfa::PreparedDatasetPtr& data);
    void setDatasetLoading();
    void setDatasetFailed(const QString& message);
    /// The folder holding adult.data and adult.test ("" = not located yet).
    void setAdultDirectory(const QString& directory);
    QString adultDirectory() const { return m_adultDirectory; }

    /// Settings as JSON (sessions, QSettings) and back.
    QJsonObject toJson() const;
    void fromJson(const QJsonObject& json);

    // Direct access for keyboard-free tests.
    EpsilonControl* epsilonControl() const { return m_epsilon; }
    LambdaControl* lambdaControl() const { return m_lambda; }
    QComboBox* algorithmBox() const { return m_algorithm; }
    QComboBox* datasetBox() const { return m_dataset; }
    QSpinBox* epochsBox() const { return m_epochs; }
    QCheckBox* liveModeBox() const { return m_live; }
    QLineEdit* deltaEdit() const { return m_delta; }

signals:
    /// Any setting changed (validation has been redone).
    void configChanged();
    /// The data set choice changed: a new one must be loaded.
    void datasetRequestChanged();
    /// ε or λ moved (slider drag or typed value) — the live-mode trigger.
    void liveParameterChanged();

private:
    void revalidate();
    void updateAlgorithmDependentControls();
    void locateAdult();

    QComboBox* m_dataset;
    QPushButton* m_locate;
    QLabel* m_datasetInfo;
    QComboBox* m_algorithm;
    QLabel* m_algorithmInfo;
    QComboBox* m_fairness;
    EpsilonControl* m_epsilon;
    QLineEdit* m_delta;
    LambdaControl* m_lambda;
    QComboBox* m_calibration;
    QComboBox* m_scope;
    QToolButton* m_advancedToggle;
    QWidget* m_advanced;
    QSpinBox* m_epochs;
    QSpinBox* m_batch;
    QDoubleSpinBox* m_lrTheta;
    QDoubleSpinBox* m_lrW;
    QDoubleSpinBox* m_clip;
    QSpinBox* m_seed;
    QCheckBox* m_live;
    QLabel* m_problemLabel;

    QString m_adultDirectory;
    pfa::PreparedDatasetPtr m_data;
    QString m_datasetError;
    bool m_loading = false;
    QString m_problem;
};

}  // namespace pfa::ui
