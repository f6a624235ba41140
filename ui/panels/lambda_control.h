#pragma once

#include <QWidget>

class QSlider;
class QDoubleSpinBox;

namespace pfa::ui {

class LogSpinBox;

/// The fairness weight λ on a logarithmic scale, because useful values run from about 0.01
/// to the thousands depending on the data and the fairness notion. A slider whose leftmost
/// position is λ = 0 (fairness off) and whose other positions run from 10⁻³ to 10⁴, twenty
/// per decade on readable values (1, 1.1, 1.25, 1.4, 1.5, 1.75, 2, 2.25, 2.5, 2.75, 3, 3.5,
/// 4, 4.5, 5, 5.5, 6, 7, 8, 9 × 10^k), with a scale of decades under it; and a spin box for
/// exact values (0 or 10⁻³ … 10⁴, four significant digits, arrows stepping about ×1.25).
class LambdaControl : public QWidget {
    Q_OBJECT
public:
    static constexpr double kSmallestPositive = 1e-3;
    static constexpr double kLargest = 1e4;
    static constexpr int kPositionsPerDecade = 20;

    explicit LambdaControl(QWidget* parent = nullptr);

    double value() const;
    /// Shows `lambda` clamped to 0 … 10⁴ and rounded to four significant digits.
    void setValue(double lambda);
    void setFairnessAvailable(bool available);
    /// Lays the control out over two lines, for a form row of its own across both columns:
    /// `label` and the spin box on the first, the slider and its scale across the whole width
    /// under them (about twice the pixels per decade of the one-line layout).
    void setStacked(const QString& label);

    QSlider* slider() const { return m_slider; }
    QDoubleSpinBox* spinBox() const;

    /// λ at a slider position: 0 at position 0, then 10⁻³ … 10⁴.
    static double lambdaAt(int position);
    /// The slider position whose λ is nearest to `lambda` on the log scale (0 only for 0).
    static int positionFor(double lambda);
    /// The slider's last position (λ = 10⁴).
    static int lastPosition();

signals:
    void valueChanged(double lambda);
    void sliderDragged(double lambda);

private:
    QSlider* m_slider;
    LogSpinBox* m_spin;
    QWidget* m_scale;                 ///< decade labels under the slider
    class QLabel* m_label = nullptr;  ///< the stacked layout's label
    bool m_available = true;
    bool m_updating = false;
};

}  // namespace pfa::ui
