#pragma once

#include <QColor>
#include <QStringList>
#include <QWidget>
#include <array>
#include <vector>

#include "core/config/run_result.h"

class QBarCategoryAxis;
class QChart;
class QLabel;
class QValueAxis;

namespace pfa::ui {

class ChartView;
class SeriesLegend;

/// Box-and-whisker plot of the test error per unit (silo or user) — how evenly a federated or
/// personalised model serves its units, beside the pooled test error. Boxes span the quartiles,
/// the bar inside is the median and the whiskers reach the best and the worst unit. Categories
/// along x (one run, or the ε values of a sweep), one box series per line of runs, side by side.
class UnitSpreadView : public QWidget {
    Q_OBJECT
public:
    explicit UnitSpreadView(QWidget* parent = nullptr);

    /// One box series: its name, colour and, per category, the unit values (empty: no box).
    struct Series {
        QString name;
        QColor color;
        std::vector<std::vector<double>> values;
    };

    /// Draws `series` over `categories`; `unitKind` ("silo", "user") titles the chart ("Test
    /// error per silo"). With no values at all, shows `emptyReason` instead.
    void setSeries(const QString& unitKind, const QStringList& categories,
                   const std::vector<Series>& series, const QString& emptyReason);
    /// One run: a box over its units, or the reason it has none.
    void showRun(const pfa::RunResult& result, const QString& label);

    /// Lowest, lower quartile, median, upper quartile, highest of the finite `values`
    /// (quartiles interpolated linearly between order statistics); NaN when there are none.
    static std::array<double, 5> fiveNumbers(std::vector<double> values);
    /// "Test error per silo", "Test error per user", "Test error per unit".
    static QString titleFor(const QString& unitKind);

    int boxCount() const { return m_boxes; }
    bool isEmpty() const;
    QString emptyReason() const;
    ChartView* view() const { return m_view; }
    QChart* chart() const { return m_chart; }

private:
    ChartView* m_view = nullptr;
    QChart* m_chart = nullptr;
    SeriesLegend* m_legend = nullptr;
    QBarCategoryAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    int m_boxes = 0;
    QString m_emptyReason;
};

}  // namespace pfa::ui
