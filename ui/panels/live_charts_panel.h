#pragma once

#include <QTimer>
#include <QWidget>
#include <array>
#include <vector>

#include "core/train/run_result.h"
#include "ui/runs/run_entry.h"

class QChart;
class QGraphicsSimpleTextItem;
class QValueAxis;
class QLineSeries;
class QLabel;

namespace pfa::ui {

class ChartView;

/// The four live charts — training loss, test error, fairness violation (with ERMI) and
/// privacy spent (with the target ε as a dashed line) — for the running run and up to two
/// runs selected in the history for comparison.
///
/// Incoming epochs are buffered and the charts redrawn by a single-shot timer at most 30 times
/// a second, with one QXYSeries::replace() per series, explicit axis ranges and non-finite
/// values left out.
class LiveChartsPanel : public QWidget {
    Q_OBJECT
public:
    explicit LiveChartsPanel(QWidget* parent = nullptr);

    /// Starts showing a new live run (its curves replace the previous live curves).
    void beginLiveRun(int runId, const pfa::TrainConfig& config);
    /// Appends epochs of the live run `runId` (ignored for any other id).
    void appendLive(int runId, const std::vector<pfa::EpochMetrics>& metrics);
    /// The live run ended; its curves stay until the next run or a selection.
    void endLiveRun(int runId, bool diverged);
    /// Stops showing live data at once (Stop/Reset): nothing more of that run is drawn.
    void detachLive();
    /// Removes the live curves (e.g. when the user selects runs while nothing is running).
    void dropLive();
    /// Shows finished runs (history selection) next to the live curves.
    void showRuns(const std::vector<RunEntryPtr>& runs);
    /// Removes everything.
    void clear();

    /// Points currently drawn in the live test-error series (for tests).
    int livePointCount() const;
    /// The four chart views, in display order.
    const std::array<ChartView*, 4>& views() const { return m_views; }
    /// Forces a redraw now (tests, export).
    void refreshNow();
    /// The tag on the training-loss chart ("" when hidden): private runs' training loss is a
    /// diagnostic computed exactly on the private rows.
    QString lossChartTag() const;

private:
    struct Curve {
        QString shortLabel;   ///< "run 6" (chart legends)
        QString description;  ///< "run 6: dp-fermi, λ = 8, ε = 1" (shared legend)
        QString state;        ///< "running", "stopped", "diverged" or empty
        std::vector<pfa::EpochMetrics> metrics;
        double epsilonTarget = 0.0;
        bool isPrivate = false;
        int epochs = 1;
        bool live = false;
    };
    struct ChartParts {
        QChart* chart = nullptr;
        QValueAxis* x = nullptr;
        QValueAxis* y = nullptr;
        std::vector<QLineSeries*> lines;   // one per curve (and an ERMI line per curve)
        std::vector<QLineSeries*> extras;  // ERMI lines / target lines, one per curve
    };

    void scheduleRefresh();
    void refresh();
    std::vector<const Curve*> curves() const;
    void updateChart(int which, const std::vector<const Curve*>& shown);

    QLabel* m_legend = nullptr;
    /// "diagnostic — not private", drawn inside the training-loss plot area for private runs.
    QGraphicsSimpleTextItem* m_diagnosticTag = nullptr;
    std::array<ChartView*, 4> m_views{};
    std::array<ChartParts, 4> m_parts{};
    Curve m_live;
    int m_liveRunId = 0;
    bool m_hasLive = false;
    std::vector<Curve> m_selected;
    QTimer m_refreshTimer;
};

}  // namespace pfa::ui
