#pragma once

#include <QTimer>
#include <QWidget>
#include <optional>
#include <string>
#include <vector>

#include "core/sweep/reference_points.h"
#include "core/sweep/sweep_summary.h"
#include "core/sweep/theory_rates.h"
#include "ui/charts/chart_export.h"
#include "ui/runs/run_entry.h"

class QComboBox;
class QTabWidget;
class QLabel;

namespace pfa::ui {

class TradeoffCurvesView;
class PrivacyPriceView;
class HeatMapView;
class ErrorEpsilonView;
class ErrorSettingView;
class UnitSpreadView;

/// The sweep views over every finished run of the session, grouped into cells (runs that
/// differ only in their seed): (a) error vs violation curves per ε with whiskers and the
/// Pareto front, plus reference points; (b) the price of privacy at a chosen λ; (c) a heat map
/// over (ε, λ); (d) test error or excess risk vs ε per algorithm and variant with fitted
/// theory-rate overlays; (e) the spread of the test error over silos or users per ε. Filters choose
/// the data set, fairness notion, algorithm, λ and metric; views open on the data set and notion of
/// the running (or last) sweep, one front per data set and notion, and only runs equal in every
/// other setting share a curve (pfa::groupCells). Updates are coalesced (at most ~3 per second) so
/// a running sweep never floods the GUI.
class SweepViewsPanel : public QWidget {
    Q_OBJECT
public:
    explicit SweepViewsPanel(QWidget* parent = nullptr);

    /// All runs of the session (only completed ones are used); refreshes soon.
    void setEntries(const std::vector<RunEntryPtr>& entries);
    /// Loads reference points for view (a); false with the reason (file, line, column).
    bool loadReferencePoints(const QString& path, QString* error);
    /// Redraws now (tests, export).
    void refreshNow();
    /// Brings the views that refresh only while shown up to date (before exporting one).
    void bringUpToDate();
    /// Shows the data set `datasetKey` (its identity, pfa::datasetKey) and fairness notion
    /// `notion` ("dp", "eo", "eopp") once their runs arrive: a sweep just started. Until the
    /// user picks another data set or notion, the views stay on them.
    void followSweep(const QString& datasetKey, const QString& notion);
    /// Shows the data set and notion of the latest run again (a results file was opened).
    void followLatest();
    /// The data-set identity and the notion code shown (tests).
    QString shownDataset() const;
    QString shownNotion() const;

    TradeoffCurvesView* tradeoffView() const { return m_tradeoff; }
    PrivacyPriceView* priceView() const { return m_price; }
    HeatMapView* heatMap() const { return m_heat; }
    ErrorEpsilonView* errorEpsilonView() const { return m_errorEpsilon; }
    ErrorSettingView* errorSettingView() const { return m_errorSetting; }
    UnitSpreadView* unitSpreadView() const { return m_spread; }
    QTabWidget* tabs() const { return m_tabs; }
    /// Cells of the current filter (tests).
    const std::vector<pfa::SweepCell>& cells() const { return m_cells; }
    /// What the runs shown protect, or a warning when runs of different protection are shown
    /// together (hidden when none is private).
    QLabel* protectionLabel() const { return m_protection; }
    /// λ at which the price of privacy is shown.
    double priceLambda() const;
    /// The data set and fairness notion the filters show, for export captions and file names
    /// (empty while there are no runs).
    ExportContext exportContext() const;
    /// Its seven views, for File → Export chart (each brought up to date before it is
    /// exported).
    std::vector<ChartExportEntry> exportEntries();
    /// The line under the views: runs, points and cells shown (tests).
    QString statusText() const;

private:
    void refresh();
    void refillFilters();
    /// Fills the error-vs-ε and per-unit views from the cells and their runs (`entries[i]` is
    /// the run of the i-th point summarised).
    void updateErrorViews(const std::vector<RunEntryPtr>& entries);
    /// The error-vs-setting view is redrawn only while it is the shown tab (each redraw builds
    /// its series on the GUI thread, many times per second while a sweep streams in): its cells
    /// wait here until it is shown or exported.
    std::vector<std::optional<pfa::RateShape>> m_settingRates;
    bool m_settingStale = false;

    QComboBox* m_dataset;
    QComboBox* m_notion;
    QComboBox* m_algorithm;
    QComboBox* m_lambda;
    QComboBox* m_metric;
    QLabel* m_status;
    QLabel* m_protection;
    QString m_protectionCaption;  ///< what the runs shown protect, for export captions
    QTabWidget* m_tabs;
    TradeoffCurvesView* m_tradeoff;
    PrivacyPriceView* m_price;
    HeatMapView* m_heat;
    ErrorEpsilonView* m_errorEpsilon;
    ErrorSettingView* m_errorSetting;
    UnitSpreadView* m_spread;
    QTimer m_throttle;
    std::vector<pfa::SweepPoint> m_points;
    std::vector<RunEntryPtr> m_pointEntries;  ///< the run of each point
    std::vector<pfa::SweepCell> m_cells;
    std::vector<pfa::ReferencePoint> m_references;
    bool m_lambdaChosen = false;  ///< the user picked the λ of the price of privacy
    bool m_mapChosen = false;     ///< the user picked the heat map's algorithm (group)
    bool m_filterChosen = false;  ///< the user picked the data set or notion
    std::string m_followDataset;  ///< the data set of the running or last sweep
    std::string m_followNotion;
};

}  // namespace pfa::ui
