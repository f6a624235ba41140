#pragma once

#include <QWidget>

class QSlider;
class QDoubleSpinBox;

namespace pfa::ui {

/// The fairness weight λ: a slider over 0 … 10 and a spin box (which also accepts larger
/// values, up to 1000, for experiments beyond the slider's range).
class LambdaControl : public QWidget {
    Q_OBJECT
public:
    explicit LambdaControl(QWidget* parent = nullptr);

    double value() const;
    void setValue(double lambda);
    void setFairnessAvailable(bool available);

    QSlider* slider() const { return m_slider; }
    QDoubleSpinBox* spinBox() const { return m_spin; }

signals:
    void valueChanged(double lambda);
    void sliderDragged(double lambda);

private:
    QSlider* m_slider;
    QDoubleSpinBox* m_spin;
    bool m_available = true;
    bool m_updating = false;
};

}  // namespace pfa::ui
