#pragma once

#include <QWidget>
#include <vector>

namespace pfa::ui {

/// A compact histogram of how many rows each unit (person or silo) of a data set holds, for the
/// data-set card. Up to kMaxBars units get one bar each, largest first (a bar's tooltip names
/// the unit), which shows a skewed spread as well as an even one; with more units (bars
/// thinner than a pixel) the bars count the units per range of rows per unit.
class UnitHistogram : public QWidget {
    Q_OBJECT
public:
    /// One unit and its rows (training and test rows together).
    struct Unit {
        QString name;
        long rows = 0;
    };
    /// Above this many units, the bars are ranges of rows per unit.
    static constexpr int kMaxBars = 400;

    explicit UnitHistogram(QWidget* parent = nullptr);

    /// Shows `units`; `unitWord` and `unitsWord` name one and several of them ("person",
    /// "people"), `rowsWord` their rows in the plural ("recordings", "rows").
    void setUnits(std::vector<Unit> units, const QString& unitWord, const QString& unitsWord,
                  const QString& rowsWord);
    const std::vector<Unit>& units() const { return m_units; }
    /// Whether the bars are ranges of rows per unit (many units) rather than one per unit.
    bool binned() const { return m_units.size() > static_cast<std::size_t>(kMaxBars); }
    /// The bars drawn, left to right: their height, and the text of their tooltip.
    struct Bar {
        long value = 0;
        QString tip;
    };
    const std::vector<Bar>& bars() const { return m_bars; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    /// The plot area (bars), inside the axis labels.
    QRect plotRect() const;
    int barAt(const QPoint& position) const;

    std::vector<Unit> m_units;
    std::vector<Bar> m_bars;
    QString m_unitWord;
    QString m_unitsWord;
    QString m_rowsWord;
    QString m_axisCaption;
};

}  // namespace pfa::ui
