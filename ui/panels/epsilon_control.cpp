#include "ui/panels/epsilon_control.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QSlider>
#include <QVBoxLayout>
#include <cmath>

namespace pfa::ui {

namespace {
constexpr double kMin = 0.05, kMax = 100.0;
constexpr int kSteps = 1000;
}  // namespace

int EpsilonControl::positionFor(double epsilon) {
    const double t = (std::log(std::clamp(epsilon, kMin, kMax)) - std::log(kMin)) /
                     (std::log(kMax) - std::log(kMin));
    return static_cast<int>(std::lround(t * kSteps));
}

double EpsilonControl::epsilonAt(int position) {
    const double t = static_cast<double>(position) / kSteps;
    const double raw = std::exp(std::log(kMin) + t * (std::log(kMax) - std::log(kMin)));
    // Round to two significant digits so dragging lands on readable values (0.5, 1.2, 30).
    const double power = std::pow(10.0, std::floor(std::log10(raw)) - 1);
    return std::round(raw / power) * power;
}

EpsilonControl::EpsilonControl(QWidget* parent) : QWidget(parent) {
    m_slider = new QSlider(Qt::Horizontal);
    m_slider->setRange(0, kSteps);
    m_slider->setToolTip(tr("Privacy budget ε on a logarithmic scale from 0.05 (very private, "
                            "noisy) to 100 (barely private). Smaller ε means more noise and a "
                            "stronger guarantee."));
    m_spin = new QDoubleSpinBox();
    m_spin->setRange(kMin, kMax);
    m_spin->setDecimals(3);
    m_spin->setSingleStep(0.1);
    m_spin->setToolTip(tr("Exact privacy budget ε for the whole training run"));
    m_infinity = new QCheckBox(tr("∞ — no privacy"));
    m_infinity->setToolTip(tr("Train without differential privacy (ε = ∞): no noise, no "
                              "clipping, no guarantee"));
    auto* row = new QHBoxLayout();
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_slider, 1);
    row->addWidget(m_spin);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(row);
    layout->addWidget(m_infinity);

    connect(m_slider, &QSlider::valueChanged, this, [this](int position) {
        if (m_updating) return;
        m_updating = true;
        m_spin->setValue(epsilonAt(position));
        m_updating = false;
        emit valueChanged(value());
        if (m_slider->isSliderDown()) emit sliderDragged(value());
    });
    connect(m_spin, &QDoubleSpinBox::valueChanged, this, [this](double epsilon) {
        if (m_updating) return;
        m_updating = true;
        m_slider->setValue(positionFor(epsilon));
        m_updating = false;
        emit valueChanged(value());
    });
    connect(m_infinity, &QCheckBox::toggled, this, [this] {
        syncEnabled();
        emit valueChanged(value());
    });
    setValue(1.0);
}

double EpsilonControl::value() const {
    if (!m_privacyAvailable || m_infinity->isChecked()) return INFINITY;
    return m_spin->value();
}

void EpsilonControl::setValue(double epsilon) {
    m_updating = true;
    const bool infinite = !std::isfinite(epsilon);
    m_infinity->setChecked(infinite);
    if (!infinite) {
        m_spin->setValue(epsilon);
        m_slider->setValue(positionFor(epsilon));
    }
    m_updating = false;
    syncEnabled();
    emit valueChanged(value());
}

void EpsilonControl::setPrivacyAvailable(bool available) {
    m_privacyAvailable = available;
    syncEnabled();
}

void EpsilonControl::syncEnabled() {
    const bool finite = m_privacyAvailable && !m_infinity->isChecked();
    m_slider->setEnabled(finite);
    m_spin->setEnabled(finite);
    m_infinity->setEnabled(m_privacyAvailable);
    m_infinity->setText(m_privacyAvailable ? tr("∞ — no privacy")
                                           : tr("∞ — this algorithm is not private"));
}

}  // namespace pfa::ui
