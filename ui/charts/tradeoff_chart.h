#pragma once

#include <QWidget>
#include <set>
#include <vector>

#include "core/fairness/fairness_notion.h"
#include "ui/charts/chart_export.h"
#include "ui/charts/tradeoff_protection.h"
#include "ui/runs/run_entry.h"
#include "ui/support/palette.h"

class QChart;
class QComboBox;
class QLabel;
class QValueAxis;
class QLineSeries;
class QMenu;
class QScatterSeries;
class QToolButton;

namespace pfa::ui {

class ChartView;
class ChartLegend;
class EpsilonColorBar;
class TradeoffLegend;
class TradeoffPoints;

/// Error versus fairness violation, one point per finished run of ONE data set and fairness
/// notion (runs of different data sets or notions are not comparable, so they never share a
/// front): colour = ε on a fixed scale explained by a colour bar, marker = algorithm. Two
/// combo boxes above the chart choose the data set and notion shown; they follow the
/// experiment panel unless the user picks another. The Pareto front of the points shown is a
/// dashed step line and dominated points are faded. Runs finished in live mode form one
/// trail (a thin line through small dots, in the order they finished) instead of full points,
/// until "Clear trail". Hovering a point shows the run's settings; clicking it selects the run.
class TradeoffChart : public QWidget, public ExportDecorations {
    Q_OBJECT
public:
    explicit TradeoffChart(QWidget* parent = nullptr);

    /// Replaces the points with the completed runs among `runs`.
    void setRuns(const std::vector<RunEntryPtr>& runs);
    /// Highlights a run (0 = none).
    void setSelectedRun(int id);

    /// The experiment panel's data set (a datasetKey()) and notion. Shown when they differ from
    /// the last ones followed; a choice the user made in the chart's boxes holds until then.
    void followExperiment(const QString& datasetKey, pfa::FairnessNotion notion);
    /// Shows the runs of `datasetKey` for `notion` now.
    void showDataset(const QString& datasetKey, pfa::FairnessNotion notion);
    QString shownDataset() const { return m_shownDataset; }
    pfa::FairnessNotion shownNotion() const { return m_shownNotion; }
    /// The data set of a run: the datasetKey() its run key starts with (falls back to the ledger
    /// key, then the description, for records without a run key).
    static QString datasetKeyOf(const RunEntry& run);
    /// A short name for a data-set key, e.g. "adult (sex)", "synthetic".
    static QString datasetLabel(const QString& datasetKey);

    /// Shows where the running run currently stands (its latest epoch), so the point travels
    /// while it trains and while the user drags ε or λ in live mode. Drawn only while its data
    /// set and notion are the ones shown.
    void setLivePoint(int runId, const QString& datasetKey, const pfa::TrainConfig& config,
                      double violation, double error);
    /// Removes the live point (the run ended, was stopped or superseded).
    void clearLivePoint();
    /// True while a live point is drawn (tests).
    bool hasLivePoint() const;

    /// Puts run `id` (finished in live mode) on the live-mode trail rather than among the
    /// points; it is drawn once setRuns() brings it.
    void addToTrail(int id);
    /// Empties the trail: its runs leave the chart (they stay in the run history).
    void clearTrail();
    /// Forgets the trail and the runs of cleared trails (another session's runs arrive, whose
    /// ids may be the same).
    void forgetTrail();
    /// Runs on the trail drawn now (tests).
    int trailCount() const;
    /// The trail's lines drawn now: one per ε among its runs (tests).
    int trailLineCount() const;

    /// Runs drawn with their own curve (e.g. a post-processing run's γ-curve) (tests).
    int curveCount() const;
    /// Number of points drawn, trail excluded (tests).
    int pointCount() const;
    /// Ids on the Pareto front, in order of increasing violation (tests).
    std::vector<int> frontRunIds() const { return m_front; }
    /// Fill colour of the point drawn for run `id` (invalid if not drawn; tests).
    QColor pointColor(int id) const;
    /// The tooltip for a position in the view's viewport: the settings of the point under it,
    /// or an empty string (tests, and the view's tooltip event).
    QString toolTipAt(const QPoint& viewportPos) const;
    /// The run whose point is under `viewportPos` (within a few pixels), or 0.
    int runAt(const QPoint& viewportPos) const;
    /// The actions of run `id`'s point in the chart's context menu.
    void fillPointMenu(QMenu* menu, int id);
    /// Where run `id`'s point is drawn, in viewport coordinates (tests).
    QPoint viewportPosOf(int id) const;

    ChartView* view() const { return m_view; }
    /// Hides the selection ring while the chart is exported (a paper figure has no selection).
    void setExportMode(bool exporting) override;
    /// The data set and notion of the points for an export's caption and file name, when all
    /// points share them (else empty).
    ExportContext exportContext() const;
    /// The chart, for File → Export chart.
    std::vector<ChartExportEntry> exportEntries();
    /// The line under the boxes naming what the private runs shown protect, or — when runs of
    /// different protection (unit, adjacency or scope) share the chart — a warning that names
    /// each; hidden when no private run is shown.
    QLabel* protectionLabel() const { return m_protection; }
    /// The chart mixes runs of different protection now (their points and legend entries then
    /// name it; the runs of every protection after the first get a dark red outline).
    bool mixesProtection() const { return m_protections.mixed(); }
    QComboBox* datasetBox() const { return m_datasetBox; }
    QComboBox* notionBox() const { return m_notionBox; }
    QToolButton* clearTrailButton() const { return m_clearTrail; }
    const ChartLegend* legend() const;
    const EpsilonColorBar* colorBar() const;

signals:
    void runClicked(int id);
    /// The user asked to run the point of run `id` again with more seeds (its context menu).
    void moreSeedsRequested(int id);
    /// The user asked for a privacy audit of run `id`'s settings on its data (a point's menu).
    void auditRequested(int id);
    /// The colours of the budgets drawn changed (other views colour runs the same way).
    void paletteChanged(const chart_style::EpsilonPalette& palette);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void refillBoxes();
    void updateLegend();
    /// Whether `run` belongs to the shown data set and notion.
    bool isShown(const RunEntry& run) const;
    /// Whether the legend names `run`: shown, neither on the live trail nor cleared.
    bool isNamed(const RunEntry& run) const;

    ChartView* m_view;
    QChart* m_chart;
    QValueAxis* m_x;
    QValueAxis* m_y;
    QComboBox* m_datasetBox;
    QComboBox* m_notionBox;
    QToolButton* m_clearTrail;
    QLabel* m_protection;
    /// What the private runs drawn protect.
    TradeoffProtections m_protections;
    TradeoffLegend* m_legend;
    QScatterSeries* m_live;
    /// The constant classifier's test error on the shown data: a dotted level across the plot.
    QLineSeries* m_constant;
    QScatterSeries* m_constantPoint;
    pfa::ConstantBaseline m_constantShown;  ///< the baseline the level shows (known: drawn)
    bool m_constantAbove = false;           ///< its level lies above the plotted range
    int m_liveRunId = 0;
    QString m_liveDataset;
    pfa::TrainConfig m_liveConfig;
    QPointF m_livePos;
    std::vector<RunEntryPtr> m_runs;
    std::vector<int> m_trail;  ///< live-mode runs, in the order they finished
    std::set<int> m_cleared;   ///< runs of cleared trails: no longer drawn
    /// Legend names (algorithm and variant) whose points a click on their entry hid.
    std::set<std::string> m_hiddenAlgorithms;
    /// The runs drawn: points, own curves, trail, the front line and the selection ring.
    TradeoffPoints* m_drawn;
    std::vector<int> m_front;
    int m_selectedId = 0;
    QString m_shownDataset;
    pfa::FairnessNotion m_shownNotion = pfa::FairnessNotion::DemographicParity;
    QString m_followedDataset;
    pfa::FairnessNotion m_followedNotion = pfa::FairnessNotion::DemographicParity;
};

}  // namespace pfa::ui
