#pragma once

#include <QStringList>
#include <QWidget>
#include <optional>
#include <vector>

#include "core/sweep/sweep_summary.h"
#include "core/sweep/theory_rates.h"

class QChart;
class QCategoryAxis;
class QLabel;
class QValueAxis;

namespace pfa::ui {

class ChartView;
class SeriesLegend;
class WhiskerItem;

/// Sweep view: test error (or excess risk, for runs that report it) against ε on a logarithmic
/// axis, one line per algorithm and variant — cells equal in every setting but ε and the seed
/// form a line (pfa::groupCells), named by the algorithm and whatever setting tells it from the
/// other lines of that algorithm (trust model, noise mode, personalisation, λ, …). Points are
/// the mean over the seeds with ± one standard error whiskers; the same settings at ε = ∞ are a
/// dotted level. Where the algorithm's theory rate is known (pfa::theoryRate), its shape is
/// drawn dashed in the line's colour with its one free constant fitted (pfa::fitRate: over the
/// non-private level when that was measured), labelled "rate (constants unknown, 1 fitted:
/// c = …)". Fits are closed-form sums over a handful of points: cheap on the GUI thread.
class ErrorEpsilonView : public QWidget {
    Q_OBJECT
public:
    explicit ErrorEpsilonView(QWidget* parent = nullptr);

    /// Shows `cells`; `rates[i]` is the rate shape of cell i's runs (none: no overlay).
    void setCells(const std::vector<pfa::SweepCell>& cells,
                  const std::vector<std::optional<pfa::RateShape>>& rates);

    /// One measured line, for tests.
    struct Line {
        QString name;
        bool excessRisk = false;        ///< plots excess risk, not test error
        int points = 0;                 ///< finite ε drawn
        bool overlay = false;           ///< a fitted rate is drawn
        double c = 0.0;                 ///< its constant
        bool overPrivateLevel = false;  ///< fitted over the measured non-private level
    };
    const std::vector<Line>& lines() const { return m_lines; }
    /// Legend names of the lines and overlays, in order.
    QStringList legendNames() const;
    QString yTitle() const;
    /// The note under the chart: the rate formula of each line and how it was fitted.
    QString noteText() const;
    ChartView* view() const { return m_view; }
    QChart* chart() const { return m_chart; }

private:
    /// What the dashed and dotted lines are and how c is fitted.
    static QString noteToolTip();

    ChartView* m_view = nullptr;
    QChart* m_chart = nullptr;
    SeriesLegend* m_legend = nullptr;
    QCategoryAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    WhiskerItem* m_whiskers = nullptr;
    QLabel* m_note = nullptr;
    std::vector<Line> m_lines;
};

}  // namespace pfa::ui
