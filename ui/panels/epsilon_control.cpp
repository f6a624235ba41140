#include "ui/panels/epsilon_control.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLocale>
#include <QSlider>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/config/config_validation.h"
#include "core/util/number_list.h"

namespace pfa::ui {

namespace {

// The offered budgets: one range for the GUI, the sweep dialog and the command line.
constexpr double kMin = pfa::kSmallestOfferedEpsilon, kMax = pfa::kLargestOfferedEpsilon;
constexpr int kSteps = 1000;
constexpr int kSignificantDigits = 4;

/// A spin box that keeps whatever number is typed (0.001, 1000, −5), so that a refused value
/// stays on show with its reason instead of being replaced by the previous one or clamped
/// without a word. It shows significant digits (0.001, 2, 37.5 — not 2.000), and its arrows
/// stay within the offered range (from outside it, the first step goes to the nearer end).
class EpsilonSpinBox : public QDoubleSpinBox {
public:
    EpsilonSpinBox() {
        setDecimals(6);
        setRange(-1e9, 1e9);
        setSingleStep(0.1);
    }

    QString textFromValue(double value) const override {
        if (value == 0.0) return locale().toString(0);
        const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
        const int shown = std::clamp(kSignificantDigits - 1 - magnitude, 0, decimals());
        QString text = locale().toString(value, 'f', shown);
        text.remove(locale().groupSeparator());
        if (shown > 0) {
            while (text.endsWith(locale().zeroDigit())) text.chop(locale().zeroDigit().size());
            if (text.endsWith(locale().decimalPoint())) text.chop(locale().decimalPoint().size());
        }
        return text;
    }

    double valueFromText(const QString& text) const override {
        // As shown: the value is what the box says.
        return pfa::roundToSignificantDigits(QDoubleSpinBox::valueFromText(text),
                                             kSignificantDigits);
    }

    void stepBy(int steps) override {
        interpretText();
        const double current = value();
        if (current < kMin || current > kMax) {
            setValue(std::clamp(current, kMin, kMax));
        } else {
            setValue(std::clamp(
                pfa::roundToSignificantDigits(current + steps * singleStep(), kSignificantDigits),
                kMin, kMax));
        }
        selectAll();
    }

    // Sized for the offered values, as when the range was 0.05 … 100 with three decimals; the
    // wide range that keeps refused values would otherwise make it (and the panel) wider.
    QSize sizeHint() const override {
        return QDoubleSpinBox::sizeHint() - QSize(surplusWidth(), 0);
    }
    QSize minimumSizeHint() const override {
        return QDoubleSpinBox::minimumSizeHint() - QSize(surplusWidth(), 0);
    }

protected:
    StepEnabled stepEnabled() const override {
        if (isReadOnly() || !isEnabled()) return StepNone;
        StepEnabled enabled = StepNone;
        if (value() < kMax) enabled |= StepUpEnabled;
        if (value() > kMin) enabled |= StepDownEnabled;
        return enabled;
    }

private:
    int surplusWidth() const {
        const QFontMetrics metrics(font());
        const int sized = std::max(metrics.horizontalAdvance(textFromValue(minimum())),
                                   metrics.horizontalAdvance(textFromValue(maximum())));
        return std::max(0, sized - metrics.horizontalAdvance(QStringLiteral("100.000")));
    }
};

QString numberText(double value) {
    QLocale locale;
    locale.setNumberOptions(QLocale::OmitGroupSeparator);  // 1000, as typed, not 1,000
    return locale.toString(value, 'g', 6);
}

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
    m_slider->setToolTip(tr("Privacy budget ε on a logarithmic scale from %1 (very private, "
                            "noisy) to %2 (barely private). Smaller ε means more noise and a "
                            "stronger guarantee.")
                             .arg(numberText(kMin), numberText(kMax)));
    m_spin = new EpsilonSpinBox();
    m_spin->setToolTip(tr("Exact privacy budget ε for the whole training run: from %1 to %2. "
                          "A value outside is refused (Run stays off until ε is in range).")
                           .arg(numberText(kMin), numberText(kMax)));
    m_infinity = new QCheckBox(tr("∞ — no privacy"));
    m_infinity->setToolTip(
        tr("Train without differential privacy (ε = ∞): no noise, no "
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
        showValidity();
        if (m_updating) return;
        m_updating = true;
        m_slider->setValue(positionFor(epsilon));  // a refused value: the nearer end
        m_updating = false;
        emit valueChanged(value());
    });
    connect(m_infinity, &QCheckBox::toggled, this, [this] {
        syncEnabled();
        showValidity();
        emit valueChanged(value());
    });
    setValue(1.0);
}

double EpsilonControl::value() const {
    if (!m_privacyAvailable || m_infinity->isChecked()) return INFINITY;
    return m_spin->value();
}

QString EpsilonControl::problem() const {
    const double epsilon = value();
    if (pfa::offeredEpsilonProblem(epsilon).empty()) return QString();
    const QString range = tr("Use a value from %1 to %2 (smaller is more private), or tick ∞ for "
                             "no privacy.")
                              .arg(numberText(kMin), numberText(kMax));
    if (!(epsilon > 0)) {
        return tr("ε = %1 is refused: a privacy budget must be positive. %2")
            .arg(numberText(epsilon), range);
    }
    if (epsilon < kMin) {
        return tr("ε = %1 is refused: the smallest budget offered is %2. %3")
            .arg(numberText(epsilon), numberText(kMin), range);
    }
    return tr("ε = %1 is refused: the largest budget offered is %2 (above it a run is hardly "
              "private). %3")
        .arg(numberText(epsilon), numberText(kMax), range);
}

void EpsilonControl::showValidity() {
    // The refused number in the error colour, so the eye finds what the message is about.
    QPalette palette = m_spin->palette();
    palette.setColor(QPalette::Text, problem().isEmpty() ? QWidget::palette().color(QPalette::Text)
                                                         : QColor(0xb0, 0x00, 0x20));
    m_spin->setPalette(palette);
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
    showValidity();
    emit valueChanged(value());
}

void EpsilonControl::setPrivacyAvailable(bool available) {
    m_privacyAvailable = available;
    syncEnabled();
    showValidity();
}

void EpsilonControl::syncEnabled() {
    const bool finite = m_privacyAvailable && !m_infinity->isChecked();
    m_slider->setEnabled(finite);
    m_spin->setEnabled(finite);
    m_infinity->setEnabled(m_privacyAvailable);
    // Short enough for the panel at 1280x720; the tooltip says the rest.
    m_infinity->setText(m_privacyAvailable ? tr("∞ — no privacy") : tr("∞ — not private"));
    m_infinity->setToolTip(m_privacyAvailable
                               ? tr("Train without differential privacy (ε = ∞): no noise, no "
                                    "clipping, no guarantee")
                               : tr("This algorithm is not private: it always runs at ε = ∞"));
}

}  // namespace pfa::ui
