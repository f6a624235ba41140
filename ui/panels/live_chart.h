#pragma once

#include <QString>
#include <vector>

#include "ui/panels/live_curve.h"

class QChart;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QValueAxis;
class QWidget;

namespace pfa::ui {

class ChartView;

/// One of the four live charts (live_chart::kLoss …): its chart, axes and view; per curve shown
/// a faint raw series (behind a smoothed curve), the main series and a dashed one (ERMI, the
/// target ε, or the share of units removed); the legend key of the dashed lines; on the
/// training-loss chart, the "diagnostic — not private" tag. update() draws the curves with
/// one replace() per series, explicit axis ranges and titles that say what is shown.
class LiveChart {
public:
    /// Builds chart `which`; its view is a child of `viewParent`.
    LiveChart(int which, QWidget* viewParent);
    LiveChart(const LiveChart&) = delete;
    LiveChart& operator=(const LiveChart&) = delete;

    /// Draws `shown` (live curve first), smoothed over `smoothing` points (never the privacy
    /// chart), and sets the titles, ranges and the empty view's message.
    void update(const std::vector<LiveCurve*>& shown, int smoothing);

    QChart* chart() const { return m_chart; }
    ChartView* view() const { return m_view; }
    QValueAxis* xAxis() const { return m_x; }
    QValueAxis* yAxis() const { return m_y; }
    /// The empty series whose only job is the dashed lines' legend key (null on the loss chart).
    QLineSeries* dashedKey() const { return m_key; }
    /// Series slots made so far (at least the number of curves last drawn).
    std::size_t slotCount() const { return m_lines.size(); }
    QLineSeries* line(std::size_t slot) const { return m_lines[slot]; }
    QLineSeries* raw(std::size_t slot) const { return m_raw[slot]; }
    QLineSeries* dashed(std::size_t slot) const { return m_extras[slot]; }
    /// The plot width the points were last cut down for.
    double plotWidth() const { return m_plotWidth; }
    /// The tag's text while it is shown (training-loss chart, private runs), else "".
    QString tagText() const;

private:
    int m_which;
    QChart* m_chart;
    QValueAxis* m_x;
    QValueAxis* m_y;
    ChartView* m_view;
    std::vector<QLineSeries*> m_raw;     // faint raw curve behind a smoothed one
    std::vector<QLineSeries*> m_lines;   // one per curve
    std::vector<QLineSeries*> m_extras;  // ERMI lines / target lines, one per curve
    QLineSeries* m_key = nullptr;
    QGraphicsSimpleTextItem* m_tag = nullptr;
    double m_plotWidth = 0.0;
};

}  // namespace pfa::ui
