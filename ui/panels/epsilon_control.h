#pragma once

#include <QString>
#include <QWidget>

class QSlider;
class QDoubleSpinBox;
class QCheckBox;

namespace pfa::ui {

/// The privacy budget ε: a logarithmic slider over the offered budgets (0.05 … 100, from
/// core/config/config_validation.h), a spin box for exact values, and "∞ — no privacy".
/// value() is +∞ when the check box is ticked. A typed value outside the offered range is
/// kept as typed, never silently changed: problem() says why it is refused (the experiment
/// panel shows it and disables Run), and the slider rests at the nearer end.
class EpsilonControl : public QWidget {
    Q_OBJECT
public:
    explicit EpsilonControl(QWidget* parent = nullptr);

    /// The budget asked for, also when it is refused (see problem()).
    double value() const;
    /// Shows `epsilon` as it is (a value outside the offered range is refused, not clamped).
    void setValue(double epsilon);
    /// Disables the finite choices (non-private algorithms) and shows ∞.
    void setPrivacyAvailable(bool available);
    /// Empty when value() is an offered budget; otherwise why it is refused, in plain words.
    QString problem() const;

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
    /// Marks the spin box while its value is refused.
    void showValidity();

    QSlider* m_slider;
    QDoubleSpinBox* m_spin;
    QCheckBox* m_infinity;
    bool m_privacyAvailable = true;
    bool m_updating = false;
};

}  // namespace pfa::ui
