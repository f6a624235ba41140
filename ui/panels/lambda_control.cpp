#include "ui/panels/lambda_control.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QSlider>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/util/number_list.h"
#include "ui/panels/log_spin_box.h"

namespace pfa::ui {

namespace {

// Mantissas of one decade of slider positions: close to log-uniform (×1.07 … ×1.17 per
// position) and readable when a drag stops anywhere. They include every value the spin box
// arrows step to, so slider and arrows agree.
constexpr double kSliderMantissas[LambdaControl::kPositionsPerDecade] = {
    1, 1.1, 1.25, 1.4, 1.5, 1.75, 2, 2.25, 2.5, 2.75, 3, 3.5, 4, 4.5, 5, 5.5, 6, 7, 8, 9};
constexpr int kSmallestExponent = -3;  // 10⁻³
constexpr int kDecades = 7;            // 10⁻³ … 10⁴
constexpr int kSignificantDigits = 4;  // as the values that log: generators produce

/// Decade labels under the slider, each centred where the slider's handle centre is at that
/// value (so they stay right whatever the style and width), as many as fit.
class LambdaScale : public QWidget {
public:
    explicit LambdaScale(QSlider* slider) : m_slider(slider) {
        QFont small = font();
        if (small.pointSizeF() > 0) small.setPointSizeF(small.pointSizeF() * 0.85);
        setFont(small);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    }

    QSize sizeHint() const override { return {0, fontMetrics().height()}; }
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter painter(this);
        painter.setPen(palette().color(isEnabled() ? QPalette::Active : QPalette::Disabled,
                                       QPalette::WindowText));
        const QFontMetrics metrics = fontMetrics();
        // 0, 1 and 10⁴ always; then the other even decades, then the odd ones, each group
        // only if all its labels fit (labels on one side only would read as an uneven
        // scale). 10⁻³ never: it is one position from 0.
        const std::vector<std::vector<Mark>> groups = {
            {{0, QStringLiteral("0")}, decade(0), decade(4)},
            {decade(-2), decade(2)},
            {decade(-1), decade(1), decade(3)}};
        struct Label {
            int left, width;
            QString text;
        };
        std::vector<Label> placed;
        const int gap = metrics.horizontalAdvance(QLatin1Char(' '));
        const auto fits = [&](const Label& label) {
            return std::all_of(placed.begin(), placed.end(), [&](const Label& other) {
                return label.left + label.width + gap <= other.left ||
                       other.left + other.width + gap <= label.left;
            });
        };
        for (const std::vector<Mark>& group : groups) {
            std::vector<Label> labels;
            for (const Mark& mark : group) {
                const int width = metrics.horizontalAdvance(mark.text);
                const int centred = xAt(mark.position) - width / 2;
                labels.push_back(
                    {std::clamp(centred, 0, std::max(0, this->width() - width)), width, mark.text});
            }
            if (!std::all_of(labels.begin(), labels.end(), fits)) break;
            placed.insert(placed.end(), labels.begin(), labels.end());
        }
        for (const Label& label : placed) {
            painter.drawText(label.left, metrics.ascent(), label.text);
        }
    }

private:
    /// A labelled slider position.
    struct Mark {
        int position;
        QString text;
    };

    /// The mark of 10^exponent, e.g. "10⁻²" at the first position of that decade.
    static Mark decade(int exponent) {
        const int position =
            1 + (exponent - kSmallestExponent) * LambdaControl::kPositionsPerDecade;
        if (exponent == 0) return {position, QStringLiteral("1")};
        if (exponent == 1) return {position, QStringLiteral("10")};
        static const QString superscriptDigits = QStringLiteral("⁰¹²³⁴⁵⁶⁷⁸⁹");
        QString text = QStringLiteral("10");
        if (exponent < 0) text += QChar(0x207B);  // superscript minus
        for (QChar digit : QString::number(std::abs(exponent))) {
            text += superscriptDigits[digit.digitValue()];
        }
        return {position, text};
    }

    /// The x (in this widget) of the slider handle's centre at `position`.
    int xAt(int position) const {
        QStyleOptionSlider option;
        option.initFrom(m_slider);
        option.orientation = m_slider->orientation();
        option.minimum = m_slider->minimum();
        option.maximum = m_slider->maximum();
        option.sliderPosition = position;
        option.sliderValue = position;
        option.singleStep = m_slider->singleStep();
        option.pageStep = m_slider->pageStep();
        option.tickPosition = m_slider->tickPosition();
        option.tickInterval = m_slider->tickInterval();
        option.upsideDown =
            m_slider->invertedAppearance() != (m_slider->layoutDirection() == Qt::RightToLeft);
        const QStyle* style = m_slider->style();
        const QRect groove =
            style->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderGroove, m_slider);
        const QRect handle =
            style->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, m_slider);
        // As QSlider maps pixels to values: the handle's left edge travels over the groove
        // less one handle length.
        const int offset =
            QStyle::sliderPositionFromValue(option.minimum, option.maximum, position,
                                            groove.width() - handle.width(), option.upsideDown);
        const QPoint centre(groove.x() + offset + handle.width() / 2, 0);
        return mapFrom(parentWidget(), m_slider->mapTo(parentWidget(), centre)).x();
    }

    QSlider* m_slider;
};

}  // namespace

double LambdaControl::lambdaAt(int position) {
    if (position <= 0) return 0.0;
    const int index = std::min(position, lastPosition()) - 1;
    const int exponent = kSmallestExponent + index / kPositionsPerDecade;
    const double mantissa = kSliderMantissas[index % kPositionsPerDecade];
    // Rounded so that 1.1 × 10⁻³ is 0.0011 exactly as typed, not 0.0011000000000000001.
    return pfa::roundToSignificantDigits(mantissa * std::pow(10.0, exponent), kSignificantDigits);
}

int LambdaControl::positionFor(double lambda) {
    if (!(lambda > 0.0)) return 0;
    int best = 1;
    double bestDistance = INFINITY;
    for (int position = 1; position <= lastPosition(); ++position) {
        const double distance = std::fabs(std::log(lambda / lambdaAt(position)));
        if (distance < bestDistance) {
            best = position;
            bestDistance = distance;
        }
    }
    return best;
}

int LambdaControl::lastPosition() { return 1 + kDecades * kPositionsPerDecade; }

LambdaControl::LambdaControl(QWidget* parent) : QWidget(parent) {
    m_slider = new QSlider(Qt::Horizontal);
    m_slider->setRange(0, lastPosition());
    m_slider->setPageStep(kPositionsPerDecade);  // Page Up/Down: one decade
    m_slider->setToolTip(
        tr("Fairness weight λ on a logarithmic scale: leftmost is 0 (fairness "
           "ignored), then 0.001 … 10000. Larger values trade accuracy for smaller "
           "differences between groups; on real data useful values often lie "
           "between 0.01 and the thousands."));
    m_spin = new LogSpinBox();
    m_spin->setRange(0.0, kLargest);
    m_spin->setSmallestPositive(kSmallestPositive);
    m_spin->setSignificantDigits(kSignificantDigits);
    m_spin->setToolTip(
        tr("Exact fairness weight λ: 0, or 0.001 … 10000 with four significant "
           "digits. The arrows step about ×1.25 (1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, "
           "8 × 10ᵏ), Page Up/Down ×10."));
    m_scale = new LambdaScale(m_slider);
    m_scale->setToolTip(m_slider->toolTip());
    // The scale sits under the slider beside the spin box, so together they are about as
    // tall as the spin box: the experiment panel grows by a few pixels, not by a line (it
    // must fit a 768-pixel-high screen without scrolling).
    auto* sliderColumn = new QVBoxLayout();
    sliderColumn->setSpacing(0);
    sliderColumn->addWidget(m_slider);
    sliderColumn->addWidget(m_scale);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(sliderColumn, 1);
    layout->addWidget(m_spin, 0, Qt::AlignVCenter);

    connect(m_slider, &QSlider::valueChanged, this, [this](int position) {
        if (m_updating) return;
        m_updating = true;
        m_spin->setValue(lambdaAt(position));
        m_updating = false;
        emit valueChanged(value());
        if (m_slider->isSliderDown()) emit sliderDragged(value());
    });
    connect(m_spin, &QDoubleSpinBox::valueChanged, this, [this](double lambda) {
        if (m_updating) return;
        m_updating = true;
        m_slider->setValue(positionFor(lambda));
        m_updating = false;
        emit valueChanged(value());
    });
    setValue(1.0);
}

QDoubleSpinBox* LambdaControl::spinBox() const { return m_spin; }

void LambdaControl::setStacked(const QString& label) {
    delete layout();
    m_label = new QLabel(label, this);
    m_label->setBuddy(m_spin);
    auto* top = new QHBoxLayout();
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_label);
    top->addStretch(1);
    top->addWidget(m_spin);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addLayout(top);
    column->addWidget(m_slider);
    column->addWidget(m_scale);
}

double LambdaControl::value() const { return m_available ? m_spin->value() : 0.0; }

void LambdaControl::setValue(double lambda) {
    const double shown =
        pfa::roundToSignificantDigits(std::clamp(lambda, 0.0, kLargest), kSignificantDigits);
    m_updating = true;
    m_spin->setValue(shown);
    m_slider->setValue(positionFor(shown));
    m_updating = false;
    emit valueChanged(value());
}

void LambdaControl::setFairnessAvailable(bool available) {
    m_available = available;
    m_slider->setEnabled(available);
    m_spin->setEnabled(available);
    m_scale->setEnabled(available);
    if (m_label) m_label->setEnabled(available);
}

}  // namespace pfa::ui
