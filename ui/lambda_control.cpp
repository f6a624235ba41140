#include "ui/lambda_control.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QSlider>
#include <cmath>

namespace pfa::ui {

namespace {
constexpr int kStepsPerUnit = 20;  // slider resolution 0.05
constexpr double kSliderMax = 10.0;
}  // namespace

LambdaControl::LambdaControl(QWidget* parent) : QWidget(parent) {
    m_slider = new QSlider(Qt::Horizontal);
    m_slider->setRange(0, static_cast<int>(kSliderMax * kStepsPerUnit));
    m_slider->setToolTip(tr("Fairness weight λ: 0 ignores fairness; larger values trade "
                            "accuracy for smaller differences between groups"));
    m_spin = new QDoubleSpinBox();
    m_spin->setRange(0.0, 1000.0);
    m_spin->setDecimals(2);
    m_spin->setSingleStep(0.25);
    m_spin->setToolTip(tr("Exact fairness weight λ (values above 10 are allowed here)"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_spin);

    connect(m_slider, &QSlider::valueChanged, this, [this](int position) {
        if (m_updating) return;
        m_updating = true;
        m_spin->setValue(static_cast<double>(position) / kStepsPerUnit);
        m_updating = false;
        emit valueChanged(value());
        if (m_slider->isSliderDown()) emit sliderDragged(value());
    });
    connect(m_spin, &QDoubleSpinBox::valueChanged, this, [this](double lambda) {
        if (m_updating) return;
        m_updating = true;
        m_slider->setValue(static_cast<int>(std::lround(std::min(lambda, kSliderMax) * kStepsPerUnit)));
        m_updating = false;
        emit valueChanged(value());
    });
    setValue(1.0);
}

double LambdaControl::value() const { return m_available ? m_spin->value() : 0.0; }

void LambdaControl::setValue(double lambda) {
    m_updating = true;
    m_spin->setValue(lambda);
    m_slider->setValue(static_cast<int>(std::lround(std::min(lambda, kSliderMax) * kStepsPerUnit)));
    m_updating = false;
    emit valueChanged(value());
}

void LambdaControl::setFairnessAvailable(bool available) {
    m_available = available;
    m_slider->setEnabled(available);
    m_spin->setEnabled(available);
}

}  // namespace pfa::ui
