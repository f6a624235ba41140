#include "ui/panels/log_spin_box.h"

#include <QFontMetrics>
#include <QLocale>
#include <QStyle>
#include <algorithm>
#include <cmath>

#include "core/util/number_list.h"

namespace pfa::ui {

namespace {
// Mantissas of the arrow series: steps of ×1.2 … ×1.33, ten per decade, all easy to read.
constexpr double kSeriesMantissas[] = {1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8};
}  // namespace

LogSpinBox::LogSpinBox(QWidget* parent) : QDoubleSpinBox(parent) { setSignificantDigits(m_digits); }

void LogSpinBox::setSignificantDigits(int digits) {
    m_digits = std::max(1, digits);
    // Enough decimals for every digit of the smallest positive value (QDoubleSpinBox rounds
    // every value to decimals(); it never shows them, textFromValue does).
    setDecimals(
        std::max(0, m_digits - 1 - static_cast<int>(std::floor(std::log10(m_smallestPositive)))));
    updateGeometry();
}

void LogSpinBox::setSmallestPositive(double value) {
    m_smallestPositive = value;
    setSignificantDigits(m_digits);
}

std::vector<double> LogSpinBox::series() const {
    std::vector<double> values;
    const auto add = [&](double value) {
        if (value >= minimum() && value <= maximum() && (values.empty() || value > values.back())) {
            values.push_back(value);
        }
    };
    if (minimum() < m_smallestPositive) add(minimum());
    add(m_smallestPositive);
    const int first = static_cast<int>(std::floor(std::log10(m_smallestPositive)));
    const int last =
        static_cast<int>(std::ceil(std::log10(std::max(maximum(), m_smallestPositive))));
    for (int exponent = first; exponent <= last; ++exponent) {
        for (double mantissa : kSeriesMantissas) {
            // Rounded so that 1.25 × 10⁻³ is the double nearest to 0.00125, as typed.
            add(pfa::roundToSignificantDigits(mantissa * std::pow(10.0, exponent), 6));
        }
    }
    add(maximum());
    return values;
}

double LogSpinBox::steppedValue(double value, int steps) const {
    if (steps == 0) return value;
    const std::vector<double> values = series();
    // A value typed between two series points steps to the neighbour in that direction.
    const double tolerance = 1e-9 * std::max(std::fabs(value), m_smallestPositive);
    if (steps > 0) {
        const auto above = std::find_if(values.begin(), values.end(),
                                        [&](double v) { return v > value + tolerance; });
        if (above == values.end()) return std::min(std::max(value, minimum()), maximum());
        const auto index = std::min<std::ptrdiff_t>(above - values.begin() + steps - 1,
                                                    static_cast<std::ptrdiff_t>(values.size()) - 1);
        return values[static_cast<std::size_t>(index)];
    }
    const auto below = std::find_if(values.rbegin(), values.rend(),
                                    [&](double v) { return v < value - tolerance; });
    if (below == values.rend()) return std::max(std::min(value, maximum()), minimum());
    const std::ptrdiff_t firstBelow = values.rend() - below - 1;  // forward index
    const auto index = std::max<std::ptrdiff_t>(firstBelow + steps + 1, 0);
    return values[static_cast<std::size_t>(index)];
}

void LogSpinBox::stepBy(int steps) {
    // Text typed but not yet taken (keyboard tracking off) is where the step starts, as in
    // QAbstractSpinBox::stepBy.
    interpretText();
    setValue(steppedValue(value(), steps));
    if (style()->styleHint(QStyle::SH_SpinBox_SelectOnStep, nullptr, this)) selectAll();
}

QString LogSpinBox::textFromValue(double value) const {
    const QLocale locale = this->locale();
    if (value == 0.0) return locale.toString(0);
    const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
    const int shownDecimals = std::clamp(m_digits - 1 - magnitude, 0, decimals());
    QString text = locale.toString(value, 'f', shownDecimals);
    if (!isGroupSeparatorShown()) text.remove(locale.groupSeparator());
    if (shownDecimals > 0) {
        // Trailing zeros after the decimal point say nothing: 0.5, not 0.5000.
        while (text.endsWith(locale.zeroDigit())) text.chop(locale.zeroDigit().size());
        if (text.endsWith(locale.decimalPoint())) text.chop(locale.decimalPoint().size());
    }
    return text;
}

double LogSpinBox::valueFromText(const QString& text) const {
    return pfa::roundToSignificantDigits(QDoubleSpinBox::valueFromText(text), m_digits);
}

int LogSpinBox::extraTextWidth() const {
    const QFontMetrics metrics(font());
    // All significant digits at the smallest magnitude: the widest text, e.g. "0.008888".
    const double widestValue = m_smallestPositive * (10.0 - std::pow(10.0, 1 - m_digits) * 1.2);
    const int widest = metrics.horizontalAdvance(textFromValue(widestValue));
    const int sized = std::max(metrics.horizontalAdvance(textFromValue(minimum())),
                               metrics.horizontalAdvance(textFromValue(maximum())));
    return std::max(0, widest - sized);
}

QSize LogSpinBox::sizeHint() const {
    return QDoubleSpinBox::sizeHint() + QSize(extraTextWidth(), 0);
}

QSize LogSpinBox::minimumSizeHint() const {
    return QDoubleSpinBox::minimumSizeHint() + QSize(extraTextWidth(), 0);
}

}  // namespace pfa::ui
