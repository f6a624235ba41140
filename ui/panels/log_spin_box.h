#pragma once

#include <QDoubleSpinBox>
#include <vector>

namespace pfa::ui {

/// A QDoubleSpinBox for a quantity whose useful values span several decades (the fairness
/// weight λ). It shows significant digits instead of fixed decimals (0.001 and 2500, not 0.00
/// and 2500.00) and reads typed text to the same precision, so what it shows is its value.
/// Its arrows step through the series 1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^k (about ×1.25
/// per step; Page Up/Down, ten steps, is exactly ×10) instead of adding a constant. Between
/// the minimum and the smallest positive value of the series there is no step: from the
/// minimum (typically 0) the next value up is `smallestPositive`, and back.
class LogSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    explicit LogSpinBox(QWidget* parent = nullptr);

    /// Significant digits shown and read (default 4).
    void setSignificantDigits(int digits);
    int significantDigits() const { return m_digits; }
    /// The smallest positive value the arrows step to (default 0.001).
    void setSmallestPositive(double value);
    double smallestPositive() const { return m_smallestPositive; }

    /// The value `steps` arrow steps away from `value` (negative: down), within the range.
    double steppedValue(double value, int steps) const;

    void stepBy(int steps) override;
    QString textFromValue(double value) const override;
    double valueFromText(const QString& text) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

private:
    /// The arrow series within the range, ascending (the minimum first when it lies below
    /// the smallest positive value).
    std::vector<double> series() const;
    /// How much wider than the minimum's and maximum's texts (on which QAbstractSpinBox bases
    /// its size) the widest value with all significant digits is, e.g. "0.001234".
    int extraTextWidth() const;

    int m_digits = 4;
    double m_smallestPositive = 1e-3;
};

}  // namespace pfa::ui
