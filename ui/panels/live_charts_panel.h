#pragma once

#include <QColor>
#include <QList>
#include <QPointF>
#include <QTimer>
#include <QWidget>
#include <array>
#include <memory>
#include <vector>

#include "core/config/run_result.h"
#include "ui/charts/chart_export.h"
#include "ui/panels/live_chart.h"
#include "ui/panels/live_curve.h"
#include "ui/runs/run_entry.h"

class QChart;
class QComboBox;
class QValueAxis;
class QLineSeries;
class QLabel;

namespace pfa::ui {

class ChartView;

/// The four live charts — training loss, test error (the excess risk instead for runs that
/// report it, with the share of units an outlier filter removed dashed), fairness violation
/// (with ERMI) and privacy spent (with the target ε as a dashed line) — for the running run and
/// up to two runs selected in the history for comparison.
///
/// Incoming epochs are buffered and the charts redrawn by a single-shot timer at most 30 times
/// a second, with one QXYSeries::replace() per series, explicit axis ranges and non-finite
/// values left out. Long curves are cut down to about two points per pixel of the plot
/// (lowest and highest per pixel, so spikes stay) and may be smoothed by a moving average, the
/// raw curve then drawn faintly behind; the privacy chart is never smoothed (it shows what the
/// accountant certified).
///
/// One curve is drawn in the colour of its ε; several curves (a comparison) each get their own
/// colour from the comparison palette — the selected runs the first colours in selection
/// order, a running run the third — so that curves of equal ε stay apart. A run started
/// while runs are selected is drawn next to them (the axes cover all curves); the shared
/// legend says which curve is running and which are selected.
class LiveChartsPanel : public QWidget {
    Q_OBJECT
public:
    /// Most finished runs drawn next to the live one.
    static constexpr int kMaxCompared = 2;
    /// Moving-average windows offered (points; 0 = no smoothing).
    static const std::vector<int>& smoothingWindows();

    explicit LiveChartsPanel(QWidget* parent = nullptr);

    /// Starts showing a new live run (its curves replace the previous live curves; runs shown
    /// for comparison stay).
    void beginLiveRun(int runId, const pfa::TrainConfig& config);
    /// Appends epochs of the live run `runId` (ignored for any other id).
    void appendLive(int runId, const std::vector<pfa::EpochMetrics>& metrics);
    /// The live run ended; its curves stay until the next run or a selection.
    void endLiveRun(int runId, bool diverged);
    /// Stops showing live data at once (Stop/Reset): nothing more of that run is drawn.
    void detachLive();
    /// Removes the live curves (e.g. when the user selects runs while nothing is running).
    void dropLive();
    /// Shows finished runs (history selection, at most kMaxCompared) next to the live curves.
    void showRuns(const std::vector<RunEntryPtr>& runs);
    /// Removes everything.
    void clear();

    /// Moving-average window in points (0 or 1 = off).
    void setSmoothingWindow(int points);
    int smoothingWindow() const { return m_smoothing; }
    QComboBox* smoothingBox() const { return m_smoothingBox; }

    /// Id of the live run drawn (running or ended), 0 if none.
    int shownLiveRunId() const { return m_hasLive ? m_live.runId : 0; }
    /// The colour of run `runId`'s curves, invalid when it is not drawn.
    QColor colorOfRun(int runId) const;

    /// Epochs of the live run drawn in the test-error chart at the last redraw (for tests; the
    /// series itself may hold fewer points, cut down to the chart's width).
    int livePointCount() const;
    /// The four chart views, in display order.
    const std::array<ChartView*, 4>& views() const { return m_views; }
    /// The four live charts, for File → Export chart.
    std::vector<ChartExportEntry> exportEntries() const;
    /// Forces a redraw now (tests, export).
    void refreshNow();
    /// The tag on the training-loss chart ("" when hidden): private runs' training loss is a
    /// diagnostic computed exactly on the private rows.
    QString lossChartTag() const;
    /// The shared legend above the charts (rich text) and the note on the dashed and faint lines.
    QString legendText() const;
    QLabel* noteLabel() const { return m_note; }

    /// The parts of one chart, for tests: a run's main line, its faint raw line (empty unless
    /// smoothing is on) and its dashed line (ERMI or target ε), in the order of the curves
    /// shown (live first); the legend key of the dashed lines.
    struct SeriesSet {
        QLineSeries* line = nullptr;
        QLineSeries* raw = nullptr;
        QLineSeries* dashed = nullptr;
    };
    std::vector<SeriesSet> seriesOf(int chart) const;
    QLineSeries* dashedKeyOf(int chart) const { return m_charts[chart]->dashedKey(); }
    QValueAxis* xAxisOf(int chart) const { return m_charts[chart]->xAxis(); }
    QValueAxis* yAxisOf(int chart) const { return m_charts[chart]->yAxis(); }
    ChartView* viewOf(int chart) const { return m_charts[chart]->view(); }
    QChart* chartOf(int chart) const { return m_charts[chart]->chart(); }

private:
    void scheduleRefresh();
    void refresh();
    /// The curves drawn: the live one first, then the selected runs.
    std::vector<LiveCurve*> curves();

    QLabel* m_legend = nullptr;
    QLabel* m_note = nullptr;
    QComboBox* m_smoothingBox = nullptr;
    std::array<ChartView*, 4> m_views{};
    std::array<std::unique_ptr<LiveChart>, 4> m_charts;
    LiveCurve m_live;
    int m_liveRunId = 0;
    bool m_hasLive = false;
    std::vector<LiveCurve> m_selected;
    int m_smoothing = 0;
    QTimer m_refreshTimer;
};

}  // namespace pfa::ui
