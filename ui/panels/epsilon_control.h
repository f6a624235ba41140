#pragma once

#include <QWidget>

class QSlider;
class QDoubleSpinBox;
class QCheckBox;

namespace pfa::ui {

/// The privacy budget ε: a logarithmic slider over 0.05 … 100, a spin box for exact values,
/// and "∞ — no privacy". value() is +∞ when the check box is ticked.
class EpsilonControl : public QWidget {
    Q_OBJECT
public:
    explicit EpsilonControl(QWidget* parent = nullptr);

    double value() const;
    void setValue(double epsilon);
    /// Disables the finite choices (non-private algorithms) and shows ∞.
    void setPrivacyAvailable(bool available);

    QSlider* slider() const { return m_slider; }
    QDoubleSpinBox* spinBox() const { return m_spin; }
    QCheckBox* infinityBox() const { return m_infinity; }

signals:
    void valueChanged(double epsilon);
    /// Emitted while the user drags the slider (for live mode).
    void sliderDragged(double epsilon);

private:
    static int positionFor(double epsilon);
    static double epsilonAt(int position);
    void syncEnabled();

    QSlider* m_slider;
    QDoubleSpinBox* m_spin;
    QCheckBox* m_infinity;
    bool m_privacyAvailable = true;
    bool m_updating = false;
};

}  // namespace pfa::ui
