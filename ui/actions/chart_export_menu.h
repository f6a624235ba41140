#pragma once

class QMenu;
class QWidget;

namespace pfa::ui {

class LiveChartsPanel;
class SweepViewsPanel;
class TradeoffChart;

/// Fills File → Export chart with every chart of the window: the four live charts, the
/// tradeoff chart and the sweep views (each opens the export dialog: PNG, SVG or PDF).
void fillChartExportMenu(QMenu* menu, LiveChartsPanel* live, TradeoffChart* tradeoff,
                         SweepViewsPanel* sweepViews, QWidget* dialogParent);

}  // namespace pfa::ui
