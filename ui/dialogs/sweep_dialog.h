#pragma once

#include <QDialog>

#include "core/sweep/sweep_preset.h"
#include "core/sweep/sweep_spec.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace pfa::ui {

class SweepAxisEditor;

/// Sets up a sweep over the current data set: algorithms, fairness notions, ε values and λ
/// values (both with presets; they and the extra axis accept log:/lin: generators), seeds,
/// an optional extra hyper-parameter axis, threads and the results file. It shows the number
/// of runs and an estimate of the time before starting. The grid of the last sweep started
/// (algorithms, notions, ε, λ, seeds, extra axis, tuning) is remembered in the settings and
/// fills the next dialog; epochs follow the experiment panel and the results file is new.
class SweepDialog : public QDialog {
    Q_OBJECT
public:
    /// `base`: the experiment panel's settings; `secondsPerEpoch`: measured on earlier runs of
    /// this data set (≤ 0: unknown, a rough guess from the data size is used).
    SweepDialog(const pfa::TrainConfig& base, const QString& datasetTitle, long trainRows,
                long features, double secondsPerEpoch, QWidget* parent = nullptr);

    /// Fills every field from a preset (its data set is chosen by the caller).
    void applyPreset(const pfa::SweepPreset& preset);
    /// The sweep (datasets empty: the caller sets the data-set key). Valid when problem() is
    /// empty.
    pfa::SweepSpec spec() const;
    int threads() const;
    /// The data sets of the applied preset's data axes (empty: the caller's one data set).
    const std::vector<pfa::DatasetRequest>& dataVariants() const { return m_dataVariants; }
    /// Whether "Auto-tune" is chosen as the tuning: the extra axis' values are candidates whose
    /// step is tuned by halving; one record per ε and seed (pfa::runAutoTuneSweep).
    bool autoTune() const;
    QString resultsFile() const;
    void setResultsFile(const QString& path);
    /// Empty when the settings describe a runnable sweep; else what is wrong.
    QString problem() const { return m_problem; }
    /// Estimated wall time in seconds (for tests and the label).
    double estimatedSeconds() const { return m_estimate; }

    // Direct access for tests.
    QLineEdit* epsilonEdit() const { return m_epsilons; }
    QLineEdit* lambdaEdit() const { return m_lambdas; }
    QLineEdit* axisValuesEdit() const;
    QLabel* lambdaValuesLabel() const { return m_lambdaValues; }
    QSpinBox* seedsTo() const { return m_seedTo; }
    QPushButton* startButton() const { return m_start; }
    QPushButton* clusterButton() const { return m_cluster; }
    QLabel* summaryLabel() const { return m_summary; }

    /// Stores the grid in the settings (done when the sweep is started).
    void saveGrid() const;

signals:
    /// "Run on a cluster…": the caller writes the sweep as a Slurm job (ClusterJobDialog).
    void clusterRequested();

private:
    /// Fills the grid from the settings, when a sweep was started before.
    void restoreGrid();
    void updateSummary();
    /// A preset's settings for single algorithms (kept as they are, like m_presetAxes).
    std::map<std::string, pfa::JsonValue> m_algorithmConfig;
    /// A preset's data axes: the knobs swept and the data sets they make.
    std::vector<std::string> m_dataAxes;
    std::vector<pfa::DatasetRequest> m_dataVariants;
    /// One line naming the preset's axes the axis editor keeps, and its data axes, for the
    /// summary ("" without them).
    QString presetAxesNote() const;

    pfa::TrainConfig m_base;
    long m_trainRows;
    long m_features;
    double m_secondsPerEpoch;
    QListWidget* m_algorithms;
    QCheckBox* m_notions[3];
    QLineEdit* m_epsilons;
    QCheckBox* m_infinity;
    QLineEdit* m_lambdas;
    QLabel* m_lambdaValues;
    QSpinBox* m_seedFrom;
    QSpinBox* m_seedTo;
    /// The extra axis (and a preset's further axes).
    SweepAxisEditor* m_axis;
    QComboBox* m_tuning;
    QSpinBox* m_epochs;
    QSpinBox* m_threads;
    QLineEdit* m_file;
    QLabel* m_summary;
    QPushButton* m_start;
    QPushButton* m_cluster;
    QString m_problem;
    double m_estimate = 0.0;
};

}  // namespace pfa::ui
