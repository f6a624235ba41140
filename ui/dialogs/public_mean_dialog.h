#pragma once

#include <QDialog>
#include <vector>

#include "core/privacy/weighted_gaussian_mean.h"
#include "ui/support/background.h"

class QLabel;
class QLineSeries;
class QProgressBar;
class QPushButton;
class QScatterSeries;
class QSlider;
class QSpinBox;
class QChart;
class QLogValueAxis;
class QValueAxis;

namespace pfa::ui {

class ChartView;
class WhiskerItem;

/// Mean estimation with public data, worked out interactively: n samples of which a share p
/// is public (no protection) and the rest private (ρ-zCDP from the chosen ε, δ), in d
/// dimensions with ‖x‖ ≤ B and total variance V². Three charts follow the sliders: the MSE of
/// the weighted-Gaussian estimator against its private weight r (r* marked, with the public
/// average r = 0 and the Gaussian mechanism on all samples r = 1/n), the three estimators'
/// MSE against ε, and against p. A Monte-Carlo check (off the GUI thread, cancellable) draws
/// measured points with 95 % intervals beside the analytic curve. Every chart exports.
class PublicMeanDialog : public QDialog {
    Q_OBJECT
public:
    explicit PublicMeanDialog(QWidget* parent = nullptr);
    ~PublicMeanDialog() override;

    /// The problem the sliders describe now.
    pfa::privacy::WeightedMeanProblem problem() const;
    double epsilon() const;
    double delta() const;

    // For tests and the export menu.
    QSlider* shareSlider() const { return m_share; }
    QSlider* epsilonSlider() const { return m_epsilon; }
    QSlider* dimensionSlider() const { return m_dimension; }
    QSpinBox* samplesBox() const { return m_samples; }
    QSpinBox* repetitionsBox() const { return m_repetitions; }
    QPushButton* monteCarloButton() const { return m_monteCarlo; }
    QLineSeries* weightCurve() const { return m_weightCurve; }
    QScatterSeries* monteCarloPoints() const { return m_mcPoints; }
    const WhiskerItem* monteCarloWhiskers() const { return m_mcWhiskers; }
    std::vector<ChartView*> views() const { return {m_weightView, m_epsilonView, m_shareView}; }
    bool monteCarloRunning() const { return m_task.isRunning(); }

signals:
    /// The Monte-Carlo points are drawn (or the check stopped).
    void monteCarloFinished();

private:
    void updateCurves();
    void toggleMonteCarlo();
    void showMonteCarlo(const std::vector<pfa::privacy::MonteCarloPoint>& points, int done,
                        int total);
    void clearMonteCarlo();

    QSlider* m_share = nullptr;
    QSlider* m_epsilon = nullptr;
    QSlider* m_deltaExponent = nullptr;
    QSlider* m_dimension = nullptr;
    QSlider* m_bound = nullptr;
    QSlider* m_spread = nullptr;
    QSpinBox* m_samples = nullptr;
    QSpinBox* m_repetitions = nullptr;
    QLabel* m_values = nullptr;
    QLabel* m_summary = nullptr;
    QPushButton* m_monteCarlo = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_mcResult = nullptr;

    QChart* m_weightChart = nullptr;
    QChart* m_epsilonChart = nullptr;
    QChart* m_shareChart = nullptr;
    ChartView* m_weightView = nullptr;
    ChartView* m_epsilonView = nullptr;
    ChartView* m_shareView = nullptr;
    QLineSeries* m_weightCurve = nullptr;
    QScatterSeries* m_weightMarks = nullptr;
    QScatterSeries* m_mcPoints = nullptr;
    WhiskerItem* m_mcWhiskers = nullptr;
    QValueAxis* m_weightX = nullptr;
    QValueAxis* m_weightY = nullptr;
    std::vector<QLineSeries*> m_epsilonCurves, m_shareCurves;
    QScatterSeries* m_epsilonMark = nullptr;
    QScatterSeries* m_shareMark = nullptr;
    QLogValueAxis* m_epsilonX = nullptr;
    QLogValueAxis* m_epsilonY = nullptr;
    QLogValueAxis* m_shareX = nullptr;
    QLogValueAxis* m_shareY = nullptr;
    BackgroundTask m_task;
    int m_generation = 0;  ///< bumped when the settings change: older checks are not drawn
};

}  // namespace pfa::ui
